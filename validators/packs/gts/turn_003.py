"""GTS-TURN-003: a withdrawn unit is in play when it leaves and is not used afterwards."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.gts._gts import ARRIVALS, SYSTEMS, counter, turn_no
from validators.rule import Rule


class WithdrawalPresent(Rule):
    """A unit withdrawn on a turn is set up or has arrived by then, and no later entry
    other than a new arrival names it.

    Rule case: 8.0 (Master Reinforcement, Withdrawal & Event Guide; errata CG#2/3/5 withdrawals)

    Why: withdrawing a unit that is not on the map, or using it after it left, breaks the
    schedule; the errata added and moved several withdrawals.

    Violating example: ``{turn: 0900 6 June, kind: withdrawal, units: [e-2-8]}`` before
    2/8 lands; or an event naming a unit after its withdrawal.

    Correct example: the withdrawal after the unit is in play, and nothing after it.
    """

    code = "GTS-TURN-003"
    name = "withdrawal-present"
    severity = Severity.ERROR
    groups = ("schedule", "gts")
    rule_case = "8.0"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        state: dict[str, str] = {}
        for e in scen.setup:
            c = counter(ctx, e.unit)
            state[c.id if c else e.unit] = "in"
        events = sorted(((turn_no(ctx, s.turn) or 0, 0 if s.kind in ARRIVALS else 1, i, s)
                         for i, s in enumerate(scen.schedule)), key=lambda t: t[:3])
        for n, _, _, s in events:
            for j, u in enumerate(s.units):
                c = counter(ctx, u)
                key = c.id if c else u
                if s.kind in ARRIVALS:
                    state[key] = "in"
                elif s.kind == "withdrawal":
                    if state.get(key) != "in":
                        yield ctx.finding(self, f"{u} is withdrawn at {s.turn} but is not in play then", s, "units", j,
                                          units=(key,), turns=(n,))
                    state[key] = "out"
                elif state.get(key) == "out":
                    yield ctx.finding(self, f"{u} is named at {s.turn} after its withdrawal", s, "units", j,
                                      units=(key,), turns=(n,))
