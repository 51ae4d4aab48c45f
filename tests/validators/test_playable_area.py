"""CORE-HEX-002's playable area (validators/packs/core/_scan.PlayableArea) answers as the
whole-map scan it replaced: every hex on the grid, filtered by hexes, sheets, area, exclude —
and ``bounds``, the inclusive offset rectangle between two corners (issue #19: the playable
area stated once; the GTS scenario map is its ``bounds``)."""

from __future__ import annotations

from functools import lru_cache

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import REPO
from model.bundle import Bundle, load_bundle
from model.hexes import Hex
from model.mapdata import Area
from model.scenario import Playable
from validators.context import RuleContext
from validators.packs.core._scan import playable_area, playable_hexes


@lru_cache(maxsize=1)
def bundle() -> Bundle:
    b = load_bundle(REPO / "scenarios" / "killing-ground").bundle
    assert b is not None
    hmap = b.default_map
    every = hmap.hexes()
    # The sample map names no areas; one spanning the N/W sheet boundary exercises `area`.
    hmap.areas.append(Area(id="test-area", name="test", hexes=every[3300:3400] + [Hex(-50, -50)]))
    return b


def reference(b: Bundle, pl: Playable) -> set[Hex] | None:
    """The scan CORE-HEX-002 used before (validators/packs/core/_scan.py, commit 1158000)."""
    if not (pl.sheets or pl.area or pl.hexes or pl.exclude or pl.bounds):
        return None
    hmap = b.default_map
    spec = hmap.spec
    cells = set(hmap.hexes())
    if pl.hexes:
        cells &= set(pl.hexes)
    if pl.sheets:
        cells = {h for h in cells if (s := spec.sheet_of(h)) is not None and s.id in pl.sheets}
    if pl.area:
        area = hmap.area(pl.area)
        if area is not None:
            cells &= set(area.hexes)
    if pl.bounds:
        (ax, ay), (bx, by) = (spec.offset(h) for h in pl.bounds)
        cells = {h for h in cells if min(ax, bx) <= spec.offset(h)[0] <= max(ax, bx)
                 and min(ay, by) <= spec.offset(h)[1] <= max(ay, by)}
    cells -= set(pl.exclude)
    return cells


def context(b: Bundle, pl: Playable) -> RuleContext:
    sid = b.scenario_ids()[0]
    scen = b.resolved(sid).model_copy(update={"playable": pl})
    return RuleContext(b, scen, sid)


@st.composite
def playables(draw: st.DrawFn) -> Playable:
    every = bundle().default_map.hexes()
    pick = st.one_of(st.sampled_from(every), st.builds(Hex, st.integers(-5, 70), st.integers(-40, 150)))
    return Playable(sheets=draw(st.lists(st.sampled_from(["N", "W", "E", "X"]), max_size=2, unique=True)),
                    area=draw(st.sampled_from([None, "test-area", "no-such-area"])),
                    hexes=draw(st.lists(pick, max_size=30)), exclude=draw(st.lists(pick, max_size=30)),
                    bounds=draw(st.one_of(st.just([]), st.lists(pick, min_size=2, max_size=2))))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(playables(), st.data())
def test_membership_and_listing_match_the_whole_map_scan(pl: Playable, data: st.DataObject) -> None:
    b = bundle()
    ref = reference(b, pl)
    ctx = context(b, pl)
    area = playable_area(ctx)
    assert (area is None) == (ref is None)
    if ref is None:
        assert playable_hexes(ctx) is None
        return
    assert area is not None
    assert playable_hexes(ctx) == ref
    every = b.default_map.hexes()
    probes = data.draw(st.lists(st.sampled_from(every), min_size=50, max_size=50)) + list(pl.hexes) + list(pl.exclude)
    probes += [Hex(-3, 1), Hex(200, -9)]
    for h in probes:
        assert (h in area) == (h in ref), h


def test_sheet_filter_lists_one_sheet() -> None:
    b = bundle()
    pl = Playable(sheets=["E"])
    got = playable_hexes(context(b, pl))
    assert got == reference(b, pl)
    assert got and {b.default_map.spec.sheet_of(h).id for h in got} == {"E"}  # type: ignore[union-attr]
