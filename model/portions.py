"""Crossing legality with impassable hex portions [Utah Excl 2.1, 2.1.14].

"If only part of a hex is Impassable, the Impassable portion is gray, meaning that no Unit
can enter and/or leave the hex by passing over the Impassable portion. An exception to this
is if a Road or Ferry is used to pass through Impassable terrain" [Excl 2.1.14]; "If an
entire hex is Impassable, it is entirely gray, or does not have a center dot; it cannot be
entered by any Unit".

Model: ``passable(h)`` = hex polygon minus its grey area. A move A→B across their shared
hexside is legal when, for each of A and B, the side minus the grey area shares a stretch
(not just a point) with the piece of ``passable`` that holds the hex's centre dot. A unit
using a Road or Ferry through the portion ignores the grey area.
"""

from __future__ import annotations

from dataclasses import dataclass

from shapely.geometry import Point, Polygon

from model.geometry import hex_polygon, hexside_line, layout_for, portion_polygon
from model.hexes import Hex
from model.base import hexside_between
from model.mapdata import HexMap
from model.system import NO_CASE

# Shared stretches shorter than this (map units, hex size 1) are numerical noise, not a gap.
_MIN_OPENING = 1e-9
# Terrain ids/tags that make a whole hex impassable [Excl 2.1.14].
IMPASSABLE_TAG = "impassable"


@dataclass(frozen=True)
class CrossingCheck:
    allowed: bool
    reason: str = ""
    rule: str = NO_CASE

    def __bool__(self) -> bool:
        return self.allowed


def wholly_impassable(hmap: HexMap, h: Hex, terrain_tags: dict[str, list[str]] | None = None) -> bool:
    """True for an all-grey hex: terrain ``impassable`` (by id or tag), or a grey area that
    covers the centre dot (a hex "without a center dot")."""
    tid = hmap.terrain_at(h)
    if tid is None:
        return True
    if tid == IMPASSABLE_TAG or (terrain_tags and IMPASSABLE_TAG in terrain_tags.get(tid, [])):
        return True
    portion = hmap.portion_by_hex.get(h)
    if portion is None:
        return False
    lay = layout_for(hmap)
    return portion_polygon(portion, lay).covers(Point(lay.center(h)))


def centre_piece(hmap: HexMap, h: Hex) -> Polygon | None:
    """The passable piece of ``h`` holding its centre dot (None if the dot is grey)."""
    lay = layout_for(hmap)
    poly = hex_polygon(h, lay)
    portion = hmap.portion_by_hex.get(h)
    if portion is None:
        return poly
    rest = poly.difference(portion_polygon(portion, lay))
    dot = Point(lay.center(h))
    parts = getattr(rest, "geoms", [rest])
    for part in parts:
        if isinstance(part, Polygon) and part.covers(dot):
            return part
    return None


def side_reaches_centre(hmap: HexMap, h: Hex, other: Hex) -> bool:
    """Does the side of ``h`` toward ``other``, minus grey, touch the centre-dot piece?"""
    portion = hmap.portion_by_hex.get(h)
    if portion is None:
        return True
    key = hexside_between(h, other)
    if key is None:
        return False
    lay = layout_for(hmap)
    side = hexside_line(key, hmap.grid.orientation, frame="map", layout=lay)
    grey = portion_polygon(portion, lay)
    open_side = side.difference(grey)
    if open_side.is_empty:
        return False
    piece = centre_piece(hmap, h)
    if piece is None:
        return False
    return open_side.intersection(piece).length > _MIN_OPENING


def crossing_allowed(hmap: HexMap, a: Hex, b: Hex, *, using_road_or_ferry: bool = False,
                     terrain_tags: dict[str, list[str]] | None = None, rule: str = NO_CASE) -> CrossingCheck:
    """May a unit move from ``a`` into adjacent ``b`` as far as impassable terrain goes?
    ``rule``: the case a refusal cites — the system's ``citations.cases.impassable``
    (``GameSystem.cited``); the map alone does not know its game's rules."""
    if a.direction_to(b) is None:
        return CrossingCheck(False, f"{hmap.label(a)} and {hmap.label(b)} are not adjacent", "")
    if wholly_impassable(hmap, b, terrain_tags):
        return CrossingCheck(False, f"{hmap.label(b)} is wholly impassable and can never be entered", rule)
    if using_road_or_ferry:
        return CrossingCheck(True, "", rule)
    for h, other, verb in ((a, b, "leave"), (b, a, "enter")):
        if not side_reaches_centre(hmap, h, other):
            return CrossingCheck(False, f"cannot {verb} {hmap.label(h)} across its side toward "
                                        f"{hmap.label(other)}: the grey impassable portion lies there", rule)
    return CrossingCheck(True, "", rule)
