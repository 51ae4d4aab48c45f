"""SFN-AIR-004."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic
from validators.context import RuleContext
from validators.packs.sfn._air import drops
from validators.packs.sfn._sfn import SYSTEMS, param
from validators.rule import Rule


class AirdropPlottedAhead(Rule):
    """Each airdrop is plotted at least two game turns before it lands.

    Rule case: SFN 15.6
    Why: "the Allied player secretly writes down the proposed date and landing hex for the
    unit at least two game turns in advance (just like SAF strikes)"; the 6th Airborne may
    be plotted "as soon as Game Turn 1".
    Violating example: ``{unit: uk-6-ab, hex: '1913', turn: 2, plotted: 1}``.
    Correct example: ``{unit: uk-6-ab, hex: '1913', turn: 3, plotted: 1}``.
    Policy: plot-from-gt1 — a plot turn before GT 1 is reported too (plots are written during play).
    """

    code = "SFN-AIR-004"
    name = "airdrop-plotted-ahead"
    groups = ("airdrops",)
    rule_case = "SFN 15.6"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        lead = int(param(ctx, "airdrops").get("min_plot_lead", 2))
        for i, drop in drops(ctx):
            if drop.turn is None or drop.plotted is None:
                yield ctx.finding(self, f"{drop.unit}: give the drop turn and the turn it was plotted",
                                  ctx.scenario, "params", "airdrops", i, units=[drop.unit])
            elif drop.turn - drop.plotted < lead or drop.plotted < 1:
                yield ctx.finding(self, f"{drop.unit} drops on GT {drop.turn} but was plotted on GT {drop.plotted}; "
                                  f"plot at least {lead} turns ahead, from GT 1", ctx.scenario, "params", "airdrops",
                                  i, units=[drop.unit], turns=[drop.turn], policy="plot-from-gt1")
