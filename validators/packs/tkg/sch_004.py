"""TKG-SCH-004."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.rule import Rule


class ScheduleWithinLength(Rule):
    """Schedule entries fall within the scenario's start and end turns.

    Digest §8: SCH-04.

    Rule case: TKG [25.1.2]

    Why: Each scenario gives its start and end turns [25.1.2]; an arrival after the end
    never plays and one before the start belongs in the setup. A warning, because a
    scenario may be extended (25.4 into 25.6).

    Violating example:
        turns: {first: 30, last: 53}
        schedule: [{turn: 60, units: [us_22_inf], entry: {hex: W6021}}]

    Correct example:
        schedule: [{turn: 35, units: [us_22_inf], entry: {hex: W6021}}]
    """

    code = "TKG-SCH-004"
    name = "schedule-within-length"
    severity = Severity.WARNING
    groups = ("schedule",)
    rule_case = "TKG [25.1.2]"
    systems = ("tkg",)

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        s = ctx.scenario
        assert s is not None
        if s.turns is None or not isinstance(s.turns.first, int) or not isinstance(s.turns.last, int):
            return
        for e in s.schedule:
            n = ctx.turn_number(e.turn)
            if n is not None and not s.turns.first <= n <= s.turns.last:
                yield ctx.finding(self, f"schedule turn {n} is outside GT {s.turns.first}-{s.turns.last}", e, "turn",
                                  units=tuple(e.units), turns=(n,))
