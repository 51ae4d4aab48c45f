"""SFN's typed state (play/sfn/state.py): JSON round trip, copies that share nothing, undo,
saves (and saves from before the state was typed), and no SFN module reading ``GameState.extra``."""

from __future__ import annotations

import ast
import copy
import dataclasses
import json
from pathlib import Path

import pytest
from hypothesis import Phase, find, given, settings
from hypothesis import strategies as st
from test_sfn_helpers import sfn_game, to_phase

from conftest import REPO
from play.errors import GameError
from play.game import load_game
from play.sfn import state as state_module
from play.sfn.plugin import PLUGIN
from play.sfn.state import DropPlan, SafPlan, SfnState, sfn_state
from play.tkg.state import TkgState

# ``st.builds`` leaves fields with defaults at their defaults: draw every field of every state
# dataclass instead, so the round trip sees full lists, turn-keyed maps and set options.
for _cls in vars(state_module).values():
    if isinstance(_cls, type) and dataclasses.is_dataclass(_cls) and _cls.__module__ == state_module.__name__:
        st.register_type_strategy(_cls, st.builds(_cls, **{f.name: ... for f in dataclasses.fields(_cls)}))

# --- round trip ---------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.from_type(SfnState))
def test_sfn_state_round_trips_through_json(state: SfnState) -> None:
    d = state.to_dict()
    text = json.dumps(d, sort_keys=True)   # JSON-plain: no int keys, no dataclasses left
    assert SfnState.from_dict(json.loads(text)) == state


def test_the_drawn_states_are_not_all_empty() -> None:
    # hypothesis.find raises when no drawn state has them all (generate only: no shrinking).
    find(st.from_type(SfnState), lambda s: bool(s.airdrops.plots and s.transfers.italy_done and s.battle is not None
                                                 and s.optional.strategic_air.plans),
         settings=settings(max_examples=200, phases=[Phase.generate], database=None))


def test_empty_dict_is_the_empty_state() -> None:
    assert SfnState.from_dict({}) == SfnState()


def test_a_bad_saved_value_names_its_key() -> None:
    with pytest.raises(GameError, match=r"saved SFN state: transfers\.italy_done\.5: .*integer.*'many'"):
        SfnState.from_dict({"transfers": {"italy_done": {"5": "many"}}})


# --- copies -----------------------------------------------------------------------------------


def test_deep_copies_and_fresh_states_share_nothing() -> None:
    a = SfnState()
    a.airdrops.plots.append(DropPlan("us-82-ab", "2412", 3, 1))
    a.optional.strategic_air.plans.append(SafPlan("2413", 5, 2))
    b = copy.deepcopy(a)
    b.airdrops.plots[0].status = "dropped"
    b.optional.strategic_air.plans[0].roll = 7
    b.command_points.points["german"] = 9
    b.transfers.italy_done[5] = 1
    assert a.airdrops.plots[0].status == "plotted" and a.optional.strategic_air.plans[0].roll is None
    assert a.command_points.points == {} and a.transfers.italy_done == {}
    c, d = SfnState(), SfnState()
    c.victory.control["2412"] = "allied"
    c.box_moves[1] = 1
    assert d.victory.control == {} and d.box_moves == {}


def test_undo_restores_the_typed_state() -> None:
    g = sfn_game()
    to_phase(g, "allied", "movement")
    before = copy.deepcopy(sfn_state(g))
    assert g.apply({"do": "set_cp_bonus", "side": "allied", "bonus": 2}).ok
    assert sfn_state(g) != before
    assert g.undo() and sfn_state(g) == before


# --- saves --------------------------------------------------------------------------------------


