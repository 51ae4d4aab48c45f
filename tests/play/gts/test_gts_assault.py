"""GTS Assault [18.1–18.7] with results [19.2] and the optional rules Excl 18.8 (0-Step Units)
and Excl 18.9 (Alone and Afraid) on the Utah sample (values declared: the counters print none)."""

from __future__ import annotations

from typing import Any

from conftest import FIXTURES
from gts_helpers import game
from play.game import Game
from play.gts import barrage
from play.gts.state import gts_state
from loaded_dice import LoadedDice

A, D, LDR = "a-1-8", "c5-ii-919", "ldr-919"     # D and its Leader start in 24.026
SRC, TGT = "24.025", "24.026"
VALUES: dict[str, dict[str, Any]] = {
    A: {"ma": 4, "ar": 3, "tq": 6, "dr": 0, "fr": 4, "line": "yellow"},
    "b-1-8": {"ma": 4, "ar": 3, "tq": 4, "dr": -1, "fr": 4, "line": "yellow"},
    D: {"ma": 3, "ar": 2, "tq": 5, "dr": -1, "fr": 3, "line": "yellow"},
}


def _game(dice: list[int] | None = None, values: dict[str, dict[str, Any]] | None = None) -> Game:
    g = game()
    g.apply({"do": "place", "unit": A, "to": SRC})
    if dice is not None:
        LoadedDice.on(g, dice, zero_is_max=True)
    return g


def _assault(g: Game, **kw: Any) -> Any:
    return g.apply({"do": "assault", "units": kw.pop("units", [A]), "target": kw.pop("target", TGT),
                    "values": kw.pop("values", VALUES), **kw})


def _events(g: Game, t: str) -> list[dict[str, Any]]:
    return [e for e in g.log if e["type"] == t]


def test_unknown_values_are_refused_with_the_case() -> None:
    g = _game()
    r = g.apply({"do": "assault", "units": [A], "target": TGT})
    assert not r.ok and r.rule == "GTS 18.1" and "declare 'ma'" in r.message


def test_only_adjacent_hexes_and_one_source_hex() -> None:
    g = _game()
    r = _assault(g, target="24.027")
    assert not r.ok and r.rule == "GTS 18.4" and "not adjacent" in r.message
    g.apply({"do": "place", "unit": "b-1-8", "to": "25.026"})
    r = _assault(g, units=[A, "b-1-8"])
    assert not r.ok and r.rule == "GTS 18.4" and "more than one hex" in r.message
    r = _assault(g, target="23.025")
    assert not r.ok and "no enemy Unit" in r.message


def test_ineligible_units_18_1() -> None:
    cases = [({"ar": "-"}, "blank Assault Rating"), ({"ma": "*"}, "no numerical movement allowance"),
             ({"line": "green"}, "Indirect Fire Unit"), ({"steps": 0}, "Zero-Step Unit")]
    for patch, why in cases:
        g = _game()
        r = _assault(g, values={**VALUES, A: {**VALUES[A], **patch}})
        assert not r.ok and r.rule == "GTS 18.1" and why in r.message, (patch, r.message)
    g = _game()
    g.unit(A).markers.append("ent")
    r = _assault(g)
    assert not r.ok and "entrenchment" in r.message
    g = _game()
    barrage.state(g)[SRC] = "heavy"
    r = _assault(g)
    assert not r.ok and "Heavy Barrage" in r.message


def test_bravery_value_is_tq_plus_best_defender_minus_best_attacker() -> None:
    # TQ 6 + defender -1 - attacker 0 = 5: a 6 fails, and the failed Unit's Action is over.
    g = _game(dice=[6])
    r = _assault(g)
    assert r.ok and "failed its Bravery Check" in r.message
    ev = _events(g, "bravery")[-1]
    assert (ev["need"], ev["die"], ev["passed"], ev["defender"]) == (5, 6, False, D)
    # A Unit in Column: +2 to the attacker's Defensive value, so 6 + (-1) - 2 = 3.
    g = _game(dice=[3, 9, 9, 9, 9])
    g.unit(A).markers.append("column")
    _assault(g)
    ev = _events(g, "bravery")[-1]
    assert ev["attacker_defense"] == 2 and ev["need"] == 3 and ev["passed"] is True


