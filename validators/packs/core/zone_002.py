"""CORE-ZONE-002."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.rule import Rule


class MapPartsHaveHexes(Rule):
    """Every named area and location of a map file has at least one hex.

    Rule case: Hexproof bundle format (map ``areas`` and ``locations``)

    Why: A map area (assembly area, sector, boundary) or named location (reinforcement hex,
    supply source, town) with no hex loads and validates clean, yet a scenario that sets
    up in the area, or enters at the location, has nowhere to put its units.

    Policy: *parts-have-hexes* — as CORE-ZONE-001 for scenario parts; the map file's parts
    are checked once per bundle.

    Violating example:
        areas:
        - {id: west, name: West sector, hexes: []}

    Correct example:
        areas:
        - {id: west, name: West sector, hexes: ['0201', '0202']}
    """

    code = "CORE-ZONE-002"
    name = "map-parts-have-hexes"
    severity = Severity.ERROR
    groups = ("hexes", "zones", "map")
    rule_case = "Hexproof bundle format"
    scope = "bundle"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        for hmap in ctx.bundle.maps.values():
            for area in hmap.areas:
                if not area.hexes:
                    yield ctx.finding(self, f"{area.kind} {area.name!r} of map {hmap.id!r} has no hexes", area,
                                      "hexes", policy="parts-have-hexes")
            for loc in hmap.locations:
                if not loc.all_hexes():
                    yield ctx.finding(self, f"{loc.kind} {loc.name!r} of map {hmap.id!r} names no hex", loc,
                                      policy="parts-have-hexes")
