"""System procedures: SFN command points, GTS chit pull, GTS Drop Table and drift."""

from __future__ import annotations

import pytest

from conftest import REPO
from model.bundle import Bundle, load_bundle
from play.game import Game
from play.gts.drop_table import DROP_9_POLICY, DropTable
from play.gts.state import gts_state
from play.sfn.state import sfn_state


def sample(name: str) -> Bundle:
    path = REPO / "scenarios" / name
    if not (path / "game.yaml").exists():
        pytest.skip(f"sample {name} not there yet")
    result = load_bundle(path)
    if result.bundle is None:
        pytest.skip(f"sample {name} does not load")
    return result.bundle


def sfn_game() -> Game:
    game = Game(sample("second-front-now"), "calais-landing", 1)
    for uid, h in (("de-10-ss-pz", "3100"), ("cw-gds-armd", "2905"), ("cw-2-cdn-inf", "2805"), ("cw-51-inf", "2705")):
        game.apply({"do": "place", "unit": uid, "to": h})
    return game


def test_sfn_command_points_per_side() -> None:
    game = sfn_game()
    cp = [e for e in game.log if e["type"] == "command_points"]
    assert cp[0]["cp_side"] == "german" and cp[0]["points"] == 3 and cp[0]["rule"] == "SFN 6.1"
    game.apply({"do": "next_phase"})  # German movement
    assert game.apply({"do": "move", "unit": "de-10-ss-pz", "to": "3201"}).ok
    assert sfn_state(game).command_points.points["german"] == 2
    # Continuing the same activated move costs nothing more.
    assert game.apply({"do": "move", "unit": "de-10-ss-pz", "to": "3202"}).ok
    assert sfn_state(game).command_points.points["german"] == 2
    # A unit that moved may not attack [6.4].
    r = game.apply({"do": "attack", "attackers": ["de-10-ss-pz"], "target": "3203"})
    assert not r.ok and r.rule == "SFN 6.4"


def test_sfn_cp_run_out_and_allied_bonus_is_capped() -> None:
    game = sfn_game()
    sfn_state(game).command_points.points["german"] = 0
    game.apply({"do": "next_phase"})
    r = game.apply({"do": "move", "unit": "de-10-ss-pz", "to": "3201"})
    assert not r.ok and r.rule == "SFN 6.2" and "0 CP" in r.message
    game.apply({"do": "set_cp_bonus", "side": "allied", "bonus": 7})
    while not (game.phase.side == "allied" and game.phase.kind == "reinforcement"):
        game.apply({"do": "next_phase"})
    assert sfn_state(game).command_points.points["allied"] == 5  # 2 + bonus, at most 5 [6.1]


def test_gts_chit_pull_last_chit_carries_over() -> None:
    game = Game(sample("utah-beach"), "night-drop", 3)
    mug = [e for e in game.log if e["type"] == "mug"][-1]
    assert sorted(mug["chits"]) == ["chit-divact-101", "chit-divact-709"]
    r = game.apply({"do": "draw_chit"})
    assert not r.ok and "GTS 4.0 H Activation Phase" in r.message  # chits are drawn in 4.0 H [10.0]
    assert game.apply({"do": "next_phase", "to": "activation"}).ok
    first = game.apply({"do": "draw_chit"})
    assert first.ok
    r = game.apply({"do": "draw_chit"})
    assert not r.ok and r.rule == "GTS 10.0.6"
    last = ({"chit-divact-101", "chit-divact-709"} - {first.data["chit"]}).pop()
    game.apply({"do": "end_turn"})
    carried = [e for e in game.log if e["type"] == "chit" and e.get("carried")]
    assert carried and carried[0]["chit"] == last and carried[0]["turn"] == 2
    assert last not in gts_state(game).chits.mug


def test_gts_chit_draws_are_deterministic() -> None:
    def draw(seed: int) -> str:
        g = Game(sample("utah-beach"), "night-drop", seed)
        assert g.apply({"do": "next_phase", "to": "activation"}).ok  # chits are drawn in 4.0 H [GTS 10.0]
        return str(g.apply({"do": "draw_chit"}).data["chit"])

    a = [draw(s) for s in range(8)]
    b = [draw(s) for s in range(8)]
    assert a == b and len(set(a)) == 2


def _fixed_d10(values: list[int]):
    it = iter(values)
    return lambda self, game: next(it)


def test_drop_roll_modifiers_and_result(monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game(sample("utah-beach"), "night-drop", 1)
    assert game.apply({"do": "next_phase", "to": "activation"}).ok  # the sticks landed in Step C [GTS 4.0 C]
    monkeypatch.setattr(DropTable, "_d10", _fixed_d10([5]))
    r = game.apply({"do": "drop_roll", "units": ["b-1-502"], "drop_number": "Second"})
    assert r.ok and r.rule == "Excl 3.3.1"
    assert r.data["total"] == 2 and r.data["result"] == "1*"  # 5 - 3 on clear terrain
    assert game.unit("b-1-502").steps < game.unit("b-1-502").max_steps or game.unit("b-1-502").where == "eliminated"


def test_drop_roll_above_table_is_E_by_policy(monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game(sample("utah-beach"), "night-drop", 1)
    assert game.apply({"do": "next_phase", "to": "activation"}).ok  # the sticks landed in Step C [GTS 4.0 C]
    monkeypatch.setattr(DropTable, "_d10", _fixed_d10([9]))
    r = game.apply({"do": "drop_roll", "units": ["b-1-502"]})
    assert r.data["result"] == "E" and r.policy == DROP_9_POLICY
    assert game.unit("b-1-502").where == "box"


def test_drift_moves_or_eliminates(monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game(sample("utah-beach"), "night-drop", 1)
    assert game.apply({"do": "next_phase", "to": "activation"}).ok  # the sticks landed in Step C [GTS 4.0 C]
    monkeypatch.setattr(DropTable, "_d10", _fixed_d10([6, 2]))  # R, then drift distance 2
    start = game.unit("c-1-502").hex
    r = game.apply({"do": "drop_roll", "units": ["c-1-502"]})
    assert r.data["result"] == "R"
    drift = [e for e in game.log if e["type"] == "drift"][0]
    u = game.unit("c-1-502")
    if "eliminated" in drift:
        assert u.where == "eliminated"
    else:
        assert u.hex is not None and start is not None and u.hex.distance(start) == 2 and "rearguard" in u.markers


def test_tkg_has_no_procedures_and_no_combat() -> None:
    game = Game(sample("killing-ground"), "operation-overlord", 1)
    # TKG movement procedures live in play/tkg (ZOC, OMM, landing); still no combat.
    assert [type(p).__name__ for p in game.procedures] == ["TkgProcedure"]
    r = game.apply({"do": "attack", "attackers": [], "target": "N3445"})
    assert r.message == "combat not available: the rules provided have no CRT (TKG)"
