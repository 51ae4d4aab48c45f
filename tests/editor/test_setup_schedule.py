"""Setup and schedule editing that guides (issue #18 part 5): the unit picker instead of
free-text ids, entry combos wide enough to read, the arrivals chart's axes and legend, and
placing a unit by every setup kind the format has. Each edit is checked in the model, in the
view, and undone.

Helpers for later end-to-end tests live in ``tests/editor/scenario_helpers.py`` (import them
as ``from scenario_helpers import ...``):

* ``set_up_unit_at_hex(qtbot, window, unit, "23.024", adjacent=False)`` — sets a unit up at a
  hex through the placement dialog;
* ``schedule_arrival(qtbot, window, units, "Night 5 June", "drop_zone", "dz-a", kind="drop",
  drop_number="One")`` — adds a schedule row for units arriving on a turn, named by its calendar
  label, in a drop zone (the row's drop order) / area / box / hex, through the turn combo, the
  unit picker and the entry editor;
* ``edit_cell(panel, row, column)`` / ``commit(panel, column, editor)`` — open and commit a
  schedule cell's editor.

The tests below use them (test_helpers_*), so they stay working.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QDialogButtonBox

from editor.scenario.placing import PLACE_LABELS, PlacementDialog, open_placement, stack_menu
from editor.scenario.schedule import COLUMNS, ArrivalsChart, EntryEditor
from editor.scenario.unit_picker import UnitChoice, UnitPicker, unit_choices
from helpers import no_modal_prompts  # noqa: F401 (autouse fixture)
from model import scenario_edits as se
from model.calendar import build_turns, resolve_turn
from scenario_helpers import commit, edit_cell, schedule_arrival, set_up_unit_at_hex
from test_scenario_mode import SFN, open_scenario


def _ok(dlg: Any) -> Any:
    return dlg.buttons.button(QDialogButtonBox.StandardButton.Ok)


# --- the unit picker ------------------------------------------------------------------------------

def test_picker_lists_counters_with_designation_and_side_and_searches(qtbot: Any) -> None:
    w = open_scenario(qtbot)
    doc = w.doc
    assert doc is not None
    choices = unit_choices(doc.bundle, doc.system)
    assert [c.id for c in choices] == [c.id for c in doc.bundle.counters]
    names = {s.id: s.name for s in doc.system.sides}
    c0 = doc.bundle.counters[0]
    assert choices[0] == UnitChoice(c0.id, c0.front.designation or c0.name, names[c0.side])
    picker = UnitPicker(choices)
    qtbot.addWidget(picker)
    assert picker.visible_units() == [c.id for c in choices]
    picker.set_filter("502 allied")
    shown = picker.visible_units()
    assert shown and all("502" in u for u in shown)
    assert shown == [c.id for c in choices if c.matches("502 allied")]
    picker.set_filter("German")
    assert set(picker.visible_units()) == {c.id for c in doc.bundle.counters if c.side == "german"}
    # Typing an id in the search line never chooses it: only listed ids can be chosen.
    picker.set_filter("no-such-unit")
    assert picker.visible_units() == [] and picker.units() == []


def test_picker_keyboard_return_chooses_the_only_match(qtbot: Any) -> None:
    w = open_scenario(qtbot)
    assert w.doc is not None
    picker = UnitPicker(unit_choices(w.doc.bundle, w.doc.system))
    qtbot.addWidget(picker)
    picker.show()
    qtbot.keyClicks(picker.search, "wn-5")
    assert picker.visible_units() == ["wn-5"]
    qtbot.keyClick(picker.search, Qt.Key.Key_Return)
    assert picker.units() == ["wn-5"]
    picker.set_filter("")
    picker.toggle("a-1-502")
    picker.toggle("wn-5")  # unchecked again
    assert picker.units() == ["a-1-502"]
    single = UnitPicker(unit_choices(w.doc.bundle, w.doc.system), multi=False)
    qtbot.addWidget(single)
    single.set_units(["wn-5"])
    assert single.units() == ["wn-5"]
    with qtbot.waitSignal(single.unitsChanged) as sig:
        single.toggle("a-1-502")
    assert single.units() == ["a-1-502"] == sig.args[0]


def test_picker_flags_unknown_ids_and_keeps_them(qtbot: Any) -> None:
    """Policy picker-keeps-unknown-ids: an id in the data that names no counter is shown,
    flagged, and still chosen when the picker is accepted."""
    w = open_scenario(qtbot)
    assert w.doc is not None
    picker = UnitPicker(unit_choices(w.doc.bundle, w.doc.system))
    qtbot.addWidget(picker)
    picker.set_units(["wn-5", "typo-unit"])
    assert picker.units() == ["wn-5", "typo-unit"]
    assert picker.unknown_units() == ["typo-unit"]
    it = picker.item_for("typo-unit")
    assert it is not None and "not in the counters" in it.text()
    assert it.foreground().color().name() == "#c62828"
    assert "typo-unit" in picker.summary.text()
    # chosen units lead the list
    assert picker.visible_units()[:2] == ["wn-5", "typo-unit"]


# --- schedule: units column ---------------------------------------------------------------------

def test_schedule_units_editor_both_directions_and_undo(qtbot: Any) -> None:
    """GTS 8.0: "Check the reinforcement schedule in the scenario rules for the who, where
    and when." — the who is picked from the counters, not typed."""
    w = open_scenario(qtbot)
    doc, panel = w.doc, w.scenario_mode.panels.schedule  # type: ignore[union-attr]
    assert doc is not None
    rows = lambda: doc.bundle.scenarios["beach-landing"].schedule  # noqa: E731
    r = next(i for i, e in enumerate(rows()) if e.units == ["a-70-dd"])
    ed = edit_cell(panel, r, "units")
    assert ed.picker.units() == ["a-70-dd"]  # model → view
    ed.picker.toggle("b-70-dd")
    depth = doc.undo_stack.index()
    qtbot.mouseClick(ed.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)
    assert rows()[r].units == ["a-70-dd", "b-70-dd"]  # view → model
    assert doc.undo_stack.index() == depth + 1
    assert "b-70-dd" in panel.model.data(panel.model.index(r, COLUMNS.index("units")))
    doc.undo_stack.undo()
    assert rows()[r].units == ["a-70-dd"]
    # Cancel changes nothing.
    ed = edit_cell(panel, r, "units")
    ed.picker.toggle("wn-5")
    qtbot.mouseClick(ed.buttons.button(QDialogButtonBox.StandardButton.Cancel), Qt.MouseButton.LeftButton)
    assert rows()[r].units == ["a-70-dd"] and doc.undo_stack.index() == depth


