"""GTS-DZ-005: drop numbers are One, Second, Third A, Third B or Fourth."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.gts._gts import SYSTEMS, counter, sys_param
from validators.rule import Rule


class DropNumberValid(Rule):
    """Each drop order names a drop number of the Drop Table modifiers, and a drop flagged
    ``325th`` (straggler generation after Drop One) is the Fourth drop.

    Rule case: Excl 3.3.1 (Drop Table modifiers: Second, Third A/B, Fourth; 325th GIR Excl 3.4.1.1)

    Why: the drop number sets the Drop Table modifier (−3, −6, −8); a misspelt number
    silently drops the modifier. Only the 325th GIR generates stragglers on a later drop,
    and only on its Fourth drop.

    Violating example: ``drop_number: Fifth``; or 325th GIR units in a Second drop.

    Correct example: ``drop_number: One``.
    """

    code = "GTS-DZ-005"
    name = "drop-number-valid"
    severity = Severity.ERROR
    groups = ("airborne", "gts")
    rule_case = "Excl 3.3.1"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        valid = list(sys_param(ctx, "drop_numbers", ["One", "Second", "Third A", "Third B", "Fourth"]))
        special = str(sys_param(ctx, "fourth_drop_only_unit", "325th GIR"))
        for s in scen.schedule:
            if s.drop is None:
                continue
            num = s.drop.drop_number
            if num is None or num not in valid:
                yield ctx.finding(self, f"drop number {num!r} is not one of {', '.join(valid)}", s.drop, "drop_number")
                continue
            forms = {c.formation for c in (counter(ctx, u) for u in s.units) if c is not None}
            if special in forms and num != "Fourth":
                yield ctx.finding(self, f"{special} drops in the {num} drop; its straggler rule covers only the Fourth",
                                  s.drop, "drop_number")
