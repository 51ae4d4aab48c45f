"""TKG-SCH-009."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.tkg._tkg import param
from validators.rule import Rule


class RailArrivals(Rule):
    """German rail arrivals go to a town or city with a railroad station, or in single-map play to a Transit box numbered below 13.

    Digest §8: SCH-09.

    Rule case: TKG [7.7.1]

    Why: Rail entry is into "a town or city hex that has a connected railroad station"
    [7.7.1] (Fougeres, Mayenne and/or Alencon, [17.4.3]); on a single map, rail arrivals
    go to Transit boxes "with a number less than 13" [17.4.3].

    Violating example:
        schedule: [{turn: 32, side: german, units: [de_2ss_d], condition: rail, entry: {hex: W3826}}]

    Correct example:
        schedule: [{turn: 32, side: german, units: [de_2ss_d], condition: rail, entry: {hex: E1422}}]

    Policy: A rail arrival is a schedule entry with ``condition: rail``; a station is a
    ``rail_station`` map feature on town or city terrain.
    """

    code = "TKG-SCH-009"
    name = "rail-arrivals"
    severity = Severity.ERROR
    groups = ("schedule",)
    rule_case = "TKG [7.7.1]"
    systems = ("tkg",)

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        s = ctx.scenario
        assert s is not None
        below = int((param(ctx, "rail_stations", default={}) or {}).get("single_map_transit_box_below", 13))
        single = s.playable is not None and len(s.playable.sheets) == 1
        stations = {f.hex for f in ctx.hmap.features
                    if f.type == "rail_station" and ctx.hmap.terrain_at(f.hex) in ("town", "city")}
        for e in s.schedule:
            if (e.condition or "").strip().lower() != "rail" or e.entry is None:
                continue
            if e.entry.hex is not None:
                if e.entry.hex not in stations:
                    yield ctx.finding(self, f"rail arrival at {ctx.label(e.entry.hex)}, which is not a town/city with a "
                                            "railroad station", e.entry, "hex", units=tuple(e.units), hexes=(e.entry.hex,))
            elif e.entry.box is not None:
                box = ctx.bundle.box(e.entry.box)
                ok = single and box is not None and box.kind == "transit" and box.number is not None and box.number < below
                if not ok:
                    yield ctx.finding(self, f"rail arrival in box {e.entry.box!r}: only single-map play may use a Transit "
                                            f"box numbered below {below}", e.entry, "box", units=tuple(e.units))
            else:
                yield ctx.finding(self, "rail arrival names no station hex or Transit box", e, units=tuple(e.units))