def test_schedule_units_editor_keyboard_escape_cancels_return_commits(qtbot: Any) -> None:
    w = open_scenario(qtbot)
    doc, panel = w.doc, w.scenario_mode.panels.schedule  # type: ignore[union-attr]
    assert doc is not None
    rows = lambda: doc.bundle.scenarios["beach-landing"].schedule  # noqa: E731
    r = next(i for i, e in enumerate(rows()) if e.units == ["a-70-dd"])
    ed = edit_cell(panel, r, "units")
    ed.picker.search.setFocus()
    qtbot.keyClicks(ed.picker.search, "b-70")
    qtbot.keyClick(ed.picker.search, Qt.Key.Key_Return)  # the only match: checked
    assert ed.picker.units() == ["a-70-dd", "b-70-dd"]
    qtbot.keyClick(ed.picker.search, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not ed.isVisible())
    assert rows()[r].units == ["a-70-dd"]  # Escape: nothing written
    ed = edit_cell(panel, r, "units")
    ed.picker.search.setFocus()
    qtbot.keyClicks(ed.picker.search, "b-70")
    qtbot.keyClick(ed.picker.search, Qt.Key.Key_Return)
    ed.picker.set_filter("")
    qtbot.keyClick(ed.picker.search, Qt.Key.Key_Return)  # several matches: Return is OK
    qtbot.waitUntil(lambda: not ed.isVisible())
    assert rows()[r].units == ["a-70-dd", "b-70-dd"]


