"""Scenario Properties dock (editor/scenario/properties.py), in both directions: a change in the
panel is one undo step on the model (and re-validated live), and undo/redo shows in the panel.

The optional rules listed are the system's (resources/systems/gts-utah.yaml ``optional_rules``) and
each row's "Test play" column is the play plug-in's coverage (play/gts/optional_coverage.yaml).
The rule switched in these tests is Utah Excl 18.7, whose case reads: "18.7 Airborne Leader
Losses … During all 5, 6, and 7 June Game Turns, when the Division Activation chit is pulled for
the 82nd and 101st Airborne Divisions add the following step. After rolling for Command and
Dispatch points normally, roll for the impact of Leader Losses." (Utah Excl 18.7) — the panel only
switches it; test play's coverage table says how far the engine plays it.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from PySide6.QtCore import Qt

from conftest import REPO
from editor.main_window import MainWindow
from editor.scenario.properties import ScenarioPropertiesPanel
from helpers import no_modal_prompts, show_window  # noqa: F401 (autouse fixture)
from model.bundle import load_bundle
from play.optional_coverage import coverage_for

UTAH = REPO / "scenarios" / "utah-beach"


def settle(qtbot: Any, w: MainWindow) -> None:
    r = w.diagnostics.runner
    assert r is not None
    r.flush()
    qtbot.waitUntil(lambda: not r.busy and r.completed == r.generation, timeout=30000)


def open_props(qtbot: Any, path: Path = UTAH, sid: str = "night-drop") -> tuple[MainWindow, ScenarioPropertiesPanel]:
    w = show_window(qtbot, path, (1400, 900))
    assert w.scenario_mode.open_scenario(sid)
    settle(qtbot, w)
    panels = w.scenario_mode.panels
    assert panels is not None
    return w, panels.properties


def codes(w: MainWindow) -> set[str]:
    return {d.code for d in w.diagnostics.panel.diagnostics}


@pytest.fixture()
def utah_copy(tmp_path: Path) -> Path:
    root = tmp_path / "utah-beach"
    shutil.copytree(UTAH, root)
    return root


def test_panel_shows_the_scenario_as_stored_and_resolved(qtbot: Any) -> None:
    w, panel = open_props(qtbot)
    assert panel.title.text() == "Night Drop (101st Airborne, Night 5 June 1944)"
    assert panel.first.currentData() == 1 and panel.last.currentData() == 3  # Night 5 June … 0900 6 June
    assert panel.weather.currentText() == "clear"
    assert panel.first_player.currentData() == "allied"
    shown = panel.optional_rules_shown()
    assert list(shown) == list(w.doc.bundle.system.optional_rules)  # type: ignore[union-attr]
    assert not any(on for on, _ in shown.values())
    assert [panel.special.topLevelItem(i).text(0) for i in range(panel.special.topLevelItemCount())] == \
        ["ssr-drop-one", "ssr-night"]
    assert panel.victory.topLevelItemCount() == 1
    # The variant inherits everything but its title and the optional rule it switches on.
    w.scenario_mode.selection.set_scenario("night-drop-leader-losses")  # type: ignore[union-attr]
    assert panel.title.text() == "Night Drop with Airborne Leader Losses (optional rule)"
    assert panel.optional_rules_shown()["Excl 18.7"][0] is True
    assert panel.weather.font().italic() and not panel.optional.font().italic()
    assert "variant of night-drop" in panel.header.text()


def test_coverage_column_is_the_plugin_table(qtbot: Any) -> None:
    w, panel = open_props(qtbot)
    cov = coverage_for(w.doc.bundle.system)  # type: ignore[union-attr]
    expected = {"applied": "applied", "partial": "partial", "scenario-data-only": "applied (scenario data)",
                "not-applied": "not applied"}
    shown = panel.optional_rules_shown()
    for rid, (_on, text) in shown.items():
        assert text == (expected[cov[rid].status] if rid in cov else "not applied"), rid
    # The table has each kind the request names: applied, partial, not applied.
    assert {"applied", "partial", "not applied"} <= {text for _on, text in shown.values()}


def test_switching_an_optional_rule_is_one_undo_step_and_undo_unticks_it(qtbot: Any) -> None:
    w, panel = open_props(qtbot)
    doc = w.doc
    assert doc is not None
    scen = doc.bundle.scenarios["night-drop"]
    index = doc.undo_stack.index()
    panel.set_optional_rule("Excl 18.7", True)
    assert scen.optional_rules == {"Excl 18.7": True}
    assert doc.undo_stack.index() == index + 1
    assert doc.undo_stack.undoText() == "Switch on optional rule Excl 18.7"
    assert panel.optional_rules_shown()["Excl 18.7"][0] is True
    # The variant that switches it on inherits it now: the panel of the base changed, not the variant.
    doc.undo_stack.undo()
    assert "optional_rules" not in scen.model_fields_set and scen.optional_rules == {}
    assert panel.optional_rules_shown()["Excl 18.7"][0] is False
    assert not doc.bundle.pending_texts()
    doc.undo_stack.redo()
    assert panel.optional_rules_shown()["Excl 18.7"][0] is True


def test_switching_off_what_a_variant_inherits_writes_false_and_back_removes_it(qtbot: Any) -> None:
    w, panel = open_props(qtbot, sid="night-drop-leader-losses")
    doc = w.doc
    assert doc is not None
    variant = doc.bundle.scenarios["night-drop-leader-losses"]
    panel.set_optional_rule("Excl 18.3", True)
    assert variant.optional_rules == {"Excl 18.7": True, "Excl 18.3": True}
    panel.set_optional_rule("Excl 18.7", False)
    assert variant.optional_rules == {"Excl 18.3": True}  # the base has it off: the key goes (optional-rule-minimal)
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    assert not doc.bundle.pending_texts()


def test_title_turns_weather_first_player_edit_and_undo(qtbot: Any) -> None:
    w, panel = open_props(qtbot)
    doc = w.doc
    assert doc is not None
    scen = doc.bundle.scenarios["night-drop"]
    start = doc.undo_stack.index()
    panel.set_title("Night Drop, retitled")
    assert scen.name == "Night Drop, retitled"
    assert w.scenario_mode.chooser.currentText() == "Night Drop, retitled"  # the chooser shows titles
    panel.choose_turns(last="1100 6 June")
    assert scen.turns.last == "1100 6 June" and scen.turns.first == "Night 5 June"  # type: ignore[union-attr]
    panel.set_weather("overcast")
    assert scen.weather == "overcast"
    panel.set_first_player("german")
    assert scen.first_player == "german"
    assert doc.undo_stack.index() == start + 4
    for _ in range(4):
        doc.undo_stack.undo()
    assert panel.title.text() == "Night Drop (101st Airborne, Night 5 June 1944)"
    assert panel.last.currentData() == 3 and panel.weather.currentText() == "clear"
    assert panel.first_player.currentData() == "allied"
    assert not doc.bundle.pending_texts()


def test_last_turn_before_first_is_said_inline(qtbot: Any) -> None:
    w, panel = open_props(qtbot)
    panel.choose_turns(first="0900 6 June", last="Night 5 June")
    assert panel.turns_problem.isVisible() and "comes before the first" in panel.turns_problem.text()
    w.doc.undo_stack.undo()  # type: ignore[union-attr]
    w.doc.undo_stack.undo()  # type: ignore[union-attr]
    assert not panel.turns_problem.isVisible()


def test_playable_area_half_hexes_undo(qtbot: Any) -> None:
    w, panel = open_props(qtbot)
    doc = w.doc
    assert doc is not None
    scen = doc.bundle.scenarios["night-drop"]
    before = scen.playable.model_dump() if scen.playable is not None else None  # the sample states its bounds
    assert panel.half_hexes.isChecked()
    panel.half_hexes.setChecked(False)
    assert scen.playable is not None and scen.playable.half_hexes is False
    doc.undo_stack.undo()
    assert (scen.playable.model_dump() if scen.playable is not None else None) == before
    assert panel.half_hexes.isChecked()


def test_bad_rule_reference_is_marked_inline_and_by_the_validator(qtbot: Any) -> None:
    """A special rule citing a case the rulebook index lacks is flagged in the panel and by
    CORE-REF-008 (one check: model/rule_refs.py); fixing the reference clears both."""
    w, panel = open_props(qtbot)
    doc = w.doc
    assert doc is not None
    assert panel.bad_references() == [] and "CORE-REF-008" not in codes(w)
    panel.add_special_rule("Germans may not move on the first turn.", ["Excl 99.9"])
    rows = panel.bad_references()
    assert [r for r, _ in rows] == [2] and "not a case of the rulebook index" in rows[0][1]
    assert "1 rule reference not in the rulebook index" in panel.refs_summary.text()
    settle(qtbot, w)
    assert "CORE-REF-008" in codes(w)
    panel.edit_item("special_rules", 2, 2, "Excl 3.3; Excl 3.3.1")  # typed in the table's cell
    assert doc.bundle.scenarios["night-drop"].special_rules[2].refs == ["Excl 3.3", "Excl 3.3.1"]
    assert panel.bad_references() == []
    settle(qtbot, w)
    assert "CORE-REF-008" not in codes(w)
    doc.undo_stack.undo()
    assert [r for r, _ in panel.bad_references()] == [2]
    doc.undo_stack.undo()
    assert panel.special.topLevelItemCount() == 2


def test_victory_conditions_add_edit_remove(qtbot: Any) -> None:
    w, panel = open_props(qtbot)
    doc = w.doc
    assert doc is not None
    scen = doc.bundle.scenarios["night-drop"]
    panel.add_victory_condition("Hold Ste-Mère-Église at the end of the game.", side="allied", vp=5)
    assert scen.victory[-1].vp == 5 and panel.victory.topLevelItemCount() == 2
    panel.edit_item("victory", 1, 1, "7")
    assert scen.victory[-1].vp == 7
    panel.edit_item("victory", 1, 1, "seven")  # refused, with a message; nothing changes
    assert scen.victory[-1].vp == 7 and panel.victory.topLevelItem(1).text(1) == "7"
    panel.remove_item("victory", 0)
    assert len(scen.victory) == 1 and scen.victory[0].vp == 7
    for _ in range(3):
        doc.undo_stack.undo()
    assert not doc.bundle.pending_texts()


def test_variant_special_rule_edit_copies_the_list_into_the_variant(qtbot: Any) -> None:
    w, panel = open_props(qtbot, sid="night-drop-playtest")
    doc = w.doc
    assert doc is not None
    base, variant = doc.bundle.scenarios["night-drop"], doc.bundle.scenarios["night-drop-playtest"]
    panel.edit_item("special_rules", 1, 1, "Night LOS is 3 hexes (variant text).")
    assert variant.special_rules[1].text == "Night LOS is 3 hexes (variant text)."
    assert base.special_rules[1].text.startswith("Night turn LOS")  # the base is untouched
    assert set(doc.bundle.pending_texts()) == {"scenarios/night-drop-playtest.yaml"}


def test_title_edit_saves_as_one_changed_line(qtbot: Any, utah_copy: Path) -> None:
    w, panel = open_props(qtbot, utah_copy)
    path = utah_copy / "scenarios" / "night-drop.yaml"
    before = path.read_text(encoding="utf-8").splitlines()
    panel.set_title("Night Drop — a new title")
    w.doc.save()  # type: ignore[union-attr]
    after = path.read_text(encoding="utf-8").splitlines()
    changed = [i for i, (a, b) in enumerate(zip(before, after)) if a != b]
    assert len(before) == len(after) and changed == [2]
    assert yaml.safe_load(after[2]) == {"name": "Night Drop — a new title"}
    assert load_bundle(utah_copy).bundle.scenarios["night-drop"].name == "Night Drop — a new title"  # type: ignore[union-attr]


def test_screenshot_of_the_panel(qtbot: Any, tmp_path: Path) -> None:
    """A grab of the dock with a flagged reference, for docs/scenario-editor.md (written only when
    HEXPROOF_DOC_SHOTS names a folder)."""
    import os

    w, panel = open_props(qtbot, sid="night-drop-leader-losses")
    panel.add_special_rule("Illustrative: no German reserve moves before 0100 6 June.", ["Excl 99.9"])
    dock = w.scenario_mode.properties_dock
    dock.setFloating(True)
    dock.resize(640, 1020)
    dock.show()
    qtbot.waitUntil(lambda: panel.isVisible())
    img = dock.grab()
    assert img.width() >= 600 and img.height() >= 900
    out = os.environ.get("HEXPROOF_DOC_SHOTS")
    target = Path(out) / "scenario-properties.png" if out else tmp_path / "scenario-properties.png"
    assert img.save(str(target))


def test_starting_vp_per_side_edit_and_undo(qtbot: Any) -> None:
    """The SFN sample's Calais landing writes ``vp: {german: 50}``; the panel edits a side's
    starting VP as one undo step, and a variant's edit copies the inherited mapping into it."""
    w, panel = open_props(qtbot, REPO / "scenarios" / "second-front-now", "calais-landing")
    doc = w.doc
    assert doc is not None
    assert panel.vp_edits["german"].text() == "50" and panel.vp_edits["allied"].text() == ""
    panel.set_start_vp("german", 55)
    assert doc.bundle.scenarios["calais-landing"].vp == {"german": 55}
    assert doc.undo_stack.undoText() == "Set starting VP of german"
    doc.undo_stack.undo()
    assert panel.vp_edits["german"].text() == "50" and not doc.bundle.pending_texts()
    w.scenario_mode.selection.set_scenario("calais-riga-odessa")  # type: ignore[union-attr]
    assert panel.vp_edits["german"].font().italic()  # inherited
    panel.set_start_vp("allied", 3)
    assert doc.bundle.scenarios["calais-riga-odessa"].vp == {"german": 50, "allied": 3}
    assert doc.bundle.scenarios["calais-landing"].vp == {"german": 50}
    assert not panel.vp_edits["german"].font().italic()


