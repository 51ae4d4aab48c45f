"""TKG-SET-021."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.tkg._tkg import param, placed, tags
from validators.rule import Rule


class GermanCorpsArtilleryWithHq(Rule):
    """German corps artillery sets up on or next to its parent corps HQ, which must be on the map (XXV Corps exempt).

    Digest §8: SET-21.

    Rule case: TKG [18.6.2]

    Why: "Corps artillery goes on or next to its parent HQ, which must be on the map"
    [18.6.2]; only XXV Corps is exempt.

    Violating example:
        setup: [{unit: de_84_corps_hq, hex: W3826}, {unit: de_84_arty, hex: W3830}]

    Correct example:
        setup: [{unit: de_84_corps_hq, hex: W3826}, {unit: de_84_arty, hex: W3827}]

    Policy: The corps is the counter value ``corps``; the parent HQ is the German HQ
    counter with the same ``corps`` value. Artillery in a box is not checked.
    """

    code = "TKG-SET-021"
    name = "german-corps-artillery-with-hq"
    severity = Severity.ERROR
    groups = ("setup",)
    rule_case = "TKG [18.6.2]"
    systems = ("tkg",)

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        exempt = set(param(ctx, "corps_artillery_exempt_corps", default=[]) or [])
        on_map = {e.unit: h for e, c, h in placed(ctx)}
        hq_of = {str(c.front.values.get("corps")): c for c in ctx.counters.values()
                 if c.side == "german" and "hq" in tags(ctx, c) and c.front.values.get("corps")}
        for e, c, h in placed(ctx):
            if c is None or c.side != "german" or "artillery" not in tags(ctx, c):
                continue
            corps = c.front.values.get("corps")
            if not corps or str(corps) in exempt or str(corps) == "unknown":
                continue
            hq = hq_of.get(str(corps))
            if hq is None or hq.id not in on_map:
                yield ctx.finding(self, f"{c.name}: its parent {corps} Corps HQ is not on the map", e,
                                  units=(e.unit,), hexes=(h,))
            elif on_map[hq.id].distance(h) > 1:
                yield ctx.finding(self, f"{c.name} in {ctx.label(h)} is not on or next to {hq.name} "
                                        f"({ctx.label(on_map[hq.id])})", e, units=(e.unit, hq.id), hexes=(h,))
