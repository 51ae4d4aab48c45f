"""Authoring a scenario from nothing, end to end (issue #18 item 6), through the real widgets:
File ▸ New Bundle…, the Counters dock, the placement dialog, the drop-zone dock and the map's
zone tool, the schedule table's editors, the Scenario Properties optional-rule check boxes,
File ▸ Save; then ``python -m hexproof validate`` as a subprocess, and a second window that
reopens the bundle and finds everything where it was put.

The model is only read here (to check each step), never edited directly: every change goes
through a widget or a helper that drives one (tests/editor/scenario_helpers.py,
``CounterPanel.add_counters``, ``ScenarioPropertiesPanel.set_optional_rule``, the counter
import dialog).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

from openpyxl import Workbook
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QInputDialog

from conftest import REPO
from editor.main_window import MainWindow
from editor.new_bundle_wizard import fill_and_finish
from editor.scenario.counter_import import CounterImportDialog
from editor.scenario.properties import rows
from helpers import click, mouse, no_modal_prompts, scene_point, show_window  # noqa: F401 (autouse fixture)
from model.calendar import build_turns, resolve_turn
from model.diagnostics import Severity
from model.new_bundle import SCENARIO_ID
from scenario_helpers import schedule_arrival, set_up_unit_at_hex


# --- steps shared by both tests ----------------------------------------------------------------

def new_window(qtbot: Any) -> MainWindow:
    """An empty shown window, as the application starts (no autosave during the test)."""
    w = MainWindow(autosave_seconds=3600)
    qtbot.addWidget(w)
    w.resize(1300, 850)
    w.show()
    return w


def new_bundle(qtbot: Any, w: MainWindow, system: str, folder: Path) -> Path:
    """File ▸ New Bundle… through its menu action, driven to Finish; the bundle is then open."""
    w.actions_by_id["file.new"].trigger()
    wizard = w.new_bundle_wizard
    assert wizard is not None and wizard.isVisible()
    root = fill_and_finish(wizard, system, f"End to end {system}", folder, size=(20, 15))
    qtbot.waitUntil(lambda: not wizard.isVisible())
    assert w.doc is not None and Path(w.doc.path) == root.absolute() and not w.doc.is_modified
    return root


def enter_scenario_mode(qtbot: Any, w: MainWindow) -> None:
    """Scenario mode (its action, Ctrl+E) on the wizard's starter scenario."""
    w.scenario_mode.action.trigger()
    assert w.scenario_mode.open_scenario(SCENARIO_ID)
    assert w.scenario_mode.panels is not None
    settle(qtbot, w)


def settle(qtbot: Any, w: MainWindow) -> None:
    runner = w.diagnostics.runner
    assert runner is not None
    runner.flush()
    qtbot.waitUntil(lambda: not runner.busy and runner.completed == runner.generation, timeout=30000)


def answer_modal(kind: type, answer: Callable[[Any], None]) -> None:
    """Answer the next modal dialog of ``kind`` as a user would, once it is up."""
    def run() -> None:
        dlg = QApplication.activeModalWidget()
        assert isinstance(dlg, kind), f"expected a {kind.__name__}, got {dlg!r}"
        answer(dlg)
    QTimer.singleShot(0, run)


def paint_terrain(qtbot: Any, w: MainWindow, terrain: str, label: str) -> None:
    """Map mode's Tools dock: the terrain combo, the Terrain tool button, then a click on the
    hex with printed label ``label``."""
    palette, doc, view = w.map_mode.palette, w.doc, w.view
    assert palette is not None and doc is not None and view is not None and w.active_mode is w.map_mode
    palette.terrain.setCurrentIndex(palette.terrain.findData(terrain))
    palette.buttons["terrain"].click()
    h = doc.hmap.parse(label)
    view.set_zoom(2.0)
    view.center_on_hex(h)
    click(view, scene_point(view, h))
    assert doc.hmap.terrain_at(h) == terrain


