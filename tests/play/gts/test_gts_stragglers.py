"""Utah Stragglers [Excl 3.4] in the play engine: points from the Drop Table, the R/E
Straggler box [Err 3.3.1], recovery rolls (every table row, the 9+ precedence), modifiers,
caps, lost Rally Points, spending SRPs and the optional rule 3.4.4. Dice are scripted
(deterministic) except in the seeded determinism test."""

from __future__ import annotations

from typing import Any

import pytest

from gts_helpers import game as utah_game
from model.calendar import resolve_turn
from play.game import Game
from play.gts import stragglers
from play.gts.params import gts_params
from play.gts.state import Rearguard, StragglerState, gts_state
from loaded_dice import LoadedDice

DIV = "101st Airborne Division"


def night_drop(seed: int = 1) -> Game:
    g = utah_game("night-drop", seed=seed)  # in the Activation Phase [GTS 4.0 H]: the sticks dropped in Step C
    assert g.unit("a-1-502").on_map
    return g


def st(g: Game) -> StragglerState:
    return stragglers.state(g)


def events(g: Game, type_: str) -> list[dict[str, Any]]:
    return [e for e in g.log if e["type"] == type_]


def set_turn(g: Game, label: str) -> None:
    t = resolve_turn(label, g.system.calendar.all_turns)
    assert t is not None
    g.state.turn = t


def divact(g: Game) -> None:
    gts_state(g).chits.drawn.append("chit-divact-101")


# --- generation ---------------------------------------------------------------------------


@pytest.mark.parametrize("face, result, points", [
    (10, "NE", 0),
    (1, "1", 1),          # +1 for the stick, not per unit
    (2, "1*", 4),         # +2 per unit
    (3, "1*(D)", 6),      # +2 +1 per unit (components summed)
    (5, "1*(DD)", 8),     # +2 +2 per unit
    (6, "R", 6),          # +3 per unit
    (7, "R(D)", 8),       # +3 +1 per unit
    (9, "E", 8),          # 9+ is E (drop-roll-9-plus-is-E), +4 per unit
])
def test_first_drop_points_per_result(face: int, result: str, points: int) -> None:
    g = night_drop()
    g.unit("b-1-502").hex = g.unit("a-1-502").hex  # a two-unit stick of 1/502
    LoadedDice.on(g, [face, 1, 10, 1, 10])           # drop roll, then (R) d6 + d10 drift per unit
    r = g.apply({"do": "drop_roll", "units": ["a-1-502", "b-1-502"], "drop_number": "One"})
    assert r.ok and r.data["result"] == result
    assert st(g).track.get("1/502", 0) == points


def test_leaders_add_no_points() -> None:
    g = night_drop()
    LoadedDice.on(g, [9])
    g.apply({"do": "drop_roll", "units": ["a-1-502", "ldr-moseley"], "drop_number": "One"})
    assert st(g).track["1/502"] == 4


def test_later_drops_add_no_points_except_325th_fourth() -> None:
    g = night_drop()
    LoadedDice.on(g, [9, 1, 10, 9, 9])   # Second: 9-3 = R (drift 0); One: E; Fourth: 9-8 = 1
    g.apply({"do": "drop_roll", "units": ["a-1-502"], "drop_number": "Second"})
    assert st(g).track.get("1/502", 0) == 0
    g.counters["b-1-502"].formation = "325th GIR"  # the 3.4.1.1 exception, on a sample counter
    g.apply({"do": "drop_roll", "units": ["b-1-502"], "drop_number": "One"})
    assert st(g).track.get("1/502", 0) == 0     # the 325th's first drop counts nothing
    g.counters["c-1-502"].formation = "325th GIR"
    r = g.apply({"do": "drop_roll", "units": ["c-1-502"], "drop_number": "Fourth"})
    assert r.data["result"] == "1" and st(g).track["1/502"] == 1


