"""The one module that builds shapely shapes for a map.

Two frames are used:

* the **map frame** of :class:`~model.layout.Layout` (hex size 1, y down) for drawing and
  for impassable portions, which are stored in hex-local coordinates so they survive
  rescaling;
* the **LOS frame**, the map frame with its √3 axis divided by √3 (flat-top: y/√3,
  pointy-top: x/√3). It is an affine image of the map frame, so straight lines, crossings,
  collinearity and the order of points along a line are unchanged, but every hex centre and
  corner lands on a multiple of ½ (flat-top centre ``(1.5q, r + q/2)``, corners
  ``(±1, 0), (±½, ±½)``). Those numbers are exact in binary floating point, so shapely's
  robust predicates decide "runs along a hexside" and "passes through a vertex" exactly.

A hexside is a LineString under its canonical :class:`~model.base.HexsideKey` (the same key
from both hexes); a vertex has a canonical :data:`VertexKey` (the sorted three hexes that
meet there). :class:`MapShapes` caches the static shapes of one map and an STRtree over its
static features; it is rebuilt only when the map's cached indexes are replaced, which is
what :meth:`HexMap.invalidate` does after every edit.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import shapely
import shapely.affinity
from shapely.geometry import LineString, Point, Polygon, box
from shapely.strtree import STRtree

from model.base import HexsideKey, hexside_key
from model.hexes import Hex, direction_index
from model.layout import Layout
from model.mapdata import VOID, HexMap, ImpassablePortion

SQRT3 = math.sqrt(3.0)

# Corner offsets in the LOS frame, corner i at angle (start + i)·60°, y down.
_LOS_CORNERS = {
    "flat": ((1.0, 0.0), (0.5, 0.5), (-0.5, 0.5), (-1.0, 0.0), (-0.5, -0.5), (0.5, -0.5)),
    "pointy": ((0.5, 0.5), (0.0, 1.0), (-0.5, 0.5), (-0.5, -0.5), (0.0, -1.0), (0.5, -0.5)),
}

VertexKey = tuple[Hex, Hex, Hex]


# --- frames ------------------------------------------------------------------------------

def layout_for(hmap: HexMap) -> Layout:
    """The map-frame layout (hex size 1) for a map's orientation."""
    return Layout.for_orientation(hmap.grid.orientation)


def los_center(h: Hex, orientation: str = "flat") -> tuple[float, float]:
    """Centre dot of ``h`` in the LOS frame (exact halves)."""
    if orientation == "flat":
        return 1.5 * h.q, h.r + h.q / 2
    return h.q + h.r / 2, 1.5 * h.r


def los_corners(h: Hex, orientation: str = "flat") -> list[tuple[float, float]]:
    cx, cy = los_center(h, orientation)
    return [(cx + dx, cy + dy) for dx, dy in _LOS_CORNERS[orientation]]


def to_los_frame(x: float, y: float, orientation: str = "flat") -> tuple[float, float]:
    """Map frame → LOS frame."""
    return (x, y / SQRT3) if orientation == "flat" else (x / SQRT3, y)


def corner_of_edge(orientation: str, direction: int) -> tuple[int, int]:
    return Layout.for_orientation(orientation).edge_corners(direction)


# --- hexes, hexsides, vertices -------------------------------------------------------------

def hex_polygon(h: Hex, layout: Layout) -> Polygon:
    return Polygon(layout.corners(h))


def los_hex_polygon(h: Hex, orientation: str = "flat") -> Polygon:
    return Polygon(los_corners(h, orientation))


def hexside_points(key: HexsideKey, orientation: str, frame: str = "los", layout: Layout | None = None
                   ) -> tuple[tuple[float, float], tuple[float, float]]:
    """The two end points of a hexside, always taken from the key's own hex so that the
    same side gives the same coordinates from either hex."""
    a, b = corner_of_edge(orientation, key.direction)
    if frame == "los":
        corners = los_corners(key.hex, orientation)
    else:
        corners = (layout or Layout.for_orientation(orientation)).corners(key.hex)
    return corners[a], corners[b]


def hexside_line(key: HexsideKey, orientation: str = "flat", frame: str = "los",
                 layout: Layout | None = None) -> LineString:
    return LineString(hexside_points(key, orientation, frame, layout))


def hex_sides(h: Hex) -> list[HexsideKey]:
    return [hexside_key(h, d) for d in range(6)]


def vertex_hexes(h: Hex, corner: int, orientation: str = "flat") -> VertexKey:
    """Canonical key of corner ``corner`` of ``h``: the three hexes meeting there, sorted."""
    lay = Layout.for_orientation(orientation)
    dirs = [d for d in range(6) if corner in lay.edge_corners(d)]
    trio = sorted([h, h.neighbor(dirs[0]), h.neighbor(dirs[1])])
    return trio[0], trio[1], trio[2]


def vertex_key(h: Hex, corner: int, orientation: str = "flat") -> VertexKey:
    return vertex_hexes(h, corner, orientation)