def draw_drop_zone(qtbot: Any, w: MainWindow, name: str, run: list[str]) -> str:
    """Drop-zone dock: New… (the name typed into its dialog), Edit hexes, then on the map a
    click on the first hex of ``run`` and a drag from it through each hex of ``run`` (printed
    labels of neighbouring hexes). Returns the zone id."""
    mode, doc, view = w.scenario_mode, w.doc, w.view
    assert mode.panels is not None and doc is not None and view is not None
    zp = mode.panels.zones
    new_button = next(b for b in zp.findChildren(type(zp.edit_btn)) if b.text() == "New…")

    def type_name(dlg: QInputDialog) -> None:
        dlg.setTextValue(name)
        dlg.accept()

    answer_modal(QInputDialog, type_name)
    new_button.click()
    zone = zp.current_zone()
    assert zone is not None and zone.name == name, zone
    zp.edit_btn.click()
    assert zp.edit_btn.isChecked()
    hexes = [doc.hmap.parse(label) for label in run]
    view.set_zoom(2.0)
    view.center_on_hex(hexes[0])
    click(view, scene_point(view, hexes[0]))  # a click toggles one hex in
    assert zp.current_zone().hexes == hexes[:1]  # type: ignore[union-attr]
    mouse(view, "press", scene_point(view, hexes[0]))  # a drag adds the hexes it crosses
    for h in hexes[1:]:
        mouse(view, "move", scene_point(view, h))
    mouse(view, "release", scene_point(view, hexes[-1]))
    zp.edit_btn.click()  # back to the setup tool
    return zone.id


def save(qtbot: Any, w: MainWindow) -> None:
    """File ▸ Save through its action; the document is clean afterwards."""
    assert w.doc is not None and w.doc.is_modified
    w.actions_by_id["file.save"].trigger()
    assert not w.doc.is_modified


