"""The generic attack (play/generic/attack.py, retreat.py, terrain_combat.py) on the format
example's odds CRT (resources/systems/example-hex.yaml: illustrative values, no real game).

The example's table (EX 6.1), die roll down, odds across::

         1:2  1:1  2:1  3:1  4:1
    1    AR   DR   DR   DE   DE
    2    AR   AR   D1   DR   DE
    3    AE   AR   EX   D1   DE
    4    AE   AR   AR   EX   DR
    5    AE   AE   AR   AR   EX
    6    AE   AE   AE   AR   AR
"""

from __future__ import annotations

from typing import Any

import pytest
from generic_helpers import events, example_bundle, example_game, place, to_phase, variant

from play.generic.attack import GenericAttack, LOSS_ORDER_POLICY, PHASE_POLICY, UNKNOWN_POLICY
from play.generic.crt import SHIFT_CLAMPED_POLICY
from play.generic.retreat import BLOCKED_POLICY, FIRST_PATH_POLICY
from play.generic.zoc import GenericZoc
from loaded_dice import LoadedDice


def game(where: dict[str, str], rolls: list[int] | None = None, system: Any = None, reduce: tuple[str, ...] = ()) -> Any:
    g = example_game(system=system, empty=True)
    place(g, where)
    for uid in reduce:
        assert g.apply({"do": "step_loss", "unit": uid}).ok
    to_phase(g, "blue", "combat")
    if rolls is not None:
        LoadedDice.on(g, rolls)
    return g


def attack(g: Any, attackers: list[str], target: str, **more: Any) -> Any:
    return g.apply({"do": "attack", "attackers": attackers, "target": target, **more})


def test_the_data_only_system_gets_the_generic_procedures() -> None:
    g = example_game()
    assert g.plugin.id == "data-only"
    assert [type(p) for p in g.procedures] == [GenericZoc, GenericAttack]


def test_odds_rounded_for_the_defender_and_a_step_loss() -> None:
    # 4 + 3 (reduced armour) = 7 against 3: 2:1, not 3:1; a 2 there is D1.
    g = game({"b-inf-1": "0402", "b-arm-1": "0403", "r-inf-1": "0503"}, [2], reduce=("b-arm-1",))
    r = attack(g, ["b-inf-1", "b-arm-1"], "0503")
    assert r.ok and r.data["column"] == "2:1" and r.data["result"] == "D1", r
    assert r.rule == "EX 6.1" and "illustrative CRT" in r.message
    u = g.unit("r-inf-1")
    assert u.steps == 1 and u.reduced and g.label(u.hex) == "0503"
    e = events(g, "attack")[-1]
    assert (e["attack"], e["defense"], e["odds"], e["dice"], e["illustrative"]) == (7.0, 3.0, "7:3", [2], True)


def test_losses_name_which_unit_takes_the_step() -> None:
    where = {"b-inf-1": "0402", "b-arm-1": "0403", "r-inf-1": "0503", "r-inf-2": "0503"}
    g = game(where, [2], reduce=("r-inf-1",))   # 10 against 2 + 3 = 5: exactly 2:1; a 2 is D1
    r = attack(g, ["b-inf-1", "b-arm-1"], "0503", losses=["r-inf-2"])
    assert r.data["result"] == "D1" and g.unit("r-inf-2").steps == 1 and g.unit("r-inf-1").steps == 1
    assert LOSS_ORDER_POLICY not in (r.policy or "")
    g = game(where, [2], reduce=("r-inf-1",))
    r = attack(g, ["b-inf-1", "b-arm-1"], "0503")  # no choice: the first defender in the hex
    assert g.unit("r-inf-1").where == "eliminated" and g.unit("r-inf-2").steps == 2
    assert LOSS_ORDER_POLICY in (r.policy or "")


def test_attacker_eliminated() -> None:
    g = game({"b-inf-1": "0402", "r-inf-1": "0503"}, [3], reduce=("b-inf-1",))  # 2 against 3: 1:2; 3 is AE
    r = attack(g, ["b-inf-1"], "0503")
    assert r.data["result"] == "AE" and g.unit("b-inf-1").where == "eliminated"
    assert g.unit("r-inf-1").steps == 2


