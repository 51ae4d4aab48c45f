"""CORE-SCHED-002."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.rule import Rule


class ScheduleTurnInRange(Rule):
    """Every schedule turn is a turn of the calendar and lies within the scenario's turns.

    Rule case: Hexproof bundle format (scenario turns and the system calendar)

    Why: A reinforcement due on a turn the scenario never plays never arrives, and a turn
    written as a label ("0700 6 June") that is not on the calendar cannot be placed on the
    turn track at all.

    Policy: turns given as numbers are checked against the scenario's first..last turns;
    labels must also match a calendar label (case and spacing ignored). A scenario without
    ``turns`` is checked against the calendar only.

    Violating example:
        turns: {first: 1, last: 5}
        schedule:
        - {turn: 7, units: [a1], entry: {box: england}}

    Correct example:
        turns: {first: 1, last: 5}
        schedule:
        - {turn: 2, units: [a1], entry: {box: england}}
    """

    code = "CORE-SCHED-002"
    name = "schedule-turn-in-range"
    severity = Severity.ERROR
    groups = ("schedule",)
    rule_case = "Hexproof bundle format"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        first, last = ctx.scenario_turns()
        if scen.turns is not None:
            for name, ref, n in (("first", scen.turns.first, first), ("last", scen.turns.last, last)):
                if n is None:
                    yield ctx.finding(self, f"scenario {name} turn {ref!r} is not a turn of the calendar",
                                      scen.turns, name)
        for e in scen.schedule:
            n = ctx.turn_number(e.turn)
            if n is None:
                yield ctx.finding(self, f"turn {e.turn!r} is not a turn of the calendar", e, "turn")
            elif (first is not None and n < first) or (last is not None and n > last):
                yield ctx.finding(self, f"{ctx.turn_text(n)} lies outside the scenario's turns, "
                                        f"{ctx.turn_span_text(first, last)}", e, "turn", turns=(n,), units=e.units)
