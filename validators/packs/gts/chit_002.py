"""GTS-CHIT-002: from the second turn, every division in play has its DivAct chit in the mug."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.gts._gts import ARRIVALS, SYSTEMS, counter, divact_chits, is_unit, mug_turns, scenario_span, turn_label, turn_no
from validators.rule import Rule


class DivActInMug(Rule):
    """From the scenario's second turn on, each division with units on the map or arriving
    has its DivAct chit in the mug (``params.mug``).

    Rule case: 9.0 (the mug; errata Learning Scenario: the 101st DivAct goes in the mug after the first turn)

    Why: a division whose chit never enters the mug never activates (errata S1).

    Violating example: ``mug: [{turn: Night 5 June, chits: [chit-divact-709]}]`` while the
    101st drops on Night 5 June.

    Correct example: ``chits: [chit-divact-101, chit-divact-709]``.
    """

    code = "GTS-CHIT-002"
    name = "divact-in-mug"
    severity = Severity.ERROR
    groups = ("chits", "gts")
    rule_case = "9.0"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        first, last = scenario_span(ctx)
        if first is None or last is None or "mug" not in scen.params:
            return
        mug = mug_turns(ctx)
        divacts = divact_chits(ctx)
        since: dict[str, int] = {}
        for e in scen.setup:
            c = counter(ctx, e.unit)
            if c is not None and is_unit(c, ctx) and c.division and c.category not in ("landing_craft", "ship"):
                since.setdefault(c.division, first)
        for s in scen.schedule:
            n = turn_no(ctx, s.turn)
            if s.kind not in ARRIVALS or n is None:
                continue
            for u in s.units:
                c = counter(ctx, u)
                if c is not None and is_unit(c, ctx) and c.division and c.category not in ("landing_craft", "ship"):
                    since[c.division] = min(n, since.get(c.division, n))
        for div, n in sorted(since.items()):
            chit = divacts.get(div)
            if chit is None:
                continue  # GTS-CHIT-001
            needed = max(n, first + 1)
            if needed > last:
                continue
            if mug.get(chit.id, 10**9) > needed:
                yield ctx.finding(self, f"{div} has units in play but its DivAct chit {chit.id} is not in the mug by "
                                  f"{turn_label(ctx, needed)}", scen, "params", "mug", turns=(needed,))