@pytest.mark.parametrize("suffix", [".json", ".yaml"])
def test_an_sfn_game_saves_its_state_under_system_and_resumes_it(tmp_path: Path, suffix: str) -> None:
    g = sfn_game()
    to_phase(g, "allied", "movement")
    g.apply({"do": "set_cp_bonus", "side": "allied", "bonus": 1})
    path = tmp_path / f"game{suffix}"
    g.save(path)
    saved = g.to_dict()["state"]
    assert "extra" not in saved and saved["system"]["command_points"]["bonus"] == {"allied": 1}
    resumed = load_game(path, g.bundle)
    assert sfn_state(resumed) == sfn_state(g)
    for game in (g, resumed):
        game.apply({"do": "next_phase"})
    assert resumed.log_json() == g.log_json()


def test_a_save_from_before_typed_state_resumes_from_extra() -> None:
    old = {
        "cp": {"points": {"allied": 3}, "bonus": {"allied": 1}, "acted": {"us-1-inf": "move"}, "attacked": ["2412"]},
        "sfn": {
            "plots": [{"unit": "us-82-ab", "hex": "2412", "turn": 3, "plotted": 1, "status": "plotted"}],
            "dropped": {"uk-6-ab": 2}, "scenario_plots_loaded": True,
            "control": {"2412": "german"}, "beachheads": {"2614": "allied"}, "beachheads_scored": [],
            "replacements": {"turn": 2, "points": {"us": 1}, "known": {"source": "unknown"}, "replaced": [],
                             "oos_dead": {"de-1": "while out of supply"}},
            "transfers": {"arrived": {}, "italy_done": {"5": 1}, "scheduled": {"10": "de-2"}, "riga_odessa": None,
                          "draws": []},
            "box_moves": {"3": 1},
            "optional": {"great_storms": {"raging": True, "days": 2, "checked_turn": 10},
                         "naval_task_force": {"used": {"4": 1}}},
            "optional_battle": {"naval_task_force": {"mode": "attacking"}},
        },
    }
    s = SfnState.from_extra(old)
    assert s.command_points.points == {"allied": 3} and s.command_points.acted == {"us-1-inf": "move"}
    assert s.airdrops.plots == [DropPlan("us-82-ab", "2412", 3, 1)] and s.airdrops.scenario_plots_loaded
    assert s.victory.started and s.victory.control == {"2412": "german"}
    assert s.replacements.source == "unknown" and s.replacements.oos_dead == {"de-1": "while out of supply"}
    assert s.transfers.italy_done == {5: 1} and s.transfers.scheduled == {10: "de-2"}
    assert s.box_moves == {3: 1} and s.optional.naval_task_force.used == {4: 1}
    assert s.optional.great_storms.raging and s.optional.great_storms.days == 2
    assert s.battle is None                  # it lived only during an attack
    assert not SfnState.from_extra({}).victory.started


def test_load_game_reads_the_old_extra_layout_when_system_is_absent(tmp_path: Path) -> None:
    g = sfn_game()
    to_phase(g, "allied", "movement")
    data = g.to_dict()
    state = data["state"]
    system = state.pop("system")
    state["extra"] = {"cp": system["command_points"], "sfn": {"control": system["victory"]["control"]}}
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    resumed = load_game(path, g.bundle)
    assert sfn_state(resumed).command_points == sfn_state(g).command_points
    assert sfn_state(resumed).victory.control == sfn_state(g).victory.control


def test_the_plugin_declares_its_state() -> None:
    assert PLUGIN.state is SfnState


def test_the_accessor_refuses_another_plugins_state() -> None:
    g = sfn_game()
    g.state.system = TkgState()
    with pytest.raises(TypeError, match="SfnState|sfn plug-in"):
        sfn_state(g)


# --- no untyped bag -------------------------------------------------------------------------------


def test_no_sfn_module_reads_state_extra() -> None:
    modules = sorted((REPO / "play" / "sfn").rglob("*.py"))
    bad = [f"{path.relative_to(REPO)}:{node.lineno}" for path in modules
           for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
           if isinstance(node, ast.Attribute) and node.attr == "extra"]
    assert not bad, "SFN state belongs in GameState.system (sfn_state): " + ", ".join(bad)
    assert len(modules) > 20  # the scan found the plug-in
