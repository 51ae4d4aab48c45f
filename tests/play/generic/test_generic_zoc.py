"""Zones of control as data (play/generic/zoc.py) on the format example (illustrative):
kind stop, cost and none, negating hexsides, terrain that takes no ZOC, who exerts one."""

from __future__ import annotations

from typing import Any

from generic_helpers import events, example_game, place, to_phase, variant

from play.generic.zoc import STOP_POLICY, GenericZoc, enemy_zoc_hexes


def game(where: dict[str, str], zoc: dict[str, Any] | None = None) -> Any:
    g = example_game(system=variant(zoc=zoc) if zoc is not None else None, empty=True)
    place(g, where)
    to_phase(g, "blue", "movement")
    return g


def labels(g: Any, hexes: set[Any]) -> set[str]:
    return {g.label(h) for h in hexes}


def test_zoc_is_the_six_neighbours_not_across_a_river() -> None:
    g = game({"r-inf-2": "0603"})
    z = labels(g, enemy_zoc_hexes(g, "blue", g.system.zoc))
    # 0603's neighbours, less 0604 across the river 0603/S [EX 5.0 negated_by_hexsides].
    assert z == {"0704", "0703", "0602", "0503", "0504"}


def test_terrain_may_take_no_zoc_and_some_units_exert_none() -> None:
    g = game({"r-inf-1": "0503", "b-hq": "0402"}, zoc={"kind": "stop", "not_into_terrain": ["woods"]})
    z = labels(g, enemy_zoc_hexes(g, "blue", g.system.zoc))
    assert "0402" in z and "0403" in z
    assert labels(g, enemy_zoc_hexes(g, "red", g.system.zoc)) == set()  # the HQ is tagged no_zoc
    g = game({"r-inf-1": "0402"}, zoc={"kind": "stop", "not_into_terrain": ["woods"]})
    z = labels(g, enemy_zoc_hexes(g, "blue", g.system.zoc))
    assert "0302" not in z and "0303" not in z  # both woods
    g = game({"r-inf-1": "0503", "r-arm-1": "0706"}, zoc={"kind": "stop", "exerted_by": {"categories": ["armor"]}})
    z = labels(g, enemy_zoc_hexes(g, "blue", g.system.zoc))
    assert "0402" not in z and z  # only the armour exerts one


def test_stop_ends_the_move_on_entering() -> None:
    # Red in 0502; from 0302 every way to 0602 within 4 MP passes a hex next to it.
    g = game({"b-inf-1": "0302", "r-inf-1": "0502"})
    r = g.apply({"do": "move", "unit": "b-inf-1", "to": "0602"})
    assert not r.ok and "enemy zones of control (stop on entering)" in r.message and r.rule == "EX 5.0"
    assert g.apply({"do": "move", "unit": "b-inf-1", "to": "0401"}).ok
    assert events(g, "zoc_stop")[-1]["hex"] == "0401"
    r = g.apply({"do": "move", "unit": "b-inf-1", "to": "0301"})  # a second move in the same phase
    assert not r.ok and r.policy == STOP_POLICY


def test_a_unit_starting_in_a_zoc_may_leave_and_step_zoc_to_zoc_unless_the_data_says_no() -> None:
    # 0601 and 0501 are both next to Red's 0502.
    g = game({"b-inf-1": "0601", "r-inf-1": "0502"})
    assert g.apply({"do": "move", "unit": "b-inf-1", "to": "0501"}).ok  # ZOC to ZOC, then stop
    g = game({"b-inf-1": "0601", "r-inf-1": "0502"}, zoc={"kind": "stop", "zoc_to_zoc": False})
    assert not g.apply({"do": "move", "unit": "b-inf-1", "to": "0501"}).ok
    assert g.apply({"do": "move", "unit": "b-inf-1", "to": "0701"}).ok  # out of it is fine


def test_cost_adds_mp_and_does_not_stop() -> None:
    g = game({"b-inf-1": "0202", "r-inf-1": "0503"}, zoc={"kind": "cost", "enter_cost": 1, "leave_cost": 1})
    free = example_game(system=variant(zoc=None), empty=True)
    place(free, {"b-inf-1": "0202", "r-inf-1": "0503"})
    to_phase(free, "blue", "movement")
    base = free.legal_moves([free.unit("b-inf-1")])[0].cost[free.hex_of("0402")]
    reach = g.legal_moves([g.unit("b-inf-1")])[0]
    assert reach.cost[g.hex_of("0402")] == base + 1        # +1 to enter the ZOC hex
    r = g.apply({"do": "move", "unit": "b-inf-1", "to": "0402"})
    assert r.ok and not events(g, "zoc_stop")


def test_none_or_no_section_means_no_zoc_procedure() -> None:
    assert not any(isinstance(p, GenericZoc) for p in example_game(system=variant(zoc={"kind": "none"})).procedures)
    assert not any(isinstance(p, GenericZoc) for p in example_game(system=variant(zoc=None)).procedures)
