"""GTS-BEACH-003: overlay data is complete: tracks, drift entries and gap hexsides."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.gts._gts import SYSTEMS, sys_param
from validators.rule import Rule


class OverlayDataComplete(Rule):
    """Each overlay gives start values for all four defence tracks, a drift entry for every
    sub-beach, and gap hexsides that lie between a Beach and a non-Beach hex.

    Rule case: Excl 4.2 (German Defense of the Beach Overlay; drift Excl 4.2.1 and errata)

    Why: the Obstacles, Resistance Nests, Gaps and Sea State tracks drive every landing;
    drift moves craft along the beach — the errata had to add missing drift charts (R6). A
    gap hexside that does not separate Beach from inland ground opens nothing.

    Violating example: ``tracks: {obstacles: 3, nests: 3, gaps: 3}`` (no sea_state), or a
    sub-beach with ``drift: {}``.

    Correct example: ``tracks: {obstacles: 3, nests: 3, gaps: 3, sea_state: 2}`` and
    ``drift: {actual: none, planned: 1 Left}``.
    """

    code = "GTS-BEACH-003"
    name = "overlay-data-complete"
    severity = Severity.ERROR
    groups = ("beach", "gts")
    rule_case = "Excl 4.2"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        tracks = sys_param(ctx, "beach_track_names", ["obstacles", "nests", "gaps", "sea_state"])
        beach_types = {t.id for t in ctx.system.terrain if "beach" in t.tags}
        for o in scen.beach_overlays:
            for t in tracks:
                if o.tracks.get(t) is None:
                    yield ctx.finding(self, f"overlay {o.name!r} gives no start value for the {t} track", o, "tracks")
            version = o.version or "actual"
            for sb in o.sub_beaches:
                if not sb.drift.get(version):
                    yield ctx.finding(self, f"sub-beach {sb.name} has no drift entry for the {version} overlay",
                                      sb, "drift")
            for i, key in enumerate(o.gap_hexsides):
                a, b = key.hexes()
                kinds = {ctx.hmap.terrain_at(a) in beach_types, ctx.hmap.terrain_at(b) in beach_types}
                if kinds != {True, False}:
                    yield ctx.finding(self, f"gap hexside {ctx.label(a)}/{ctx.label(b)} does not lie between a Beach "
                                      "and a non-Beach hex", o, "gap_hexsides", i, hexes=(a, b))
