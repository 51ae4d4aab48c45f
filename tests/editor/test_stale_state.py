"""Views that observe (issue #21): every panel, and the status bar, shows the document that is
open now. Per panel: open bundle A, select something, open bundle B — the panel shows B or
nothing; and where an undo takes its subject away, the panel lets go of it too."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QApplication

from conftest import REPO
from editor.diagnostics.dock import DiagnosticsPanel
from editor.main_window import MainWindow
from helpers import mouse, no_modal_prompts, scene_point, show_window  # noqa: F401 (autouse fixture)
from model import scenario_edits as se
from model.diagnostics import Diagnostic, Location, Severity

UTAH = REPO / "scenarios" / "utah-beach"
TKG = REPO / "scenarios" / "killing-ground"


def settle(qtbot: Any, w: MainWindow) -> None:
    r = w.diagnostics.runner
    assert r is not None
    r.flush()
    qtbot.waitUntil(lambda: not r.busy and r.completed == r.generation, timeout=20000)


def test_diagnostics_detail_pane_follows_the_open_bundle(qtbot: Any) -> None:
    w = show_window(qtbot, UTAH)
    settle(qtbot, w)
    panel = w.diagnostics.panel
    leaves = panel.leaf_items()
    assert leaves, "Utah Beach has findings to select"
    panel.tree.setCurrentItem(leaves[0])
    shown = leaves[0].data(0, 0x0100)
    assert shown.code in panel.doc_view.toPlainText()
    assert w.open_path(TKG)
    # At once (before B's first run reports) and after it: nothing of A's finding is shown.
    assert shown.message not in panel.doc_view.toPlainText()
    settle(qtbot, w)
    current = panel.tree.currentItem()
    text = panel.doc_view.toPlainText()
    assert text == "" or (current is not None and current.data(0, 0x0100) in w.diagnostics.diagnostics)
    assert shown.message not in text


def _finding(message: str) -> Diagnostic:
    return Diagnostic(severity=Severity.WARNING, code="CORE-REF-001", message=message, location=Location())


def test_diagnostics_detail_pane_clears_when_its_finding_goes_and_keeps_one_that_stays(qtbot: Any) -> None:
    """An undo that withdraws the finding shown empties the pane; a re-run that keeps it keeps it."""
    panel = DiagnosticsPanel()
    qtbot.addWidget(panel)
    gone, stays = _finding("the one the undo withdraws"), _finding("the one that stays")
    panel.set_diagnostics([gone, stays])
    leaf = next(it for it in panel.leaf_items() if it.data(0, 0x0100) == stays)
    panel.tree.setCurrentItem(leaf)
    assert "the one that stays" in panel.doc_view.toPlainText()
    panel.set_diagnostics([stays])  # a new run: the same finding is still there
    assert "the one that stays" in panel.doc_view.toPlainText()
    panel.set_diagnostics([gone])  # …and now it is not
    assert panel.doc_view.toPlainText() == ""
    assert panel.tree.currentItem() is None or panel.tree.currentItem().data(0, 0x0100) != stays


def test_stack_and_unit_panel_lets_go_of_the_old_bundles_unit(qtbot: Any) -> None:
    w = show_window(qtbot, UTAH)
    assert w.scenario_mode.open_scenario("beach-landing")
    panels = w.scenario_mode.panels
    assert panels is not None and w.doc is not None
    panels.unit.show_stack(["wn-5"], "23.024")
    assert panels.unit.unit == "wn-5" and panels.unit.preview.counter is not None
    assert w.open_path(TKG)
    assert w.scenario_mode.open_scenario()
    unit_panel = w.scenario_mode.panels.unit  # type: ignore[union-attr]
    dock = w.scenario_mode.docks[2]
    assert dock.widget().widget() is unit_panel  # type: ignore[attr-defined]
    ids = {c.id for c in w.doc.bundle.counters}
    assert unit_panel.unit is None or unit_panel.unit in ids
    shown = unit_panel.preview.counter
    assert shown is None or shown.id in ids
    assert all(unit_panel.stack.item(i).data(0x0100) in ids for i in range(unit_panel.stack.count()))
    assert "23.024" not in unit_panel.title.text()


def test_stack_and_unit_panel_follows_undo(qtbot: Any) -> None:
    """A state flag undone is unticked; a stack whose unit an undo moves away lists it no more."""
    w = show_window(qtbot, UTAH)
    assert w.scenario_mode.open_scenario("beach-landing")
    doc, panels = w.doc, w.scenario_mode.panels
    assert doc is not None and panels is not None
    here = doc.hmap.parse("25.024")
    assert se.setup_entry(doc.bundle.scenarios["beach-landing"], "wn-5") is not None
    w.scenario_mode.drop_unit(["wn-5"], hex=here)
    w.scenario_mode.selection.choose_stack(here)  # type: ignore[union-attr]
    unit = panels.unit
    assert [unit.stack.item(i).data(0x0100) for i in range(unit.stack.count())] == ["wn-5"]
    unit.flags["reduced"].setChecked(True)
    doc.undo_stack.undo()
    assert not unit.flags["reduced"].isChecked()
    doc.undo_stack.undo()  # the drop: wn-5 is back where it was
    assert "wn-5" not in [unit.stack.item(i).data(0x0100) for i in range(unit.stack.count())]
    assert unit.title.text().startswith("25.024: 0 unit(s)")


def test_play_unit_and_log_panels_let_go_of_the_old_game(qtbot: Any) -> None:
    w = show_window(qtbot, UTAH)
    m = w.play_mode
    assert m.play("beach-landing") and m.ctl is not None
    uid = sorted(u.id for u in m.ctl.game.state.units.values() if u.on_map)[0]
    m.ctl.select([uid])
    assert uid in m.unit_panel.info.text()
    assert w.open_path(TKG)
    assert uid not in m.unit_panel.info.text() and m.unit_panel.units.count() == 0
    assert m.log_panel.event_lines() == []


def test_status_bar_hover_and_zoom_follow_the_map(qtbot: Any) -> None:
    w = show_window(qtbot, UTAH)
    view, doc = w.view, w.doc
    assert view is not None and doc is not None
    view.set_zoom(0.14)
    assert w.zoom_label.text() == "14 %"
    h = doc.hmap.parse("23.024")
    mouse(view, "move", scene_point(view, h))
    assert w.status_label.text().startswith("23.024")
    assert w.open_path(TKG)
    assert w.view is not None and w.view is not view
    assert w.zoom_label.text() == f"{w.view.zoom * 100:.0f} %"
    assert w.status_label.text() == ""
    # The pointer leaving the map clears the hover text.
    h2 = next(iter(w.doc.hmap.hexes()))  # type: ignore[union-attr]
    mouse(w.view, "move", scene_point(w.view, h2))
    assert w.status_label.text() != ""
    QApplication.sendEvent(w.view, QEvent(QEvent.Type.Leave))
    assert w.status_label.text() == ""


def test_status_bar_hover_text_follows_undo(qtbot: Any) -> None:
    """The hex under the pointer is described as it is after an edit and after its undo."""
    from editor.commands import PaintTerrain

    w = show_window(qtbot, UTAH)
    view, doc = w.view, w.doc
    assert view is not None and doc is not None
    h = doc.hmap.parse("23.024")
    mouse(view, "move", scene_point(view, h))
    before = w.status_label.text()
    other = next(t.id for t in doc.system.terrain if t.id != doc.hmap.terrain_at(h))
    doc.push(PaintTerrain(doc, {h: other}))
    assert other in w.status_label.text() and w.status_label.text() != before
    doc.undo_stack.undo()
    assert w.status_label.text() == before