def test_zero_always_passes_nine_always_fails() -> None:
    g = _game(dice=[9])
    _assault(g, values={**VALUES, A: {**VALUES[A], "tq": 20}})
    assert _events(g, "bravery")[-1]["passed"] is False
    g = _game(dice=[0, 9, 9, 9, 9])
    _assault(g, values={**VALUES, A: {**VALUES[A], "tq": -20}})
    assert _events(g, "bravery")[-1]["passed"] is True


def test_no_fire_zone_no_bravery_check() -> None:
    g = _game(dice=[9, 9, 9, 9])
    for u in g.state.units.values():           # WN 5 next door and the St Martin battery reach it too
        if u.side != g.unit(A).side:
            u.markers.append("suppressed")     # a Suppressed Unit projects no Fire Zone [19.2.2]
    _assault(g)
    ev = _events(g, "bravery")[-1]
    assert ev["required"] is False


def test_run_away_leaders_follow_attackers_advance() -> None:
    g = _game(dice=[1])
    r = _assault(g, defenders="run", run_to="25.026")
    assert r.ok and "ran away" in r.message
    assert g.label(g.unit(D).hex) == "25.026" and "suppressed" in g.unit(D).markers
    assert g.label(g.unit(LDR).hex) == "25.026" and "suppressed" not in g.unit(LDR).markers
    assert g.label(g.unit(A).hex) == TGT


def test_defenders_that_cannot_run_surrender() -> None:
    g = _game(dice=[1])
    g.unit(D).markers.append("suppressed")
    _assault(g, defenders="run", run_to="25.026")
    assert g.unit(D).where == "eliminated" and _events(g, "assault_surrender")[0]["why"] == "Suppressed"
    assert g.label(g.unit(A).hex) == TGT


def test_charge_failed_tq_check_eliminates_the_defenders() -> None:
    # Bravery 2 (pass), the defender's charge TQ check 8 > 5: surrender, the attackers advance.
    g = _game(dice=[2, 8])
    r = _assault(g, mode="charge")
    assert r.ok and "charge broke" in r.message
    assert g.unit(D).where == "eliminated" and g.label(g.unit(A).hex) == TGT
    assert _events(g, "assault_advance")[0]["leaders_left"] == [LDR]


def test_charge_held_ends_after_the_defenders_fire() -> None:
    # Bravery 2, charge TQ 1 (pass), defender FR: 9 miss, AR: 9 miss - the Assault is over.
    g = _game(dice=[2, 1, 9, 9])
    r = _assault(g, mode="charge", **{"continue": True})
    assert r.ok and "held against the charge" in r.message
    assert [e["rating"] for e in _events(g, "assault_fire")] == ["fr", "ar"]
    assert all(e["step"] == "5D" for e in _events(g, "assault_fire"))
    assert g.label(g.unit(A).hex) == SRC


def test_command_point_guarantees_the_charge_check() -> None:
    g = _game(dice=[2, 9, 9])
    r = _assault(g, mode="charge", charge_cp=True)
    assert not r.ok and "709.ID has 0 Command Points" in r.message      # the CP must be there
    assert g.apply({"do": "set_points", "division": "709.ID", "command": 2, "dispatch": 0}).ok
    _assault(g, mode="charge", charge_cp=True)
    ev = _events(g, "assault_tq")[0]
    assert ev["command_point"] is True and ev["passed"] is True
    assert gts_state(g).activation.points["709.ID"].command == 1


def test_assaulting_together_needs_first_action_or_a_command_point_each() -> None:
    g = _game(dice=[2, 2, 9, 9, 9, 9, 9, 9, 9, 9])
    g.apply({"do": "place", "unit": "b-1-8", "to": SRC})
    r = _assault(g, units=[A, "b-1-8"])
    assert not r.ok and r.rule == "GTS 18.3"
    r = _assault(g, units=[A, "b-1-8"], together="cp")
    assert not r.ok and "4th Infantry Division has 0 Command Points" in r.message
    assert g.apply({"do": "set_points", "division": "4th Infantry Division", "command": 3, "dispatch": 0}).ok
    r = _assault(g, units=[A, "b-1-8"], together="cp")
    assert r.ok and _events(g, "assault")[-1]["cp_spent"] == {"4th Infantry Division": 2}
    assert gts_state(g).activation.points["4th Infantry Division"].command == 1


