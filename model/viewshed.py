"""Viewsheds and all-pairs visibility.

:func:`viewshed` answers "which hexes does this hex see" with the fast engine
(:class:`model.los_fast.FastLos`); :func:`viewshed_reference` asks the reference
:func:`model.los.line_of_sight` hex by hex and exists to test the fast one.
:func:`visibility_matrix` gives every hex's visibility to every hex within range as a packed
numpy bit matrix (hexes × offsets) — 7,000 hexes × 546 offsets at range 13 is about 0.5 MB.
"""

from __future__ import annotations

from typing import Iterable

from model.hexes import Hex
from model.los import line_of_sight
from model.los_fast import FastLos, VisibilityMatrix
from model.mapdata import HexMap
from model.system import GameSystem


def viewshed(hmap: HexMap, system: GameSystem, origin: Hex, radius: int | None = None, *, night: bool = False,
             storm: bool = False, fog: bool = False, purpose: str = "direct", barrage: Iterable[Hex] = (),
             engine: FastLos | None = None) -> set[Hex]:
    """Hexes of the map seen from ``origin`` (not including itself), within the observer's
    range for the conditions, or within ``radius`` if that is smaller."""
    fl = engine or FastLos(hmap, system)
    return fl.viewshed(origin, radius, night=night, storm=storm, fog=fog, purpose=purpose, barrage=barrage)


def viewshed_reference(hmap: HexMap, system: GameSystem, origin: Hex, radius: int, *, night: bool = False,
                       storm: bool = False, fog: bool = False, purpose: str = "direct",
                       barrage: Iterable[Hex] = ()) -> set[Hex]:
    barr = frozenset(barrage)
    out = set()
    for h in origin.range(radius):
        if h != origin and hmap.contains(h) and line_of_sight(hmap, system, origin, h, night=night, storm=storm,
                                                               fog=fog, purpose=purpose, barrage=barr).visible:
            out.add(h)
    return out


def visibility_matrix(hmap: HexMap, system: GameSystem, radius: int | None = None, *, night: bool = False,
                      storm: bool = False, fog: bool = False, purpose: str = "direct",
                      barrage: Iterable[Hex] = ()) -> VisibilityMatrix:
    return FastLos(hmap, system).matrix(radius, night=night, storm=storm, fog=fog, purpose=purpose, barrage=barrage)
