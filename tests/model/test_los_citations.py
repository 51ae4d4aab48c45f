"""Every LOS verdict names the rule that decided it (issue #17 part 4): ``LosResult.decided_by``.

The cases come from the shipped system file (resources/systems/gts-utah.yaml: ``los.range_rules``,
the spotters' ``rule:``, ``los.cases``, the types' ``rule:``), never from model/los.py. Lines run
straight down column 11 (flat-top, odd-q: 11.000 → 11.00N passes through the centres of
11.001 … and crosses their S sides), so the distance is the row difference.
"""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from geomkit import H, make_map
from hypothesis import given, settings
from hypothesis import strategies as st
from test_los_agreement import cells, random_map

from model.los import LosResult, line_of_sight, spotters_of
from model.los_fast import FastLos
from model.mapdata import HexMap
from model.system import LOS_CONDITIONS, NO_CASE, GameSystem, LosCases, system_path

UTAH = GameSystem.model_validate(yaml.safe_load(system_path("gts-utah").read_text(encoding="utf-8")))


def col(row: int) -> str:
    return f"11.{row:03d}"


def los(m: HexMap, a: int, b: int, system: GameSystem = UTAH, **kw: Any) -> LosResult:
    """Reference answer, checked against the fast path's (same verdict, same decision)."""
    ref = line_of_sight(m, system, H(m, col(a)), H(m, col(b)), **kw)
    fast = FastLos(m, system).query(H(m, col(a)), H(m, col(b)), **kw)
    assert (ref.visible, ref.decided_by, ref.reason) == (fast.visible, fast.decided_by, fast.reason)
    assert ref.decided_by is not None
    return ref


def data_cases(system: GameSystem) -> set[str]:
    """Every case the system file gives LOS (as cited)."""
    los_ = system.los
    out = {system.cited(los_.rule)} | {system.cited(getattr(los_.cases, n)) for n in LosCases.model_fields}
    out |= {system.cited(r) for r in los_.range_rules.values()}
    out |= {system.cited(sp.rule) for sp in spotters_of(system)}
    for kinds in (system.terrain, system.hexsides, system.paths):
        out |= {system.cite(t.rule) for t in kinds if t.rule}
    return out


# --- range: the row of the condition ----------------------------------------------------------

@pytest.mark.parametrize("kw,target,limit,case", [
    ({}, 9, 8, "GTS 15.4"),
    ({"fog": True}, 3, 2, "GTS 15.4"),
    ({"night": True}, 4, 3, "Excl 1.1"),
    ({"storm": True}, 5, 4, "Excl 1.2"),
    ({"night": True, "storm": True}, 3, 2, "Excl 1.1-1.2"),
])
def test_out_of_range_cites_the_range_row(kw: dict[str, bool], target: int, limit: int, case: str) -> None:
    """GTS 15.4: "Clear daylight turn 8 hexes / Day or night turn with fog or rain 2 hexes /
    Clear night turn 3 hexes". Utah Excl 1.1: "The maximum Line of Sight distance at Night is
    3 hexes (if both Storm and Night, 2 hexes)." Excl 1.2: "Storm: Maximum Line of Sight
    distance is 4 hexes (if Night and Storm, it is reduced to 2 hexes)." """
    m = make_map()
    r = los(m, 0, target, **kw)
    assert not r.visible and r.range_limit == limit
    assert (r.decided_by.kind, r.decided_by.rule) == ("range", case)
    assert r.reason.startswith(f"out of range: {target} > {limit}") and r.reason.endswith(f"[{case}]")
    assert los(m, 0, limit, **kw).decided_by.kind == "clear"   # at the limit: in range


