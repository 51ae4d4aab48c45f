"""TKG-SET-014."""

from __future__ import annotations

from collections import Counter as Tally
from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.tkg._tkg import by_hex, param, scen_param
from validators.rule import Rule


class ImprovedPositions(Rule):
    """At most one IP per hex, none in flooded hexes, and no more than the scenario allots each side.

    Digest §8: SET-14.

    Rule case: TKG [20.1.1]

    Why: One IP per hex and none in flooded terrain [20.1.1]; each scenario states the
    number of IPs each side may place [25.1.7].

    Violating example:
        setup: [{unit: us_8_inf, hex: N2720, state: [ip]}]      # N2720 is flooded

    Correct example:
        setup: [{unit: us_8_inf, hex: W3826, state: [ip]}]

    Policy: An IP is the setup state word ``ip`` (two units in a hex both marked ``ip``
    means two IPs). The allotment is ``params.ip_allotment.<side>``; with no allotment
    only the per-hex and terrain limits are checked (TKG-SCH-001 reports the missing IP setup).
    """

    code = "TKG-SET-014"
    name = "improved-positions"
    severity = Severity.ERROR
    groups = ("setup",)
    rule_case = "TKG [20.1.1]"
    systems = ("tkg",)

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        forbidden = set(param(ctx, "ip_forbidden_terrain", default=[]) or [])
        per_side: Tally[str] = Tally()
        for h, stack in sorted(by_hex(ctx).items()):
            ips = [(e, c) for e, c in stack if "ip" in e.state]
            if not ips:
                continue
            if len(ips) > 1:
                yield ctx.finding(self, f"{ctx.label(h)} holds {len(ips)} IPs; at most one per hex", ips[1][0], "state", hexes=(h,))
            if ctx.hmap.terrain_at(h) in forbidden:
                yield ctx.finding(self, f"IP in {ctx.label(h)}: no IPs in {ctx.hmap.terrain_at(h)} hexes", ips[0][0], "state", hexes=(h,))
            side = ips[0][1].side if ips[0][1] is not None else "?"
            per_side[side] += 1
        allot = scen_param(ctx, "ip_allotment", default={}) or {}
        for side, n in sorted(per_side.items()):
            if side in allot and n > int(allot[side]):
                yield ctx.finding(self, f"{side} places {n} IPs; the scenario allots {allot[side]} [25.1.7]",
                                  ctx.scenario, "params")
