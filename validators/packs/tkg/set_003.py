"""TKG-SET-003."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.tkg._tkg import by_hex, is_regiment
from validators.rule import Rule


class RegimentStacking(Rule):
    """At most two regiment-size units (brigades and Kampfgruppen count) per hex.

    Digest §8: SET-03.

    Rule case: TKG [6.1.2]

    Why: "no more than two regiments (any combination) may occupy a given hex at the end
    of movement" [6.1.2]; brigades and KG count as regiments (L71).

    Violating example:
        setup: [{unit: us_8_inf, hex: W3826}, {unit: us_12_inf, hex: W3826}, {unit: us_22_inf, hex: W3826}]

    Correct example:
        setup: [{unit: us_8_inf, hex: W3826}, {unit: us_12_inf, hex: W3826}]
    """

    code = "TKG-SET-003"
    name = "regiment-stacking"
    severity = Severity.ERROR
    groups = ("setup", "stacking")
    rule_case = "TKG [6.1.2]"
    systems = ("tkg",)

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        limit = int(ctx.system.stacking.limits.get("max_regiments", 2))
        for h, stack in sorted(by_hex(ctx).items()):
            regs = [e for e, c in stack if is_regiment(ctx, c)]
            if len(regs) > limit:
                yield ctx.finding(self, f"{ctx.label(h)} holds {len(regs)} regiment-size units; at most {limit}",
                                  regs[limit], units=tuple(e.unit for e in regs), hexes=(h,))