def test_a_blocker_beyond_the_range_does_not_decide() -> None:
    """GTS 15.4: "Once you have an unblocked Line of Sight, count the hexes along it … for the
    Line of Sight distance." Woods 10 hexes out on a line of 11 at day range 8: the line is
    out of range; the woods lie beyond the range and are not the reason (policy
    blocker-within-range). The crossing list still marks the woods as the first blocker."""
    m = make_map(terrain={col(10): "W"})
    r = los(m, 0, 11)
    assert not r.visible and r.first_blocker is not None and r.first_blocker.where == col(10)
    assert (r.decided_by.kind, r.decided_by.rule) == ("range", "GTS 15.4")
    assert r.reason.startswith("out of range: 11 > 8") and "blocked at" not in r.reason
    assert "blocker-within-range" in r.policies
    # A crest on the side between the 8th and the 9th hex is on the range limit, not within it.
    edge = make_map(hexsides={"crest": [f"{col(8)}/S"]})
    assert los(edge, 0, 11).decided_by.kind == "range"


def test_a_blocker_within_range_still_decides_an_out_of_range_line() -> None:
    """GTS 15.4: "A Line of Sight may not pass through a hex containing Blocking Terrain";
    Utah Excl 2.1.2: Woods are Blocking Terrain. Woods at the 8th hex (within day range 8) on a
    line of 11: the woods decide; range is named as well."""
    m = make_map(terrain={col(8): "W"})
    r = los(m, 0, 11)
    assert (r.decided_by.kind, r.decided_by.rule, r.decided_by.where) == ("blocker", "Excl 2.1.2", col(8))
    assert r.reason.startswith(f"blocked at {col(8)} by woods") and "out of range: 11 > 8" in r.reason
    assert "GTS 15.4" in r.decided_by.also


# --- spotters: 15.4.2, 15.4.3, Excl 2.1.10 ------------------------------------------------------

def test_an_op_line_seen_only_thanks_to_the_op_cites_15_4_2() -> None:
    """GTS 15.4.2: "Any Unit in an observation post hex: Has a maximum daylight, non-fog,
    non-rain Line of Sight distance of thirteen hexes instead of eight. May trace a Line of
    Sight through as many as three hexes or hexsides with Blocking Terrain, and into a fourth
    hex … This extended Line of Sight may only be used when spotting an Indirect Fire mission
    for another Unit"."""
    far = make_map(features=[("op", col(0))])
    r = los(far, 0, 11, purpose="spot")
    assert r.visible and (r.decided_by.kind, r.decided_by.rule) == ("spotter", "GTS 15.4.2")
    assert "beyond the normal range 8" in r.reason
    direct = los(far, 0, 11)   # "they have no effect on Direct Fire"
    assert not direct.visible and (direct.decided_by.kind, direct.decided_by.rule) == ("range", "GTS 15.4")
    woods = make_map(terrain={col(2): "W", col(3): "W", col(4): "W", col(5): "W"}, features=[("op", col(0))])
    through = los(woods, 0, 5, purpose="spot")       # through three, into the fourth
    assert through.visible and (through.decided_by.kind, through.decided_by.rule) == ("spotter", "GTS 15.4.2")
    assert "sees through 3 blocking" in through.reason
    # A fourth blocking hex passed through: blocked, and the OP's limit is what decided.
    beyond = los(woods, 0, 6, purpose="spot")
    assert not beyond.visible and (beyond.decided_by.kind, beyond.decided_by.rule) == ("spotter", "GTS 15.4.2")
    assert beyond.decided_by.where == col(5) and "Excl 2.1.2" in beyond.decided_by.also


def test_op_range_rows_own_and_fallback() -> None:
    """GTS 15.4.2 table: "Clear night 3 hexes" (the OP's own row); an OP in a Storm "is not
    covered by the rules" (system note): the normal Storm row applies, Utah Excl 1.2 "Storm:
    Maximum Line of Sight distance is 4 hexes" (policy spotter-range-fallback)."""
    m = make_map(features=[("op", col(0))])
    night = los(m, 0, 4, purpose="spot", night=True)
    assert (night.decided_by.kind, night.decided_by.rule) == ("range", "GTS 15.4.2")
    storm = los(m, 0, 5, purpose="spot", storm=True)
    assert (storm.decided_by.kind, storm.decided_by.rule, storm.decided_by.policy) == \
        ("range", "Excl 1.2", "spotter-range-fallback")


