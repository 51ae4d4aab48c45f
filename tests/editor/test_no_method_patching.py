"""No module in editor/ replaces a method of another object (issue #16, part 3).

Modes used to wrap ``window.set_document``, so the order they were installed in mattered.
This scan reads every editor module and fails on an assignment (or ``setattr``) that puts a
function over a method of some other object: ``window.set_document = wrapper``,
``view.mousePressEvent = lambda e: ...``, ``setattr(w, "save", f)``. Assigning to ``self`` is
an object's own business and is not flagged; data attributes (``view.tool = tool``) are not
methods and are not flagged.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from conftest import REPO
from editor.main_window import MainWindow

EDITOR = REPO / "editor"
# Names a main window answers to: once a window is at hand, nothing may be assigned over them.
WINDOW_NAMES = {"window", "w", "win", "main_window"}
WINDOW_METHODS = {n for n in dir(MainWindow) if not n.startswith("__") and callable(getattr(MainWindow, n, None))}


def _is_property(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    for d in fn.decorator_list:
        text = ast.unparse(d)
        if text in ("property", "cached_property", "functools.cached_property"):
            return True
        if text.endswith((".setter", ".getter")):
            return True
    return False


def editor_method_names(trees: dict[Path, ast.Module]) -> set[str]:
    """Every method defined in a class in editor/ (properties are data, not methods)."""
    out: set[str] = set()
    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                out |= {f.name for f in node.body
                        if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) and not _is_property(f)}
    return out


@dataclass(frozen=True)
class Patch:
    where: str
    line: int
    code: str


def _is_window(node: ast.expr) -> bool:
    """``window``, ``w``, ``self.window``, ``mode.window`` …: an expression naming a main window."""
    if isinstance(node, ast.Name):
        return node.id in WINDOW_NAMES
    return isinstance(node, ast.Attribute) and node.attr in WINDOW_NAMES


def _is_function(value: ast.expr | None, methods: set[str], defs: set[str]) -> bool:
    """Whether ``value`` is a function object: a lambda, a def of this module, a bound method, a partial."""
    if value is None:
        return False
    if isinstance(value, ast.Lambda):
        return True
    if isinstance(value, ast.Name):
        return value.id in defs
    if isinstance(value, ast.Attribute):
        return value.attr in methods
    if isinstance(value, ast.Call):
        f = ast.unparse(value.func)
        return f in ("partial", "functools.partial", "MethodType", "types.MethodType")
    return False


def patches(tree: ast.Module, where: str, methods: set[str]) -> list[Patch]:
    defs = {n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    found: list[Patch] = []

    def check(obj: ast.expr, attr: str, value: ast.expr | None, node: ast.AST) -> None:
        if isinstance(obj, ast.Name) and obj.id in ("self", "cls"):
            return  # an object's own attributes
        over_window = _is_window(obj) and attr in WINDOW_METHODS
        over_method = attr in methods and _is_function(value, methods, defs)
        if over_window or over_method:
            found.append(Patch(where, getattr(node, "lineno", 0), ast.unparse(node).splitlines()[0]))

    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for sub in ast.walk(target):
                    if isinstance(sub, ast.Attribute) and isinstance(sub.ctx, ast.Store):
                        check(sub.value, sub.attr, node.value, node)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr":
            if len(node.args) == 3 and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str):
                check(node.args[0], node.args[1].value, node.args[2], node)
    return found


def _trees() -> dict[Path, ast.Module]:
    return {p: ast.parse(p.read_text(encoding="utf-8"), str(p)) for p in sorted(EDITOR.rglob("*.py"))}


def test_no_editor_module_assigns_over_a_method_of_another_object() -> None:
    trees = _trees()
    assert len(trees) > 50  # the scan really read the package
    methods = editor_method_names(trees)
    assert {"set_document", "enter", "leave", "document_set"} <= methods
    found = [p for path, tree in trees.items() for p in patches(tree, str(path.relative_to(REPO)), methods)]
    assert found == [], "\n".join(f"{p.where}:{p.line}: {p.code}" for p in found)


def test_the_scan_catches_the_patterns_it_forbids() -> None:
    """The detector itself: the old install_* wrapping and its cousins are found, data is not."""
    methods = editor_method_names(_trees())
    bad = '''
def install(window, view, mode):
    original = window.set_document
    def set_document(doc):
        original(doc)
    window.set_document = set_document
    self.window.closeEvent = lambda e: None
    setattr(window, "save", set_document)
    view.mousePressEvent = mode.enter
    mode.leave = functools.partial(print, "left")
'''
    good = '''
def fine(self, window, view, layer, tool):
    self.set_document = self.other
    view.tool = tool
    layer.layout = window.scene.layout
    window.doc = None
    setattr(tool, "terrain", "clear")
'''
    assert sorted(p.line for p in patches(ast.parse(bad), "bad", methods)) == [6, 7, 8, 9, 10]
    assert patches(ast.parse(good), "good", methods) == []