def test_attacker_retreats_one_hex_away_from_the_defenders() -> None:
    g = game({"b-inf-1": "0402", "r-inf-1": "0503"}, [2])  # 4 against 3: 1:1; 2 is AR
    r = attack(g, ["b-inf-1"], "0503")
    assert r.data["result"] == "AR"
    to = g.unit("b-inf-1").hex
    assert to.distance(g.hex_of("0503")) == 2  # one hex farther than it started
    e = events(g, "retreat")[-1]
    assert e["unit"] == "b-inf-1" and e["hexes"] == 1 and FIRST_PATH_POLICY in e["policy"]


def test_defender_retreats_two_hexes_to_the_hex_asked_for_or_the_first_legal() -> None:
    where = {"b-inf-1": "0402", "b-arm-1": "0403", "r-inf-1": "0503"}
    g = game(where, [2])  # 10 against 3: 3:1; 2 is DR (two hexes)
    r = attack(g, ["b-inf-1", "b-arm-1"], "0503", retreat_to={"r-inf-1": "0704"})
    assert r.data["result"] == "DR" and g.label(g.unit("r-inf-1").hex) == "0704"
    g = game(where, [2])
    attack(g, ["b-inf-1", "b-arm-1"], "0503", retreat_to={"r-inf-1": "0302"})  # toward the attackers
    refused = events(g, "retreat_refused")
    assert refused and refused[0]["to"] == "0302"
    assert g.unit("r-inf-1").hex.distance(g.hex_of("0503")) == 2


def test_no_retreat_into_an_enemy_zoc_and_a_blocked_unit_is_eliminated() -> None:
    # Red in the corner 0101; Blue on both its map neighbours: every retreat hex is enemy-held or in
    # Blue's ZOC [EX 5.0 retreat: prohibited].
    g = example_game(empty=True)
    corner = g.hex_of("0101")
    near = [g.label(h) for h in corner.neighbors() if g.hmap.contains(h)]
    assert near == ["0201", "0102"]
    blue = ["b-inf-1", "b-inf-2"]
    g = game({**dict(zip(blue, near)), "r-inf-1": "0101"}, [1, 1])
    r = attack(g, blue, "0101")  # 8 against 3: 2:1; a 1 is DR
    assert r.data["result"] == "DR"
    assert g.unit("r-inf-1").where == "eliminated"
    e = events(g, "retreat")[-1]
    assert e["eliminated"] and BLOCKED_POLICY in e["policy"]


def test_retreat_into_an_enemy_zoc_when_the_data_allows_it() -> None:
    # Red in the corner 0101 (map neighbours 0201, 0102), attacked from 0201: the only first
    # step, 0102, is next to the attacker, in its ZOC. 4:3 is 1:1; a 1 is DR (two hexes).
    where = {"b-inf-1": "0201", "r-inf-1": "0101"}
    prohibited = game(where, [1])
    assert attack(prohibited, ["b-inf-1"], "0101").data["result"] == "DR"
    assert prohibited.unit("r-inf-1").where == "eliminated"
    allowed = game(where, [1], system=variant(zoc={"rule": "EX 5.0", "kind": "stop", "retreat": "allowed"}))
    attack(allowed, ["b-inf-1"], "0101")
    u = allowed.unit("r-inf-1")
    assert u.on_map and u.hex.distance(allowed.hex_of("0101")) == 2
    assert events(allowed, "retreat")[-1]["path"][0] == "0102"


def test_exchange_attackers_lose_at_least_the_defence() -> None:
    where = {"b-inf-1": "0402", "b-arm-1": "0403", "r-inf-1": "0503"}
    g = game(where, [3])
    g.apply({"do": "marker", "unit": "r-inf-1", "add": "dug_in"})  # 3:1 shifted -1 to 2:1 [EX 6.3]
    r = attack(g, ["b-arm-1", "b-inf-1"], "0503")
    assert r.data["column"] == "2:1" and r.data["result"] == "EX", r
    assert g.unit("r-inf-1").where == "eliminated"
    # b-arm-1 first: 6 -> 3 loses 3 >= the defence 3, so one step.
    assert g.unit("b-arm-1").steps == 1 and g.unit("b-inf-1").steps == 2
    g = game(where, [3])
    g.apply({"do": "marker", "unit": "r-inf-1", "add": "dug_in"})
    attack(g, ["b-arm-1", "b-inf-1"], "0503", losses=["b-inf-1"])
    # b-inf-1 first: 4 -> 2 (2 lost, short of 3), then eliminated (4 lost); b-arm-1 untouched.
    assert g.unit("b-inf-1").where == "eliminated" and g.unit("b-arm-1").steps == 2