def test_r_result_units_are_listed_in_the_straggler_box_and_return_by_srp() -> None:
    g = night_drop()
    LoadedDice.on(g, [6, 1, 10])  # R; drift north, distance 0
    before = g.label(g.unit("a-1-502").hex)
    g.apply({"do": "drop_roll", "units": ["a-1-502"], "drop_number": "One"})
    u = g.unit("a-1-502")
    assert "rearguard" in u.markers and g.label(u.hex) == before   # the Rearguard stand-in
    assert st(g).box == {"a-1-502": "div-101-stragglers"}
    assert st(g).rearguards == [Rearguard(unit="a-1-502", hex=before, eliminated=False)]
    ev = events(g, "straggler_box")[-1]
    assert ev["rule"] == "Err 3.3.1" and ev["policy"].startswith("rearguard-stand-in")
    # Half strength first: b-1-502 may not be restored while a-1-502 is in the box.
    b = g.unit("b-1-502")
    b.steps, b.reduced, b.hex = 1, True, g.hex_of("33.030")
    st(g).srp["1/502"] = 2
    r = g.apply({"do": "spend_srp", "unit": "b-1-502"})
    assert not r.ok and "a-1-502 in the Straggler box" in r.message
    r = g.apply({"do": "spend_srp", "unit": "a-1-502"})
    assert r.ok and g.label(u.hex) == "33.031" and u.steps == 1 and "rearguard" not in u.markers
    assert st(g).box == {}
    assert g.apply({"do": "spend_srp", "unit": "b-1-502"}).ok


# --- recovery -----------------------------------------------------------------------------


def test_recovery_table_enumerated_roll_by_track() -> None:
    g = night_drop()
    table = gts_params(g).straggler_recovery
    assert table is not None
    for roll in range(10):
        for track in range(1, 13):
            row = stragglers.table_row(roll, track, table)
            if roll == 9:
                want = "iii"      # wins even when 9 <= track [Err 3.4.2(iii)]
            elif roll == 0:
                want = "iv"
            else:
                want = "i" if roll <= track else "ii"
            assert row.id == want, (roll, track)


def _recover(g: Game) -> Any:
    divact(g)
    return g.apply({"do": "recover_stragglers", "division": DIV})


def test_every_row_in_play_on_7_june() -> None:
    g = night_drop()
    set_turn(g, "0700 7 June")      # no modifier, cap 1
    st(g).track.update({"1/502": 5, "2/502": 3, "3/506": 12})
    # 1/502: 10 reads 0 -> (iv) +1 SRP, track unchanged; cap 1 reached.
    # 2/502: 4 > 3 -> (ii) track -1, stop.  3/506: 9 <= 12 but 9+ -> (iii) track -1, stop.
    LoadedDice.on(g, [10, 4, 9])
    r = _recover(g)
    assert r.ok
    rows = {e["battalion"]: e["row"] for e in events(g, "straggler_roll")}
    assert rows == {"1/502": "iv", "2/502": "ii", "3/506": "iii"}
    assert st(g).track == {"1/502": 5, "2/502": 2, "3/506": 11}
    assert st(g).srp == {"1/502": 1, "2/502": 0, "3/506": 0}
    assert events(g, "straggler_cap")[-1]["battalion"] == "1/502"


def test_row_i_rolls_again_and_night_modifier_and_roll_cap() -> None:
    g = night_drop()                # Night 5 June: +4, cap 4
    st(g).track["1/502"] = 8
    LoadedDice.on(g, [2, 3, 8])       # 6 <= 8 (i); 7 <= 7 (i); 8+4=12 reads 9 -> (iii)
    _recover(g)
    rolls = [(e["die"], e["roll"], e["row"], e["track"]) for e in events(g, "straggler_roll")]
    assert rolls == [(2, 6, "i", 7), (3, 7, "i", 6), (8, 9, "iii", 5)]
    assert st(g).srp["1/502"] == 2


@pytest.mark.parametrize("label, cap, mod", [
    ("Night 5 June", 4, 4), ("0700 6 June", 2, 2), ("Night 6 June", 2, 2), ("1100 7 June", 1, 0)])
def test_caps_and_modifiers_by_date(label: str, cap: int, mod: int) -> None:
    g = night_drop()
    set_turn(g, label)
    st(g).track["1/502"] = 20
    LoadedDice.on(g, [10] * 10)       # zeros: +1 SRP each, track unchanged, roll again
    r = _recover(g)
    assert st(g).srp["1/502"] == cap
    assert all(e["modifier"] == mod for e in events(g, "straggler_roll"))
    assert r.data["battalions"]["1/502"] == {"srp": cap, "track": 20}


def test_no_recovery_from_8_june() -> None:
    g = night_drop()
    set_turn(g, "0700 8 June")
    st(g).track["1/502"] = 5
    LoadedDice.on(g, [])
    _recover(g)
    assert events(g, "straggler_recovery_over") and not events(g, "straggler_roll")