def vertex_sides(v: VertexKey) -> list[HexsideKey]:
    """The three hexsides that meet at a vertex."""
    a, b, c = v
    out = []
    for x, y in ((a, b), (a, c), (b, c)):
        d = x.direction_to(y)
        assert d is not None
        out.append(hexside_key(x, d))
    return out


# --- impassable portions ----------------------------------------------------------------

def portion_local_polygon(portion: ImpassablePortion, orientation: str) -> Polygon:
    """The grey area in hex-local coordinates (hex size 1, centre at the origin, y down)."""
    lay = Layout.for_orientation(orientation)
    hexagon = Polygon([lay.corner_offset(i) for i in range(6)])
    if portion.polygon is not None:
        return Polygon(portion.polygon).intersection(hexagon)
    assert portion.preset is not None
    d = direction_index(orientation, portion.preset)
    a, b = lay.edge_corners(d)
    ax, ay = lay.corner_offset(a)
    bx, by = lay.corner_offset(b)
    mx, my = (ax + bx) / 2, (ay + by) / 2
    apothem = math.hypot(mx, my)
    nx, ny = mx / apothem, my / apothem
    # Keep the part of the hexagon at least (1 - depth)·apothem from the centre toward the side.
    cut = apothem * (1.0 - portion.depth)
    tx, ty = -ny, nx
    big = 4.0
    p0 = (nx * cut + tx * big, ny * cut + ty * big)
    p1 = (nx * cut - tx * big, ny * cut - ty * big)
    p2 = (p1[0] + nx * big, p1[1] + ny * big)
    p3 = (p0[0] + nx * big, p0[1] + ny * big)
    return Polygon([p0, p1, p2, p3]).intersection(hexagon)


def portion_polygon(portion: ImpassablePortion, layout: Layout) -> Polygon:
    """The grey area in the map frame."""
    local = portion_local_polygon(portion, layout.orientation.name)
    cx, cy = layout.center(portion.hex)
    return shapely.affinity.translate(shapely.affinity.scale(local, layout.size, layout.size, origin=(0, 0)), cx, cy)


# --- paths --------------------------------------------------------------------------------

def path_polyline(hexes: list[Hex], orientation: str = "flat", frame: str = "los",
                  layout: Layout | None = None) -> LineString:
    """A path drawn centre dot to centre dot (the graphic of a road, raised road or bridge)."""
    if frame == "los":
        pts = [los_center(h, orientation) for h in hexes]
    else:
        lay = layout or Layout.for_orientation(orientation)
        pts = [lay.center(h) for h in hexes]
    return LineString(pts)


# --- per-map cache ------------------------------------------------------------------------

@dataclass
class MapShapes:
    """Static shapes of one map state in the LOS frame, plus an STRtree of features.

    ``graphics`` maps a hex to the part of the LOS-blocking path graphics (raised and
    embankment roads, bridges drawn as paths) that lies inside it; ``tree`` indexes those
    pieces and every hexside carrying a feature, so a query finds them without a scan.
    """

    orientation: str
    graphics: dict[Hex, Any] = field(default_factory=dict)
    tree_items: list[tuple[str, Any]] = field(default_factory=list)
    _tree: STRtree | None = None
    _tree_built: bool = False
    _polys: dict[Hex, Polygon] = field(default_factory=dict)
    _sides: dict[HexsideKey, LineString] = field(default_factory=dict)

    @property
    def tree(self) -> STRtree | None:
        """The STRtree over ``tree_items``, built on first use: only the reference tracer
        queries it, and a LineString per featured hexside made it most of a fast engine's
        construction (the first LOS query of a session)."""
        if not self._tree_built:
            geoms = [self.graphics[x] if kind == "graphic" else self.side(x) for kind, x in self.tree_items]
            self._tree = STRtree(geoms) if geoms else None
            self._tree_built = True
        return self._tree

    def polygon(self, h: Hex) -> Polygon:
        p = self._polys.get(h)
        if p is None:
            p = los_hex_polygon(h, self.orientation)
            shapely.prepare(p)
            self._polys[h] = p
        return p

    def side(self, key: HexsideKey) -> LineString:
        s = self._sides.get(key)
        if s is None:
            s = hexside_line(key, self.orientation)
            self._sides[key] = s
        return s

    def query(self, geom: Any) -> list[tuple[str, Any]]:
        if self.tree is None:
            return []
        return [self.tree_items[i] for i in self.tree.query(geom)]


def _state_token(hmap: HexMap) -> tuple[Any, ...]:
    # The cached indexes are new objects after every HexMap.invalidate(); holding them in
    # the token keeps their ids from being reused while the cache entry lives.
    return (hmap.terrain.lines, hmap.hexside_index, hmap.paths_by_hex, hmap.features_by_hex,
            hmap.portion_by_hex)


_SHAPES: dict[tuple[int, frozenset[str]], tuple[tuple[Any, ...], HexMap, MapShapes]] = {}


