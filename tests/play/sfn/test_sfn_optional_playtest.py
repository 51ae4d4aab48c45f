"""The SFN optional-rules playtest runs green, repeats byte for byte, and a game with optional
state saves and continues exactly; storms also stop replacements [15.2]."""

from __future__ import annotations

import copy
from pathlib import Path

from conftest import FIXTURES
from test_sfn_optional_helpers import events, game, to_phase, to_turn

from play.game import load_game
from play.script import run_script
from play.sfn.optional.base import storm_raging
from play.sfn.state import sfn_state
from loaded_dice import LoadedDice

SCRIPT = FIXTURES / "playtests" / "sfn-optional.yaml"


def test_sfn_optional_playtest_passes_and_repeats() -> None:
    a, b = run_script(SCRIPT), run_script(SCRIPT)
    assert a.ok, a.failures
    assert a.game is not None and b.game is not None
    assert a.game.log_json() == b.game.log_json()
    rules = {e.get("rule") for e in a.game.log}
    assert {"SFN 15.1", "SFN 15.2", "SFN 15.3", "SFN 15.4", "SFN 15.5", "SFN 15.7", "SFN 15.8"} <= rules


def test_every_optional_event_and_refusal_cites_a_rule_case() -> None:
    res = run_script(SCRIPT)
    assert res.game is not None
    kinds = ("storm_", "air_declaration", "lgas_check", "saf_", "plot_saf", "ntf", "blue_point", "aerial_supply",
             "airborne_withdraw", "armored_79th")
    for e in res.game.log:
        if e["type"].startswith(kinds) or e["type"] == "refused":
            assert str(e.get("rule", "")).startswith("SFN "), e


def test_save_mid_storm_and_continue_identically(tmp_path: Path) -> None:
    whole = game(5)
    to_turn(whole, 9)
    LoadedDice.on(whole, then_seeded=True, faces=[10, 1])  # approaching on 10, arriving on 11
    to_turn(whole, 11)
    assert storm_raging(whole)
    path = tmp_path / "g.json"
    whole.save(path)
    resumed = load_game(path, whole.bundle)
    assert storm_raging(resumed)
    for g in (whole, resumed):
        to_turn(g, 20)
    assert resumed.log_json() == whole.log_json()


def test_storm_stops_allied_replacements() -> None:
    g = game()
    to_turn(g, 9)
    LoadedDice.on(g, then_seeded=True, faces=[10, 1])
    to_turn(g, 11)
    to_phase(g, "allied", "reinforcement")
    r = g.apply({"do": "replace", "unit": "cw-51-inf"})
    assert not r.ok and r.rule == "SFN 15.2" and "storm" in r.message
    assert events(g, "refused")[-1]["rule"] == "SFN 15.2"


def test_storm_does_not_stop_german_replacements() -> None:
    g = game()
    to_turn(g, 9)
    LoadedDice.on(g, then_seeded=True, faces=[10, 1])
    to_turn(g, 11)
    assert storm_raging(g) and g.phase.side == "german"
    r = g.apply({"do": "replace", "unit": "de-348-inf"})
    assert r.rule != "SFN 15.2", r  # 15.2 forbids Allied replacements only


def test_undo_restores_optional_state() -> None:
    g = game()
    to_turn(g, 5)
    before = (dict(g.state.vp), copy.deepcopy(sfn_state(g).optional.tactical_air))
    assert g.apply({"do": "declare_air", "contest": True}).ok
    assert g.state.vp["german"] == before[0]["german"] - 1
    assert g.undo()
    assert (dict(g.state.vp), copy.deepcopy(sfn_state(g).optional.tactical_air)) == before
    assert g.apply({"do": "declare_air", "contest": False}).ok  # the declaration can be made again
