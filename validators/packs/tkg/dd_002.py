"""TKG-DD-002."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.rule import Rule

GLIDER_TERRAIN = {"clear", "mixed", "hedgerow"}


class GliderLandingHexes(Rule):
    """Glider units land on clear, mixed or hedgerow hexes in or next to their drop zone.

    Digest §8: DD-02.

    Rule case: TKG L2323

    Why: At the end of D-Day, gliders land "in or next to the drop zone, only on clear,
    mixed or hedgerow" hexes (L2323).

    Violating example:
        schedule: [{turn: 1, kind: drop, units: [us_101_glider], drop: {zone: E}, entry: {hex: N2720}}]   # flooded

    Correct example:
        schedule: [{turn: 1, kind: drop, units: [us_101_glider], drop: {zone: E}, entry: {hex: N2420}}]

    Policy: A glider unit carries the counter flag ``glider``; its landing hex is the
    drop entry's ``entry.hex`` and its zone ``drop.zone``.
    """

    code = "TKG-DD-002"
    name = "glider-landing-hexes"
    severity = Severity.ERROR
    groups = ("dday",)
    rule_case = "TKG L2323"
    systems = ("tkg",)

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        s = ctx.scenario
        assert s is not None
        zones = {z.id: z for z in s.drop_zones}
        for e in s.schedule:
            units = [ctx.counters[u] for u in e.units if u in ctx.counters and "glider" in ctx.counters[u].flags]
            if not units or e.entry is None or e.entry.hex is None:
                continue
            h = e.entry.hex
            terrain = ctx.hmap.terrain_at(h)
            if terrain not in GLIDER_TERRAIN:
                yield ctx.finding(self, f"gliders land on clear, mixed or hedgerow; {ctx.label(h)} is {terrain}",
                                  e.entry, "hex", units=tuple(c.id for c in units), hexes=(h,))
            zone = zones.get(e.drop.zone) if e.drop is not None else None
            if zone is None or not any(h.distance(z) <= 1 for z in zone.hexes):
                yield ctx.finding(self, f"glider landing hex {ctx.label(h)} is not in or next to its drop zone",
                                  e.entry, "hex", units=tuple(c.id for c in units), hexes=(h,))
