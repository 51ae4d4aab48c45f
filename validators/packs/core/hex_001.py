"""CORE-HEX-001."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.core._scan import hex_uses
from validators.rule import Rule


class HexOnGrid(Rule):
    """Every hex a scenario uses (setup, entries, zones, beaches, locations, playable area) is on the map.

    Rule case: Hexproof bundle format (map grid; ``-`` marks no hex)

    Why: A label that is not on the grid is a typo (0492 for 0429) or a hex from another
    map; a unit set up there cannot be shown, and a zone containing it is wrong.

    Violating example:
        setup:
        - {unit: x1, hex: '0409'}    # the mini map has rows 01-04 only

    Correct example:
        setup:
        - {unit: x1, hex: '0402'}
    """

    code = "CORE-HEX-001"
    name = "hex-on-grid"
    severity = Severity.ERROR
    groups = ("hexes",)
    rule_case = "Hexproof bundle format"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        assert ctx.scenario is not None
        hmap = ctx.hmap
        for use in hex_uses(ctx.scenario):
            if not hmap.contains(use.hex):
                yield ctx.finding(self, f"hex {ctx.label(use.hex)} ({use.kind}) is not on map {hmap.id!r}",
                                  use.node, *use.fields, hexes=(use.hex,))
        for o in ctx.scenario.beach_overlays:
            for i, key in enumerate(o.gap_hexsides):
                if not any(hmap.contains(h) for h in key.hexes()):
                    yield ctx.finding(self, "gap hexside lies between two hexes that are not on the map",
                                      o, "gap_hexsides", i, hexes=key.hexes())
