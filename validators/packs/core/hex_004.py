"""CORE-HEX-004."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Iterator

from model.base import Node
from model.diagnostics import Diagnostic, Severity
from model.hexes import Hex
from model.mapdata import HexMap
from validators.context import RuleContext
from validators.rule import Rule


@dataclass(frozen=True)
class MapHexUse:
    """One hex a map file names: the hex, the node holding it, the field path, and what it is."""

    hex: Hex
    node: Node
    fields: tuple[str | int, ...]
    what: str


def map_hex_uses(hmap: HexMap) -> Iterator[MapHexUse]:
    """Every hex a map file names outside its terrain rows: point features (VP hexes, OPs,
    strongpoints, …), paths, impassable portions, named locations (reinforcement hexes and
    markers) and areas. Hexsides are :func:`map_hexside_uses`."""
    for i, f in enumerate(hmap.features):
        yield MapHexUse(f.hex, f, ("hex",), f"{f.type} feature" + (f" {f.name!r}" if f.name else ""))
    for p in hmap.paths:
        for i, h in enumerate(p.hexes):
            yield MapHexUse(h, p, ("hexes", i), f"{p.type} path" + (f" {p.name!r}" if p.name else ""))
    for portion in hmap.portions:
        yield MapHexUse(portion.hex, portion, ("hex",), "impassable portion")
    for loc in hmap.locations:
        if loc.hex is not None:
            yield MapHexUse(loc.hex, loc, ("hex",), f"{loc.kind} {loc.name!r}")
        for i, h in enumerate(loc.hexes):
            yield MapHexUse(h, loc, ("hexes", i), f"{loc.kind} {loc.name!r}")
    for area in hmap.areas:
        for i, h in enumerate(area.hexes):
            yield MapHexUse(h, area, ("hexes", i), f"{area.kind} {area.name!r}")


class MapHexesOnGrid(Rule):
    """Every hex and hexside a map file names (features, paths, portions, locations, areas, hexsides) is on its grid.

    Rule case: Hexproof bundle format (map grid; ``-`` marks no hex)

    Why: A VP hex, Observation Point, strongpoint or reinforcement hex mistyped off the map
    (0925 for 0952) loaded and validated clean: nothing but the terrain rows was checked
    against the grid, so the victory count, the spotting rule or the reinforcement entry
    that reads it silently found nothing there.

    Policy: *map-wide-features* — map hexes are checked against the grid only, not against
    any scenario's playable area: one map serves several scenarios, each playing on part of
    it. A hexside is off the grid when neither of its two hexes is on it (a map-edge hexside
    has one). Background calibration labels are not checked: they pin the scan to the grid
    and may name a hex beyond the terrain rows.

    Violating example:
        features:
        - {type: town, hex: '0909', name: Ville}    # the mini map has columns 01-06

    Correct example:
        features:
        - {type: town, hex: '0502', name: Ville}
    """

    code = "CORE-HEX-004"
    name = "map-hexes-on-grid"
    severity = Severity.ERROR
    groups = ("hexes", "map")
    rule_case = "Hexproof bundle format"
    scope = "bundle"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        for hmap in ctx.bundle.maps.values():
            for use in map_hex_uses(hmap):
                if not hmap.contains(use.hex):
                    yield ctx.finding(self, f"{use.what}: hex {hmap.spec.written_label(use.hex)} is not on map {hmap.id!r}",
                                      use.node, *use.fields, hexes=(hmap.spec.written_label(use.hex),),
                                      policy="map-wide-features")
            for kind, keys in hmap.hexsides.items():
                for i, key in enumerate(keys):
                    a, b = key.hexes()
                    if not (hmap.contains(a) or hmap.contains(b)):
                        yield ctx.finding(self, f"{kind} hexside between {hmap.spec.written_label(a)} and {hmap.spec.written_label(b)} "
                                          f"is not on map {hmap.id!r}", hmap, "hexsides", kind, i,
                                          hexes=(hmap.spec.written_label(a), hmap.spec.written_label(b)), policy="map-wide-features")
