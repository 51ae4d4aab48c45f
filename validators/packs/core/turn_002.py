"""CORE-TURN-002."""

from __future__ import annotations

import re
from os.path import commonprefix
from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.rule import Rule

POLICY = ("text-turns-within-range: a turn the scenario's name or description names (a calendar label, or the "
          "labels' own prefix and number such as 'GT 13') lies within its turns; one named right after 'begins' or "
          "'ends' is its first or last turn")


class ScenarioTextAgreesWithTurns(Rule):
    """The turns a scenario's name and description name agree with its ``turns``.

    Rule case: Hexproof bundle format (scenario turns and the system calendar)

    Why: a publisher who moves a scenario's start but not its text ("begins on 19 June (GT 13)"
    while ``turns.first`` says 14) prints a scenario card that contradicts its own set-up; the
    errata sheet then has to correct one or the other.

    Policy: text-turns-within-range — the turns named are the calendar's labels written out in
    the text, and the labels' common prefix followed by a number ("GT 13"); a named turn outside
    the scenario's turns is a finding, and so is one named within a few words after "begin(s)"
    or "start(s)" that is not the first turn, or after "end(s)" that is not the last.

    Violating example:
        turns: {first: 14, last: 29}
        description: Securing the Beachhead begins on 19 June (GT 13) and ends on 5 July (GT 29).

    Correct example:
        turns: {first: 13, last: 29}
        description: Securing the Beachhead begins on 19 June (GT 13) and ends on 5 July (GT 29).
    """

    code = "CORE-TURN-002"
    name = "scenario-text-agrees-with-turns"
    severity = Severity.WARNING
    groups = ("schedule",)
    rule_case = "Hexproof bundle format"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        first, last = ctx.scenario_turns(stated_only=True)
        if first is None or last is None or first > last:
            return  # CORE-SCHED-002 / CORE-TURN-001
        turns = ctx.system.calendar.all_turns
        prefix = commonprefix([t.label for t in turns]).rstrip("0123456789") if len(turns) > 1 else ""
        for field in ("name", "description"):
            text = getattr(scen, field) or ""
            for n, at in _named_turns(text, turns, prefix):
                before = text[max(0, at - 40):at].lower()
                named = ctx.turn_text(n)
                if re.search(r"\b(begins?|starts?)\b", before) and not re.search(r"\bends?\b", before):
                    message = (None if n == first else
                               f"the {field} says the scenario begins on {named}, but its first turn is "
                               f"{ctx.turn_text(first)}")
                elif re.search(r"\bends?\b", before):
                    message = (None if n == last else
                               f"the {field} says the scenario ends on {named}, but its last turn is {ctx.turn_text(last)}")
                else:
                    message = (None if first <= n <= last else
                               f"the {field} names {named}, outside the scenario's turns, {ctx.turn_text(first)} to "
                               f"{ctx.turn_text(last)}")
                if message:
                    yield ctx.finding(self, message,
                                      scen, field, turns=(n,), policy=POLICY)


def _named_turns(text: str, turns: list, prefix: str) -> list[tuple[int, int]]:
    """(turn number, index in ``text``) of each turn the text names."""
    found: dict[int, tuple[int, int]] = {}
    for t in turns:
        i = text.find(t.label)
        if t.label and not t.label.isdigit() and i >= 0:
            found[i] = (t.n, i)
    if prefix.strip():
        known = {t.n for t in turns}
        for m in re.finditer(re.escape(prefix.strip()) + r"\s*(\d+)\b", text):
            n = int(m.group(1))
            if n in known and m.start() not in found:
                found[m.start()] = (n, m.start())
    return [found[i] for i in sorted(found)]
