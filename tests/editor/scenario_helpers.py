"""Scenario-editor steps for end-to-end tests, driven through the widgets a user touches.

Each helper works on a shown :class:`MainWindow` in Scenario mode (``open_scenario`` in
test_scenario_mode.py) and goes through the real dialogs and editors — the placement dialog,
the schedule table's turn, unit and entry editors — so a test built on them exercises the UI,
not only the pure edits:

* :func:`set_up_unit_at_hex` — the placement dialog: one unit exactly on (or in or adjacent
  to) a hex given by its printed label; one ``PlaceUnit`` undo step.
* :func:`edit_cell` / :func:`commit` — open a schedule cell's editor, and commit it.
* :func:`schedule_arrival` — Add row, then the turn combo (by the calendar's turn label),
  the unit picker (OK) and the entry editor (kind + id, e.g. ``drop_zone``/``dz-a``, ``area``,
  ``box``, ``hex`` with a printed label); returns the new row's index.

Each asserts what it changed, so a failing step names itself.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QDialogButtonBox

from editor.main_window import MainWindow
from editor.scenario.placing import PlacementDialog, open_placement
from editor.scenario.schedule import COLUMNS, EntryEditor, SchedulePanel, UnitsEditor
from editor.scenario.unit_picker import UnitPickerDialog
from model.calendar import build_turns, resolve_turn


def _ok(qtbot: Any, buttons: QDialogButtonBox) -> None:
    ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
    assert ok.isEnabled(), "OK is disabled"
    qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)


def set_up_unit_at_hex(qtbot: Any, w: MainWindow, unit: str, label: str, adjacent: bool = False) -> None:
    """Place ``unit`` exactly on hex ``label`` (``adjacent``: in or adjacent to it) through the
    placement dialog; checks the selected scenario's own setup entry afterwards."""
    mode = w.scenario_mode
    assert w.doc is not None and mode.selection is not None
    dlg: PlacementDialog = open_placement(w.doc, mode.selection, [unit], parent=w)
    dlg.set_kind("adjacent_to" if adjacent else "hex")
    dlg.hex.setText(label)
    _ok(qtbot, dlg.buttons)
    entry = mode.selection.own_setup_entry(unit)
    assert entry is not None, f"{unit} has no setup entry"
    placed = entry.adjacent_to if adjacent else entry.hex
    assert placed == w.doc.hmap.parse(label), f"{unit} is not at {label}: {entry}"


def edit_cell(panel: SchedulePanel, row: int, column: str) -> Any:
    """Open the delegate editor of a schedule cell (as a double-click does) and return it."""
    index = panel.model.index(row, COLUMNS.index(column))
    panel.table.setCurrentIndex(index)
    panel.table.edit(index)
    kind = {"turn": QComboBox, "kind": QComboBox, "units": UnitsEditor, "entry": EntryEditor}[column]
    shown = [x for x in panel.table.viewport().findChildren(kind) if x.isVisible()
             and x.parentWidget() is panel.table.viewport()]
    assert len(shown) == 1, f"no editor opened on {column}"
    return shown[0]


def commit(panel: SchedulePanel, column: str, editor: Any) -> None:
    """Commit and close a cell editor the way the view does on Return."""
    delegate = panel.table.itemDelegateForColumn(COLUMNS.index(column))
    delegate.commitData.emit(editor)
    delegate.closeEditor.emit(editor, delegate.EndEditHint.NoHint)


def schedule_arrival(qtbot: Any, w: MainWindow, units: list[str], turn_label: str, entry_kind: str,
                     entry_value: str, kind: str = "reinforcement", drop_number: str = "") -> int:
    """Add a schedule row: ``units`` arrive on the turn labelled ``turn_label`` at
    ``entry_kind`` ``entry_value`` (``drop_zone`` ``dz-a``, ``area`` …, ``hex`` ``30.040``);
    a drop zone with ``drop_number`` (the entry editor's third combo). Returns the row index;
    checks the stored entry (a drop zone is the row's drop order, policy drop-zone-is-drop-order)."""
    mode = w.scenario_mode
    assert w.doc is not None and mode.panels is not None and mode.selection is not None
    panel = mode.panels.schedule
    panel.add_row()
    row = len(panel.model.rows) - 1
    labels = [t.label for t in build_turns(w.doc.system.calendar)]
    assert turn_label in labels, f"{turn_label!r} is not a turn of the calendar"
    # turn: the calendar combo
    combo = edit_cell(panel, row, "turn")
    combo.setCurrentIndex(combo.findText(turn_label))
    commit(panel, "turn", combo)
    # kind: set through the model (the kind combo is a plain list of the format's kinds)
    if kind != panel.model.rows[row].kind:
        assert panel.model.setData(panel.model.index(row, COLUMNS.index("kind")), kind)
    # units: the picker dialog
    dlg = panel.choose_units(row)
    assert isinstance(dlg, UnitPickerDialog)
    for u in units:
        dlg.picker.set_filter(u)
        dlg.picker.toggle(u, True)
    _ok(qtbot, dlg.buttons)
    # entry: the kind + value editor
    ed = edit_cell(panel, row, "entry")
    ed.kind.setCurrentText(entry_kind)
    ed.value.setCurrentText(entry_value)
    assert ed.number.isVisibleTo(ed) == (entry_kind == "drop_zone")
    if drop_number:
        ed.number.setCurrentText(drop_number)
    commit(panel, "entry", ed)
    e = panel.model.rows[row]
    turns = build_turns(w.doc.system.calendar)
    assert resolve_turn(e.turn, turns) == resolve_turn(turn_label, turns), e
    assert e.units == units and e.kind == kind, e
    if entry_kind == "drop_zone":
        assert e.drop is not None and e.drop.zone == entry_value and e.drop.drop_number == (drop_number or None), e
        assert e.entry is None or e.entry.drop_zone is None, e
        return row
    got = getattr(e.entry, entry_kind, None)
    want: Any = w.doc.hmap.parse(entry_value) if entry_kind == "hex" else entry_value
    assert got == want, f"entry {entry_kind} is {got!r}, not {want!r}"
    return row
