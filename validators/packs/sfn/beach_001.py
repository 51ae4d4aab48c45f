"""SFN-BEACH-001."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic
from validators.context import RuleContext
from validators.packs.sfn._sfn import SYSTEMS, all_areas, beachheads
from validators.rule import Rule


class InvasionAreaBeachheads(Rule):
    """Each invasion area on the map holds exactly its five beachhead hexes.

    Rule case: SFN 3.2
    Why: supply, landings, CP and VP all hang on the beachhead hexes; the Calais area is
    2006, 2007, 2008, 2009 and 1910 and the Dieppe area 1310, 1411, 1510, 1611 and 1710.
    Violating example: map area ``invasion-calais`` lists 2006, 2007, 2008 and 2009 only.
    Correct example: ``invasion-calais`` lists 2006, 2007, 2008, 2009 and 1910, all land hexes.
    """

    code = "SFN-BEACH-001"
    name = "invasion-area-beachheads"
    groups = ("setup", "map")
    rule_case = "SFN 3.2"
    systems = SYSTEMS
    scope = "bundle"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        hmap = ctx.hmap
        for area_id in all_areas(ctx):
            want = beachheads(ctx, area_id)
            area = hmap.area(f"invasion-{area_id}")
            if area is None:
                yield ctx.finding(self, f"the map has no area 'invasion-{area_id}' for the {area_id} beachheads", hmap,
                                  "areas", hexes=want)
                continue
            missing = [h for h in want if h not in area.hexes]
            extra = [h for h in area.hexes if h not in want]
            if missing or extra:
                parts = []
                if missing:
                    parts.append("missing " + ", ".join(ctx.labels(missing)))
                if extra:
                    parts.append("not a beachhead " + ", ".join(ctx.labels(extra)))
                yield ctx.finding(self, f"invasion area {area_id}: " + "; ".join(parts), area, "hexes",
                                  hexes=missing + extra)
            for h in want:
                terrain = hmap.terrain_at(h)
                if terrain is None or "sea" in ctx.system.terrain_by_id.get(terrain, _NoTags).tags:
                    yield ctx.finding(self, f"beachhead {ctx.label(h)} is not a land hex of the map", area, "hexes",
                                      hexes=[h])


class _NoTags:
    tags: list[str] = []
