"""SFN-VP-001."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic
from validators.context import RuleContext
from validators.packs.sfn._sfn import SYSTEMS, active_area, param
from validators.rule import Rule


class StartingVp(Rule):
    """The German player starts with 50 VP, or 49 when the Allies land at Dieppe.

    Rule case: SFN 4.2
    Why: "There are 50 points of them ... if the Allied player chose to land at the Dieppe
    beaches, the German starting VP total is decreased one, to 49, for the loss of that town."
    Violating example: Dieppe landing with ``vp: {german: 50}``.
    Correct example: Dieppe landing with ``vp: {german: 49}``; Calais landing with 50.
    """

    code = "SFN-VP-001"
    name = "starting-vp"
    groups = ("victory",)
    rule_case = "SFN 4.2"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        spec = param(ctx, "starting_vp")
        side = str(spec.get("side", "german"))
        area = active_area(ctx)
        want = spec.get(area) if area in spec else spec.get("normal")
        have = scen.vp.get(side)
        if want is not None and have != int(want):
            yield ctx.finding(self, f"the {side} starting VP is {want} for the {area} landing, not {have}", scen,
                              *(("vp", side) if have is not None else ("vp",)))
