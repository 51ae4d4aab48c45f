"""SFN-AIR-001."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic
from validators.context import RuleContext
from validators.packs.sfn._air import drops
from validators.packs.sfn._sfn import SYSTEMS, param
from validators.rule import Rule


class AirdropEligibleUnits(Rule):
    """Only the British 1st and 6th and the US 82nd and 101st Airborne drop, from the England box.

    Rule case: SFN 15.6
    Why: "Only the British 1st and 6th Airborne Divisions and US 82nd and US 101st Divisions
    are eligible"; drops are made "from the England Holding Box (only)".
    Violating example: ``params.airdrops: [{unit: cw-51-inf, hex: '1913', turn: 3, plotted: 1}]``.
    Correct example: ``{unit: uk-6-ab, hex: '1913', turn: 3, plotted: 1}`` with uk-6-ab in the England box.
    Policy: params-airdrops — a scenario lists its plotted drops as ``params.airdrops`` (unit,
    hex, turn, plotted); they count only when the optional rule ``airdrops`` is on.
    """

    code = "SFN-AIR-001"
    name = "airdrop-eligible-units"
    groups = ("airdrops",)
    rule_case = "SFN 15.6"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        spec = param(ctx, "airdrops")
        eligible = set(spec.get("eligible", []))
        box = spec.get("from_box")
        assert ctx.scenario is not None
        start = {e.unit: e for e in ctx.scenario.setup}
        for i, drop in drops(ctx):
            if drop.unit not in eligible:
                yield ctx.finding(self, f"{drop.unit} may not airdrop (eligible: {', '.join(sorted(eligible))})",
                                  ctx.scenario, "params", "airdrops", i, units=[drop.unit], policy="params-airdrops")
            elif box and (drop.unit not in start or start[drop.unit].box != box):
                yield ctx.finding(self, f"{drop.unit} drops from the {box} box only, but does not start there",
                                  ctx.scenario, "params", "airdrops", i, units=[drop.unit], policy="params-airdrops")
