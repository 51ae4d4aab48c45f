"""CORE-HEX-003."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.core._scan import entries, wholly_impassable
from validators.rule import Rule


class PlacementHexPassable(Rule):
    """No unit sets up in, or enters at, a hex that is wholly impassable.

    Rule case: Hexproof bundle format (terrain move costs in the system file)

    Why: A unit placed in all-sea or otherwise impassable terrain can never move and
    usually marks a mistyped hex.

    Policy: *impassable-terrain* — a hex is wholly impassable when its terrain has the tag
    ``impassable`` or costs "prohibited" for every movement class of the system (every class
    in its move table when the system lists none); a class missing from the table counts
    as passable (cost unknown). Only exact placements (setup ``hex`` and entry ``hex``/``hexes``)
    are checked: "in or adjacent to" may still be satisfied by a neighbour.

    Violating example:
        setup:
        - {unit: x1, hex: '0102'}     # column 01 of the mini map is sea

    Correct example:
        setup:
        - {unit: x1, hex: '0202'}
    """

    code = "CORE-HEX-003"
    name = "placement-hex-passable"
    severity = Severity.ERROR
    groups = ("hexes",)
    rule_case = "Hexproof bundle format"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        hmap = ctx.hmap
        places = [(e.hex, e, ("hex",)) for e in scen.setup if e.hex is not None]
        for entry, _ in entries(scen):
            if entry.hex is not None:
                places.append((entry.hex, entry, ("hex",)))
            places += [(h, entry, ("hexes", i)) for i, h in enumerate(entry.hexes)]
        for h, node, fields in places:
            terrain = hmap.terrain_at(h)
            if wholly_impassable(ctx, terrain):
                yield ctx.finding(self, f"hex {ctx.label(h)} is {terrain}, impassable to every movement class",
                                  node, *fields, hexes=(h,), policy="impassable-terrain")
