"""CORE-HEX-002."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.core._scan import hex_uses, playable_area
from validators.rule import Rule


class HexInPlayableArea(Rule):
    """Units set up and enter, and zones and beaches lie, inside the scenario's playable area.

    Rule case: Hexproof bundle format (scenario playable: bounds, sheets, area, hexes, exclude)

    Why: Scenarios play on part of the map ("only sheets N and W", "hexes west of the
    xx10 row"); a unit set up outside the playable area is out of the game.

    Policy: an empty ``playable`` means the whole map. ``bounds`` is the inclusive offset
    rectangle between two corner hexes; it is the one statement of a GTS scenario map
    (policy *one-playable-area*, GTS-MAP-003), so an entry hex outside it is reported here
    for every system. Named locations are not checked (a map may name places outside any
    one scenario's area; GTS-HEX-003 checks those a GTS scenario enters at), nor are hexes
    off the grid (CORE-HEX-001 reports those).

    Violating example:
        playable: {exclude: ['0402']}
        setup:
        - {unit: x1, hex: '0402'}

    Correct example:
        playable: {exclude: ['0601']}
        setup:
        - {unit: x1, hex: '0402'}
    """

    code = "CORE-HEX-002"
    name = "hex-in-playable-area"
    severity = Severity.ERROR
    groups = ("hexes",)
    rule_case = "Hexproof bundle format"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        assert ctx.scenario is not None
        # A membership test, not the list of the area's hexes: only the hexes used are asked.
        area = playable_area(ctx)
        if area is None:
            return
        hmap = ctx.hmap
        for use in hex_uses(ctx.scenario):
            if use.kind in ("location", "playable") or not hmap.contains(use.hex):
                continue
            if use.hex not in area:
                yield ctx.finding(self, f"hex {ctx.label(use.hex)} ({use.kind}) is outside the playable area",
                                  use.node, *use.fields, hexes=(use.hex,))
