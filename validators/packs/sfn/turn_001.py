"""SFN-TURN-001."""

from __future__ import annotations

import datetime as dt
from typing import Iterable

from model.diagnostics import Diagnostic
from validators.context import RuleContext
from validators.packs.sfn._sfn import SYSTEMS, param
from validators.rule import Rule


class GameLength(Rule):
    """A scenario runs from GT 1 (2 Sep 1943) to GT 80 (20 Nov 1943), one day a turn.

    Rule case: SFN 4.1
    Why: the winner is determined at the end of Game Turn 80 (20 November 1943); the Turn
    Record Sheet starts GT 1 on 2 September; each turn is one day (1.2).
    Violating example: ``turns: {first: 1, last: 81}``.
    Correct example: ``turns: {first: 1, last: 80}`` with the sfn calendar (daily, 1943-09-02, 80 turns).
    """

    code = "SFN-TURN-001"
    name = "game-length"
    groups = ("turns",)
    rule_case = "SFN 4.1"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        spec = param(ctx, "game_length")
        first, last = int(spec.get("first", 1)), int(spec.get("last", 80))
        cal = ctx.system.calendar
        start = spec.get("start")
        start_date = start if isinstance(start, dt.date) else dt.date.fromisoformat(str(start)) if start else None
        if cal.kind != "daily" or cal.start != start_date or cal.count != last - first + 1 or cal.first != first:
            yield ctx.finding(self, f"the sfn calendar must be daily from {start_date} for {last - first + 1} turns "
                              f"starting at GT {first}", ctx.system, "calendar")
        if scen.turns is None:
            yield ctx.finding(self, f"give turns: {{first: {first}, last: {last}}}", scen)
            return
        got = (ctx.turn_number(scen.turns.first), ctx.turn_number(scen.turns.last))
        if got != (first, last):
            yield ctx.finding(self, f"the game runs GT {first}–{last}, not {got[0]}–{got[1]}", scen, "turns",
                              turns=[t for t in got if t is not None])
