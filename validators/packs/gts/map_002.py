"""GTS-MAP-002: Roadblocks only in Road hexes, never by a Bridge, within the army limit."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.gts._gts import SYSTEMS, counter, param
from validators.rule import Rule

ROAD_TYPES = ("road", "causeway", "raised", "embankment", "sunken")


class RoadblockLegal(Rule):
    """A Roadblock is set up only in a Road hex, never in a hex with a Bridge hexside, and
    each side stays within its Roadblock limit.

    Rule case: 23.1 (Roadblocks; never with a Bridge hexside: Excl 2.4.2)

    Why: a Roadblock negates the road for the enemy; off a road it means nothing, and the
    exclusive rules forbid it next to a bridge.

    Violating example: a counter flagged ``roadblock`` set up at 30.040 (no road).

    Correct example: the Roadblock at 33.040, on the coastal road, with
    ``params.roadblock_limits: {german: 2}``. Roadblocks are counters flagged ``roadblock``
    or setup entries with state ``roadblock``.
    """

    code = "GTS-MAP-002"
    name = "roadblock-legal"
    severity = Severity.ERROR
    groups = ("map", "gts")
    rule_case = "23.1"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        hmap = ctx.hmap
        bridge_types = [t.id for t in ctx.system.hexsides if t.los == "bridge"]
        per_side: dict[str, int] = {}
        for e in scen.setup:
            c = counter(ctx, e.unit)
            if not (("roadblock" in e.state) or (c is not None and "roadblock" in c.flags)) or e.hex is None:
                continue
            side = c.side if c is not None else "?"
            per_side[side] = per_side.get(side, 0) + 1
            h = e.hex
            if not any(p.type in ROAD_TYPES for p in hmap.paths_by_hex.get(h, ())):
                yield ctx.finding(self, f"Roadblock {e.unit} at {ctx.label(h)} is not in a Road hex", e, "hex", hexes=(h,))
            from model.base import hexside_key
            if any(set(bridge_types) & set(hmap.hexside_features(hexside_key(h, d))) for d in range(6)):
                yield ctx.finding(self, f"Roadblock {e.unit} at {ctx.label(h)} is in a hex with a Bridge hexside",
                                  e, "hex", hexes=(h,))
        limits = param(ctx, "roadblock_limits", {}) or {}
        for side, n in per_side.items():
            lim = limits.get(side)
            if isinstance(lim, (int, str)) and str(lim).isdigit() and n > int(lim):
                yield ctx.finding(self, f"{n} Roadblocks for {side}, over the limit of {lim}", scen, "params",
                                  "roadblock_limits")
