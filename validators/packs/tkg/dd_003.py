"""TKG-DD-003."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.tkg._tkg import by_hex
from validators.rule import Rule


class BeachHexStacking(Rule):
    """No more than three units stand in a D-Day beach hex.

    Digest §8: DD-03.

    Rule case: TKG L2243

    Why: During the D-Day landings a beach hex holds at most 3 units; overflow slips a
    Landing Phase (L2243).

    Violating example:
        setup: [{unit: us_8_inf, hex: N2522}, {unit: us_12_inf, hex: N2522}, {unit: us_22_inf, hex: N2522}, {unit: us_2_rangers, hex: N2522}]

    Correct example:
        setup: [{unit: us_8_inf, hex: N2522}, {unit: us_12_inf, hex: N2522}, {unit: us_2_rangers, hex: N2522}]

    Policy: Every unit counts (no HQ or truck exemption on the beach); the limit is the
    system stacking param ``dday_beach_hex_max``.
    """

    code = "TKG-DD-003"
    name = "beach-hex-stacking"
    severity = Severity.ERROR
    groups = ("dday", "stacking")
    rule_case = "TKG L2243"
    systems = ("tkg",)

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        limit = int(ctx.system.stacking.limits.get("dday_beach_hex_max", 3))
        for h, stack in sorted(by_hex(ctx).items()):
            if ctx.hmap.terrain_at(h) == "beach" and len(stack) > limit:
                yield ctx.finding(self, f"beach hex {ctx.label(h)} holds {len(stack)} units; at most {limit}",
                                  stack[limit][0], units=tuple(e.unit for e, _ in stack), hexes=(h,))
