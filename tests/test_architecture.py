"""Layering contract: imports point down and only editor/ (and the app shell) import Qt.

Runs import-linter's contracts from pyproject.toml, plus a plain AST scan so the rule
holds even where import-linter is unavailable.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys

import pytest

from conftest import REPO

QT = ("PySide6", "PyQt5", "PyQt6", "shiboken6", "qtpy")
LAYER_BAN = {
    "model": ("validators", "play", "editor", "hexproof") + QT,
    "validators": ("play", "editor", "hexproof") + QT,
    "play": ("validators.packs", "editor", "hexproof") + QT,
}


def _imports(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.lineno, node.module


@pytest.mark.parametrize("package", sorted(LAYER_BAN))
def test_no_upward_or_qt_imports(package: str) -> None:
    bad = []
    for path in sorted((REPO / package).rglob("*.py")):
        for line, name in _imports(path):
            if any(name == b or name.startswith(b + ".") for b in LAYER_BAN[package]):
                bad.append(f"{path.relative_to(REPO)}:{line}: imports {name}")
    assert not bad, "\n".join(bad)


def test_import_linter_contracts() -> None:
    exe = shutil.which("lint-imports")
    if exe is None:
        pytest.skip("import-linter not installed")
    proc = subprocess.run([exe, "--no-cache"], cwd=REPO, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
