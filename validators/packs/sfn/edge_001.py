"""SFN-EDGE-001."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic
from model.hexes import Hex
from validators.context import RuleContext
from validators.packs.sfn._sfn import SYSTEMS, param
from validators.rule import Rule


class EdgeRanges(Rule):
    """The German entry and supply edges run along the map-edge land hexes between the printed endpoints.

    Rule case: SFN 7.3, 9.3
    Why: North box units enter via board edge hexes 3100–2828, South box units via
    4013–3421 (7.3); German supply comes from the map-edge land hexes 1013–3100 (9.3).
    Violating example: ``north-entry-edge`` ending at 2827, or listing 2520 (not a map-edge hex).
    Correct example: ``north-entry-edge`` = 3100, 3200, … 4013, … 3421, … 2828, each next to the previous.
    Policy: edge-chain — an edge is stored as the chain of map-edge land hexes from one
    endpoint to the other, each adjacent to the next; the outline between endpoints is illustrative.
    """

    code = "SFN-EDGE-001"
    name = "edge-ranges"
    groups = ("map", "supply")
    rule_case = "SFN 7.3"
    systems = SYSTEMS
    scope = "bundle"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        hmap = ctx.hmap
        specs = dict(param(ctx, "entry_edges"))
        specs["supply"] = param(ctx, "supply_edge")
        sea = {t.id for t in ctx.system.terrain if "sea" in t.tags}

        def land(h: Hex) -> bool:
            t = hmap.terrain_at(h)
            return t is not None and t not in sea

        for key, spec in specs.items():
            if not isinstance(spec, dict) or "area" not in spec:
                continue
            area = hmap.area(str(spec["area"]))
            ends = [hmap.parse(str(spec["from"])), hmap.parse(str(spec["to"]))]
            if area is None:
                yield ctx.finding(self, f"the map has no area {spec['area']!r} ({key} edge {spec['from']}–{spec['to']}, "
                                  f"{spec.get('rule')})", hmap, "areas", hexes=ends, policy="edge-chain")
                continue
            hexes = list(area.hexes)
            if not hexes or hexes[0] != ends[0] or hexes[-1] != ends[1]:
                yield ctx.finding(self, f"{area.id} must run from {spec['from']} to {spec['to']} "
                                  f"({spec.get('rule')})", area, "hexes", hexes=ends, policy="edge-chain")
            for i, h in enumerate(hexes):
                if not land(h) or all(hmap.contains(n) for n in h.neighbors()):
                    yield ctx.finding(self, f"{area.id}: {ctx.label(h)} is not a land hex on the map edge", area,
                                      "hexes", i, hexes=[h], policy="edge-chain")
                if i and h.distance(hexes[i - 1]) != 1:
                    yield ctx.finding(self, f"{area.id}: {ctx.label(hexes[i - 1])} and {ctx.label(h)} are not adjacent",
                                      area, "hexes", i, hexes=[hexes[i - 1], h], policy="edge-chain")
