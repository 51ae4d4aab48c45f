"""Movement: costs from the system, restrictions, roads in Column, portions, hooks."""

from __future__ import annotations

import pytest
from geomkit import H, make_map, system

from model.base import hexside_key
from model.movement import CostUnknown, cheapest_path, reachable, step_cost


def test_terrain_costs_from_the_system() -> None:
    m = make_map(terrain={"10.011": "W"})
    s = system()
    got = reachable(m, s, H(m, "10.010"), 2, "leg")
    assert got[H(m, "10.011")][0] == 2          # woods, leg 2
    assert got[H(m, "10.009")][0] == 1          # clear, leg 1
    assert H(m, "10.012") not in got              # woods 2 + 1, or 3 around through clear
    assert all(cost <= 2 for cost, _ in got.values())


def test_road_only_terrain_and_column_roads_gts_14_6() -> None:
    m = make_map(terrain={"10.011": "W", "10.012": "W"}, paths=[("road", ["10.010", "10.011", "10.012"])])
    s = system()
    # Woods are road_only for wheeled units [Utah Excl 2.1.2]; the road is used only in Column.
    assert H(m, "10.011") not in reachable(m, s, H(m, "10.010"), 5, "wheeled")
    col = reachable(m, s, H(m, "10.010"), 1, "wheeled", column=True)
    assert col[H(m, "10.012")] == (1.0, H(m, "10.011"))


def test_prohibited_and_hexside_costs() -> None:
    m = make_map(hexsides={"stream": ["10.010/S"], "river": ["10.010/N"]})
    s = system()
    leg = step_cost(m, s, H(m, "10.010"), H(m, "10.011"), "leg")
    assert leg.cost == 3                          # clear 1 + stream +2
    assert step_cost(m, s, H(m, "10.010"), H(m, "10.011"), "wheeled").cost is None
    assert step_cost(m, s, H(m, "10.010"), H(m, "10.009"), "leg").cost is None   # river prohibited


def test_whole_ma_ridge_only_as_first_step_utah_2_2_2() -> None:
    m = make_map(hexsides={"ridge": ["10.011/S"]})
    s = system()
    lane = {H(m, "10.010"), H(m, "10.011"), H(m, "10.012")}
    first = reachable(m, s, H(m, "10.011"), 4, "leg", blocked=lambda h: h not in lane)
    assert first[H(m, "10.012")] == (4.0, H(m, "10.011"))
    later = reachable(m, s, H(m, "10.010"), 10, "leg", blocked=lambda h: h not in lane)
    assert H(m, "10.012") not in later            # not across the ridge mid-move


def test_unknown_costs_are_not_invented() -> None:
    m = make_map(terrain={"10.011": "F"})
    s = system()
    with pytest.raises(CostUnknown, match="flooded"):
        reachable(m, s, H(m, "10.010"), 3, "leg")
    skipped = reachable(m, s, H(m, "10.010"), 3, "leg", on_unknown="skip")
    assert H(m, "10.011") not in skipped
    given = reachable(m, s, H(m, "10.010"), 3, "leg", costs={"flooded": 2})
    assert given[H(m, "10.011")][0] == 2


def test_portion_blocks_the_path_unless_road_excl_2_1_14() -> None:
    m = make_map(portions=[{"hex": "28.049", "preset": "S"}], paths=[("road", ["28.050", "28.049"])])
    s = system()
    plain = cheapest_path(m, s, H(m, "28.050"), H(m, "28.049"), "leg")
    assert plain is not None and len(plain.hexes) > 2      # must go around to the open sides
    col = cheapest_path(m, s, H(m, "28.050"), H(m, "28.049"), "leg", column=True)
    assert col is not None and col.hexes == [H(m, "28.050"), H(m, "28.049")] and col.cost == 0.5


def test_hooks_block_and_extra_cost() -> None:
    m = make_map()
    s = system()
    start, goal = H(m, "10.010"), H(m, "10.012")
    direct = cheapest_path(m, s, start, goal, "leg")
    assert direct is not None and direct.cost == 2
    around = cheapest_path(m, s, start, goal, "leg", blocked=lambda h: h == H(m, "10.011"))
    assert around is not None and around.cost == 3 and H(m, "10.011") not in around.hexes
    zoc = cheapest_path(m, s, start, goal, "leg", extra_cost=lambda a, b: None if b == H(m, "10.011") else 0.0)
    assert zoc is not None and zoc.cost == 3
    assert cheapest_path(m, s, start, goal, "leg", mp=1) is None


def test_cache_follows_edits() -> None:
    m = make_map()
    s = system()
    assert reachable(m, s, H(m, "10.010"), 1, "leg")[H(m, "10.011")][0] == 1
    # A river on 10.010's S side (direction 5), added after the first search.
    m.hexsides = {"river": [hexside_key(H(m, "10.010"), 5)]}
    m.invalidate()
    assert H(m, "10.011") not in reachable(m, s, H(m, "10.010"), 1, "leg")
