"""Scenario mode: drop a unit on the map (the real drop event path), see the diagnostic
appear, undo, see it go; docks in both directions (model → view, view → model + undo)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import warnings

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication

from conftest import REPO
from editor.main_window import MainWindow
from editor.scenario.counter_import import apply_import, dry_run
from editor.scenario.oob import unit_mime
from helpers import click, mouse, no_modal_prompts, scene_point, show_window  # noqa: F401 (autouse fixture)
from model import scenario_edits as se

UTAH = REPO / "scenarios" / "utah-beach"
SFN = REPO / "scenarios" / "second-front-now"


def open_scenario(qtbot: Any, path: Path = UTAH, sid: str = "beach-landing") -> MainWindow:
    w = show_window(qtbot, path, (1300, 850))
    assert w.scenario_mode.open_scenario(sid)
    w.view.fit()  # type: ignore[union-attr]
    runner = w.diagnostics.runner
    qtbot.waitUntil(lambda: not runner.busy and runner.completed == runner.generation, timeout=20000)
    return w


def settle(qtbot: Any, w: MainWindow) -> None:
    r = w.diagnostics.runner
    r.flush()
    qtbot.waitUntil(lambda: not r.busy and r.completed == r.generation, timeout=20000)


def codes(w: MainWindow) -> set[str]:
    return {d.code for d in w.diagnostics.panel.diagnostics}


def drop_on(w: MainWindow, units: list[str], scene_pt: QPointF) -> None:
    view = w.view
    assert view is not None
    local = QPointF(view.mapFromScene(scene_pt))
    md = unit_mime(units)
    # Qt delivers a drop only after an accepted drag enter, as in a real drag.
    enter = QDragEnterEvent(local, Qt.DropAction.MoveAction, md, Qt.MouseButton.LeftButton,
                            Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(view.viewport(), enter)
    assert enter.isAccepted()
    ev = QDropEvent(local, Qt.DropAction.MoveAction, md, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(view.viewport(), ev)


def test_drop_illegal_hex_shows_diagnostic_then_undo_clears_it(qtbot: Any) -> None:
    w = open_scenario(qtbot)
    mode = w.scenario_mode
    doc = w.doc
    assert doc is not None
    assert not any(c.startswith("GTS-HEX") for c in codes(w))
    hmap = doc.hmap
    bad = next(h for h in hmap.hexes() if hmap.terrain_at(h) == "impassable")
    w.view.center_on_hex(bad)  # type: ignore[union-attr]
    drop_on(w, ["wn-5"], scene_point(w.view, bad))  # type: ignore[arg-type]
    assert se.setup_entry(doc.bundle.scenarios["beach-landing"], "wn-5").hex == bad  # type: ignore[union-attr]
    assert w.diagnostics.runner.timer.isActive()  # debounced, not run inside the edit
    settle(qtbot, w)
    assert "GTS-HEX-004" in codes(w)
    assert "error" in w.diagnostics.label.text() and not w.diagnostics.label.text().startswith("0 errors")
    # Clicking the finding centres and highlights its hex.
    leaf = next(it for it in w.diagnostics.panel.leaf_items()
                if it.data(0, Qt.ItemDataRole.UserRole).code == "GTS-HEX-004")
    w.view.set_zoom(2.0)  # type: ignore[union-attr]
    w.view.center_on_hex(hmap.parse("60.040"))  # type: ignore[union-attr]
    shown = lambda: w.view.mapToScene(w.view.viewport().rect()).boundingRect()  # type: ignore[union-attr]  # noqa: E731
    assert not shown().contains(scene_point(w.view, bad))  # type: ignore[arg-type]
    w.diagnostics.panel.tree.setCurrentItem(leaf)
    w.diagnostics.panel._on_activated(leaf)
    assert mode.layer is not None and mode.selection.highlight == [bad]  # what the layer draws
    assert shown().contains(scene_point(w.view, bad))  # type: ignore[arg-type]
    assert "GTS-HEX-004" in w.diagnostics.panel.doc_view.toPlainText()  # rule documentation pane
    doc.undo_stack.undo()
    settle(qtbot, w)
    assert "GTS-HEX-004" not in codes(w)


def test_diagnostics_filter(qtbot: Any) -> None:
    w = open_scenario(qtbot)
    mode = w.scenario_mode
    bad = next(h for h in w.doc.hmap.hexes() if w.doc.hmap.terrain_at(h) == "impassable")  # type: ignore[union-attr]
    mode.drop_unit(["wn-5"], hex=bad)
    settle(qtbot, w)
    w.diagnostics.panel.filter.setText("GTS-HEX-004")
    assert {d.code for d in w.diagnostics.panel.visible()} == {"GTS-HEX-004"}
    w.diagnostics.panel.filter.setText("no-such-thing")
    assert w.diagnostics.panel.leaf_items() == []


def test_oob_tree_shows_placement_and_boxes_accept_drops(qtbot: Any) -> None:
    w = open_scenario(qtbot)
    mode = w.scenario_mode
    item = mode.panels.oob.item_for("wn-5")
    assert item is not None and item.text(1) == "23.024"
    box_id = w.doc.bundle.game.boxes[0].id  # type: ignore[union-attr]
    mode.drop_unit(["wn-5"], box=box_id)
    assert mode.panels.oob.item_for("wn-5").text(1) == f"box {box_id}"  # type: ignore[union-attr]
    assert "1 unit(s)" in mode.panels.boxes.item(0).text()
    w.doc.undo_stack.undo()  # type: ignore[union-attr]
    assert mode.panels.oob.item_for("wn-5").text(1) == "23.024"  # type: ignore[union-attr]


def test_stack_drag_and_click_list_and_state_flags(qtbot: Any) -> None:
    w = open_scenario(qtbot)
    mode, doc, view = w.scenario_mode, w.doc, w.view
    assert doc is not None and view is not None
    src = doc.hmap.parse("23.024")
    dst = doc.hmap.parse("25.024")
    view.center_on_hex(src)
    view.set_zoom(2.0)
    view.center_on_hex(src)
    mouse(view, "press", scene_point(view, src))
    mouse(view, "move", scene_point(view, dst))
    mouse(view, "release", scene_point(view, dst))
    assert se.setup_entry(doc.bundle.scenarios["beach-landing"], "wn-5").hex == dst  # type: ignore[union-attr]
    click(view, scene_point(view, dst))
    assert mode.panels.unit.stack.count() >= 1 and mode.panels.unit.unit is not None
    unit = mode.panels.unit.unit
    mode.panels.unit.flags["reduced"].setChecked(True)
    assert "reduced" in se.setup_entry(doc.bundle.scenarios["beach-landing"], unit).state  # type: ignore[union-attr]
    doc.undo_stack.undo()
    assert "reduced" not in se.setup_entry(doc.bundle.scenarios["beach-landing"], unit).state  # type: ignore[union-attr]
    doc.undo_stack.undo()
    assert se.setup_entry(doc.bundle.scenarios["beach-landing"], "wn-5").hex == src  # type: ignore[union-attr]


def test_counter_table_edit_filter_and_csv(qtbot: Any, tmp_path: Path) -> None:
    w = open_scenario(qtbot)
    panel = w.scenario_mode.panels.counters
    model = panel.model
    assert model is not None and model.rowCount() == len(w.doc.bundle.counters)  # type: ignore[union-attr]
    col = model.columns.index("name")
    c0 = w.doc.bundle.counters[0]  # type: ignore[union-attr]
    old = c0.name
    assert model.setData(model.index(0, col), "Renamed Unit")
    assert c0.name == "Renamed Unit"
    w.doc.undo_stack.undo()  # type: ignore[union-attr]
    assert c0.name == old
    # model → view: an undoable edit elsewhere shows in the table
    fcol = next(i for i, c in enumerate(model.columns) if c.startswith("front.") and model.column_type(c).kind == "number")
    key = model.columns[fcol][6:]
    model.setData(model.index(0, fcol), "7")
    assert c0.front.values[key] == 7 and model.data(model.index(0, fcol)) == "7"
    w.doc.undo_stack.undo()  # type: ignore[union-attr]
    side = panel.filters["side"]
    side.setCurrentIndex(side.findData("german"))
    assert 0 < panel.proxy.rowCount() < model.rowCount()
    out = tmp_path / "c.csv"
    text = panel.export_to(str(out))
    lines = text.splitlines()
    lines[1] = lines[1].replace(lines[1].split(",")[1], "Imported Name", 1)
    out.write_text("\n".join(lines + ["broken,row"]) + "\n")
    # A sheet with a bad row is refused whole (editor/scenario/counter_import.py): nothing applied.
    refused = dry_run(w.doc, out)  # type: ignore[arg-type]
    assert not refused.ok and [r.row for r in refused.result.rejected] == [len(lines) + 1]
    assert not apply_import(w.doc, refused) and w.doc.bundle.counters[0].name == old  # type: ignore[arg-type,union-attr]
    out.write_text("\n".join(lines) + "\n")
    assert apply_import(w.doc, dry_run(w.doc, out))  # type: ignore[arg-type]
    assert w.doc.bundle.counters[0].name == "Imported Name"  # type: ignore[union-attr]
    w.doc.undo_stack.undo()  # type: ignore[union-attr]
    assert w.doc.bundle.counters[0].name == old  # type: ignore[union-attr]


def test_schedule_table_chart_and_pick_entry(qtbot: Any) -> None:
    w = open_scenario(qtbot)
    mode, doc = w.scenario_mode, w.doc
    assert doc is not None
    panel = mode.panels.schedule
    n = panel.model.rowCount()
    assert n == len(doc.bundle.scenarios["beach-landing"].schedule) and n > 0
    assert panel.model.data(panel.model.index(0, 1)) not in ("", "?")  # calendar label
    assert sum(sum(r.values()) for r in panel.chart.data.values()) > 0
    panel.add_row()
    assert panel.model.rowCount() == n + 1
    panel.table.selectRow(n)
    panel.pick_entry()
    h = doc.hmap.parse("30.040")
    w.view.center_on_hex(h)  # type: ignore[union-attr]
    click(w.view, scene_point(w.view, h))  # type: ignore[arg-type]
    assert doc.bundle.scenarios["beach-landing"].schedule[n].entry.hex == h  # type: ignore[union-attr]
    from editor.scenario.schedule import COLUMNS

    assert "30.040" in panel.model.data(panel.model.index(n, COLUMNS.index("entry")))
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    assert panel.model.rowCount() == n


def test_drop_zone_create_rename_and_select_hexes(qtbot: Any) -> None:
    w = open_scenario(qtbot, sid="night-drop")
    mode, doc, view = w.scenario_mode, w.doc, w.view
    assert doc is not None and view is not None
    zp = mode.panels.zones
    zp.new_zone("dz-x", "DZ X")
    assert zp.current_zone() is not None and zp.current_zone().id == "dz-x"  # type: ignore[union-attr]
    zp.rename_zone("DZ Xray")
    assert zp.current_zone().name == "DZ Xray"  # type: ignore[union-attr]
    zp.edit_btn.setChecked(True)
    a, b = doc.hmap.parse("60.040"), doc.hmap.parse("62.040")
    view.set_zoom(2.0)
    view.center_on_hex(a)
    click(view, scene_point(view, a))
    assert zp.current_zone().hexes == [a]  # type: ignore[union-attr]
    mouse(view, "press", scene_point(view, a))
    mouse(view, "move", scene_point(view, doc.hmap.parse("61.040")))
    mouse(view, "move", scene_point(view, b))
    mouse(view, "release", scene_point(view, b))
    assert b in zp.current_zone().hexes and len(zp.current_zone().hexes) >= 3  # type: ignore[union-attr]
    assert "hexes" in zp.info.text() and "drop DRM" in zp.info.text()
    for _ in range(4):
        doc.undo_stack.undo()
    assert all(z.id != "dz-x" for z in doc.bundle.scenarios["night-drop"].drop_zones)


def test_overlay_toggle_and_locations(qtbot: Any) -> None:
    w = open_scenario(qtbot)
    mode, doc = w.scenario_mode, w.doc
    assert doc is not None
    op = mode.panels.overlays
    if op.tree.topLevelItemCount():
        top = op.tree.topLevelItem(0)
        oid = top.data(0, Qt.ItemDataRole.UserRole)
        top.setCheckState(0, Qt.CheckState.Unchecked)
        assert mode.selection.overlay_shown[oid] is False
        op.tree.setCurrentItem(top)
        before = doc.bundle.scenarios["beach-landing"].beach_overlays[0].visible
        op._toggle_saved()
        assert doc.bundle.scenarios["beach-landing"].beach_overlays[0].visible is (not before)
        doc.undo_stack.undo()
    lp = mode.panels.locations
    h = doc.hmap.parse("30.040")
    lp.add(h, name="Rally Point 1", kind="rally_point", owner="allied")
    locs = doc.bundle.scenarios["beach-landing"].locations
    assert locs[-1].name == "Rally Point 1" and locs[-1].hex == h
    lp.list.setCurrentRow(len(locs) - 1)
    lp.rename("RP One")
    assert doc.bundle.scenarios["beach-landing"].locations[-1].name == "RP One"
    for _ in range(2):
        doc.undo_stack.undo()
    assert all(x.name != "Rally Point 1" for x in doc.bundle.scenarios["beach-landing"].locations)


def test_mode_toggle_keeps_document(qtbot: Any) -> None:
    w = open_scenario(qtbot)
    mode = w.scenario_mode
    assert w.set_mode("map")
    assert not mode.active and all(not d.isVisible() for d in mode.docks)
    assert "errors" in w.diagnostics.label.text()  # counts stay in the status bar in Map mode
    assert not w.doc.is_modified  # type: ignore[union-attr]