def test_schedule_refuses_new_unknown_ids_but_keeps_existing(qtbot: Any) -> None:
    w = open_scenario(qtbot)
    doc, panel = w.doc, w.scenario_mode.panels.schedule  # type: ignore[union-attr]
    assert doc is not None
    m = panel.model
    r = 1
    depth = doc.undo_stack.index()
    with qtbot.waitSignal(m.status) as sig:
        assert not m.setData(m.index(r, COLUMNS.index("units")), ["a-70-dd", "typo-unit"])
    assert "typo-unit" in sig.args[0] and doc.undo_stack.index() == depth
    # An unknown id already in the data (written by hand) is shown flagged and survives OK.
    idx = m.index(r, COLUMNS.index("units"))
    assert m.data(idx, Qt.ItemDataRole.ToolTipRole) is None
    se.change_schedule_entry(doc.bundle.scenarios["beach-landing"], r, units=["a-70-dd", "typo-unit"])
    panel.refresh()
    assert m.data(idx, Qt.ItemDataRole.ToolTipRole) == "Not in the counters: typo-unit"
    assert m.data(idx, Qt.ItemDataRole.ForegroundRole).color().name() == "#c62828"
    dlg = panel.choose_units(r)
    assert dlg is not None and dlg.picker.unknown_units() == ["typo-unit"]
    dlg.picker.toggle("b-70-dd")
    qtbot.mouseClick(_ok(dlg), Qt.MouseButton.LeftButton)
    assert doc.bundle.scenarios["beach-landing"].schedule[r].units == ["a-70-dd", "typo-unit", "b-70-dd"]


# --- schedule: entry combos sized to their text ----------------------------------------------------

def test_entry_combos_and_column_are_as_wide_as_their_text(qtbot: Any) -> None:
    """The finding: "The entry combo is about 30 px wide and shows '…'"."""
    w = open_scenario(qtbot)
    panel = w.scenario_mode.panels.schedule  # type: ignore[union-attr]
    col = COLUMNS.index("entry")
    ed = edit_cell(panel, 0, "entry")
    assert isinstance(ed, EntryEditor)
    fm = QFontMetrics(ed.kind.font())
    for kind in se.ENTRY_KINDS:
        ed.kind.setCurrentText(kind)
        # At once, with no event processed: the editor was 1 px short of the widest kind
        # (a cell is a grid line narrower than its column), and waiting hid that in 4 runs of 5.
        assert ed.kind.width() >= ed.kind.sizeHint().width(), kind
        assert ed.value.width() >= ed.value.sizeHint().width(), (kind, ed.value.width())
        # ... and within its column, which fits every kind (not over the next column's line).
        assert ed.width() <= panel.table.columnWidth(col) - (1 if panel.table.showGrid() else 0), kind
        widest_kind = max(fm.horizontalAdvance(ed.kind.itemText(i)) for i in range(ed.kind.count()))
        assert ed.kind.width() >= widest_kind
        values = [ed.value.itemText(i) for i in range(ed.value.count())]
        widest = max((QFontMetrics(ed.value.font()).horizontalAdvance(v) for v in values), default=0)
        assert ed.value.width() >= widest, (kind, ed.value.width(), widest)
    commit(panel, "entry", ed)
    cell_fm = QFontMetrics(panel.table.font())
    for r in range(panel.model.rowCount()):
        text = panel.model.data(panel.model.index(r, col))
        assert panel.table.columnWidth(col) >= cell_fm.horizontalAdvance(text), text


def test_entry_editor_widens_itself_for_a_longer_kind_in_a_narrowed_column(qtbot: Any) -> None:
    """The user may drag the entry column narrower; switching the open editor to a kind with
    longer values widens the editor at once (the view re-sizes editors only on its own
    geometry changes)."""
    w = open_scenario(qtbot)
    panel = w.scenario_mode.panels.schedule  # type: ignore[union-attr]
    panel.table.setColumnWidth(COLUMNS.index("entry"), 120)
    ed = edit_cell(panel, 0, "entry")
    assert isinstance(ed, EntryEditor)
    for kind in se.ENTRY_KINDS:
        ed.kind.setCurrentText(kind)
        assert ed.width() >= ed.sizeHint().width(), kind
        assert ed.value.width() >= ed.value.sizeHint().width(), kind
    commit(panel, "entry", ed)


