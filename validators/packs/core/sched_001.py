"""CORE-SCHED-001."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.core._scan import ARRIVALS, WITHDRAWALS, unit_key
from validators.rule import Rule


class ArrivalNeedsAbsence(Rule):
    """A unit arrives only when it is not already in play: not both set up and scheduled,
    and not scheduled twice, unless it was withdrawn in between.

    Rule case: Hexproof bundle format (setup and reinforcement schedule)

    Why: A unit that is on the map at start and also arrives later, or arrives twice,
    doubles a counter; this happens when a variant moves a unit from the schedule to the
    setup and the old schedule line is left behind.

    Policy: arrivals are schedule entries of kind reinforcement, drop or landing; a
    withdrawal on an earlier turn (or the same turn, listed before) takes the unit out of
    play. Replacements and releases are not arrivals (policy *arrival-kinds*). Entries
    whose turn cannot be resolved are ordered last.

    Violating example:
        setup:
        - {unit: a1, hex: '0203'}
        schedule:
        - {turn: 2, units: [a1], entry: {box: england}}

    Correct example:
        setup:
        - {unit: a1, hex: '0203'}
        schedule:
        - {turn: 2, kind: withdrawal, units: [a1]}
        - {turn: 4, units: [a1], entry: {box: england}}
    """

    code = "CORE-SCHED-001"
    name = "arrival-needs-absence"
    severity = Severity.ERROR
    groups = ("schedule", "units")
    rule_case = "Hexproof bundle format"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        in_play: dict[str, str] = {unit_key(ctx, e.unit): "set up" for e in scen.setup}
        order = []
        for i, e in enumerate(scen.schedule):
            n = ctx.turn_number(e.turn)
            order.append((n if n is not None else 1 << 30, i, e))
        for n, _, e in sorted(order, key=lambda t: (t[0], t[1])):
            if e.kind in WITHDRAWALS:
                for u in e.units:
                    in_play.pop(unit_key(ctx, u), None)
                continue
            if e.kind not in ARRIVALS:
                continue
            units = list(e.units) + ([u for stick in e.drop.sticks for u in stick] if e.drop is not None else [])
            for u in dict.fromkeys(units):
                key = unit_key(ctx, u)
                if key in in_play:
                    yield ctx.finding(self, f"unit {u!r} arrives on turn {e.turn} but is already in play "
                                            f"({in_play[key]}) and was not withdrawn", e, "units",
                                      units=(u,), turns=(n,) if n < 1 << 30 else (), policy="arrival-kinds")
                else:
                    in_play[key] = f"arrived turn {e.turn}"
