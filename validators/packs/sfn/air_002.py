"""SFN-AIR-002."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic
from validators.context import RuleContext
from validators.packs.sfn._air import drops
from validators.packs.sfn._sfn import SYSTEMS, param
from validators.rule import Rule


class AirdropTerrain(Rule):
    """Airdrops land on a land hex of the map that is not marsh, city or fortress.

    Rule case: SFN 15.6
    Why: "Drops may not be made into Marsh, City or Fortress hexes."
    Violating example: ``{unit: uk-6-ab, hex: '2210', ...}`` (Abbeville, a city).
    Correct example: ``{unit: uk-6-ab, hex: '1913', ...}`` (clear).
    """

    code = "SFN-AIR-002"
    name = "airdrop-terrain"
    groups = ("airdrops",)
    rule_case = "SFN 15.6"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        forbidden = set(param(ctx, "airdrops").get("forbidden_terrain", []))
        sea = {t.id for t in ctx.system.terrain if "sea" in t.tags}
        for i, drop in drops(ctx):
            terrain = ctx.hmap.terrain_at(drop.hex) if drop.hex is not None else None
            if terrain is None or terrain in sea:
                yield ctx.finding(self, f"{drop.unit} drops on a hex that is not a land hex of the map",
                                  ctx.scenario, "params", "airdrops", i, "hex", units=[drop.unit])
            elif terrain in forbidden:
                yield ctx.finding(self, f"{drop.unit} may not drop into {ctx.label(drop.hex)} ({terrain})",
                                  ctx.scenario, "params", "airdrops", i, "hex", units=[drop.unit], hexes=[drop.hex])