def test_terrain_shifts_and_hexsides_when_all_attackers_cross() -> None:
    # r-inf-2 in the town 0603 [fire all: -2]; b-inf-2 across the river 0603/S, b-inf-1 not.
    where = {"b-inf-1": "0602", "b-arm-1": "0503", "b-inf-2": "0604", "r-inf-2": "0603"}
    g = game(where, [6])
    r = attack(g, ["b-arm-1", "b-inf-1", "b-inf-2"], "0603")
    e = events(g, "attack")[-1]
    assert e["shifts"] == {"terrain:town": -2} and e["base_column"] == "4:1" and e["column"] == "2:1", e
    g = game(where, [6], system=variant(combat={**example_bundle().system.combat.model_dump(exclude_none=True),
                                                 "terrain_effects": {"effect": "shift", "keys": [{"key": "all"}],
                                                                     "hexsides_when": "any"}}))
    attack(g, ["b-arm-1", "b-inf-1", "b-inf-2"], "0603")
    assert events(g, "attack")[-1]["shifts"] == {"terrain:town": -2, "hexside:river": -1}


def test_below_the_table_is_refused_without_a_roll() -> None:
    g = game({"b-inf-2": "0604", "r-inf-2": "0603"})
    before = g.dice.get_state()
    r = attack(g, ["b-inf-2"], "0603")  # 4:3 is 1:1, -2 town -1 river: below 1:2
    assert not r.ok and "below the lowest column" in r.message and r.rule == "EX 6.1"
    assert g.dice.get_state() == before and not events(g, "attack")


def test_below_the_table_can_be_a_result() -> None:
    combat = example_bundle().system.combat.model_dump(exclude_none=True)
    combat["crt"]["below"] = "AE"
    g = game({"b-inf-2": "0604", "r-inf-2": "0603"}, system=variant(combat=combat))
    before = g.dice.get_state()
    r = attack(g, ["b-inf-2"], "0603")
    assert r.ok and r.data["result"] == "AE" and r.data["dice"] == [] and g.dice.get_state() == before
    assert g.unit("b-inf-2").where == "eliminated"


def test_a_shift_past_the_last_column_is_clamped() -> None:
    combat = example_bundle().system.combat.model_dump(exclude_none=True)
    combat["crt"]["shifts"] = [{"attackers_tag": "armor", "shift": 2}]
    g = game({"b-arm-1": "0403", "b-arm-2": "0402", "r-inf-1": "0503"}, [1], system=variant(combat=combat),
             reduce=("r-inf-1",))
    r = attack(g, ["b-arm-1", "b-arm-2"], "0503")  # 12 against 2: 4:1, +2 stays on 4:1
    assert r.data["column"] == "4:1" and SHIFT_CLAMPED_POLICY in (r.policy or "")


def test_differential_tables_play_too() -> None:
    combat = {"rule": "EX 6.0", "crt": {
        "kind": "differential", "rule": "EX 6.1", "dice": "1d6", "columns": ["-1", "0", "+2", "+4"],
        "rows": {n: ["AR", "NE", "D1", "DE"] for n in range(1, 7)},
        "results": {"AR": {"attacker": {"retreat": 1}}, "NE": {}, "D1": {"defender": {"steps": 1}},
                    "DE": {"defender": "eliminated"}}}}
    g = game({"b-inf-1": "0402", "b-arm-1": "0403", "r-inf-1": "0503"}, [4], system=variant(combat=combat))
    r = attack(g, ["b-inf-1", "b-arm-1"], "0503")  # 10 - 3 = +7: the +4 column
    assert r.ok and r.data["column"] == "+4" and r.data["result"] == "DE" and "differential +7" in r.message
    assert events(g, "attack")[-1]["odds"] == "+7"