def test_recovery_needs_the_divact_draw_once_per_draw() -> None:
    g = night_drop()
    st(g).track["1/502"] = 3
    r = g.apply({"do": "recover_stragglers", "division": DIV})
    assert not r.ok and r.rule == "Excl 3.4.2"
    assert not g.apply({"do": "recover_stragglers", "division": "709.ID"}).ok
    LoadedDice.on(g, [9])
    assert _recover(g).ok
    assert not g.apply({"do": "recover_stragglers", "division": DIV}).ok


def test_optional_344_caps() -> None:
    g = night_drop()
    g.scenario.optional_rules["Excl 3.4.4"] = True
    for uid in ("a-1-502", "b-1-502", "c-1-502"):
        g.counters[uid].formation = "507th PIR"
    st(g).track.update({"1/502": 20, "2/502": 20})
    LoadedDice.on(g, [10] * 10)
    _recover(g)
    assert st(g).srp == {"1/502": 2, "2/502": 4}


def test_german_unit_on_rally_point_loses_stragglers() -> None:
    g = night_drop()
    st(g).track["1/502"] = 6
    st(g).srp["1/502"] = 2
    g.apply({"do": "place", "unit": "c5-ii-919", "to": "33.031"})
    lost = events(g, "rally_point_lost")
    assert {e["battalion"] for e in lost} == {"1/502", "2/502"}
    assert "1/502" not in st(g).track and "1/502" not in st(g).srp
    g.unit("a-1-502").steps = 1
    r = g.apply({"do": "spend_srp", "unit": "a-1-502"})
    assert not r.ok and r.rule == "Excl 3.4.1"


# --- spending -----------------------------------------------------------------------------


def test_spend_returns_from_box_then_restores() -> None:
    g = night_drop()
    LoadedDice.on(g, [9])
    g.apply({"do": "drop_roll", "units": ["c-1-502"], "drop_number": "One"})  # E: Straggler box
    a = g.unit("a-1-502")
    a.steps, a.reduced, a.hex = 1, True, g.hex_of("33.030")   # reduced, 1 hex from the RP
    st(g).srp["1/502"] = 3
    r = g.apply({"do": "spend_srp", "unit": "a-1-502"})
    assert not r.ok and r.rule == "Excl 3.4.3(2)" and "half strength" in r.message
    r = g.apply({"do": "spend_srp", "unit": "c-1-502"})
    c = g.unit("c-1-502")
    assert r.ok and g.label(c.hex) == "33.031" and c.steps == 1
    assert st(g).srp["1/502"] == 2
    r = g.apply({"do": "spend_srp", "unit": "a-1-502"})
    assert r.ok and (a.steps, a.reduced) == (a.max_steps, False)
    assert st(g).srp["1/502"] == 1


def test_spend_refusals_radius_cost_and_points() -> None:
    g = night_drop()
    a = g.unit("a-1-502")
    a.steps, a.reduced, a.hex = 1, True, g.hex_of("33.036")   # 5 hexes from 33.031
    st(g).srp["1/502"] = 1
    r = g.apply({"do": "spend_srp", "unit": "a-1-502"})
    assert not r.ok and "at most 3" in r.message
    a.hex = g.hex_of("33.033")
    g.counters["a-1-502"].category = "engineer"   # not para/glider infantry: 2 SRPs
    r = g.apply({"do": "spend_srp", "unit": "a-1-502"})
    assert not r.ok and r.rule == "Excl 3.4.3(3)" and "needs 2" in r.message
    st(g).srp["1/502"] = 2
    assert g.apply({"do": "spend_srp", "unit": "a-1-502"}).ok
    assert st(g).srp["1/502"] == 0
    assert not g.apply({"do": "spend_srp", "unit": "b-1-502"}).ok   # full strength


def test_seeded_play_is_deterministic() -> None:
    logs = []
    for _ in range(2):
        g = night_drop(seed=11)
        for stick in (["a-1-502"], ["b-1-502"], ["d-2-502"]):
            g.apply({"do": "drop_roll", "units": stick, "drop_number": "One"})
        divact(g)
        g.apply({"do": "recover_stragglers", "division": DIV})
        logs.append(g.log_json())
    assert logs[0] == logs[1]


# --- Leaders in an R stick [Excl 3.3.1] ---------------------------------------------------


