"""The editor survives every bad file in the corpus (``tests/fixtures/bad/``).

One editor window opens all the cases one after the other (a long-lived window is the harder
test: state left over from one bad file must not break the next). For each case:

* a broken bundle (its ``expect`` is not empty) shows a non-modal dialog whose details name
  every expected diagnostic at its ``file:line`` (or the file alone when it has no line), with
  its code and message; ``open_path`` returns False and the previous document stays open
  when no bundle comes back, and the bundle opens (with a warning) when one does;
* a case that must load for the validators (empty ``expect``) opens with no ``LOAD-`` error;
* the application keeps running: right after, the good mini bundle opens, takes an edit and
  undoes it; no Python exception escapes into Qt (pytest-qt fails the test if one does).

Timings and counts are printed with ``-s`` and recorded in docs/reliability.md.
"""

from __future__ import annotations

import resource
import time
from pathlib import Path
from typing import Any, Iterator

import pytest
import yaml
from PySide6.QtWidgets import QApplication, QMessageBox

from conftest import FIXTURES
from editor.commands import PaintTerrain
from editor.main_window import MainWindow
from test_bad_corpus import CASES, build_case

MINI = FIXTURES / "bundles" / "mini"
OPEN_BOUND_S = 10.0  # a safety bound against hangs (the loader's own bound is 5 s per load)
TIMES: dict[str, float] = {}


@pytest.fixture(scope="module")
def window(qapp: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[MainWindow]:
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HEXPROOF_RECOVERY_DIR", str(tmp_path_factory.mktemp("recovery")))
        mp.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("config")))
        # Modal questions would block a headless run.
        mp.setattr(MainWindow, "ask_save", lambda self: QMessageBox.StandardButton.Discard)
        mp.setattr(MainWindow, "ask_recover", lambda self, path: False)
        w = MainWindow(autosave_seconds=3600)
        w.show()
        yield w
        if w.doc is not None:
            w.doc.undo_stack.setClean()
        w.close()
        w.deleteLater()
    if TIMES:
        worst = max(TIMES, key=TIMES.__getitem__)
        print(f"\n[gui-bad-files] {len(TIMES)} cases opened in one window, total {sum(TIMES.values()):.1f} s, "
              f"slowest {worst} {TIMES[worst]:.2f} s, peak RSS of the test process "
              f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")


def _located(line: str, exp: dict[str, Any]) -> bool:
    """A rendered diagnostic ``/abs/…/file:line:col: severity CODE: message`` matches ``exp``."""
    where = f"{exp['file']}: " if exp["line"] is None else f"{exp['file']}:{exp['line']}:"
    return where in line and f" {exp['code']}: " in line and exp["message"] in line


def _close_dialogs(window: MainWindow) -> None:
    for box in window.dialogs:
        box.close()
        box.deleteLater()
    window.dialogs.clear()


def _still_alive(window: MainWindow) -> None:
    """The window still works: the good bundle opens, takes an edit, and undoes it."""
    assert window.open_path(MINI), [b.detailedText() for b in window.dialogs]
    doc = window.doc
    assert doc is not None and doc.path == MINI
    before = doc.dump()
    doc.push(PaintTerrain(doc, {doc.hmap.parse("0502"): "woods"}))
    QApplication.processEvents()  # let the scene redraw from the change event
    assert doc.is_modified
    doc.undo_stack.undo()
    assert doc.dump() == before and not doc.is_modified
    assert window.isVisible()


@pytest.mark.parametrize("name", CASES)
def test_bad_file_in_the_editor(window: MainWindow, name: str, tmp_path: Path) -> None:
    root = tmp_path / "bundle"
    meta = build_case(name, root)
    _close_dialogs(window)
    previous = window.doc

    t0 = time.perf_counter()
    ok = window.open_path(root)  # must never raise
    QApplication.processEvents()
    TIMES[name] = elapsed = time.perf_counter() - t0
    assert elapsed < OPEN_BOUND_S, f"opening took {elapsed:.1f} s"

    details = "\n".join(b.detailedText() for b in window.dialogs)
    if not meta["expect"]:  # must load for the validators
        assert ok, details
        assert " error LOAD-" not in details, details
        assert window.doc is not None and window.doc.path == root
    else:
        assert window.dialogs, "no dialog shown"
        box = window.dialogs[-1]
        assert box.isVisible() and not box.isModal(), "the dialog must not block the window"
        assert box.detailedText(), "the dialog has no details"
        lines = box.detailedText().splitlines()
        for exp in meta["expect"]:
            assert any(_located(ln, exp) for ln in lines), \
                f"{exp['file']}:{exp['line']} {exp['code']} '{exp['message']}' not in the dialog:\n{box.detailedText()}"
        if meta["loads"]:
            assert ok and box.icon() == QMessageBox.Icon.Warning
            assert window.doc is not None and window.doc.path == root
        else:
            assert not ok and box.icon() == QMessageBox.Icon.Critical
            assert box.text().startswith(str(root)) and "could not be opened" in box.text()
            assert window.doc is previous, "a failed open must keep the current document"
    _close_dialogs(window)
    _still_alive(window)


def test_every_case_was_tried(window: MainWindow) -> None:
    """Runs after the cases (same module, file order): none was skipped or deselected silently."""
    if len(TIMES) != len(CASES):
        pytest.skip("run together with the cases (-k selects a subset)")
    broken = [c for c in CASES if yaml.safe_load((FIXTURES / "bad" / c / "expect.yaml").read_text())["expect"]]
    assert len(broken) >= 50
    assert max(TIMES.values()) < OPEN_BOUND_S
