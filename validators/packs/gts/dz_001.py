"""GTS-DZ-001: every zone used is one of the 16, on the map and playable; LZ O = DZ O + 6."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.core._scan import playable_area
from validators.packs.gts._gts import SYSTEMS, has_center_dot, on_scenario_map, sys_param
from validators.rule import Rule


class DropZoneValid(Rule):
    """Each drop zone is one of the 16 zones of Excl 3.2, every hex is on the grid, on the
    scenario map and playable, a zone that ``extends`` another names an existing zone, and
    every drop order names a zone of the scenario.

    Rule case: Excl 3.2 (Where to Drop: sixteen zone lists, "fifteen" in the text; LZ O
    "should add the following hexes to DZ O")

    Why: sticks land only in the listed hexes; a zone id the rules do not define, or a zone
    hex in the sea, makes the drop unplayable.

    Violating example: ``drop: {zone: dz-x}``, or DZ A with an extra hex '18.027'.

    Correct example: ``drop: {zone: dz-a}`` with DZ A's nine printed hexes.
    """

    code = "GTS-DZ-001"
    name = "dz-valid"
    severity = Severity.ERROR
    groups = ("airborne", "gts")
    rule_case = "Excl 3.2"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        known = set(sys_param(ctx, "drop_zone_ids", []) or [])
        zones = {z.id: z for z in scen.drop_zones}
        area = playable_area(ctx)  # a hex outside it is reported once, by CORE-HEX-002
        for z in scen.drop_zones:
            if known and z.id not in known:
                yield ctx.finding(self, f"zone {z.id!r} is not one of the {len(known)} zones of Excl 3.2", z, "id")
            if z.extends is not None and z.extends not in zones:
                yield ctx.finding(self, f"zone {z.id} extends {z.extends!r}, which this scenario does not define",
                                  z, "extends")
            for i, h in enumerate(z.hexes):
                if not ctx.hmap.contains(h):
                    yield ctx.finding(self, f"zone {z.name}: hex {ctx.label(h)} is not on the map", z, "hexes", i,
                                      hexes=(h,))
                elif not has_center_dot(ctx, h):
                    yield ctx.finding(self, f"zone {z.name}: hex {ctx.label(h)} is not playable", z, "hexes", i,
                                      hexes=(h,))
                elif not on_scenario_map(ctx, h) and (area is None or h in area):  # else CORE-HEX-002's
                    yield ctx.finding(self, f"zone {z.name}: hex {ctx.label(h)} is off the scenario map", z, "hexes", i,
                                      hexes=(h,))
        for s in scen.schedule:
            if s.drop is not None and s.drop.zone not in zones:
                yield ctx.finding(self, f"drop into {s.drop.zone!r}, which this scenario does not define", s.drop, "zone")