def test_turn_and_kind_combos_are_as_wide_as_their_longest_item(qtbot: Any) -> None:
    w = open_scenario(qtbot, SFN, "calais-landing")  # SFN labels are long: "GT 30 (01 Oct 1943)"
    panel = w.scenario_mode.panels.schedule  # type: ignore[union-attr]
    for column in ("turn", "kind"):
        combo = edit_cell(panel, 0, column)
        fm = QFontMetrics(combo.font())
        widest = max(fm.horizontalAdvance(combo.itemText(i)) for i in range(combo.count()))
        assert combo.width() >= widest, (column, combo.width(), widest)  # on opening, no relayout needed
        commit(panel, column, combo)


# --- schedule: turn column -------------------------------------------------------------------------

def test_turn_combo_offers_calendar_labels_and_keeps_the_rows_form(qtbot: Any) -> None:
    """Utah Excl 1.1: "The Night turn begins the turn after the 2100 turn in this game." —
    the combo's labels are the calendar's (model/calendar.py)."""
    w = open_scenario(qtbot)
    doc, panel = w.doc, w.scenario_mode.panels.schedule  # type: ignore[union-attr]
    assert doc is not None
    labels = [t.label for t in build_turns(doc.system.calendar)]
    combo = edit_cell(panel, 0, "turn")
    assert [combo.itemText(i) for i in range(combo.count())] == labels
    assert combo.currentText() == "0700 6 June"
    assert labels[labels.index("2100 6 June") + 1] == "Night 6 June"
    combo.setCurrentIndex(labels.index("Night 6 June"))
    commit(panel, "turn", combo)
    assert doc.bundle.scenarios["beach-landing"].schedule[0].turn == "Night 6 June"  # a label stays a label
    doc.undo_stack.undo()
    assert doc.bundle.scenarios["beach-landing"].schedule[0].turn == "0700 6 June"


def test_turn_combo_writes_a_number_where_the_row_has_one(qtbot: Any) -> None:
    w = open_scenario(qtbot, SFN, "calais-landing")
    doc, panel = w.doc, w.scenario_mode.panels.schedule  # type: ignore[union-attr]
    assert doc is not None
    rows = doc.bundle.scenarios["calais-landing"].schedule
    r = next(i for i, e in enumerate(rows) if e.turn == 30)
    combo = edit_cell(panel, r, "turn")
    turns = build_turns(doc.system.calendar)
    assert combo.currentText() == next(t.label for t in turns if t.n == 30)
    combo.setCurrentIndex(combo.findData(31))
    commit(panel, "turn", combo)
    assert doc.bundle.scenarios["calais-landing"].schedule[r].turn == 31


# --- the arrivals chart ------------------------------------------------------------------------

def test_chart_axes_and_legend_come_from_calendar_and_sides(qtbot: Any) -> None:
    w = open_scenario(qtbot)
    doc, panel = w.doc, w.scenario_mode.panels.schedule  # type: ignore[union-attr]
    assert doc is not None
    chart = panel.chart
    turns = build_turns(doc.system.calendar)
    scen = doc.bundle.resolved("beach-landing")
    arriving = sorted({resolve_turn(e.turn, turns) for e in scen.schedule if e.kind not in ("withdrawal", "event")})
    lo, hi = arriving[0], arriving[-1]
    assert chart.x_labels() == [t.label for t in turns if lo <= t.n <= hi]
    assert chart.x_labels()[0] == "0700 6 June"
    assert chart.y_title == "units arriving"
    assert [x.name for x in chart.legend()] == [s.name for s in doc.system.sides] == ["Allied", "German"]
    # A later arrival widens the axis to its turn's label; undo narrows it again.
    panel.add_row()
    r = len(panel.model.rows) - 1
    assert panel.model.setData(panel.model.index(r, COLUMNS.index("turn")), "1500 6 June")
    assert panel.model.set_units(r, ["wn-5"])
    assert chart.x_labels()[-1] == "1500 6 June"
    doc.undo_stack.undo()
    assert chart.x_labels()[-1] == "1100 6 June"
    chart.grab()  # paints with axes and legend without error


