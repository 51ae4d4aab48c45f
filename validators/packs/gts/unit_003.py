"""GTS-UNIT-003: a unit is either set up or scheduled, and never arrives twice without leaving."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.gts._gts import ARRIVALS, SYSTEMS, counter, turn_no
from validators.rule import Rule


class SetupXorSchedule(Rule):
    """No unit both sets up and arrives, or arrives twice, without a withdrawal in between.

    Rule case: 8.0 (reinforcements enter from the Division box)

    Why: a unit on the map that also arrives as a reinforcement is doubled; schedules that
    continue another scenario often repeat arrivals.

    Violating example: ``c5-ii-919`` set up at 31.030 and also arriving at 1100 6 June.

    Correct example: it arrives once, or is withdrawn before it arrives again.
    """

    code = "GTS-UNIT-003"
    name = "setup-xor-schedule"
    severity = Severity.ERROR
    groups = ("units", "schedule", "gts")
    rule_case = "8.0"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        present: dict[str, bool] = {}
        for e in scen.setup:
            c = counter(ctx, e.unit)
            present[c.id if c else e.unit] = True
        events = sorted(((turn_no(ctx, s.turn) or 0, i, s) for i, s in enumerate(scen.schedule)), key=lambda t: t[:2])
        for _, _, s in events:
            for j, u in enumerate(s.units):
                c = counter(ctx, u)
                key = c.id if c else u
                if s.kind in ARRIVALS:
                    if present.get(key):
                        yield ctx.finding(self, f"{u} arrives at {s.turn} but is already in play", s, "units", j,
                                          units=(u,))
                    present[key] = True
                elif s.kind == "withdrawal":
                    present[key] = False
