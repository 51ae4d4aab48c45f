"""Shared code names no game system (issue #16).

A game system's knowledge lives in its data (``resources/systems/<id>.yaml``, its validator
pack, its play package); shared modules read that data and never branch on, cite or spell a
system id. :func:`names_of_systems` parses a module and reports every system id it finds in
code: string constants (docstrings and other bare string statements excepted — they document,
they do not decide) and identifiers (names, attributes, function/class/argument names, keyword
arguments, imports). Comments are not in the AST, so a rule cited in a comment
(``# [GTS 15.4]``) is fine.

:data:`SHARED_ROOTS` lists the shared code checked (every layer but the plug-in packages
``play/<id>/`` and ``validators/packs/<id>/``). :data:`EXCEPTIONS` names the places allowed to
list systems, each with its reason.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Collection, Iterator
from pathlib import Path

import pytest

from conftest import REPO

#: The system ids of the shipped games.
SYSTEM_IDS: tuple[str, ...] = ("sfn", "gts", "tkg", "utah")

#: Shared code that must name no system: glob patterns relative to the repository.
SHARED_ROOTS: tuple[str, ...] = ("model/**/*.py", "validators/*.py", "play/*.py", "editor/**/*.py")

#: ``(path, module-level name) → why``: the values assigned to these names may list systems.
EXCEPTIONS: dict[tuple[str, str], str] = {
    ("validators/registry.py", "PACKS"): (
        "the one literal table of validator packs: no code is loaded by a name taken from data, "
        "so the packs that exist are listed here, once, and nothing branches on them"),
    ("play/plugins.py", "*"): (
        "the one literal table of play plug-ins (the whole module: its imports and PLUGINS): data "
        "only selects among these records, and no other shared play module imports a plug-in "
        "(tests/test_import_graph.py)"),
    ("model/system.py", "CREST_RULE_ALIASES"): (
        "the former spelling of a los.crest_rule value (now one_crossing), kept so that schema-1 "
        "system files written before the rename still load; no code branches on it"),
}

# An id as a whole word or as the first/last part of a compound: ``gts``, ``gts-utah``,
# ``gts_``, ``is_gts``, ``SfnMovement``, ``isGts``, ``"Utah Excl 2.1"``; not ``gtsx``, ``stkg``.
_START = r"(?:(?<![A-Za-z0-9])|(?<=[a-z0-9])(?=[A-Z]))"
_SYSTEM_RE = re.compile(_START + r"(?i:" + "|".join(SYSTEM_IDS) + r")(?![a-z0-9])")

Hit = tuple[int, int, str]


def _docstring_nodes(tree: ast.AST) -> set[int]:
    """ids of bare string statements: docstrings and attribute docs (no run-time effect)."""
    out: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        for stmt in body:
            if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str):
                out.add(id(stmt.value))
    return out


def _exempt_nodes(tree: ast.Module, names: Collection[str]) -> set[int]:
    """ids of every node inside the value of a module-level assignment to one of ``names``."""
    out: set[int] = set()
    for stmt in tree.body:
        targets: list[ast.expr] = []
        if isinstance(stmt, ast.Assign):
            targets = stmt.targets
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            targets = [stmt.target]
        if any(isinstance(t, ast.Name) and t.id in names for t in targets):
            out.update(id(n) for n in ast.walk(stmt))
    return out


def _identifiers(node: ast.AST) -> Iterator[tuple[int, int, str]]:
    """``(line, 0-based col, name)`` of each identifier a node introduces or reads."""
    if isinstance(node, ast.Name):
        yield node.lineno, node.col_offset, node.id
    elif isinstance(node, ast.Attribute):
        col = node.end_col_offset - len(node.attr) if node.end_lineno == node.lineno and node.end_col_offset else node.col_offset
        yield node.end_lineno or node.lineno, col, node.attr
    elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        yield node.lineno, node.col_offset, node.name
    elif isinstance(node, ast.arg):
        yield node.lineno, node.col_offset, node.arg
    elif isinstance(node, ast.keyword) and node.arg:
        yield node.lineno, node.col_offset, node.arg
    elif isinstance(node, ast.alias):
        for name in (node.name, node.asname):
            if name:
                yield node.lineno, node.col_offset, name
    elif isinstance(node, ast.ImportFrom) and node.module:
        yield node.lineno, node.col_offset, node.module
    elif isinstance(node, (ast.Global, ast.Nonlocal)):
        for name in node.names:
            yield node.lineno, node.col_offset, name


def _string_hits(node: ast.Constant, lines: list[str]) -> Iterator[Hit]:
    """Hits in a string constant, located in the source text where it spells them literally."""
    raw_hits: list[Hit] = []
    if node.end_lineno is not None and node.end_col_offset is not None:
        for ln in range(node.lineno, node.end_lineno + 1):
            text = lines[ln - 1]
            lo = node.col_offset if ln == node.lineno else 0
            hi = node.end_col_offset if ln == node.end_lineno else len(text)
            for m in _SYSTEM_RE.finditer(text, lo, hi):
                raw_hits.append((ln, m.start() + 1, m.group()))
    if raw_hits:
        yield from raw_hits
    else:  # spelt with escapes, or a part of an f-string (located at the f-string)
        for m in _SYSTEM_RE.finditer(node.value):
            yield node.lineno, node.col_offset + 1, m.group()


def names_of_systems(path: Path, *, exempt: Collection[str] = ()) -> list[Hit]:
    """Every system id named in the code of module ``path``: ``(line, col, text)``, 1-based,
    sorted. ``exempt``: module-level names whose assigned values are not checked."""
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source, filename=str(path))
    lines = source.splitlines()
    skip = _docstring_nodes(tree) | _exempt_nodes(tree, exempt)
    hits: set[Hit] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            hits.update(_string_hits(node, lines))
            continue
        for line, col, name in _identifiers(node):
            # def/class/import statements start before the name: find the name on its line.
            found = lines[line - 1].find(name, col) if line <= len(lines) else -1
            start = found if found >= 0 else col
            for m in _SYSTEM_RE.finditer(name):
                hits.add((line, start + m.start() + 1, m.group()))
    return sorted(hits)


def shared_modules(roots: tuple[str, ...] = SHARED_ROOTS) -> list[Path]:
    return sorted({p for pattern in roots for p in REPO.glob(pattern) if "__pycache__" not in p.parts})


def _rel(path: Path) -> str:
    return path.relative_to(REPO).as_posix()


@pytest.mark.parametrize("rel", [_rel(p) for p in shared_modules()])
def test_shared_module_names_no_system(rel: str) -> None:
    exempt = {name for (file, name) in EXCEPTIONS if file == rel}
    if "*" in exempt:
        return  # the module is a table of systems (see EXCEPTIONS)
    hits = names_of_systems(REPO / rel, exempt=exempt)
    assert not hits, "a shared module names a game system (move the fact into the system's data):\n" + "\n".join(
        f"{rel}:{line}:{col}: {text!r}" for line, col, text in hits)


@pytest.mark.parametrize("file,name", sorted(EXCEPTIONS))
def test_exceptions_are_still_needed(file: str, name: str) -> None:
    """An exception that no longer lists a system is stale: remove it."""
    path = REPO / file
    assert any(p == path for p in shared_modules()), f"{file} is not under SHARED_ROOTS"
    if name == "*":
        assert names_of_systems(path), f"{file} names no system any more: drop it from EXCEPTIONS"
        return
    tree = ast.parse(path.read_text(encoding="utf-8"))
    exempt_ids = _exempt_nodes(tree, {name})
    assert exempt_ids, f"{file} assigns no module-level {name}"
    assert len(names_of_systems(path)) > len(names_of_systems(path, exempt={name})), \
        f"{file}:{name} names no system any more: drop it from EXCEPTIONS"


# --- the checker itself ---------------------------------------------------------------------

SAMPLE = '''"""Module doc: GTS 15.4 and Utah Excl 2.1 are cited here, which is fine."""
import play.gts.crt as gts_crt  # a comment naming SFN is fine
from play.sfn import movement


class SfnThing:
    """Class doc about TKG."""

    utah = 1

    def is_gts(self, tkg_flag: bool, **kw: object) -> str:
        """Method doc: sfn."""
        "a bare string statement about GTS documents, too"
        call(system_id="gts-utah", rule=f"Utah Excl {kw}")
        return self.sfn_mode + "GTS 15.4.1" + "gtsx stkg gtsv2 utahn" + "clear"


def isGts(x: object) -> bool:
    return x.GTS
'''


def test_checker_finds_ids_in_code_not_in_documentation(tmp_path: Path) -> None:
    path = tmp_path / "sample.py"
    path.write_text(SAMPLE, encoding="utf-8")
    hits = names_of_systems(path)
    found = {(line, text) for line, _, text in hits}
    assert found == {
        (2, "gts"),            # import play.gts.crt
        (2, "gts"),            # as gts_crt
        (3, "sfn"),            # from play.sfn
        (6, "Sfn"),            # class SfnThing
        (9, "utah"),           # attribute name in the class body
        (11, "gts"),           # def is_gts
        (11, "tkg"),           # argument tkg_flag
        (14, "gts"), (14, "utah"),  # "gts-utah"
        (14, "Utah"),          # f-string part
        (15, "sfn"),           # self.sfn_mode
        (15, "GTS"),           # "GTS 15.4.1"
        (18, "Gts"),           # def isGts
        (19, "GTS"),           # x.GTS
    }
    by_pos = {(line, col): text for line, col, text in hits}
    assert by_pos[(14, 25)] == "gts" and by_pos[(14, 29)] == "utah"     # located inside the literal
    assert by_pos[(15, 21)] == "sfn" and by_pos[(19, 14)] == "GTS"      # the attributes' columns
    assert by_pos[(2, 24)] == "gts" and by_pos[(6, 7)] == "Sfn"         # an alias, a class name
    assert all(line not in (1, 7, 12, 13) for line, _ in found)          # docstrings and bare strings


def test_checker_exempts_only_the_named_assignment(tmp_path: Path) -> None:
    path = tmp_path / "table.py"
    path.write_text('PACKS: tuple[str, ...] = ("core", "sfn")\nOTHER = ("tkg",)\n', encoding="utf-8")
    assert [t for _, _, t in names_of_systems(path)] == ["sfn", "tkg"]
    assert names_of_systems(path, exempt={"PACKS"}) == [(2, 11, "tkg")]


def test_checker_reports_file_line_col_in_failure_message(tmp_path: Path) -> None:
    path = tmp_path / "m.py"
    path.write_text('x = 1\nRULE = "Utah Excl 2.1.14"\n', encoding="utf-8")
    assert names_of_systems(path) == [(2, 9, "Utah")]