def test_chart_names_a_side_the_system_lacks(qtbot: Any) -> None:
    w = open_scenario(qtbot)
    doc, panel = w.doc, w.scenario_mode.panels.schedule  # type: ignore[union-attr]
    assert doc is not None
    panel.add_row()
    r = len(panel.model.rows) - 1
    assert panel.model.set_units(r, ["wn-5"])
    assert panel.model.setData(panel.model.index(r, COLUMNS.index("side")), "")
    assert [x.name for x in panel.chart.legend()] == ["Allied", "German", "no side"]


# --- placing a unit by every setup kind --------------------------------------------------------

def test_placement_dialog_offers_every_setup_kind_each_one_undo_step(qtbot: Any) -> None:
    w = open_scenario(qtbot)
    doc, sel = w.doc, w.scenario_mode.selection
    assert doc is not None and sel is not None
    scen = lambda: doc.bundle.scenarios["beach-landing"]  # noqa: E731
    dlg = open_placement(doc, sel, ["wn-5"], parent=w)
    assert [dlg.kind.itemData(i) for i in range(dlg.kind.count())] == list(se.PLACE_KINDS)
    assert [dlg.kind.itemText(i) for i in range(dlg.kind.count())] == list(PLACE_LABELS.values())
    home = se.setup_entry(scen(), "wn-5")
    assert home is not None and home.hex is not None
    places = {"hex": "30.040", "adjacent_to": "30.040", "area": None, "box": None, "location": None}
    for kind, label in places.items():
        dlg = open_placement(doc, sel, ["wn-5"], parent=w)
        dlg.set_kind(kind)
        if label is not None:
            dlg.hex.setText(label)
            want: Any = doc.hmap.parse(label)
        else:
            assert dlg.place.count() == len(se.place_choices(doc.bundle, sel.resolved(), kind)) > 0
            dlg.place.setCurrentIndex(dlg.place.count() - 1)
            want = dlg.place.currentData()
        depth = doc.undo_stack.index()
        qtbot.mouseClick(_ok(dlg), Qt.MouseButton.LeftButton)
        entry = se.setup_entry(scen(), "wn-5")
        assert entry is not None and getattr(entry, kind) == want, kind
        assert [k for k in se.PLACE_KINDS if getattr(entry, k) is not None] == [kind]
        assert doc.undo_stack.index() == depth + 1
        assert doc.undo_stack.undoText().startswith("Place wn-5 ")
        doc.undo_stack.undo()
        assert se.setup_entry(scen(), "wn-5").hex == home.hex  # type: ignore[union-attr]


def test_placement_dialog_refuses_a_bad_hex_and_no_units(qtbot: Any) -> None:
    w = open_scenario(qtbot)
    doc, sel = w.doc, w.scenario_mode.selection
    assert doc is not None and sel is not None
    dlg: PlacementDialog = open_placement(doc, sel, ["wn-5"], parent=w)
    dlg.hex.setText("99.999x")
    assert not _ok(dlg).isEnabled() and "not a hex" in dlg.problem.text()
    dlg.hex.setText("30.040")
    assert _ok(dlg).isEnabled() and dlg.problem.text() == ""
    dlg.picker.toggle("wn-5")  # no unit left
    assert not _ok(dlg).isEnabled() and "unit" in dlg.problem.text()
    dlg.reject()