def test_assault_fire_both_sides_and_a_second_round() -> None:
    # Bravery 2; round 1: D misses twice (9, 9), A: FR roll 9 miss, AR roll 9 miss;
    # round 2: the same; two rounds and it is over.
    g = _game(dice=[2] + [9] * 8)
    r = _assault(g, **{"continue": True})
    assert r.ok and "two rounds" in r.message
    steps = [(e["unit"], e["rating"], e["step"]) for e in _events(g, "assault_fire")]
    assert steps == [(D, "fr", "5D"), (D, "ar", "5D"), (A, "fr", "5E"), (A, "ar", "5E")] * 2
    assert [e["round"] for e in _events(g, "assault_round")] == [1, 2]


def test_attacker_assault_fire_that_eliminates_advances() -> None:
    # Bravery 2; D misses (9, 9); A's FR roll 0 (always hits: E on the illustrative yellow line).
    g = _game(dice=[2, 9, 9, 0, 9])
    r = _assault(g)
    first = _events(g, "assault_fire")[2]
    assert first["unit"] == A and first["hit"] is True and first["result"] == "E"
    assert g.unit(D).where == "eliminated" and g.label(g.unit(A).hex) == TGT and "advance" in r.message
    assert len(_events(g, "assault_fire")) == 3     # nothing left for the Assault value to fire at


def test_suppressed_defender_fires_only_its_assault_value_at_minus_two() -> None:
    g = _game(dice=[9, 9, 9, 9, 9])
    g.unit(D).markers.append("suppressed")
    _assault(g)
    mine = [e for e in _events(g, "assault_fire") if e["unit"] == D]
    assert [e["rating"] for e in mine] == ["ar"] and mine[0]["fr"] == 2 - 2


def test_cohesion_hits_reduce_ratings() -> None:
    g = _game(dice=[2, 9, 9, 9, 9])
    g.unit(D).markers += ["cohesion_hit", "cohesion_hit"]
    _assault(g)
    fr, ar = [e["fr"] for e in _events(g, "assault_fire") if e["unit"] == D]
    assert (fr, ar) == (3 - 2, 2 - 2)


def test_possible_suppression_is_a_tq_check_in_the_assault(monkeypatch: Any) -> None:
    g = _game(dice=[2, 3, 9, 9, 9, 9])
    from play.gts import crt as crt_mod

    real = crt_mod.roll

    def rigged(game: Game, table: dict[str, Any], line: str, armored: bool, fr: int) -> Any:
        r = real(game, table, line, armored, fr)
        if r.hit:
            r.result = "S?"
        return r
    monkeypatch.setattr(crt_mod, "roll", rigged)
    _assault(g)   # D's FR roll 3 (hits FR 3) -> S?; A's TQ check: 9 fails -> Suppressed
    ev = _events(g, "assault_tq")[0]
    assert ev["unit"] == A and ev["why"] == "S?" and ev["passed"] is False
    assert "suppressed" in g.unit(A).markers
    assert "no unsuppressed attackers" in _events(g, "assault_end")[0]["outcome"]


def test_opportunity_fire_step_3_can_stop_an_attacker() -> None:
    # Bravery 2; D's Opportunity Fire TQ check 1 (pass, TQ 5) then its fire roll 0: E on yellow.
    g = _game(dice=[2, 1, 0])
    shot = {"unit": D, "target": A, "fire_rating": 3, "line": "yellow"}
    r = _assault(g, opportunity_fire=[shot])
    assert _events(g, "assault_tq")[0]["why"] == "opportunity fire"
    fired = [e for e in g.log if e["type"] == "fire" and e["unit"] == D]
    assert fired and fired[0]["result"] == "E" and g.unit(A).where == "eliminated"
    assert "no Assaulting Units left" in r.message and "assault-opfire-declared" in (r.policy or "")
    # A failed TQ check: no fire at all [17.4].
    g = _game(dice=[2, 9, 9, 9, 9, 9])
    _assault(g, opportunity_fire=[shot])
    assert not [e for e in g.log if e["type"] == "fire"]


