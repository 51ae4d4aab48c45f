"""GTS-HEX-004: setup and entry hexes are playable (centre dot, not wholly Impassable)."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.gts._gts import SYSTEMS, has_center_dot
from validators.packs.gts.hex_003 import used_hexes
from validators.rule import Rule


class HexPlayable(Rule):
    """Setup, entry, zone and Rally Point hexes have a centre dot and are not wholly Impassable.

    Rule case: Excl 2.1.14 (a hex with no centre dot, or all grey, can never be entered)

    Why: GTS hexes "just off the map" still carry ids (17.029, 18.027 [Excl 4.4.3]); only an
    Assault Force marker may sit there. A unit set up or entering there could never move.

    Violating example: ``{unit: c5-ii-919, hex: '18.027'}`` (sea, no centre dot).

    Correct example: ``{unit: c5-ii-919, hex: '24.026'}``. Assault Force markers are exempt
    (GTS-NAV-001 checks them).
    """

    code = "GTS-HEX-004"
    name = "hex-playable"
    severity = Severity.ERROR
    groups = ("hexes", "gts")
    rule_case = "Excl 2.1.14"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        for h, what, node, fields in used_hexes(ctx):
            if ctx.hmap.contains(h) and not has_center_dot(ctx, h):
                yield ctx.finding(self, f"{what}: hex {ctx.label(h)} has no centre dot or is wholly Impassable",
                                  node, *fields, hexes=(h,))