def test_placement_dialog_places_several_units_in_one_undo_step(qtbot: Any) -> None:
    w = open_scenario(qtbot)
    doc, panels = w.doc, w.scenario_mode.panels
    assert doc is not None and panels is not None
    scen = lambda: doc.bundle.scenarios["beach-landing"]  # noqa: E731
    panels.oob.expandAll()
    for u in ("a-1-8", "b-1-8"):
        it = panels.oob.item_for(u)
        assert it is not None
        it.setSelected(True)
    dlg = panels.oob.place_selected()
    assert dlg.picker.units() == ["a-1-8", "b-1-8"]
    box = doc.bundle.game.boxes[0].id
    dlg.set_kind("box")
    dlg.place.setCurrentIndex(dlg.place.findData(box))
    depth = doc.undo_stack.index()
    qtbot.mouseClick(_ok(dlg), Qt.MouseButton.LeftButton)
    assert [se.setup_entry(scen(), u).box for u in ("a-1-8", "b-1-8")] == [box, box]  # type: ignore[union-attr]
    assert doc.undo_stack.index() == depth + 1 and doc.undo_stack.undoText() == "Place 2 units"
    doc.undo_stack.undo()
    assert se.setup_entry(scen(), "a-1-8") is None or se.setup_entry(scen(), "a-1-8").box != box  # type: ignore[union-attr]


def test_unit_panel_place_button_starts_at_the_units_hex(qtbot: Any) -> None:
    w = open_scenario(qtbot)
    doc, panels, sel = w.doc, w.scenario_mode.panels, w.scenario_mode.selection
    assert doc is not None and panels is not None and sel is not None
    assert not panels.unit.place_button.isEnabled()
    sel.choose_unit("wn-5")
    assert panels.unit.place_button.isEnabled()
    dlg = panels.unit.place()
    assert dlg is not None and dlg.picker.units() == ["wn-5"]
    assert dlg.hex.text() == doc.hmap.label(se.setup_entry(doc.bundle.scenarios["beach-landing"], "wn-5").hex)  # type: ignore[arg-type, union-attr]
    dlg.reject()


def test_stack_menu_moves_the_stack_to_an_area_box_or_location(qtbot: Any) -> None:
    w = open_scenario(qtbot)
    doc, sel = w.doc, w.scenario_mode.selection
    assert doc is not None and sel is not None
    scen = lambda: doc.bundle.scenarios["beach-landing"]  # noqa: E731
    h = se.setup_entry(scen(), "wn-5").hex  # type: ignore[union-attr]
    assert h is not None
    units = se.stacks(sel.resolved()).get(h, [])  # type: ignore[arg-type]
    menu = stack_menu(doc, sel, h, w)
    assert menu is not None
    names = {a.objectName() for a in menu.findChildren(type(menu.actions()[0]))}
    for kind in ("area", "box", "location"):
        first = se.place_choices(doc.bundle, sel.resolved(), kind)[0][0]
        assert f"place-{kind}:{first}" in names
    act = next(a for a in menu.findChildren(type(menu.actions()[0])) if a.objectName().startswith("place-area:"))
    area = act.objectName().split(":", 1)[1]
    depth = doc.undo_stack.index()
    act.trigger()
    assert all(se.setup_entry(scen(), u).area == area for u in units)  # type: ignore[union-attr]
    assert doc.undo_stack.index() == depth + 1
    doc.undo_stack.undo()
    assert se.setup_entry(scen(), "wn-5").hex == h  # type: ignore[union-attr]


def test_place_choices_names_boxes_areas_and_locations(qtbot: Any) -> None:
    w = open_scenario(qtbot)
    doc, sel = w.doc, w.scenario_mode.selection
    assert doc is not None and sel is not None
    scen = sel.resolved()
    assert se.place_choices(doc.bundle, scen, "box") == [(b.id, b.name) for b in doc.bundle.game.boxes]
    assert se.place_choices(doc.bundle, scen, "area") == [(a.id, a.name) for a in doc.bundle.map_for(scen).areas]
    assert se.place_choices(doc.bundle, scen, "hex") == []
    try:
        se.place_choices(doc.bundle, scen, "beach")
    except ValueError as exc:
        assert "unknown setup place" in str(exc)
    else:
        raise AssertionError("beach is not a setup place")


# --- the helpers for end-to-end tests ------------------------------------------------------------