def test_zero_step_defenders_eliminated_in_step_4() -> None:
    g = _game(dice=[2, 9, 9, 9, 9])
    vals = {**VALUES, D: {**VALUES[D], "steps": 0}}
    r = _assault(g, values=vals)
    assert g.unit(D).where == "eliminated" and "no defenders" in r.message


def test_excl_18_8_zero_step_set_aside_shares_the_fate() -> None:
    g = _game(dice=[2, 9, 9, 9, 9])
    g.scenario.optional_rules["Excl 18.8"] = True
    g.apply({"do": "place", "unit": "c-1-8", "to": TGT})
    g.unit("c-1-8").side = g.unit(D).side          # a German 0-step stand-in for the test
    vals = {**VALUES, "c-1-8": {"steps": 0, "ma": 3, "fr": 1, "ar": 1, "dr": 0, "tq": 3}}
    _assault(g, values=vals)
    assert _events(g, "zero_step_aside")[0]["units"] == ["c-1-8"]
    assert _events(g, "zero_step_survive")[0]["units"] == ["c-1-8"] and g.unit("c-1-8").on_map
    assert not [e for e in _events(g, "assault_fire") if e["unit"] == "c-1-8"]   # does not contribute


def test_excl_18_8_zero_step_surrenders_when_the_others_go() -> None:
    g = _game(dice=[2, 8])
    g.scenario.optional_rules["Excl 18.8"] = True
    g.apply({"do": "place", "unit": "c-1-8", "to": TGT})
    g.unit("c-1-8").side = g.unit(D).side
    vals = {**VALUES, "c-1-8": {"steps": 0}}
    _assault(g, values=vals, mode="charge")
    assert g.unit(D).where == "eliminated" and g.unit("c-1-8").where == "eliminated"


def test_excl_18_9_alone_and_afraid() -> None:
    tank = "a-70-dd"
    for on in (False, True):
        g = game()
        LoadedDice.on(g, [0, 9, 9, 9, 9], zero_is_max=True)
        g.scenario.optional_rules["Excl 18.9"] = on
        g.apply({"do": "place", "unit": tank, "to": TGT})
        g.apply({"do": "place", "unit": D, "to": SRC})
        g.apply({"do": "place", "unit": LDR, "to": SRC})
        vals = {tank: {"ma": 6, "ar": 2, "tq": 5, "dr": -3, "fr": 4, "line": "yellow"}, D: VALUES[D]}
        g.apply({"do": "assault", "units": [D], "target": TGT, "values": vals})
        brave = _events(g, "bravery")[-1]
        fires = [e for e in _events(g, "assault_fire") if e["unit"] == tank]
        if on:
            assert _events(g, "alone_and_afraid")[0]["unit"] == tank
            assert brave["defense"] == -3 + 1 and [e["fr"] for e in fires] == [4 - 1, 2 - 1]
            assert "alone_and_afraid" not in g.unit(tank).markers   # only until the Assault ends
        else:
            assert not _events(g, "alone_and_afraid") and brave["defense"] == -3


def test_excl_18_9_a_leg_infantry_unit_in_sight_gives_support() -> None:
    tank = "a-70-dd"
    g = game()
    LoadedDice.on(g, [0, 9, 9, 9, 9], zero_is_max=True)
    g.scenario.optional_rules["Excl 18.9"] = True
    g.apply({"do": "place", "unit": tank, "to": TGT})
    g.apply({"do": "place", "unit": "b-1-8", "to": "25.026"})   # friendly Leg Infantry next door
    g.apply({"do": "place", "unit": D, "to": SRC})
    g.apply({"do": "place", "unit": LDR, "to": SRC})
    vals = {tank: {"ma": 6, "ar": 2, "tq": 5, "dr": -3, "fr": 4, "line": "yellow"}, D: VALUES[D]}
    g.apply({"do": "assault", "units": [D], "target": TGT, "values": vals})
    assert not _events(g, "alone_and_afraid")


def test_undo_restores_the_state() -> None:
    g = _game(dice=[2, 8])
    before = g.to_dict()
    _assault(g, mode="charge")
    assert g.undo() and g.to_dict() == before


