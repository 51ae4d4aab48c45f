"""Auto-trace: suggestions from the background's centre dots, accepted hex by hex or all at
once through the undo stack; and the File ▸ Export / View ▸ Auto-Trace menu hook."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox
from test_proof_art import altered_bundle

from editor.document import MapDocument
from editor.export.autotrace import AutoTrace

pytestmark = pytest.mark.usefixtures("qapp")


@pytest.fixture
def doc(tmp_path: Path) -> tuple[MapDocument, dict[str, str]]:
    root, changes = altered_bundle(tmp_path)
    d, diags = MapDocument.open(root)
    assert d is not None, diags
    return d, changes


def test_suggestions_are_the_altered_dots_with_one_terrain(doc) -> None:  # type: ignore[no-untyped-def]
    d, changes = doc
    at = AutoTrace(d)
    found = at.refresh()
    # Two dots were repainted woods; the third has a colour the legend does not know: no suggestion.
    assert {d.hmap.label(h): t for h, t in found.items()} == {k: v for k, v in changes.items() if v == "woods"}


def test_accept_one_then_all_each_one_undo_step(doc) -> None:  # type: ignore[no-untyped-def]
    d, _ = doc
    at = AutoTrace(d)
    found = at.refresh()
    first, second = sorted(found)
    assert at.accept([first]) == 1
    assert d.hmap.terrain_at(first) == "woods" and d.hmap.terrain_at(second) == "clear"
    assert list(at.pending) == [second]
    assert at.accept() == 1 and at.pending == {}
    assert d.hmap.terrain_at(second) == "woods"
    assert d.undo_stack.count() == 2 and "Auto-Trace" in d.undo_stack.undoText()
    d.undo_stack.undo()
    d.undo_stack.undo()
    assert d.hmap.terrain_at(first) == "clear" and d.hmap.terrain_at(second) == "clear"
    assert set(at.refresh()) == {first, second}  # the suggestions come back after undo


def test_reject_leaves_the_map_alone(doc) -> None:  # type: ignore[no-untyped-def]
    d, _ = doc
    at = AutoTrace(d)
    found = at.refresh()
    at.reject(found)
    assert at.pending == {} and d.undo_stack.count() == 0


def test_menu_hook_exports_and_traces(doc, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    from editor.main_window import MainWindow

    monkeypatch.setattr(QMessageBox, "information", lambda *a, **k: QMessageBox.StandardButton.Ok)
    d, _ = doc
    window = MainWindow(d)
    ui = window.export_ui  # installed by the main window (one hook line)
    file_menu = next(a.menu() for a in window.menuBar().actions() if a.text().replace("&", "") == "File")
    assert any(a.text() == "&Export" for a in file_menu.actions())
    texts = [a.text() for a in ui.actions.values()]
    assert "Proof &PDF…" in texts and "&VASSAL Module…" in texts
    assert ui.export_pdf(tmp_path / "p.pdf") == tmp_path / "p.pdf" and (tmp_path / "p.pdf").stat().st_size > 1000
    assert ui.export_png(tmp_path / "m.png", 0.2) is not None
    assert ui.export_svg(tmp_path / "m.svg", 0.1) is not None
    assert ui.show_suggestions() == 2
    assert ui.accept_all() == 2
    window.doc.undo_stack.setClean()  # no save prompt on close
    window.close()
