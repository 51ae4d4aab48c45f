"""GTS-NAV-001: Assault Force markers sit on legal hexes of their own sector."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.gts._gts import SYSTEMS, has_center_dot, param, parse
from validators.rule import Rule


class AssaultForceMarker(Rule):
    """An Assault Force marker is on an Impassable hex of its own sector next to a coastal
    hex with a centre dot, or on a Beach hex of an overlay in play.

    Rule case: Excl 4.4.3 (UtN 29.017–44.002, UtS 16.032–28.018; 17.029 and 18.027 are legal)

    Why: ship ranges are counted from the marker [Excl 4.4.7]; a marker out of its sector
    or inland gives every ship the wrong range.

    Violating example: ``af_markers: {UtS: {hex: '30.016'}}`` — a UtN-sector hex.

    Correct example: ``af_markers: {UtS: {hex: '18.027'}}``. Sectors are the map areas of
    kind ``af_sector`` whose id ends with the force name (``sector-uts``).
    """

    code = "GTS-NAV-001"
    name = "af-marker-legal"
    severity = Severity.ERROR
    groups = ("naval", "gts")
    rule_case = "Excl 4.4.3"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        markers = param(ctx, "af_markers", {}) or {}
        beach_types = {t.id for t in ctx.system.terrain if "beach" in t.tags}
        overlay = {h for o in scen.beach_overlays if o.visible for h in o.hexes}
        for force, spec in markers.items():
            if not isinstance(spec, dict):
                continue
            where = ("params", "af_markers", force, "hex")
            h = parse(ctx, spec.get("hex"))
            if h is None or not ctx.hmap.contains(h):
                continue  # GTS-HEX-002
            if ctx.hmap.terrain_at(h) in beach_types and h in overlay:
                continue
            sector = next((a for a in ctx.hmap.areas if a.kind == "af_sector" and a.id.lower().endswith(str(force).lower())),
                          None)
            if sector is None:
                yield ctx.finding(self, f"no Assault Force sector area for {force} on the map", scen, *where)
                continue
            if has_center_dot(ctx, h):
                yield ctx.finding(self, f"{force} marker at {ctx.label(h)}: not an Impassable hex nor a Beach hex "
                                  "of an overlay in play", scen, *where, hexes=(h,))
            elif h not in set(sector.hexes):
                yield ctx.finding(self, f"{force} marker at {ctx.label(h)} is outside its sector ({sector.name})",
                                  scen, *where, hexes=(h,))
            elif not any(ctx.hmap.contains(n) and has_center_dot(ctx, n) for n in h.neighbors()):
                yield ctx.finding(self, f"{force} marker at {ctx.label(h)} is not adjacent to a coastal hex with a "
                                  "centre dot", scen, *where, hexes=(h,))
