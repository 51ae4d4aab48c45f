"""TKG-SCH-008."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.tkg._tkg import logistics, param, schedule_units
from validators.rule import Rule


class OperationalAlliedArrivals(Rule):
    """In the Operational state, Allied reinforcements arrive on or next to their nation's supply source (W6021 U.S., W5735 BR/CA).

    Digest §8: SCH-08.

    Rule case: TKG [18.2.1]

    Why: Operational Allied reinforcements are placed "on or adjacent to a supply source
    hex of their nationality" [18.2.1]; the sources are W6021 (U.S.) and W5735 (BR/CA) [14.2.2].

    Violating example:
        schedule: [{turn: 35, units: [br_231_bde], entry: {hex: W6021}}]

    Correct example:
        schedule: [{turn: 35, units: [br_231_bde], entry: {hex: W5735}}]

    Policy: Applies when ``params.allied.logistics_state`` is Operational; the sources
    are the system param ``supply_sources``.
    """

    code = "TKG-SCH-008"
    name = "operational-allied-arrivals"
    severity = Severity.ERROR
    groups = ("schedule",)
    rule_case = "TKG [18.2.1]"
    systems = ("tkg",)

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        assert ctx.scenario is not None
        if (logistics(ctx, "allied") or "").lower() != "operational":
            return
        sources = param(ctx, "supply_sources", default={}) or {}
        for e in ctx.scenario.schedule:
            if e.entry is None or e.entry.hex is None:
                continue
            h = e.entry.hex
            for c in schedule_units(ctx, e):
                if c.side != "allied" or c.nationality not in sources:
                    continue
                src = ctx.hmap.spec.try_parse(str(sources[c.nationality]))
                if src is not None and h.distance(src) > 1:
                    yield ctx.finding(self, f"{c.name} arrives at {ctx.label(h)}, not on or next to its supply "
                                            f"source {ctx.label(src)}", e.entry, "hex", units=(c.id,), hexes=(h,))
