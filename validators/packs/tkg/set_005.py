"""TKG-SET-005."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.tkg._tkg import param, placed
from validators.rule import Rule


class CherbourgHqLeash(Rule):
    """The Cherbourg HQ sets up within 6 hexes of N1511.

    Digest §8: SET-05.

    Rule case: TKG [11.2.1]

    Why: [11.2.1] ties the Cherbourg HQ to a 6-hex leash around N1511; a setup outside it
    is illegal from the first turn.

    Violating example:
        setup: [{unit: de_cherbourg_hq, hex: N2828}]

    Correct example:
        setup: [{unit: de_cherbourg_hq, hex: N1410}]

    Policy: The HQ is the counter with the flag named in the system param
    ``cherbourg_hq.unit_flag``; centre and radius come from the same param.
    """

    code = "TKG-SET-005"
    name = "cherbourg-hq-leash"
    severity = Severity.ERROR
    groups = ("setup",)
    rule_case = "TKG [11.2.1]"
    systems = ("tkg",)

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        cfg = param(ctx, "cherbourg_hq", default={}) or {}
        flag = str(cfg.get("unit_flag", "cherbourg_hq"))
        centre = ctx.hmap.spec.try_parse(str(cfg.get("center", "N1511")))
        radius = int(cfg.get("radius", 6))
        if centre is None:
            return
        for e, c, h in placed(ctx):
            if c is not None and flag in c.flags and h.distance(centre) > radius:
                yield ctx.finding(self, f"{c.name} is {h.distance(centre)} hexes from {ctx.label(centre)}; "
                                        f"at most {radius}", e, units=(e.unit,), hexes=(h,))