def test_a_strongpoint_line_cites_15_4_3() -> None:
    """GTS 15.4.3: "A Unit in a strongpoint may trace a Line of Sight through as many as two
    hexes or hexsides with Blocking Terrain and into a third hex … strongpoints do not change
    the maximum Line of Sight range, and they may be used for both Direct Fire and spotting"."""
    m = make_map(terrain={col(2): "W", col(3): "T"}, features=[("strongpoint", col(0))])
    r = los(m, 0, 4)
    assert r.visible and (r.decided_by.kind, r.decided_by.rule) == ("spotter", "GTS 15.4.3")
    far = los(make_map(features=[("strongpoint", col(0))]), 0, 9)   # range unchanged: the day row
    assert (far.decided_by.kind, far.decided_by.rule) == ("range", "GTS 15.4")


def test_a_hill_line_and_its_reciprocal_cite_excl_2_1_10() -> None:
    """Utah Excl 2.1.10: "A Unit in a Hill hex has a maximum daylight LOS range of 13 hexes and
    may trace LOS and fire through 3 blocking hexes or hexsides. Visibility to the Hill is
    reciprocal."""
    m = make_map(terrain={col(0): "H", col(2): "W"})
    r = los(m, 0, 4)
    assert r.visible and (r.decided_by.kind, r.decided_by.rule) == ("spotter", "Excl 2.1.10")
    back = los(m, 4, 0)   # an ordinary unit sees the Hill that sees it
    assert back.visible and (back.decided_by.kind, back.decided_by.rule) == ("reciprocal", "Excl 2.1.10")
    assert back.reason.startswith(f"visible because {col(0)} (hill) sees {col(4)}")


# --- crests: Excl 2.2.1 and Errata 2.2.2 --------------------------------------------------------

def test_the_first_crest_is_exempt_under_excl_2_2_1() -> None:
    """Utah Excl 2.2.1: "If a Line of Sight crosses a Crest hexside, that LOS is blocked. The
    only exception to this is if either the spotting Unit or the spotted Unit is adjacent to a
    Crest hexside and no more than one Crest hexside has been crossed"."""
    m = make_map(hexsides={"crest": [f"{col(0)}/S"]})
    r = los(m, 0, 5)
    assert r.visible and (r.decided_by.kind, r.decided_by.rule) == ("crest", "Excl 2.2.1")
    assert r.decided_by.where in (f"{col(0)}/S", f"{col(1)}/N")   # one side, two names
    mid = los(make_map(hexsides={"crest": [f"{col(2)}/S"]}), 0, 5)   # one crest, not beside an end
    assert not mid.visible and (mid.decided_by.kind, mid.decided_by.rule) == ("crest", "Excl 2.2.1")


def test_a_second_crest_cites_errata_2_2_2() -> None:
    """Utah Errata 2.2.2: "No more than one Ridge hexside may be crossed when drawing the LOS
    between the firing and target Unit's. (Again, LOS is blocked between two Units, both of
    which are adjacent to different Ridge hexsides.) This restriction applies to both Crests
    and Ridges"."""
    both_ends = make_map(hexsides={"crest": [f"{col(0)}/S", f"{col(4)}/S"]})
    r = los(both_ends, 0, 5)
    assert not r.visible and (r.decided_by.kind, r.decided_by.rule) == ("crest", "Err 2.2.2")
    assert r.decided_by.also == ("Excl 2.2.1",)          # the first crest's exemption
    assert r.reason.endswith("[Err 2.2.2]")
    mixed = make_map(hexsides={"crest": [f"{col(0)}/S"], "ridge": [f"{col(4)}/S"]})
    assert los(mixed, 0, 5).decided_by.rule == "Err 2.2.2"
    # A second crossing in mid-line breaks both rules: the errata decides (policy second-crest-errata).
    middle = los(make_map(hexsides={"crest": [f"{col(0)}/S", f"{col(2)}/S"]}), 0, 5)
    assert (middle.decided_by.rule, middle.decided_by.also, middle.decided_by.policy) == \
        ("Err 2.2.2", ("Excl 2.2.1",), "second-crest-errata")
    assert "second-crest-errata" in middle.policies