def test_scripted_assault_playtest() -> None:
    from play.script import run_script

    r = run_script(FIXTURES / "playtests" / "gts-assault.yaml")
    assert not r.failures, r.failures


def test_results_cohesion_ladder_19_2_3_and_double_suppression_19_2_2() -> None:
    from play.gts import results
    from play.gts.params import ResultsParams

    g = _game()
    cfg = ResultsParams(rule="GTS 19.1")
    u = g.unit(A)
    results.apply(g, [A], "S", cfg, cause="test")
    results.apply(g, [A], "S", cfg, cause="test")          # Suppressed again: a Cohesion Hit
    assert u.markers == ["suppressed", "cohesion_hit"]
    results.apply(g, [A], "C", cfg, cause="test")
    results.apply(g, [A], "C", cfg, cause="test")          # the third: a Step Loss, markers stay
    assert u.markers.count("cohesion_hit") == 2
    assert [e for e in g.log if e["type"] in ("step_loss", "eliminated") and e["unit"] == A]
    z = g.unit("b-1-8")
    g.apply({"do": "place", "unit": "b-1-8", "to": SRC})
    z.steps = 0
    results.apply(g, ["b-1-8"], "C", cfg, cause="test")     # Zero-Step Unit: eliminated
    assert z.where == "eliminated"


def test_run_away_fire_by_a_non_assaulting_unit_before_the_runners_leave() -> None:
    # b-1-8 stays out of the Assault (next door, 25.025): its Opportunity Fire at the runner
    # (TQ check 1 passes, the fire roll 0 always hits: E on yellow) comes before the move.
    g = _game(dice=[1, 1, 0])
    g.apply({"do": "place", "unit": "b-1-8", "to": "25.025"})
    shot = {"unit": "b-1-8", "target": D, "fire_rating": 4, "line": "yellow", "tq": 5}
    _assault(g, defenders="run", run_to="25.026", run_away_fire=[shot])
    assert g.unit(D).where == "eliminated" and g.label(g.unit(A).hex) == TGT
    assert g.label(g.unit(LDR).hex) == TGT or g.unit(LDR).hex is not None
    # An Assaulting Unit may not take the run-away shot.
    g = _game(dice=[1])
    _assault(g, defenders="run", run_to="25.026", run_away_fire=[{**shot, "unit": A}])
    assert g.label(g.unit(D).hex) == "25.026" and "not allowed" in _events(g, "assault_stopped")[0]["message"]


def test_leave_column_after_5e_costs_a_cohesion_hit_and_mode2() -> None:
    g = _game(dice=[3] + [9] * 4 + [2, 9, 9])
    assert g.apply({"do": "set_points", "division": "709.ID", "command": 1, "dispatch": 0}).ok
    g.unit(A).markers.append("column")
    # Column: attacker Defensive +2, so Bravery 6 - 1 - 2 = 3; the first pass fires, the second charges.
    r = _assault(g, leave_column=[A], **{"continue": True, "mode2": "charge", "charge_cp": True})
    assert "column" not in g.unit(A).markers and "cohesion_hit" in g.unit(A).markers
    assert _events(g, "assault_leave_column")[0]["unit"] == A
    assert [e["mode"] for e in _events(g, "assault_round")] == ["fire", "charge"]
    assert r.ok and "held against the charge" in r.message


def test_excl_18_8_zero_step_runs_away_with_the_others() -> None:
    g = _game(dice=[1])
    g.scenario.optional_rules["Excl 18.8"] = True
    g.apply({"do": "place", "unit": "c-1-8", "to": TGT})
    g.unit("c-1-8").side = g.unit(D).side
    _assault(g, values={**VALUES, "c-1-8": {"steps": 0}}, defenders="run", run_to="25.026")
    assert g.label(g.unit("c-1-8").hex) == "25.026" and g.label(g.unit(D).hex) == "25.026"
    assert _events(g, "zero_step_survive")


def test_two_units_in_column_may_not_assault_together() -> None:
    g = _game()
    g.apply({"do": "place", "unit": "b-1-8", "to": SRC})
    g.unit(A).markers.append("column")
    g.unit("b-1-8").markers.append("column")
    r = _assault(g, units=[A, "b-1-8"], together="first_action")
    assert not r.ok and r.rule == "GTS 18.1" and "Column" in r.message
