"""TKG-SET-004."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.tkg._tkg import by_hex
from validators.rule import Rule


class NoMixedSides(Rule):
    """No hex holds units of both sides.

    Digest §8: SET-04.

    Rule case: TKG [7.2.1]

    Why: Units may never enter an enemy-occupied hex [7.2.1]; a setup that puts both sides
    in one hex describes a position the game cannot reach.

    Violating example:
        setup: [{unit: us_8_inf, hex: W3826}, {unit: de_916_gr, hex: W3826}]

    Correct example:
        setup: [{unit: us_8_inf, hex: W3826}, {unit: de_916_gr, hex: W3726}]
    """

    code = "TKG-SET-004"
    name = "no-mixed-sides"
    severity = Severity.ERROR
    groups = ("setup",)
    rule_case = "TKG [7.2.1]"
    systems = ("tkg",)

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        for h, stack in sorted(by_hex(ctx).items()):
            sides = {c.side for _, c in stack if c is not None}
            if len(sides) > 1:
                yield ctx.finding(self, f"{ctx.label(h)} holds units of both sides ({', '.join(sorted(sides))})",
                                  stack[-1][0], units=tuple(e.unit for e, _ in stack), hexes=(h,))
