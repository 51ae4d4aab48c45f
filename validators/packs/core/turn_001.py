"""CORE-TURN-001."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.rule import Rule


class ScenarioTurnsOrdered(Rule):
    """A scenario's first turn is not after its last turn.

    Rule case: Hexproof bundle format (scenario turns and the system calendar)

    Why: a scenario that "runs" from turn 5 to turn 2 plays no turn at all: test play ends
    before it starts, and every schedule entry is out of range. A publisher swapping the two
    numbers (or two labels) is exactly the slip an errata sheet corrects.

    Policy: both ends are resolved on the calendar first (labels or numbers); an end that is
    not a calendar turn is CORE-SCHED-002's finding, not this rule's.

    Violating example:
        turns: {first: 5, last: 2}

    Correct example:
        turns: {first: 2, last: 5}
    """

    code = "CORE-TURN-001"
    name = "scenario-turns-ordered"
    severity = Severity.ERROR
    groups = ("schedule",)
    rule_case = "Hexproof bundle format"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        first, last = ctx.scenario_turns(stated_only=True)
        if first is not None and last is not None and first > last:
            yield ctx.finding(self, f"the first turn, {ctx.turn_text(first)}, comes after the last turn, "
                                    f"{ctx.turn_text(last)}; expected first ≤ last", scen.turns, "first",
                              turns=(first, last))
