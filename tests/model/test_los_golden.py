"""Golden LOS cases written from the rules' wording; each test names its rule case.

Maps use GTS labels (flat-top, odd-q, "CC.RRR"). In odd-q, same-row hexes two columns
apart lie on a hexspine: the line from 08.010 to 14.010 runs along hexsides (09.010/N,
11.010/N, 13.010/N) and through the centres of 10.010 and 12.010.
"""

from __future__ import annotations

import pytest
from geomkit import H, make_map, system

from model.los import line_of_sight
from model.los_fast import FastLos


LONG = system(ranges={"day": 13})   # long lines for the vertex cases (distance 11)


def both(m, s, a, b, **kw):  # type: ignore[no-untyped-def]
    """Reference and fast answers must agree; return the reference result."""
    ref = line_of_sight(m, s, H(m, a), H(m, b), **kw)
    fast = FastLos(m, s).query(H(m, a), H(m, b), **kw)
    assert (ref.visible, ref.used, ref.distance, ref.range_limit) == (fast.visible, fast.used, fast.distance,
                                                                       fast.range_limit), (ref.explain(), fast.explain())
    assert (ref.first_blocker.where if ref.first_blocker else None) == \
        (fast.first_blocker.where if fast.first_blocker else None)
    return ref


def test_gts_15_4_blocking_hex_passed_through_blocks() -> None:
    m = make_map(terrain={"10.010": "W"})
    r = both(m, system(), "08.010", "14.010")
    assert not r.visible and r.first_blocker is not None and r.first_blocker.where == "10.010"


def test_gts_15_4_may_start_or_end_in_blocking_terrain() -> None:
    m = make_map(terrain={"08.010": "W", "14.010": "T"})
    assert both(m, system(), "08.010", "14.010").visible
    assert both(m, system(), "14.010", "08.010").visible


def test_gts_15_4_1_along_hexside_one_blocking_is_open() -> None:
    m = make_map(terrain={"09.009": "W"})       # north of the hexside 09.010/N
    r = both(m, system(), "08.010", "14.010")
    assert r.visible
    assert any(c.kind == "along" and c.where == "09.010/N" and c.feature == "one side blocking" for c in r.crossings)


def test_gts_15_4_1_along_hexside_both_blocking_inferred_policy() -> None:
    m = make_map(terrain={"09.009": "W", "09.010": "T"})
    r = both(m, system(), "08.010", "14.010")
    assert not r.visible and "INFERRED" in r.first_blocker.rule
    assert "along-hexside-both-blocked" in r.policies
    assert both(m, system(hexside_both_blocking="open"), "08.010", "14.010").visible


def test_gts_15_4_1_barrage_blocks_like_blocking_terrain() -> None:
    m = make_map()
    s = system()
    assert not both(m, s, "08.010", "14.010", barrage={H(m, "12.010")}).visible
    # A unit sees out of a barraged hex, and into one.
    assert both(m, s, "08.010", "14.010", barrage={H(m, "08.010"), H(m, "14.010")}).visible


def test_utah_2_2_1_crest_in_the_middle_blocks() -> None:
    m = make_map(hexsides={"crest": ["11.010/S"]})   # between 11.010 and 11.011
    s = system()
    r = both(m, s, "11.008", "11.013")               # straight down column 11
    assert not r.visible and r.first_blocker.feature == "crest"
    m2 = make_map(hexsides={"crest": ["11.012/S"]})    # = 11.013/N, a side of the target's hex
    r2 = both(m2, s, "11.008", "11.013")
    assert r2.visible and [c.effect for c in r2.crossings if c.feature == "crest"] == ["exempt"]
    m3 = make_map(hexsides={"crest": ["11.008/S"]})    # a side of the firer's hex
    assert both(m3, s, "11.008", "11.013").visible


def test_utah_errata_2_2_2_two_crests_block_even_when_each_is_adjacent() -> None:
    # Firer beside one crest, target beside another: "LOS is blocked between two Units,
    # both of which are adjacent to different Crest hexsides" [Excl 2.2.1, Err 2.2.2].
    s = system()
    m = make_map(hexsides={"crest": ["11.008/S", "11.012/S"]})
    r = both(m, s, "11.008", "11.013")
    assert not r.visible
    # Crest beside one, ridge beside the other: also blocked (the errata counts them together).
    m2 = make_map(hexsides={"crest": ["11.008/S"], "ridge": ["11.012/S"]})
    assert not both(m2, s, "11.008", "11.013").visible
    # Only one, adjacent: visible.
    m3 = make_map(hexsides={"ridge": ["11.008/S"]})
    assert both(m3, s, "11.008", "11.013").visible


def test_gts_15_4_1_running_along_a_crest_blocks() -> None:
    m = make_map(hexsides={"crest": ["11.010/N"]})
    r = both(m, system(), "08.010", "14.010")
    assert not r.visible and r.first_blocker.kind == "along" and r.first_blocker.feature == "crest"


def test_utah_2_3_3_5_raised_road_blocks_only_where_the_line_crosses_the_graphic() -> None:
    s = system()
    # A raised road running north-south through 11.011 (column 11): the line 08.010→14.010...
    across = make_map(paths=[("raised_road", ["12.009", "12.010", "12.011"])])
    assert not both(across, s, "08.010", "14.010").visible
    # ...a raised road beside the line but not crossing it does not block.
    beside = make_map(paths=[("raised_road", ["12.012", "12.013"])])
    assert both(beside, s, "08.010", "14.010").visible
    # ...and a raised road in the firer's or target's hex never blocks.
    own = make_map(paths=[("raised_road", ["08.009", "08.010", "08.011"])])
    assert both(own, s, "08.010", "14.010").visible