def test_a_leader_in_an_r_stick_stays_with_his_rearguard() -> None:
    """Excl 3.3.1 R: "Any Leader landing in a stick replaced with Rearguards must be placed with one
    of the Rearguard Units." Airborne Drift: "If a leader was with this stick, the Unit he is with
    must be declared before rolling for drift. His fate is tied to that new Rearguard." """
    g = night_drop()
    here = g.unit("a-1-502").hex
    g.unit("b-1-502").hex = g.unit("ldr-moseley").hex = here
    # R, then d6/d10 per Rearguard only (the Leader rolls none): a-1-502 north 1, b-1-502 north 2
    left = LoadedDice.on(g, [6, 1, 1, 1, 2]).faces
    r = g.apply({"do": "drop_roll", "units": ["a-1-502", "ldr-moseley", "b-1-502"], "drop_number": "One",
                 "leader_with": "b-1-502"})
    assert r.ok and r.data["result"] == "R" and left == []
    assert g.unit("ldr-moseley").hex == g.unit("b-1-502").hex != g.unit("a-1-502").hex
    ev = events(g, "drop_leader")[-1]
    assert ev["with_unit"] == "b-1-502" and ev["rule"] == "Excl 3.3.1" and ev.get("policy") is None
    assert "ldr-moseley" not in st(g).box


def test_an_undeclared_leader_goes_with_the_first_rearguard_by_policy() -> None:
    g = night_drop()
    g.unit("ldr-moseley").hex = g.unit("a-1-502").hex
    LoadedDice.on(g, [6, 1, 3])
    g.apply({"do": "drop_roll", "units": ["ldr-moseley", "a-1-502"], "drop_number": "One"})
    assert g.unit("ldr-moseley").hex == g.unit("a-1-502").hex
    assert events(g, "drop_leader")[-1]["policy"].startswith("leader-with-first-rearguard")


def test_a_leader_shares_his_rearguards_elimination() -> None:
    g = night_drop()
    g.unit("ldr-moseley").hex = g.unit("a-1-502").hex
    LoadedDice.on(g, [6, 1, 9, 9, 9, 9, 9, 9, 9, 9, 5])  # drifts far north: off the map
    g.apply({"do": "drop_roll", "units": ["ldr-moseley", "a-1-502"], "drop_number": "One"})
    assert g.unit("a-1-502").where == "eliminated" and g.unit("ldr-moseley").where == "eliminated"


def test_a_leader_in_an_eliminated_stick_is_removed_and_returns_at_leader_movement() -> None:
    """Excl 3.3.1 E: "All Units in the stick are eliminated [...]; place the eliminated Units in
    the Straggler box on the parent Airborne Divisional Display. Any Leader landing in a stick
    that is eliminated is removed from play and returns at the end of the next division
    activation during leader movement." (policy leader-e-returns-at-next-leader-check)"""
    from play.gts.drop_table import LEADER_E_POLICY

    g = night_drop()
    here = g.unit("a-1-502").hex
    g.unit("ldr-moseley").hex = here
    LoadedDice.on(g, [9])  # 9+ is E (drop-roll-9-plus-is-E)
    r = g.apply({"do": "drop_roll", "units": ["a-1-502", "ldr-moseley"], "drop_number": "One"})
    assert r.ok and r.data["result"] == "E"
    assert g.unit("a-1-502").where == "box"                      # the Unit: Straggler box
    assert g.unit("ldr-moseley").where == "withdrawn"            # the Leader: removed from play
    assert "ldr-moseley" not in st(g).box and not [e for e in events(g, "straggler") if e["unit"] == "ldr-moseley"]
    (ev,) = events(g, "drop_leader_removed")
    assert ev["leader"] == "ldr-moseley" and ev["rule"] == "Excl 3.3.1" and ev["policy"] == LEADER_E_POLICY
    assert LEADER_E_POLICY.startswith("leader-e-returns-at-next-leader-check:")
    # leader movement: he returns, placed with a Unit of his Formation still on the map [21.3]
    r = g.apply({"do": "check_leaders", "side": "allied"})
    assert r.ok and g.unit("ldr-moseley").on_map
    with_him = [x.id for x in g.state.at(g.unit("ldr-moseley").hex) if x.id != "ldr-moseley"]
    assert with_him and all(g.counters[x].formation == "502nd PIR" for x in with_him)
    assert events(g, "leader_returns")[-1]["leader"] == "ldr-moseley"