def test_a_turn_not_in_the_calendar_is_listed_as_such(qtbot: Any) -> None:
    from model import scenario_props as sp
    from model.changes import ScenarioChanged

    w, panel = open_props(qtbot)
    doc = w.doc
    assert doc is not None
    sp.set_turns(doc.bundle.scenarios["night-drop"], "Someday", "0900 6 June")  # as a hand-edited file might say
    doc.notify(ScenarioChanged(None, "night-drop"))
    assert panel.first.currentText() == "Someday  (not in the calendar)"
    assert "'Someday' is not a turn of the calendar" in panel.turns_problem.text()
    panel.choose_turns(first="Night 5 June")
    assert doc.bundle.scenarios["night-drop"].turns.first == "Night 5 June"  # type: ignore[union-attr]


def test_end_to_end_a_new_variant_with_an_unplayed_optional_rule(qtbot: Any) -> None:
    """Scenario ▸ New Variant, switch on Utah Excl 18.5 German Decoy Mines in the panel, whose
    Test play column says "not applied"; Play mode then says so when the game starts."""
    w, panel = open_props(qtbot)
    assert w.scenario_mode.menu.new_variant("night-drop-decoys", "Night Drop with decoy mines")
    assert panel.sid == "night-drop-decoys"
    assert panel.optional_rules_shown()["Excl 18.5"] == (False, "not applied")
    panel.set_optional_rule("Excl 18.5", True)
    assert w.doc.bundle.scenarios["night-drop-decoys"].optional_rules == {"Excl 18.5": True}  # type: ignore[union-attr]
    assert w.play_mode.play("night-drop-decoys")
    msg = w.statusBar().currentMessage()
    assert "Optional rules not played" in msg and "Excl 18.5" in msg
