"""Scenario editor II gaps: schedule entry kinds/withdrawals/events, beach-overlay map edits,
"in or adjacent to" by Alt+drop and the stack menu, the diagnostics dock in every mode.
Every edit is checked in the model and undone."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication

from editor.main_window import MainWindow
from editor.scenario.oob import unit_mime
from editor.scenario.schedule import COLUMNS, EntryEditor
from helpers import click, no_modal_prompts, scene_point  # noqa: F401 (autouse fixture)
from model import scenario_edits as se
from test_scenario_mode import UTAH, open_scenario


def test_schedule_entry_kinds_withdrawal_and_event(qtbot: Any) -> None:
    w = open_scenario(qtbot)
    doc, panel = w.doc, w.scenario_mode.panels.schedule
    assert doc is not None
    m = panel.model
    sched = lambda: doc.bundle.scenarios["beach-landing"].schedule  # noqa: E731
    before = doc.bundle.dump_files()
    panel.add_row()
    r = m.rowCount() - 1
    col = COLUMNS.index("entry")
    box = doc.bundle.game.boxes[0].id
    # box, then beach (a map place: the box stays, policy entry-one-map-place), then a hex
    assert m.setData(m.index(r, col), ("box", box))
    assert sched()[r].entry.box == box  # type: ignore[union-attr]
    assert m.setData(m.index(r, col), ("beach", "tare-green"))
    e = sched()[r].entry
    assert e is not None and e.beach == "tare-green" and e.box == box
    assert m.setData(m.index(r, col), ("hex", "30.040"))
    e = sched()[r].entry
    assert e is not None and e.hex == doc.hmap.parse("30.040") and e.beach is None and e.box == box
    zone_sc = doc.bundle.scenarios["beach-landing"]
    for kind in ("drop_zone", "location"):
        choices = se.entry_choices(doc.bundle, w.scenario_mode.selection.resolved(), kind)
        if choices:
            assert m.setData(m.index(r, col), (kind, choices[0]))
            assert getattr(sched()[r].entry, kind) == choices[0]
    assert not m.setData(m.index(r, col), ("hex", "not a hex"))
    assert m.setData(m.index(r, col), ("box", ""))  # clears the box only
    assert sched()[r].entry is not None and sched()[r].entry.box is None  # type: ignore[union-attr]
    # kind column: withdrawal, then an event with its text
    assert m.setData(m.index(r, COLUMNS.index("kind")), "withdrawal")
    assert sched()[r].kind == "withdrawal"
    assert m.setData(m.index(r, COLUMNS.index("units")), "wn-5")
    assert sched()[r].units == ["wn-5"]
    assert m.setData(m.index(r, COLUMNS.index("kind")), "event")
    assert m.setData(m.index(r, COLUMNS.index("text")), "Naval bombardment lifts")
    assert sched()[r].text == "Naval bombardment lifts"
    assert m.data(m.index(r, COLUMNS.index("text"))) == "Naval bombardment lifts"
    assert not m.setData(m.index(r, COLUMNS.index("kind")), "party")  # not a schedule kind
    assert zone_sc is doc.bundle.scenarios["beach-landing"]
    while doc.undo_stack.canUndo():
        doc.undo_stack.undo()
    assert doc.bundle.dump_files() == before


def test_entry_editor_widget_fills_choices(qtbot: Any) -> None:
    w = open_scenario(qtbot)
    panel = w.scenario_mode.panels.schedule
    row = next(i for i, e in enumerate(panel.model.rows) if e.entry is not None and e.entry.beach)
    ed = EntryEditor(panel.table, panel.model, row)
    ed.load()
    assert ed.kind.currentText() == "beach"
    assert ed.value.currentText() == panel.model.rows[row].entry.beach  # type: ignore[union-attr]
    ed.kind.setCurrentText("box")
    items = [ed.value.itemText(i) for i in range(ed.value.count())]
    assert set(b.id for b in w.doc.bundle.game.boxes) <= set(items)  # type: ignore[union-attr]
    ed.value.setCurrentText(items[-1])
    panel.entry_delegate.setModelData(ed, panel.model, panel.model.index(row, COLUMNS.index("entry")))
    assert panel.model.rows[row].entry.box == items[-1]  # type: ignore[union-attr]
    w.doc.undo_stack.undo()  # type: ignore[union-attr]


def test_overlay_map_edits_and_tracks(qtbot: Any) -> None:
    w = open_scenario(qtbot)
    mode, doc, view = w.scenario_mode, w.doc, w.view
    assert doc is not None and view is not None
    op = mode.panels.overlays
    before = doc.bundle.dump_files()
    ov = doc.bundle.scenarios["beach-landing"].beach_overlays[0]
    top = op.tree.topLevelItem(0)
    op.tree.setCurrentItem(top.child(0))  # first sub-beach
    sb = ov.sub_beaches[0]
    assert op.current()[1] is not None and op.current()[1].id == sb.id  # type: ignore[union-attr]
    op.edit_btn.setChecked(True)
    assert view.tool is mode.panels.tools["overlay"]
    h = doc.hmap.parse("24.021")
    view.center_on_hex(h)
    for which in ("planned", "actual"):
        op.what.setCurrentIndex(op.what.findData(which))
        click(view, scene_point(view, h))
        sb = doc.bundle.scenarios["beach-landing"].beach_overlays[0].sub_beaches[0]
        assert h in getattr(sb.landing, which)
    # the sub-beach selection survives the refresh after each edit
    assert op.current()[1] is not None and op.current()[1].id == sb.id  # type: ignore[union-attr]
    op.what.setCurrentIndex(op.what.findData("reinforcement"))
    click(view, scene_point(view, h))
    assert h in doc.bundle.scenarios["beach-landing"].beach_overlays[0].reinforcement_hexes
    op.what.setCurrentIndex(op.what.findData("gap"))
    n = len(doc.bundle.scenarios["beach-landing"].beach_overlays[0].gap_hexsides)
    click(view, scene_point(view, h))
    assert len(doc.bundle.scenarios["beach-landing"].beach_overlays[0].gap_hexsides) == n + 1
    # track start level spin box → SetTrackLevel
    track, spin = next(iter(op.spins.items()))
    spin.setValue(spin.value() + 1 if spin.value() < spin.maximum() else 0)
    assert doc.bundle.scenarios["beach-landing"].beach_overlays[0].tracks[track] == str(spin.value())
    assert doc.undo_stack.undoText().startswith("Set track")
    # drift: edit the tree cell
    drift_item = next(op.tree.topLevelItem(0).child(0).child(i) for i in range(op.tree.topLevelItem(0).child(0).childCount())
                      if op.tree.topLevelItem(0).child(0).child(i).text(0) == "drift (planned)")
    drift_item.setText(1, "2 Right")
    assert doc.bundle.scenarios["beach-landing"].beach_overlays[0].sub_beaches[0].drift["planned"] == "2 Right"
    op.edit_btn.setChecked(False)
    assert view.tool is mode.panels.tools["setup"]
    while doc.undo_stack.canUndo():
        doc.undo_stack.undo()
    assert doc.bundle.dump_files() == before


def _drop(w: MainWindow, units: list[str], pt: QPointF, mods: Qt.KeyboardModifier) -> None:
    view = w.view
    assert view is not None
    local = QPointF(view.mapFromScene(pt))
    md = unit_mime(units)
    enter = QDragEnterEvent(local, Qt.DropAction.MoveAction, md, Qt.MouseButton.LeftButton, mods)
    QApplication.sendEvent(view.viewport(), enter)
    QApplication.sendEvent(view.viewport(), QDropEvent(local, Qt.DropAction.MoveAction, md,
                                                         Qt.MouseButton.LeftButton, mods))


def test_alt_drop_and_stack_menu_place_in_or_adjacent(qtbot: Any) -> None:
    w = open_scenario(qtbot)
    mode, doc, view = w.scenario_mode, w.doc, w.view
    assert doc is not None and view is not None
    scen = lambda: doc.bundle.scenarios["beach-landing"]  # noqa: E731
    h = doc.hmap.parse("30.040")
    view.center_on_hex(h)
    _drop(w, ["wn-5"], scene_point(view, h), Qt.KeyboardModifier.AltModifier)
    e = se.setup_entry(scen(), "wn-5")
    assert e is not None and e.adjacent_to == h and e.hex is None
    assert h.neighbors()[0] in se.setup_area_hexes(mode.selection.resolved(), doc.hmap)  # type: ignore[arg-type]
    doc.undo_stack.undo()
    assert se.setup_entry(scen(), "wn-5").hex == doc.hmap.parse("23.024")  # type: ignore[union-attr]
    # context action on a placed stack
    home = doc.hmap.parse("23.024")
    menu = mode.stack_menu(home)
    assert menu is not None and mode.stack_menu(doc.hmap.parse("30.040")) is None
    menu.findChild(type(menu.actions()[0]), "place-adjacent").trigger()
    assert se.setup_entry(scen(), "wn-5").adjacent_to == home  # type: ignore[union-attr]
    mode.stack_menu(home).findChild(type(menu.actions()[0]), "place-exact").trigger()  # type: ignore[union-attr]
    assert se.setup_entry(scen(), "wn-5").hex == home  # type: ignore[union-attr]
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    assert se.setup_entry(scen(), "wn-5").hex == home  # type: ignore[union-attr]
    assert se.setup_entry(scen(), "wn-5").adjacent_to is None  # type: ignore[union-attr]


def test_diagnostics_dock_in_map_mode(qtbot: Any) -> None:
    w = MainWindow(autosave_seconds=3600)
    qtbot.addWidget(w)
    w.resize(1000, 700)
    w.show()
    assert w.open_path(UTAH)
    size = w.size()
    mode = w.scenario_mode
    assert not mode.active and not w.diagnostics.dock.isVisible()
    act = w.actions_by_id["view.diagnostics"]
    act.trigger()
    assert w.diagnostics.dock.isVisible() and not mode.active
    QApplication.processEvents()
    assert w.size() == size  # showing the dock does not grow the window
    assert mode.open_scenario("beach-landing")
    assert w.set_mode("map")
    assert w.diagnostics.dock.isVisible()  # the user's choice survives leaving Scenario mode
    act.trigger()
    assert not w.diagnostics.dock.isVisible()
