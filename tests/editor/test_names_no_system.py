"""The editor names no game system (issue #16): what a system shows in Play mode comes from its
plug-in (play/plugin_ui.py, play/<plug-in>/actions.yaml, events.yaml, ui.py), so no string
literal or identifier under editor/ says sfn, gts, tkg or utah — as a word or a word's start,
in any case. Docstrings and comments may still cite rule cases ("[GTS 16.6.2]"); the import
contract in pyproject.toml keeps editor/ from importing play.sfn, play.gts and play.tkg."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from conftest import REPO

SYSTEMS = ("sfn", "gts", "tkg", "utah")
_WORD = re.compile(r"[a-z0-9]+")


def names_a_system(text: str) -> bool:
    """True when a word of ``text`` (split at anything but letters and digits, ``_`` too) is or
    starts with a system's name."""
    return any(w.startswith(SYSTEMS) for w in _WORD.findall(text.lower().replace("_", " ")))


def _docstrings(tree: ast.AST) -> set[int]:
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                out.add(id(first.value))
    return out


def _texts(node: ast.AST) -> list[str]:
    """The names and string literals one node holds (not its children's)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.Attribute):
        return [node.attr]
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, ast.arg):
        return [node.arg]
    if isinstance(node, ast.keyword) and node.arg:
        return [node.arg]
    if isinstance(node, ast.alias):
        return [node.name, node.asname or ""]
    if isinstance(node, ast.ImportFrom):
        return [node.module or ""]
    return []


def system_names(path: Path) -> list[str]:
    """``line: text`` for each string literal (docstrings aside) or identifier naming a system."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _docstrings(tree)
    return [f"{getattr(node, 'lineno', '?')}: {text[:80]!r}"
            for node in ast.walk(tree) if id(node) not in skip
            for text in _texts(node) if names_a_system(text)]


def test_the_check_finds_a_system_name(tmp_path: Path) -> None:
    assert names_a_system("GTS 15.5: fire") and names_a_system("play.gts.fire") and names_a_system("is_sfn")
    assert names_a_system("utah-beach") and names_a_system("TKGZoc") and names_a_system("x tkg_zoc")
    assert not names_a_system("strategic_move") and not names_a_system("lights") and not names_a_system("")
    tree = '"""Docstring: GTS 16.6.2 may be cited."""\nimport play.gts\nx = "SFN 15.1"\n# a comment: TKG\n'
    probe = tmp_path / "probe.py"
    probe.write_text(tree, encoding="utf-8")
    assert sorted(system_names(probe)) == ["2: 'play.gts'", "3: 'SFN 15.1'"]  # not the docstring, not the comment


def test_no_string_or_identifier_in_the_editor_names_a_system() -> None:
    bad = [f"{path.relative_to(REPO)}:{hit}" for path in sorted((REPO / "editor").rglob("*.py"))
           for hit in system_names(path)]
    assert not bad, "\n".join(bad)