def test_utah_2_3_5_sunken_road_never_blocks() -> None:
    m = make_map(paths=[("sunken_road", ["12.009", "12.010", "12.011"])])
    assert both(m, system(), "08.010", "14.010").visible


def test_utah_2_4_4_bridge_blocks_like_a_raised_road() -> None:
    s = system()
    m = make_map(hexsides={"bridge": ["11.010/S"]})
    assert not both(m, s, "11.008", "11.013").visible
    own = make_map(hexsides={"bridge": ["11.008/S"]})    # a side of the firer's hex
    assert both(own, s, "11.008", "11.013").visible


@pytest.mark.parametrize("kw,limit", [({}, 8), ({"night": True}, 3), ({"storm": True}, 4),
                                      ({"night": True, "storm": True}, 2), ({"fog": True}, 2)])
def test_gts_15_4_and_utah_1_1_ranges(kw: dict[str, bool], limit: int) -> None:
    m = make_map()
    s = system()
    assert both(m, s, "10.010", f"10.0{10 + limit}", **kw).visible
    r = both(m, s, "10.010", f"10.0{11 + limit}", **kw)
    assert not r.visible and r.range_limit == limit and "out of range" in r.reason


def test_gts_15_4_distance_counts_the_last_hex_not_the_first() -> None:
    m = make_map()
    assert both(m, system(), "10.010", "10.013").distance == 3
    assert both(m, system(), "10.010", "13.011").distance == 3     # diagonal: grid distance
    assert both(m, system(), "10.010", "10.011").distance == 1


def test_gts_15_4_2_observation_post_spotting_for_another_unit() -> None:
    s = system()
    wall = {"10.011": "W", "10.012": "W", "10.013": "W"}
    m = make_map(terrain=wall | {"10.014": "T"}, features=[("op", "10.010")])
    # Through three blocking hexes into a fourth (which may itself block), range 13.
    r = both(m, s, "10.010", "10.014", purpose="spot")
    assert r.visible and r.observer == "op" and r.used == 3 and r.budget == 3
    open_map = make_map(features=[("op", "10.010")])
    far = both(open_map, s, "10.010", "10.023", purpose="spot")
    assert far.visible and far.range_limit == 13
    assert not both(open_map, s, "10.010", "10.024", purpose="spot").visible
    assert not both(open_map, s, "10.010", "10.013", purpose="spot", night=True, storm=False, fog=True).visible
    assert both(open_map, s, "10.010", "10.013", purpose="spot", night=True).range_limit == 3
    # Never for Direct Fire or self-spotting.
    assert not both(m, s, "10.010", "10.014", purpose="direct").visible
    assert not both(m, s, "10.010", "10.014", purpose="self_spot").visible
    # Not through four.
    m4 = make_map(terrain=wall | {"10.014": "W"}, features=[("op", "10.010")])
    r4 = both(m4, s, "10.010", "10.015", purpose="spot")
    assert not r4.visible and r4.first_blocker.where == "10.014"
    # Not reciprocal.
    assert not both(m, s, "10.014", "10.010", purpose="spot").visible


def test_gts_15_4_3_strongpoint_through_two_into_a_third() -> None:
    s = system()
    m = make_map(terrain={"10.011": "W", "10.012": "W", "10.013": "T"}, features=[("strongpoint", "10.010")])
    r = both(m, s, "10.010", "10.013")
    assert r.visible and r.observer == "strongpoint" and r.range_limit == 8 and r.used == 2
    assert not both(m, s, "10.010", "10.014").visible       # not through three
    assert not both(m, s, "10.010", "10.019").visible       # range stays 8
    assert not both(m, s, "10.013", "10.010").visible       # not reciprocal


def test_utah_2_1_10_hill_range_13_through_three_and_reciprocal() -> None:
    s = system()
    m = make_map(terrain={"10.010": "H", "10.011": "W", "10.012": "W", "10.013": "T"})
    r = both(m, s, "10.010", "10.014")
    assert r.visible and r.observer == "hill" and r.used == 3
    assert both(make_map(terrain={"10.010": "H"}), s, "10.010", "10.023").visible   # 13 hexes by day
    assert both(m, s, "10.010", "16.010").visible                  # 6 hexes, clear
    back = both(m, s, "10.014", "10.010")
    assert back.visible and "reciprocal" in back.policies


def test_los_off_for_systems_without_los_rules() -> None:
    s = system(enabled=False, disabled_reason="SFN has no line-of-sight rules")
    m = make_map()
    r = line_of_sight(m, s, H(m, "10.010"), H(m, "12.010"))
    assert not r.enabled and "SFN has no line-of-sight rules" in r.explain()


def test_vertex_policy_default_ignores_the_touched_hex_strict_counts_it() -> None:
    # 20.020 → 09.015 passes through two vertices; 16.019 is touched only at a point.
    m = make_map(terrain={"16.019": "W"})
    d = both(m, LONG, "20.020", "09.015")
    assert d.visible and "vertex-default" in d.policies
    st = both(m, system(vertex_policy="strict", ranges={"day": 13}), "20.020", "09.015")
    assert not st.visible and "vertex-strict" in st.policies


def test_vertex_default_crest_counts_only_when_it_separates() -> None:
    # At the vertex 16.018/16.019/17.018 the line goes from 17.018 into 16.018.
    one = make_map(hexsides={"crest": ["16.018/SE"]})          # 16.018|17.018: the side between before/after
    assert both(one, LONG, "20.020", "09.015").visible
    two = make_map(hexsides={"crest": ["16.018/SE", "16.019/N"]})
    r = both(two, LONG, "20.020", "09.015")
    assert not r.visible and r.first_blocker.kind == "vertex"
