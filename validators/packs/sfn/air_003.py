"""SFN-AIR-003."""

from __future__ import annotations

from collections import defaultdict
from typing import Iterable

from model.diagnostics import Diagnostic
from validators.context import RuleContext
from validators.packs.sfn._air import drops
from validators.packs.sfn._sfn import SYSTEMS, param
from validators.rule import Rule


class AirdropsPerDay(Rule):
    """No more than three divisions are plotted to drop on any one day.

    Rule case: SFN 15.6
    Why: "No more than three divisions may be plotted to drop on any one day, though they
    may be dropped into the same or separate hexes."
    Violating example: all four airborne divisions plotted to drop on GT 3.
    Correct example: three on GT 3 and the fourth on GT 4.
    """

    code = "SFN-AIR-003"
    name = "airdrops-per-day"
    groups = ("airdrops",)
    rule_case = "SFN 15.6"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        cap = int(param(ctx, "airdrops").get("max_divisions_per_day", 3))
        per_turn: dict[int, list[tuple[int, str]]] = defaultdict(list)
        for i, drop in drops(ctx):
            if drop.turn is not None:
                per_turn[drop.turn].append((i, drop.unit))
        for turn, items in sorted(per_turn.items()):
            if len(items) > cap:
                yield ctx.finding(self, f"{len(items)} divisions plotted to drop on GT {turn}; at most {cap}",
                                  ctx.scenario, "params", "airdrops", items[cap][0], units=[u for _, u in items],
                                  turns=[turn])
