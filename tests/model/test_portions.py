"""Impassable portions [Utah Excl 2.1, 2.1.14], with the rules' own example."""

from __future__ import annotations

from geomkit import H, make_map, system

from model.movement import step_cost
from model.portions import crossing_allowed, wholly_impassable


def _example(road: bool = False):  # type: ignore[no-untyped-def]
    # Excl 2.1: "can move from 28.048 to 28.049 ... cannot move from 28.050 to 28.049":
    # the grey part of 28.049 lies on its 28.050 (south) side.
    return make_map(portions=[{"hex": "28.049", "preset": "S"}],
                    paths=[("road", ["28.048", "28.049", "28.050"])] if road else [])


def test_rules_example_excl_2_1() -> None:
    m = _example()
    assert crossing_allowed(m, H(m, "28.048"), H(m, "28.049"))
    # The refusal cites the case the system file gives (citations.cases.impassable); the map
    # alone does not know its game, so without one no case is cited.
    rule = system().cited(system().citations.cases.impassable)
    bad = crossing_allowed(m, H(m, "28.050"), H(m, "28.049"), rule=rule)
    assert not bad and "grey" in bad.reason and bad.rule == "Utah Excl 2.1.14"
    assert crossing_allowed(m, H(m, "28.050"), H(m, "28.049")).rule == "no case"
    assert step_cost(m, system(), H(m, "28.050"), H(m, "28.049"), "leg").reason.endswith("[Utah Excl 2.1.14]")
    assert not crossing_allowed(m, H(m, "28.049"), H(m, "28.050"))  # leaving over the grey, too


def test_road_through_portion_excl_2_1_14() -> None:
    m = _example(road=True)
    assert crossing_allowed(m, H(m, "28.050"), H(m, "28.049"), using_road_or_ferry=True)
    s = system()
    # In GTS a road is used in Column [14.6]: the column unit crosses, the others do not.
    assert step_cost(m, s, H(m, "28.050"), H(m, "28.049"), "leg", column=True).cost == 0.5
    assert step_cost(m, s, H(m, "28.050"), H(m, "28.049"), "leg", column=False).cost is None


def test_side_partly_grey_still_reaches_the_centre() -> None:
    # A shallow grey strip on the S side leaves the SE/SW sides open near their north ends.
    m = make_map(portions=[{"hex": "28.049", "preset": "S", "depth": 0.2}])
    assert crossing_allowed(m, H(m, "29.049"), H(m, "28.049"))   # 29.049 is SE of 28.049 (odd-q)
    assert not crossing_allowed(m, H(m, "28.050"), H(m, "28.049"))


def test_grey_polygon_cutting_off_a_corner_piece() -> None:
    # A grey band across the hex from the NE side to the SE side: the sliver at the east
    # corner is passable but cut off from the centre dot, so entry over it is illegal.
    band = [(0.45, -0.9), (0.65, -0.9), (0.65, 0.9), (0.45, 0.9)]
    m = make_map(portions=[{"hex": "28.049", "polygon": band}])
    assert not crossing_allowed(m, H(m, "29.049"), H(m, "28.049"))
    assert crossing_allowed(m, H(m, "27.049"), H(m, "28.049"))


def test_wholly_impassable_hex_excl_2_1_14() -> None:
    m = make_map(terrain={"10.010": "X"}, portions=[{"hex": "12.012", "polygon": [(-1, -1), (1, -1), (1, 1), (-1, 1)]}])
    tags = {t.id: t.tags for t in system().terrain}
    assert wholly_impassable(m, H(m, "10.010"), tags)
    assert wholly_impassable(m, H(m, "12.012"), tags)   # no centre dot left
    assert not crossing_allowed(m, H(m, "10.009"), H(m, "10.010"), using_road_or_ferry=True, terrain_tags=tags)
