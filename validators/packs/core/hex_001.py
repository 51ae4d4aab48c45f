"""CORE-HEX-001."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.core._scan import hex_uses
from validators.rule import Rule


class HexOnGrid(Rule):
    """Every hex a scenario uses (setup, entries, zones, beaches, locations, playable area) is on the map.

    The map file's own hexes (features, paths, locations, areas, hexsides) are CORE-HEX-004's;
    tests/validators/test_hex_traversal.py holds both to every hex field of the format.

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
                text = hmap.spec.written_label(use.hex)  # as typed: off every sheet label() has no printed form
                yield ctx.finding(self, f"hex {text} ({use.kind}) is not on map {hmap.id!r}",
                                  use.node, *use.fields, hexes=(text,))
        for o in ctx.scenario.beach_overlays:
            for i, key in enumerate(o.gap_hexsides):
                if not any(hmap.contains(h) for h in key.hexes()):
                    a, b = (hmap.spec.written_label(h) for h in key.hexes())
                    yield ctx.finding(self, f"gap hexside between {a} and {b}: neither hex is on the map",
                                      o, "gap_hexsides", i, hexes=(a, b))
