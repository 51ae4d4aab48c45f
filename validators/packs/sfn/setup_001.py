"""SFN-SETUP-001."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic
from validators.context import RuleContext
from validators.packs.sfn._sfn import SYSTEMS, active_area, all_areas, beachheads
from validators.rule import Rule


class OneInvasionArea(Rule):
    """A scenario names one invasion area, and Allied units land only on its beachheads.

    Rule case: SFN 3.3
    Why: only one set of beachhead hexes is active in a match; the Allies may not land some
    units in one area and some in the other.
    Violating example: ``params: {invasion_area: calais}`` with the 45th set up in 1310 (Dieppe).
    Correct example: ``params: {invasion_area: calais}`` and every Allied map unit on 2006–2009 or 1910.
    Policy: scenario-params-invasion-area — the rules leave the choice to the Allied player
    (3.2); a scenario records it as ``params.invasion_area``.
    """

    code = "SFN-SETUP-001"
    name = "one-invasion-area"
    groups = ("setup",)
    rule_case = "SFN 3.3"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        area = active_area(ctx)
        areas = all_areas(ctx)
        if area not in areas:
            yield ctx.finding(self, f"params.invasion_area must be one of {', '.join(areas)} (got {area!r})", scen,
                              "params", policy="scenario-params-invasion-area")
            return
        active = set(beachheads(ctx, area))
        for i, entry in enumerate(scen.setup):
            unit = ctx.counters.get(entry.unit)
            if unit is None or unit.side != "allied":
                continue
            for h in entry.hexes():
                if h not in active:
                    yield ctx.finding(self, f"{entry.unit} sets up in {ctx.label(h)}, which is not a {area} beachhead",
                                      entry, "hex", hexes=[h], units=[entry.unit])
