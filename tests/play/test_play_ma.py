"""``params.play_ma``: illustrative MAs fill in only where the counter prints none; without them
the unit cannot move (policy ``unknown-ma-cannot-move``)."""

from __future__ import annotations

import pytest

from conftest import REPO
from model.bundle import Bundle, load_bundle
from play import rules
from play.game import Game

UTAH = REPO / "scenarios" / "utah-beach"
SFN = REPO / "scenarios" / "second-front-now"


@pytest.fixture(scope="module")
def utah() -> Bundle:
    result = load_bundle(UTAH)
    assert result.bundle is not None
    return result.bundle


@pytest.fixture(scope="module")
def sfn() -> Bundle:
    result = load_bundle(SFN)
    assert result.bundle is not None
    return result.bundle


def test_lookup_skips_non_numbers_and_later_sources_win() -> None:
    got = rules.play_ma_lookup({"airborne": 4, "rule": "none", "illustrative": True},
                               {"airborne": "5", "a-1-502": 6}, None)
    assert got == {"airborne": 5.0, "a-1-502": 6.0}
    assert rules.play_ma_lookup(None, {"note": "x"}) is None


def test_counter_id_wins_over_category(utah: Bundle) -> None:
    c = utah.counter_index()["a-1-502"]
    assert rules.movement_allowance(utah.system, c, False) is None
    assert rules.movement_allowance(utah.system, c, False, {"airborne": 4.0}) == 4.0
    assert rules.movement_allowance(utah.system, c, False, {"airborne": 4.0, "a-1-502": 6.0}) == 6.0
    assert rules.movement_allowance(utah.system, c, False, {"armor": 4.0}) is None


def test_printed_ma_always_wins(sfn: Bundle) -> None:
    c = sfn.counter_index()["de-10-ss-pz"]
    assert rules.movement_allowance(sfn.system, c, False, {"de-10-ss-pz": 9.0, "armor": 9.0}) == 3.0


def _to_allied_movement(game: Game) -> None:
    """On to the GTS Activation Phase [GTS 4.0 H]: the phase in which Allied units move."""
    assert game.apply({"do": "next_phase", "to": "activation"}).ok
    assert game.phase.permits("move") and game.phase.side in (None, "allied")


def test_game_without_play_ma_refuses_with_policy(utah: Bundle) -> None:
    game = Game(utah, "night-drop", seed=1)
    _to_allied_movement(game)
    reach, problem = game.legal_moves([game.unit("a-1-502")])
    assert reach is None and problem is not None
    assert problem.policy is not None and problem.policy.startswith("unknown-ma-cannot-move")


def test_game_reads_scenario_play_ma() -> None:
    utah = load_bundle(UTAH).bundle  # a fresh copy: the params are edited in memory
    assert utah is not None
    game = Game(utah, "night-drop", seed=1)
    game.scenario.params["play_ma"] = {"illustrative": True, "airborne": 4}
    game.scenario.params["play_costs"] = {"illustrative": True,
                                          **{t.id: 1 for t in utah.system.terrain}}
    assert game.movement_allowance(game.unit("a-1-502")) == 4.0
    assert game.movement_allowance(game.unit("c5-ii-919")) is None  # not airborne, no entry
    _to_allied_movement(game)
    reach, problem = game.legal_moves([game.unit("a-1-502")])
    assert problem is None and reach is not None
    assert reach.cost and max(reach.cost.values()) <= 4.0


PLAYTESTS = {"utah-beach": ("night-drop-playtest", "utah_playtest.yaml"),
             "second-front-now": ("calais-landing-playtest", "sfn_playtest.yaml"),
             "killing-ground": ("operation-overlord-playtest", "tkg_playtest.yaml")}


@pytest.mark.parametrize("sample", sorted(PLAYTESTS))
def test_each_sample_has_an_illustrative_playtest_variant_and_script(sample: str) -> None:
    from conftest import FIXTURES

    sid, script = PLAYTESTS[sample]
    bundle = load_bundle(REPO / "scenarios" / sample).bundle
    assert bundle is not None
    scen = bundle.scenarios[sid]
    assert scen.extends and scen.illustrative
    assert "illustrative playtest values, not from the rules" in (scen.description or "")
    assert "play_ma" in scen.params and scen.params["play_ma"].get("illustrative") is True
    assert (REPO / "scenarios" / sample / "README.md").read_text(encoding="utf-8").count(sid) >= 1
    text = (FIXTURES / "playtests" / script).read_text(encoding="utf-8")
    assert f"scenario: {sid}" in text and "{do: move" in text
