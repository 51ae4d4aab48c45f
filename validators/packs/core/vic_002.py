"""CORE-VIC-002."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.rule import Rule


class VictoryTurnInRange(Rule):
    """A victory condition's ``turn`` is a turn of the calendar within the scenario's turns.

    Rule case: TKG [25.1.2] ("Each scenario will specify the start and end turns"); SFN 4.6 ("At the end of Game Turn 80, reckon the final number of German VPs")

    Why: a condition judged on a turn the scenario never reaches ("hold Carentan at the end
    of turn 12" in a ten-turn scenario), or on a label the calendar does not have, is never
    judged.

    Policy: as CORE-SCHED-002: a number is checked against the scenario's first..last turns;
    a label must match a calendar label (case and spacing ignored) and then lie within them.

    Violating example:
        turns: {first: 1, last: 5}
        victory:
        - {side: allied, text: Hold the bridge at the end of turn 7, turn: 7}

    Correct example:
        victory:
        - {side: allied, text: Hold the bridge at the end of turn 5, turn: 5}
    """

    code = "CORE-VIC-002"
    name = "victory-turn-in-range"
    severity = Severity.ERROR
    groups = ("victory", "turns")
    rule_case = "TKG [25.1.2]; SFN 4.6"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        first, last = ctx.scenario_turns()
        for v in scen.victory:
            if v.turn is None:
                continue
            n = ctx.turn_number(v.turn)
            if n is None:
                yield ctx.finding(self, f"victory condition turn {v.turn!r} is not a turn of the calendar", v, "turn")
            elif (first is not None and n < first) or (last is not None and n > last):
                yield ctx.finding(self, f"victory condition turn {ctx.turn_text(n)} lies outside the scenario's "
                                        f"turns, {ctx.turn_span_text(first, last)}", v, "turn", turns=(n,))
