"""GTS-TURN-002: no duplicated schedule blocks; a continuation starts on the very next turn."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.gts._gts import SYSTEMS, param, scenario_span, turn_label, turn_no
from validators.rule import Rule


class ScheduleCoverage(Rule):
    """The schedule has no duplicated entries, and a continuation into another scenario (``params.continuation: {scenario, from}``) starts on the turn after this scenario's last.

    Rule case: 4.0 (the sequence of play, step J: "Move the turn record marker up one turn";
    errata, Campaign Game #5: the continuation starts "with turn 0700, June 10, 1944"; the
    entries on pages 70 and 71 "are identical to the entries for Campaign Game #3")

    Why: each turn ends by moving the turn record marker up one turn [4.0 J] (3.0 is the
    time scale, not the sequence), so a continuation that starts on the wrong turn skips or
    repeats a turn's events (S29); a duplicated block brings every unit in twice (S36).

    Violating example: ``continuation: {scenario: cg3, from: 0900 6 June}`` after a scenario
    ending at 1300 6 June; or two identical schedule entries.

    Correct example: ``continuation: {scenario: cg3, from: 1500 6 June}``.
    """

    code = "GTS-TURN-002"
    name = "schedule-coverage"
    severity = Severity.ERROR
    groups = ("turns", "schedule", "gts")
    rule_case = "4.0"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        seen: dict[tuple, int] = {}
        for i, s in enumerate(scen.schedule):
            key = (turn_no(ctx, s.turn), s.kind, s.side, tuple(s.units),
                   s.entry.model_dump_json() if s.entry else None, s.text)
            if key in seen:
                yield ctx.finding(self, f"schedule entry {i} repeats entry {seen[key]} ({s.kind} at {s.turn})", s, "turn")
            else:
                seen[key] = i
        cont = param(ctx, "continuation")
        if isinstance(cont, dict) and cont.get("from") is not None:
            _, last = scenario_span(ctx)
            start = turn_no(ctx, cont["from"])
            if last is not None and start is not None and start != last + 1:
                yield ctx.finding(self, f"continuation starts at {cont['from']}; the turn after this scenario's last "
                                  f"is {turn_label(ctx, last + 1)}", scen, "params", "continuation", "from")
