"""SFN-VP-002."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic
from validators.context import RuleContext
from validators.packs.sfn._sfn import SYSTEMS, as_int, param
from validators.rule import Rule


class VpHexTotal(Rule):
    """The VP hexes of the map are worth 50 points in all, and Dieppe is one of them.

    Rule case: SFN 4.2
    Why: "There are 50 points of them, total"; landing at Dieppe costs the German one point
    "for the loss of that town", so Dieppe (1510) is a VP hex worth 1.
    Violating example: VP features adding up to 48, or no VP feature on 1510.
    Correct example: VP features whose ``value`` adds up to 50, including ``{hex: '1510', value: 1}``.
    Policy: illustrative-split — the points per hex other than Dieppe are not in the rules
    text; the sample's split is illustrative but must add up.
    """

    code = "SFN-VP-002"
    name = "vp-hex-total"
    groups = ("victory", "map")
    rule_case = "SFN 4.2"
    systems = SYSTEMS
    scope = "bundle"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        hmap = ctx.hmap
        total = int(param(ctx, "vp_total").get("points", 50))
        vp = [f for f in hmap.features if f.type == "vp_hex"]
        points = sum(as_int(f.value) or 0 for f in vp)
        if points != total:
            yield ctx.finding(self, f"the map's VP hexes add up to {points}; the rules give {total}", hmap, "features",
                              hexes=[f.hex for f in vp], policy="illustrative-split")
        shift = param(ctx, "dieppe_garrison_shift")
        dieppe = hmap.parse(str(shift.get("from", "1510")))
        if not any(f.hex == dieppe and as_int(f.value) == 1 for f in vp):
            yield ctx.finding(self, f"Dieppe ({ctx.label(dieppe)}) must be a VP hex worth 1", hmap, "features",
                              hexes=[dieppe])