@pytest.mark.parametrize(("where", "attackers", "target", "why"), [
    ({"b-inf-1": "0302", "r-inf-1": "0503"}, ["b-inf-1"], "0503", "not adjacent"),
    ({"b-inf-1": "0402", "r-inf-1": "0503", "r-inf-2": "0504"}, ["b-inf-1", "r-inf-2"], "0503", "different sides"),
    ({"b-inf-1": "0402", "b-inf-2": "0503"}, ["b-inf-1"], "0503", "no enemy stack"),
])
def test_illegal_attacks_are_refused(where: dict[str, str], attackers: list[str], target: str, why: str) -> None:
    r = attack(game(where), attackers, target)
    assert not r.ok and why in r.message, r


def test_attacks_only_in_the_attackers_combat_phase() -> None:
    g = example_game(empty=True)
    place(g, {"b-inf-1": "0402", "r-inf-1": "0503"})
    to_phase(g, "blue", "movement")
    r = attack(g, ["b-inf-1"], "0503")
    assert not r.ok and r.policy == PHASE_POLICY
    to_phase(g, "red", "combat")
    assert not attack(g, ["b-inf-1"], "0503").ok


def test_once_per_phase_for_units_and_hexes() -> None:
    # b-inf-1 (0402) is next to 0503 and 0502; b-arm-1 (0403) next to 0503.
    where = {"b-inf-1": "0402", "b-arm-1": "0403", "r-inf-1": "0503", "r-inf-2": "0502"}
    g = game(where, [3, 3])
    first = attack(g, ["b-inf-1", "b-arm-1"], "0503")   # 10:3, 3:1: a 3 is D1; nobody moves
    assert first.ok and first.data["result"] == "D1"
    r = attack(g, ["b-inf-1"], "0502")
    assert not r.ok and "b-inf-1 already attacked this phase" in r.message
    r = attack(g, ["b-arm-1"], "0503")
    assert not r.ok and "b-arm-1 already attacked this phase" in r.message
    place(g, {"b-inf-2": "0504"})
    r = attack(g, ["b-inf-2"], "0503")
    assert not r.ok and "0503 was already attacked this phase" in r.message
    g.apply({"do": "end_turn"})
    to_phase(g, "blue", "combat")  # the next turn's Blue combat phase: both may attack again
    assert attack(g, ["b-inf-1"], "0502").ok


def test_a_counter_without_the_value_refuses_the_attack() -> None:
    g = game({"b-inf-1": "0402", "r-inf-1": "0503"})
    g.counters["b-inf-1"] = c = g.counters["b-inf-1"].model_copy(deep=True)
    c.front.values["attack"] = "unknown"
    r = attack(g, ["b-inf-1"], "0503")
    assert not r.ok and r.policy == UNKNOWN_POLICY and "b-inf-1" in r.message


def test_a_system_procedure_offering_attack_wins() -> None:
    """SFN registers its battle board's ``attack``: no generic attack for it, and its CRT is a
    fire table (kind fire) anyway."""
    from conftest import REPO
    from model.bundle import load_bundle
    from play.game import Game
    from play.generic import generic_procedures

    b = load_bundle(REPO / "scenarios" / "second-front-now").bundle
    assert b is not None
    g = Game(b, "calais-landing", 1)
    generic = [type(p).__name__ for p in g.procedures if type(p).__module__.startswith("play.generic")]
    assert generic == ["GenericZoc"]  # SFN declares its 11.4 ZOC as data; its attack stays its own
    # A system whose own code offers 'attack' keeps it even with an odds CRT.
    ex = example_game()
    assert generic_procedures(ex, taken={"attack"}) and all(
        "attack" not in p.actions for p in generic_procedures(ex, taken={"attack"}))


def test_a_copy_of_sfn_without_its_plugin_says_why_it_cannot_attack() -> None:
    from conftest import REPO
    from model.bundle import load_bundle
    from play.game import Game

    b = load_bundle(REPO / "scenarios" / "second-front-now").bundle
    assert b is not None
    b.system = b.system.model_copy(update={"id": "sfn-copy", "plugin": None})
    g = Game(b, "calais-landing", 1)
    r = g.apply({"do": "attack", "attackers": ["cw-gds-armd"], "target": "2210"})
    assert not r.ok and "not an action of SFN 5.2 I.A German Administrative Phase" in r.message  # [SFN 5.2]
    assert g.apply({"do": "next_phase", "to": "allied_command"}).ok  # "Move and/or Attack Commands" [5.2 II.B]
    r = g.apply({"do": "attack", "attackers": ["cw-gds-armd"], "target": "2210"})
    assert not r.ok and "fire table" in r.message