def validate(root: Path) -> list[dict[str, Any]]:
    """``python -m hexproof validate`` as a subprocess: exit 0 and no error; returns the findings."""
    done = subprocess.run([sys.executable, "-m", "hexproof", "validate", "--format", "json", str(root)],
                          cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    found = json.loads(done.stdout)["diagnostics"]
    errors = [d for d in found if d["severity"] == "error"]
    assert errors == [], errors
    return found


def window_agrees(qtbot: Any, w: MainWindow) -> None:
    """The window's live validation, once settled, has no error either."""
    settle(qtbot, w)
    assert [d.render() for d in w.diagnostics.diagnostics if d.severity >= Severity.ERROR] == []


def turn_two(w: MainWindow) -> str:
    """The calendar's second turn label (turns are the system's data, not the test's)."""
    assert w.doc is not None
    return build_turns(w.doc.system.calendar)[1].label


# --- GTS: Utah Beach ---------------------------------------------------------------------------

# Six counters typed into the Counters dock: four set up, two airborne companies to drop.
# Infantry and airborne print tq, fr and ma (the system's required_fields; PROOF-CTR-005, GTS
# 2.0). The printed values are this test's own (the rows say illustrative: true), not the game's.
GTS_COUNTERS = [
    {"id": "t-wn-1", "name": "Wn 1", "side": "german", "category": "strongpoint_unit", "front.tq": "3",
     "illustrative": "true"},
    {"id": "t-gren-1", "name": "1./Gren 1", "side": "german", "category": "infantry", "front.tq": "4",
     "front.fr": "2", "front.ma": "4", "illustrative": "true"},
    {"id": "t-gren-2", "name": "2./Gren 1", "side": "german", "category": "infantry", "front.tq": "3",
     "front.fr": "2", "front.ma": "4", "illustrative": "true"},
    {"id": "t-inf-1", "name": "A/1/8", "side": "allied", "category": "infantry", "front.tq": "5",
     "front.fr": "3", "front.ma": "5", "illustrative": "true"},
    {"id": "t-ab-1", "name": "A/1/501", "side": "allied", "category": "airborne", "front.tq": "6",
     "front.fr": "2", "front.ma": "5", "flags": "paratroop", "illustrative": "true"},
    {"id": "t-ab-2", "name": "B/1/501", "side": "allied", "category": "airborne", "front.tq": "5",
     "front.fr": "2", "front.ma": "5", "flags": "paratroop", "illustrative": "true"},
]
GTS_SETUP = {"t-wn-1": "05.004", "t-gren-1": "06.005", "t-gren-2": "07.004", "t-inf-1": "10.010"}
GTS_DROPPED = ["t-ab-1", "t-ab-2"]
GTS_ZONE = ["03.008", "04.008", "05.008", "06.008"]  # a run of neighbours: GTS columns zigzag
# "Rally Points are placed in any Hill, Bridge, Village or Town hex within 4 hexes of the
# Battalion's DZ" (Utah Excl 3.3 A; GTS-DZ-003): the all-clear map gets a village two hexes from DZ A.
GTS_RALLY_VILLAGE = "04.010"
# Leader losses for the airborne: "18.7 Airborne Leader Losses … During all 5, 6, and 7 June Game
# Turns, when the Division Activation chit is pulled for the 82nd and 101st Airborne Divisions add
# the following step." (Utah Excl 18.7)
GTS_OPTIONAL = "Excl 18.7"


def test_gts_bundle_from_nothing_survives_save_validate_and_reopen(qtbot: Any, tmp_path: Path) -> None:
    """File ▸ New Bundle on gts-utah; paint a village with Map mode's terrain tool (the Rally
    Point hex of Excl 3.3 A near where DZ A goes, GTS-DZ-003); add 6 counters in the Counters
    dock; set 4 of them up through the placement dialog; draw DZ A with the zone tool ("Each
    Airborne Drop Zone (DZ) … is listed", Utah Excl 3.2: DZ A is one of its zones, so GTS-DZ-001
    accepts the id); schedule 2 airborne companies to drop into it, Drop One, on the calendar's
    second turn (a "drop" row whose drop order the GTS-DZ rules read, Utah Excl 3.1); switch on
    Excl 18.7 in Scenario Properties; File ▸ Save; validate clean in
    a subprocess; reopen in a new window and find all of it."""
    w = new_window(qtbot)
    root = new_bundle(qtbot, w, "gts-utah", tmp_path / "utah-from-nothing")
    paint_terrain(qtbot, w, "village", GTS_RALLY_VILLAGE)
    enter_scenario_mode(qtbot, w)
    panels = w.scenario_mode.panels
    assert panels is not None and w.doc is not None
    added = panels.counters.add_counters(GTS_COUNTERS)
    assert added == [row["id"] for row in GTS_COUNTERS]
    for unit, label in GTS_SETUP.items():
        set_up_unit_at_hex(qtbot, w, unit, label)
    zone = draw_drop_zone(qtbot, w, "DZ A", GTS_ZONE)
    assert zone == "dz-a"
    drawn = set(w.doc.bundle.scenarios[SCENARIO_ID].drop_zones[0].hexes)
    assert drawn == {w.doc.hmap.parse(label) for label in GTS_ZONE}
    turn = turn_two(w)
    # The drop order the GTS-DZ rules read (policy drop-zone-is-drop-order); its number is the
    # scenario's only drop, Drop One (illustrative: the scenario book sets drop numbers, Excl
    # 3.3.1 gives only their Drop Table modifiers).
    schedule_arrival(qtbot, w, GTS_DROPPED, turn, "drop_zone", zone, kind="drop", drop_number="One")
    panels.properties.set_optional_rule(GTS_OPTIONAL, True)
    assert panels.properties.optional_rules_shown()[GTS_OPTIONAL][0] is True
    save(qtbot, w)
    validate(root)
    window_agrees(qtbot, w)

    again = show_window(qtbot, root)
    doc = again.doc
    assert doc is not None and not doc.is_modified
    by_id = {c.id: c for c in doc.bundle.counters}
    assert list(by_id) == [row["id"] for row in GTS_COUNTERS]
    for row in GTS_COUNTERS:
        c = by_id[row["id"]]
        assert (c.side, c.category, c.name) == (row["side"], row["category"], row["name"])
        assert c.front is not None and str(c.front.values["tq"]) == row["front.tq"]
    scen = doc.bundle.scenarios[SCENARIO_ID]
    placed = {e.unit: doc.hmap.label(e.hex) for e in scen.setup if e.hex is not None}
    assert placed == GTS_SETUP
    (dz,) = scen.drop_zones
    assert (dz.id, dz.name) == ("dz-a", "DZ A") and set(dz.hexes) == drawn
    turns = build_turns(doc.system.calendar)
    (arrival,) = scen.schedule
    assert resolve_turn(arrival.turn, turns) == 2 and arrival.kind == "drop" and arrival.units == GTS_DROPPED
    assert arrival.drop is not None and (arrival.drop.zone, arrival.drop.drop_number) == ("dz-a", "One")
    assert arrival.entry is None
    assert scen.optional_rules == {GTS_OPTIONAL: True}
    # The reopened window shows it too: the check box is ticked in Scenario Properties.
    assert again.scenario_mode.open_scenario(SCENARIO_ID) and again.scenario_mode.panels is not None
    assert again.scenario_mode.panels.properties.optional_rules_shown()[GTS_OPTIONAL][0] is True


# --- SFN: Second Front Now ---------------------------------------------------------------------

SFN_HEADER = ["id", "name", "side", "category", "steps", "front.designation", "front.attack", "front.defense",
              "front.movement", "illustrative"]
# Six counters in a workbook the user made (number cells for the factors). uk-1-ab and uk-6-ab
# are the ids the system's airdrop data names as eligible ("Only the British 1st and 6th
# Airborne Divisions and US 82nd and US 101st Divisions are eligible for this", SFN 15.6); the
# factors are this test's own (illustrative: true), not the game's.
SFN_ROWS: list[list[Any]] = [
    ["de-t-716-inf", "716th Infantry Division", "german", "infantry", 1, "716", 2, 3, 2, "true"],
    ["de-t-711-inf", "711th Infantry Division", "german", "infantry", 1, "711", 2, 3, 2, "true"],
    ["de-t-21-pz", "21st Panzer Division", "german", "armor", 2, "21", 6, 5, 4, "true"],
    ["de-t-91-ll", "91st Air Landing Division", "german", "infantry", 2, "91", 3, 4, 3, "true"],
    ["uk-1-ab", "1st Airborne Division", "allied", "airborne", 2, "1", 3, 5, 3, "true"],
    ["uk-6-ab", "6th Airborne Division", "allied", "airborne", 2, "6", 3, 5, 3, "true"],
]
SFN_SETUP = {"de-t-716-inf": "0504", "de-t-711-inf": "0604", "de-t-21-pz": "0808", "de-t-91-ll": "1010"}
SFN_DROPPED = ["uk-1-ab", "uk-6-ab"]
SFN_LANDING_HEX = "1206"
SFN_OPTIONAL = "airdrops"


def write_counter_workbook(path: Path) -> Path:
    """The stable layout (docs/counters-csv.md "XLSX"): one sheet ``counters``, header in row 1."""
    book = Workbook()
    sheet = book.active
    sheet.title = "counters"
    sheet.append(SFN_HEADER)
    for row in SFN_ROWS:
        sheet.append(row)
    book.save(path)
    return path


def import_workbook(w: MainWindow, path: Path) -> list[str]:
    """Counters dock ▸ Import… on ``path``: the dialog's Dry Run, then Apply; returns the lines
    the dry run listed."""
    assert w.scenario_mode.panels is not None
    panel = w.scenario_mode.panels.counters
    listed: list[str] = []

    def dry_run_and_apply(dlg: CounterImportDialog) -> None:
        dlg.run_btn.click()
        listed.extend(dlg.lines.item(i).text() for i in range(dlg.lines.count()))
        assert dlg.apply_btn.isEnabled(), listed
        dlg.apply_btn.click()

    answer_modal(CounterImportDialog, dry_run_and_apply)
    assert panel.import_dialog(str(path))
    return listed


def test_sfn_bundle_from_an_xlsx_survives_save_validate_and_reopen(qtbot: Any, tmp_path: Path) -> None:
    """File ▸ New Bundle on sfn; import 6 counters from an XLSX through the Counters dock's
    import dialog; set 4 up through the placement dialog; schedule the two British airborne
    divisions to drop on GT 2; switch on optional rule 15.6 Allied Airdrops; save, validate,
    reopen.

    SFN has no drop zones: "To perform a drop, the Allied player secretly writes down the
    proposed date and landing hex for the unit" and "Drops may not be made into Marsh, City or
    Fortress hexes" (SFN 15.6). So where the GTS test draws a zone, this one schedules the drop
    onto a landing hex (a ``drop`` row whose entry is a hex; the wizard's map is all clear
    terrain). German arrivals are no substitute: "German reinforcements may appear every fifth
    game turn" (SFN 7.1), so none can arrive on GT 2. The SFN-AIR rules check plotted drops
    (``params.airdrops``, policy params-airdrops), not schedule rows, so they have nothing to
    say about this one; validation is clean either way."""
    w = new_window(qtbot)
    root = new_bundle(qtbot, w, "sfn", tmp_path / "sfn-from-xlsx")
    enter_scenario_mode(qtbot, w)
    panels = w.scenario_mode.panels
    assert panels is not None and w.doc is not None
    listed = import_workbook(w, write_counter_workbook(tmp_path / "my-counters.xlsx"))
    assert listed == [f"+ {row[0]}" for row in SFN_ROWS]
    assert [c.id for c in w.doc.bundle.counters] == [row[0] for row in SFN_ROWS]
    for unit, label in SFN_SETUP.items():
        set_up_unit_at_hex(qtbot, w, unit, label)
    turn = turn_two(w)
    schedule_arrival(qtbot, w, SFN_DROPPED, turn, "hex", SFN_LANDING_HEX, kind="drop")
    panels.properties.set_optional_rule(SFN_OPTIONAL, True)
    assert panels.properties.optional_rules_shown()[SFN_OPTIONAL][0] is True
    save(qtbot, w)
    validate(root)
    window_agrees(qtbot, w)

    again = show_window(qtbot, root)
    doc = again.doc
    assert doc is not None and not doc.is_modified
    by_id = {c.id: c for c in doc.bundle.counters}
    assert list(by_id) == [row[0] for row in SFN_ROWS]
    for row in SFN_ROWS:
        c = by_id[row[0]]
        assert (c.name, c.side, c.category, c.steps) == (row[1], row[2], row[3], row[4])
        assert c.front is not None and c.front.designation == row[5]
        assert [c.front.values[k] for k in ("attack", "defense", "movement")] == row[6:9]
    scen = doc.bundle.scenarios[SCENARIO_ID]
    placed = {e.unit: doc.hmap.label(e.hex) for e in scen.setup if e.hex is not None}
    assert placed == SFN_SETUP
    turns = build_turns(doc.system.calendar)
    (arrival,) = scen.schedule
    assert resolve_turn(arrival.turn, turns) == 2 and arrival.kind == "drop" and arrival.units == SFN_DROPPED
    assert arrival.entry is not None and arrival.entry.hex == doc.hmap.parse(SFN_LANDING_HEX)
    assert scen.optional_rules == {SFN_OPTIONAL: True}
    assert again.scenario_mode.open_scenario(SCENARIO_ID) and again.scenario_mode.panels is not None
    assert again.scenario_mode.panels.properties.optional_rules_shown()[SFN_OPTIONAL][0] is True


# --- regression: found by the tests above ------------------------------------------------------

def test_ticking_an_optional_rule_keeps_its_row_alive(qtbot: Any) -> None:
    """Ticking a check box in Scenario Properties pushes SwitchOptionalRule from inside the
    item's setData (QTreeWidget.itemChanged), and the push refreshes the panel. The refresh
    used to clear and rebuild the tree, deleting the item Qt was still in: the GTS test above
    crashed (SIGSEGV in set_optional_rule) about one run in six. Now the rows are updated in
    place, so the ticked row is the same item afterwards, on undo and redo too."""
    w = show_window(qtbot, REPO / "scenarios" / "utah-beach")
    assert w.scenario_mode.open_scenario("night-drop") and w.scenario_mode.panels is not None
    panel = w.scenario_mode.panels.properties
    item = panel.optional_item(GTS_OPTIONAL)
    assert panel.optional_rules_shown()[GTS_OPTIONAL][0] is False
    panel.set_optional_rule(GTS_OPTIONAL, True)
    assert w.doc is not None and w.doc.undo_stack.undoText() == f"Switch on optional rule {GTS_OPTIONAL}"
    assert panel.optional_item(GTS_OPTIONAL) is item and panel.optional_rules_shown()[GTS_OPTIONAL][0] is True
    w.doc.undo_stack.undo()
    assert panel.optional_item(GTS_OPTIONAL) is item and panel.optional_rules_shown()[GTS_OPTIONAL][0] is False
    w.doc.undo_stack.redo()
    assert panel.optional_item(GTS_OPTIONAL) is item and panel.optional_rules_shown()[GTS_OPTIONAL][0] is True


def test_typing_into_a_special_rule_or_victory_cell_keeps_its_row_alive(qtbot: Any) -> None:
    """The same hazard in the special rules and victory tables: typing into a cell pushes the
    edit from inside the item's setData; the refresh now updates the rows in place, marks
    included (a bad reference's red cell comes and goes with the reference)."""
    w = show_window(qtbot, REPO / "scenarios" / "utah-beach")
    assert w.scenario_mode.open_scenario("night-drop") and w.scenario_mode.panels is not None and w.doc is not None
    panel = w.scenario_mode.panels.properties
    special = rows(panel.special)
    panel.edit_item("special_rules", 0, 2, "Excl 99.9")  # not a case of the rulebook index
    assert rows(panel.special) == special
    assert [r for r, _ in panel.bad_references()] == [0] and special[0].toolTip(2) != ""
    w.doc.undo_stack.undo()
    assert rows(panel.special)[0] is special[0]
    assert panel.bad_references() == [] and special[0].toolTip(2) == ""
    victory = rows(panel.victory)[0]
    panel.edit_item("victory", 0, 1, "9")
    assert rows(panel.victory)[0] is victory and victory.text(1) == "9"
    assert w.doc.bundle.scenarios["night-drop"].victory[0].vp == 9
