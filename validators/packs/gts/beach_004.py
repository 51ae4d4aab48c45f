"""GTS-BEACH-004: each Landing Craft carries one independent unit or one whole battalion."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.gts._gts import SYSTEMS, counter
from validators.rule import Rule


class LandingCraftLoads(Rule):
    """A landing entry with a Landing Craft carries exactly one independent unit or one whole battalion.

    Rule case: Excl 4.5.4 (Landing Craft Operations, item 2)

    Why: LC damage is copied to every passenger and the load defines who lands together; a
    half battalion or two battalions in one craft breaks the landing procedure.

    Violating example: ``units: [lcvp-1, a-1-8, b-1-8]`` — two of the four companies of 1/8.

    Correct example: ``units: [lcvp-1, a-1-8, b-1-8, c-1-8, d-1-8, ldr-van-fleet]`` (leaders ride along).
    """

    code = "GTS-BEACH-004"
    name = "lc-loads"
    severity = Severity.ERROR
    groups = ("beach", "gts")
    rule_case = "Excl 4.5.4"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        for s in scen.schedule:
            if s.kind != "landing":
                continue
            found = [(u, counter(ctx, u)) for u in s.units]
            craft = [u for u, c in found if c is not None and ("lc" in c.flags or c.category == "landing_craft")]
            if not craft:
                continue
            if len(craft) > 1:
                yield ctx.finding(self, f"one landing entry holds {len(craft)} Landing Craft; give each its own load",
                                  s, "units")
                continue
            load = [(u, c) for u, c in found if c is not None and u not in craft and c.category != "leader"]
            if not load:
                yield ctx.finding(self, f"Landing Craft {craft[0]} carries no unit", s, "units")
                continue
            if len(load) == 1 and "independent" in load[0][1].flags:
                continue
            battalions = {c.battalion for _, c in load}
            if len(battalions) != 1 or None in battalions:
                yield ctx.finding(self, f"Landing Craft {craft[0]} carries units of {len(battalions)} battalions "
                                  f"({', '.join(sorted(str(b) for b in battalions))})", s, "units",
                                  units=tuple(u for u, _ in load))
                continue
            bn = next(iter(battalions))
            whole = {c.id for c in ctx.bundle.counters if c.battalion == bn and c.category != "leader"}
            missing = sorted(whole - {c.id for _, c in load})
            if missing:
                yield ctx.finding(self, f"Landing Craft {craft[0]} carries only part of battalion {bn} "
                                  f"(missing {', '.join(missing)})", s, "units", units=tuple(missing))