def map_state_changed(hmap: HexMap, token: tuple[Any, ...]) -> bool:
    now = _state_token(hmap)
    return len(now) != len(token) or any(a is not b for a, b in zip(now, token))


def shapes_for(hmap: HexMap, graphic_paths: set[str] | frozenset[str] | None = None) -> MapShapes:
    """Cached :class:`MapShapes` of ``hmap`` (``graphic_paths``: path types whose graphic
    blocks LOS); rebuilt when the map has been edited."""
    gp = frozenset(graphic_paths or ())
    key = (id(hmap), gp)
    hit = _SHAPES.get(key)
    if hit is not None and hit[1] is hmap and not map_state_changed(hmap, hit[0]):
        return hit[2]
    shapes = build_shapes(hmap, gp)
    if len(_SHAPES) > 16:
        _SHAPES.clear()
    _SHAPES[key] = (_state_token(hmap), hmap, shapes)
    return shapes


def build_shapes(hmap: HexMap, graphic_paths: frozenset[str] = frozenset()) -> MapShapes:
    orientation = hmap.grid.orientation
    shapes = MapShapes(orientation)
    pieces: dict[Hex, list[Any]] = {}
    for p in hmap.paths:
        if p.type not in graphic_paths:
            continue
        line = path_polyline(list(p.hexes), orientation)
        for h in p.hexes:
            part = line.intersection(shapes.polygon(h))
            if not part.is_empty:
                pieces.setdefault(h, []).append(part)
    for h, parts in pieces.items():
        g = shapely.union_all(parts)
        shapely.prepare(g)
        shapes.graphics[h] = g
        shapes.tree_items.append(("graphic", h))
    for key in hmap.hexside_index:
        shapes.tree_items.append(("hexside", key))
    return shapes


def bounding_box(hexes: list[Hex], orientation: str = "flat") -> Polygon:
    pts = [c for h in hexes for c in los_corners(h, orientation)]
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    return box(min(xs), min(ys), max(xs), max(ys))


__all__ = [
    "MapShapes", "VertexKey", "bounding_box", "build_shapes", "hex_polygon", "hex_sides", "hexside_line",
    "hexside_points", "layout_for", "los_center", "los_corners", "los_hex_polygon", "path_polyline",
    "portion_local_polygon", "portion_polygon", "shapes_for", "to_los_frame", "vertex_hexes", "vertex_key",
    "vertex_sides", "Point",
]


# --- fast per-map lookups -------------------------------------------------------------------

_TERRAIN: dict[int, tuple[tuple[Any, ...], HexMap, dict[Hex, str]]] = {}


def terrain_index(hmap: HexMap) -> dict[Hex, str]:
    """``hex → terrain id`` for every hex on the map (cached until the map is edited)."""
    hit = _TERRAIN.get(id(hmap))
    if hit is not None and hit[1] is hmap and not map_state_changed(hmap, hit[0]):
        return hit[2]
    spec = hmap.spec
    x0, y0 = hmap.offset_origin()
    legend = hmap.terrain.legend
    out: dict[Hex, str] = {}
    for j, line in enumerate(hmap.terrain.lines):
        for i, ch in enumerate(line):
            if ch == "-":
                continue
            x, y = x0 + i, y0 + j
            if any(s.contains_offset(x, y) for s in spec.sheets):
                out[spec.hex_at_offset(x, y)] = legend.get(ch, "")
    if len(_TERRAIN) > 16:
        _TERRAIN.clear()
    _TERRAIN[id(hmap)] = (_state_token(hmap), hmap, out)
    return out


class TerrainView(Mapping[Hex, str]):
    """``hex → terrain id`` read through the map's dense index (``HexMap.terrain_index``):
    equal to :func:`terrain_index` as a mapping (tests/model/test_los_table.py), without the
    whole-map dict that costs 10–25 ms to build on the first LOS query after each edit."""

    __slots__ = ("_hmap", "_char", "_legend")

    def __init__(self, hmap: HexMap) -> None:
        self._hmap = hmap
        self._char = hmap.terrain_index.char
        self._legend = hmap.terrain.legend

    def get(self, h: Hex, default: Any = None) -> Any:  # type: ignore[override]
        ch = self._char(h)
        return default if ch == VOID else self._legend.get(ch, "")

    def __getitem__(self, h: Hex) -> str:
        ch = self._char(h)
        if ch == VOID:
            raise KeyError(h)
        return self._legend.get(ch, "")  # type: ignore[no-any-return]

    def __contains__(self, h: object) -> bool:
        return isinstance(h, tuple) and self._char(h) != VOID  # type: ignore[arg-type]

    def __iter__(self) -> Iterator[Hex]:
        return iter(self._hmap.hexes())

    def __len__(self) -> int:
        return self._hmap.terrain_index.count()


def terrain_view(hmap: HexMap) -> TerrainView:
    """A :class:`TerrainView` of the map's current terrain (cheap: make one per use)."""
    return TerrainView(hmap)
