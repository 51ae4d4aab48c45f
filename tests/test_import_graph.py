"""The import graph (issue #16): no cycle anywhere, plug-ins apart, one door into them.

import-linter (pyproject.toml, run by test_architecture.py) checks the contracts for the
modules it lists; these tests check every module there is, so a new shared module or a new
plug-in is covered without editing a list."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from conftest import REPO

grimp = pytest.importorskip("grimp")

PACKAGES = ("hexproof", "editor", "play", "validators", "model")


def _cycles(graph: "grimp.ImportGraph") -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: list[list[str]] = []
    counter = 0
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            v, children = work[-1]
            w = next(children, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph.find_modules_directly_imported_by(w)))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    x = stack.pop()
                    on_stack.discard(x)
                    comp.append(x)
                    if x == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def test_no_import_cycle() -> None:
    """Every import that runs (function-level ones included; TYPE_CHECKING ones are not
    imports at run time) points one way: the circle of 59 files around play/game.py is gone."""
    sys.path.insert(0, str(REPO))
    graph = grimp.build_graph(*PACKAGES, include_external_packages=False, exclude_type_checking_imports=True)
    cycles = _cycles(graph)
    assert not cycles, "\n".join(" <-> ".join(c) for c in cycles)


def test_cycle_finder_finds_a_cycle() -> None:
    graph = grimp.ImportGraph()
    for a, b in (("x.a", "x.b"), ("x.b", "x.c"), ("x.c", "x.a"), ("x.c", "x.d")):
        graph.add_import(importer=a, imported=b)
    assert _cycles(graph) == [["x.a", "x.b", "x.c"]]


def _plugin_packages() -> list[str]:
    from play.plugins import DATA_ONLY, PLUGINS

    return sorted(f"play.{p.folder.name}" for p in PLUGINS if p is not DATA_ONLY)


def _imports(path: Path) -> list[tuple[int, str]]:
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.append((node.lineno, node.module))
    return out


def _inside(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def test_shared_play_code_reaches_plugins_only_through_the_table() -> None:
    plugins = _plugin_packages()
    bad = []
    for path in sorted((REPO / "play").glob("*.py")):
        if path.name == "plugins.py":  # the table: the one shared module that lists the plug-ins
            continue
        for line, name in _imports(path):
            if any(_inside(name, p) for p in plugins):
                bad.append(f"{path.relative_to(REPO)}:{line}: imports {name}")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("package", _plugin_packages())
def test_a_plugin_imports_no_other_plugin(package: str) -> None:
    others = [p for p in _plugin_packages() if p != package]
    bad = []
    for path in sorted((REPO / package.replace(".", "/")).rglob("*.py")):
        for line, name in _imports(path):
            if any(_inside(name, p) for p in others) or name == "play.game" or name == "play.plugins":
                bad.append(f"{path.relative_to(REPO)}:{line}: imports {name}")
    assert not bad, "\n".join(bad)
