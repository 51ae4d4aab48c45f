"""TKG-SCH-003."""

from __future__ import annotations

import datetime as dt
from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.tkg._tkg import declared_missing, scen_param
from validators.rule import Rule


class JuneWeatherPattern(Rule):
    """A scenario whose first turn is in June specifies the June Weather Pattern.

    Digest §8: SCH-03.

    Rule case: TKG [25.1.3]

    Why: "If the first turn is a June turn, the June Weather Pattern [16.3.1] will also be
    specified" [25.1.3]; the weather roll depends on it.

    Violating example:
        turns: {first: 13, last: 29}      # 19 June, no params.june_weather_pattern

    Correct example:
        turns: {first: 13, last: 29}
        params: {june_weather_pattern: {value: Poor, until: "June 23 (GT 17)"}}

    Policy: A D-Day start (``params.dday_turn``) is a June start. A scenario that
    declares ``june_weather_pattern`` in ``missing:`` is left to TKG-SCH-001.
    """

    code = "TKG-SCH-003"
    name = "june-weather-pattern"
    severity = Severity.ERROR
    groups = ("scenario",)
    rule_case = "TKG [25.1.3]"
    systems = ("tkg",)

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        s = ctx.scenario
        assert s is not None
        if s.turns is None or not isinstance(s.turns.first, int):
            return
        dates = {t.n: t.date for t in ctx.system.calendar.all_turns}
        first = dates.get(s.turns.first)
        june = bool(scen_param(ctx, "dday_turn")) or (first is not None and first.month == 6)
        if june and scen_param(ctx, "june_weather_pattern") is None and not declared_missing(ctx, "june_weather_pattern"):
            yield ctx.finding(self, f"scenario {s.id!r} starts in June but gives no June Weather Pattern", s, "turns")
