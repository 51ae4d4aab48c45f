"""GTS-EVENT-001: one-off events a rule requires are in the scenario's schedule."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.gts._data import data_param
from validators.packs.gts._gts import SYSTEMS, counter, scenario_span, turn_label, turn_no
from validators.rule import Rule


class RuleMandatedEvents(Rule):
    """For each entry of ``mandated_events`` (``{id, turn, rule, division?, text}``) whose turn
    the scenario plays — and, when ``division`` is given, in which that division has units —
    the schedule holds a ``kind: event`` entry on that turn citing the same rule.

    Rule case: Excl 17.4 (errata 17.4: the 359th IR "can be automatically attached back to the
    90th ID … a one-time, immediate, free attachment, but only during Step F of the 0700,
    8 June turn"; errata CG#3/#5 add it to the event guides)

    Why: an event a rule requires but the turn guide omits silently never happens (errata S31,
    S30): the campaign games left out the 359th IR's free attachment.

    Violating example: a scenario playing 0700 8 June with 90th Infantry Division units and no
    event citing Excl 17.4 that turn.

    Correct example: ``{turn: 0700 8 June, kind: event, side: allied, rule: Excl 17.4, text:
    The 359th IR may be attached to the 90th ID for free in Step F.}``.
    """

    code = "GTS-EVENT-001"
    name = "rule-mandated-events"
    severity = Severity.WARNING
    groups = ("schedule", "gts")
    rule_case = "Excl 17.4"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        events, _, _ = data_param(ctx, "mandated_events")
        first, last = scenario_span(ctx)
        if not isinstance(events, list) or first is None or last is None:
            return
        units = [e.unit for e in scen.setup] + [u for s in scen.schedule for u in s.units]
        divisions = {c.division for u in units if (c := counter(ctx, u)) is not None and c.division}
        for ev in events:
            if not isinstance(ev, dict):
                continue
            n = turn_no(ctx, ev.get("turn"))
            if n is None or not first <= n <= last:
                continue
            if ev.get("division") and ev["division"] not in divisions:
                continue
            rule = str(ev.get("rule", ""))
            if any(s.kind == "event" and turn_no(ctx, s.turn) == n and (s.rule or "").startswith(rule)
                   for s in scen.schedule):
                continue
            yield ctx.finding(self, f"{ev.get('id', 'event')}: {rule} requires an event at {turn_label(ctx, n)} "
                              f"({ev.get('text', '')}) and the schedule has none", scen, "schedule", turns=(n,))