def test_a_clear_line_cites_the_los_rule_and_an_lOS_less_system_says_so() -> None:
    """GTS 15.4: "A Line of Sight is a straight, unblocked line between the center dot of the
    firing or spotting Unit's hex and the center dot of the target hex." """
    r = los(make_map(), 0, 5)
    assert r.visible and (r.decided_by.kind, r.decided_by.rule, r.reason) == ("clear", "GTS 15.4", "clear [GTS 15.4]")
    sfn = GameSystem.model_validate(yaml.safe_load(system_path("sfn").read_text(encoding="utf-8")))
    off = line_of_sight(make_map(), sfn, H(make_map(), col(0)), H(make_map(), col(2)))
    assert (off.decided_by.kind, off.decided_by.rule) == ("disabled", "SFN 13.1")


def test_the_explanation_and_json_carry_the_decision() -> None:
    r = los(make_map(hexsides={"crest": [f"{col(0)}/S", f"{col(4)}/S"]}), 0, 5)
    assert "  decided by crest [Err 2.2.2]; also Excl 2.2.1" in r.explain().splitlines()
    d = r.to_dict()["decided_by"]
    assert d["kind"] == "crest" and d["rule"] == "Err 2.2.2" and d["also"] == ["Excl 2.2.1"]


def test_every_utah_range_row_has_a_case() -> None:
    assert set(UTAH.los.range_rules) == set(UTAH.los.ranges)
    assert set(UTAH.los.ranges) <= {w for ws in LOS_CONDITIONS.values() for w in ws}


# --- laws ---------------------------------------------------------------------------------------

CONDITIONS = st.sampled_from([{}, {"night": True}, {"storm": True}, {"night": True, "storm": True}, {"fog": True}])


@settings(max_examples=40, deadline=None)
@given(random_map(), st.lists(st.tuples(cells, cells), min_size=1, max_size=10), st.sampled_from(["direct", "spot"]),
       CONDITIONS, st.lists(cells, max_size=2))
def test_a_blocked_verdict_names_a_case_of_the_system_and_range_says_range(m, pairs, purpose, cond, barrage):  # type: ignore[no-untyped-def]
    """Whenever a line is not visible, ``decided_by`` names a case present in the system data;
    whenever the range is exceeded, the reason says so; with no blocker, range decides."""
    cases = data_cases(UTAH)
    assert NO_CASE not in cases
    spec = m.spec
    barr = {spec.hex_at_offset(x, y) for x, y in barrage}
    fast = FastLos(m, UTAH)
    for (ax, ay), (bx, by) in pairs:
        a, b = spec.hex_at_offset(ax, ay), spec.hex_at_offset(bx, by)
        r = line_of_sight(m, UTAH, a, b, purpose=purpose, barrage=barr, **cond)
        got = fast.query(a, b, purpose=purpose, barrage=barr, **cond)
        dec = r.decided_by
        assert dec is not None and got.decided_by == dec and got.reason == r.reason
        assert dec.rule in cases, (dec, r.explain())
        assert all(x in cases for x in dec.also), (dec, r.explain())
        assert r.reason.endswith(f"[{dec.rule}]") or f"[{dec.rule}] (policy " in r.reason
        if r.range_limit is not None and r.distance > r.range_limit:
            assert not r.visible or dec.kind == "reciprocal"
            assert "out of range" in r.reason or dec.kind == "reciprocal", r.reason
            if r.first_blocker is None and dec.kind != "reciprocal":
                assert dec.kind == "range", r.reason
        if not r.visible:
            assert dec.kind in ("range", "blocker", "crest", "spotter")
        else:
            assert dec.kind in ("clear", "crest", "spotter", "reciprocal")
