"""GTS-TURN-001: turn labels are 0700–2100 or Night on a date of the calendar, inside the scenario."""

from __future__ import annotations

import re
from typing import Any, Iterable, Iterator

from model.base import Node
from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.gts._gts import SYSTEMS, scenario_span, turn_no
from validators.rule import Rule

LABEL = re.compile(r"^(?P<slot>\d{4}|Night),? (?P<day>\d{1,2}) (?P<month>[A-Za-z]+)(,? \d{4})?$", re.IGNORECASE)


def turn_refs(ctx: RuleContext) -> Iterator[tuple[Any, Node, tuple[str | int, ...], bool]]:
    """(turn reference, node, fields, must lie inside the scenario's turns)."""
    scen = ctx.scenario
    assert scen is not None
    if scen.turns is not None:
        yield scen.turns.first, scen.turns, ("first",), False
        yield scen.turns.last, scen.turns, ("last",), False
    for s in scen.schedule:
        yield s.turn, s, ("turn",), True
    for i, block in enumerate(scen.params.get("mug", []) or []):
        if isinstance(block, dict) and "turn" in block:
            yield block["turn"], scen, ("params", "mug", i, "turn"), True


class TurnLabels(Rule):
    """Every turn label reads "0700 6 June" … "2100 6 June" or "Night 6 June" (2-hour steps),
    names a turn of the calendar, and scheduled turns lie within the scenario's turns.

    Rule case: Excl 1.1 (the Night turn follows 2100; play from Night 5 June to 12 June)

    Why: GTS turns are hours of a day, not numbers; "0800 6 June" or "Night 13 June" names no
    turn and the event it carries never happens.

    Violating example: ``{turn: 0800 6 June, ...}``; or an event at 1500 6 June in a scenario
    that ends at 1300 6 June.

    Correct example: ``{turn: 0900 6 June, ...}`` inside the scenario's turns.
    """

    code = "GTS-TURN-001"
    name = "turn-labels"
    severity = Severity.ERROR
    groups = ("turns", "gts")
    rule_case = "Excl 1.1"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        first, last = scenario_span(ctx)
        slots = set(ctx.system.calendar.slots)
        for ref, node, fields, inside in turn_refs(ctx):
            if isinstance(ref, str):
                m = LABEL.match(ref.strip())
                if m is None or (m.group("slot") not in slots and m.group("slot").title() not in slots):
                    yield ctx.finding(self, f"turn {ref!r} is not a GTS turn label (0700…2100 in 2-hour steps, or "
                                      "Night, then the date)", node, *fields)
                    continue
            n = turn_no(ctx, ref)
            if n is None or not any(t.n == n for t in ctx.system.calendar.all_turns):
                yield ctx.finding(self, f"turn {ref!r} is not a turn of the calendar", node, *fields)
            elif inside and first is not None and last is not None and not first <= n <= last:
                yield ctx.finding(self, f"turn {ref!r} lies outside the scenario's turns", node, *fields, turns=(n,))