def test_helpers_set_up_a_unit_at_a_hex(qtbot: Any) -> None:
    w = open_scenario(qtbot)
    set_up_unit_at_hex(qtbot, w, "wn-5", "30.040")
    set_up_unit_at_hex(qtbot, w, "a-1-8", "29.041", adjacent=True)


def test_helpers_schedule_a_drop_on_a_turn_by_label(qtbot: Any) -> None:
    w = open_scenario(qtbot, sid="night-drop")
    doc = w.doc
    assert doc is not None
    row = schedule_arrival(qtbot, w, ["a-1-502", "b-1-502"], "0700 6 June", "drop_zone", "dz-a", kind="drop")
    e = doc.bundle.scenarios["night-drop"].schedule[row]
    assert e.turn == "0700 6 June" and e.kind == "drop" and e.drop is not None and e.drop.zone == "dz-a"
    assert "0700 6 June" in w.scenario_mode.panels.schedule.chart.x_labels()  # type: ignore[union-attr]
    area = se.entry_choices(doc.bundle, w.scenario_mode.selection.resolved(), "area")[0]  # type: ignore[union-attr]
    schedule_arrival(qtbot, w, ["c-1-502"], "0900 6 June", "area", area)


@settings(max_examples=200, deadline=None)
@given(label_px=st.floats(1, 400), bar_px=st.floats(0.1, 400))
def test_chart_label_step_never_lets_labels_overlap(label_px: float, bar_px: float) -> None:
    """Every n-th label is drawn: n bars apart is at least one label's room, and n is the
    least such (no label dropped that had room)."""
    step = ArrivalsChart.label_step(label_px, bar_px)
    assert step >= 1 and step * bar_px >= label_px - 1e-9
    assert step == 1 or (step - 1) * bar_px < label_px


def test_toolbar_place_units_opens_the_dialog_for_the_oob_selection(qtbot: Any) -> None:
    w = open_scenario(qtbot)
    panels = w.scenario_mode.panels
    assert panels is not None
    panels.oob.expandAll()
    panels.oob.item_for("wn-5").setSelected(True)  # type: ignore[union-attr]
    act = w.scenario_mode.place_action
    assert act in w.scenario_mode.bar.actions()
    act.trigger()
    shown = [d for d in panels.oob.findChildren(PlacementDialog) if d.isVisible()]
    assert len(shown) == 1 and shown[0].picker.units() == ["wn-5"]
    shown[0].reject()


def test_picker_and_placement_edits_save_only_what_changed(qtbot: Any, tmp_path: Any) -> None:
    """User's files are sacred: a units pick and an area placement change those two lines."""
    import difflib
    import shutil

    from test_scenario_mode import UTAH

    copy = tmp_path / "utah"
    shutil.copytree(UTAH, copy)
    path = copy / "scenarios" / "beach-landing.yaml"
    before = path.read_text(encoding="utf-8").splitlines()
    w = open_scenario(qtbot, copy)
    doc, panel, sel = w.doc, w.scenario_mode.panels.schedule, w.scenario_mode.selection  # type: ignore[union-attr]
    assert doc is not None and sel is not None
    r = next(i for i, e in enumerate(panel.model.rows) if e.units == ["a-70-dd"])
    dlg = panel.choose_units(r)
    assert dlg is not None
    dlg.picker.toggle("b-70-dd")
    qtbot.mouseClick(_ok(dlg), Qt.MouseButton.LeftButton)
    place = open_placement(doc, sel, ["wn-5"], parent=w)
    place.set_kind("area")
    area = place.place.currentData()
    qtbot.mouseClick(_ok(place), Qt.MouseButton.LeftButton)
    assert w.save()
    after = path.read_text(encoding="utf-8").splitlines()
    changed = [line for line in difflib.unified_diff(before, after, lineterm="", n=0)
               if line[:1] in "+-" and not line.startswith(("+++", "---"))]
    assert len([x for x in changed if x.startswith("-")]) == 2, changed
    assert any("b-70-dd" in x and x.startswith("+") for x in changed), changed
    assert any(f"area: {area}" in x and "wn-5" in x and x.startswith("+") for x in changed), changed
