"""The one place model geometry becomes Qt geometry (QPointF/QLineF/QPolygonF).

Scene coordinates are map units (hex size = 1, y down, see :mod:`model.layout`) scaled by
:data:`HEX_SIZE`, so "100 %" zoom shows a hex :data:`HEX_SIZE` px from centre to corner.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from PySide6.QtCore import QLineF, QPointF, QRectF
from PySide6.QtGui import QPainterPath, QPolygonF

from model.base import HexsideKey
from model.hexes import DIRECTION_NAMES, Hex
from model.layout import Layout
from model.mapdata import HexMap, ImpassablePortion

HEX_SIZE = 30.0


def layout_for(hmap: HexMap) -> Layout:
    return Layout.for_orientation(hmap.grid.orientation, HEX_SIZE)


def center(layout: Layout, h: Hex) -> QPointF:
    return QPointF(*layout.center(h))


def hex_polygon(layout: Layout, h: Hex) -> QPolygonF:
    return QPolygonF([QPointF(x, y) for x, y in layout.corners(h)])


def hexside_line(layout: Layout, key: HexsideKey) -> QLineF:
    a, b = layout.edge_corners(key.direction)
    corners = layout.corners(key.hex)
    return QLineF(QPointF(*corners[a]), QPointF(*corners[b]))


def polyline(layout: Layout, hexes: Sequence[Hex]) -> QPolygonF:
    return QPolygonF([center(layout, h) for h in hexes])


def local_polygon(layout: Layout, h: Hex, points: Iterable[tuple[float, float]]) -> QPolygonF:
    """Hex-local points (units of hex size, centred, y down) → scene polygon."""
    cx, cy = layout.center(h)
    return QPolygonF([QPointF(cx + x * layout.size, cy + y * layout.size) for x, y in points])


def portion_polygon(layout: Layout, portion: ImpassablePortion, orientation: str) -> QPolygonF:
    """The grey part of a hex: an explicit polygon, or the hex cut by a line parallel to the
    preset side at ``depth`` × the centre-to-side distance from that side."""
    h = portion.hex
    if portion.polygon is not None:
        return local_polygon(layout, h, portion.polygon)
    d = DIRECTION_NAMES[orientation].index(str(portion.preset).upper())
    cx, cy = layout.center(h)
    nx, ny = layout.center(h.neighbor(d))
    ux, uy = (nx - cx), (ny - cy)
    norm = math.hypot(ux, uy)
    ux, uy = ux / norm, uy / norm
    apothem = norm / 2
    cut = apothem * (1 - portion.depth)  # distance of the cut line from the centre
    big = layout.size * 4
    px, py = -uy, ux  # along the side
    ax, ay = cx + ux * cut, cy + uy * cut
    half = QPolygonF([
        QPointF(ax + px * big, ay + py * big),
        QPointF(ax - px * big, ay - py * big),
        QPointF(ax - px * big + ux * big, ay - py * big + uy * big),
        QPointF(ax + px * big + ux * big, ay + py * big + uy * big),
    ])
    return hex_polygon(layout, h).intersected(half)


def shapely_to_path(geom: object, scale: float = HEX_SIZE) -> QPainterPath:
    """A shapely Polygon/MultiPolygon/LineString in map units → QPainterPath in scene units."""
    path = QPainterPath()
    geoms = getattr(geom, "geoms", [geom])
    for g in geoms:
        if hasattr(g, "exterior"):
            for ring in [g.exterior, *g.interiors]:
                path.addPolygon(QPolygonF([QPointF(x * scale, y * scale) for x, y in ring.coords]))
                path.closeSubpath()
        elif hasattr(g, "coords"):
            pts = [QPointF(x * scale, y * scale) for x, y in g.coords]
            if pts:
                path.moveTo(pts[0])
                for p in pts[1:]:
                    path.lineTo(p)
    return path


def scene_rect(hmap: HexMap, layout: Layout) -> QRectF:
    """Bounding rectangle of the whole grid, with half a hex of margin."""
    x0, y0, x1, y1 = hmap.spec.bounds()
    pts = []
    for x, y in ((x0, y0), (x1 - 1, y0), (x0, y1 - 1), (x1 - 1, y1 - 1)):
        pts.append(layout.center(hmap.spec.hex_at_offset(x, y)))
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    m = layout.size * 1.2
    return QRectF(min(xs) - m, min(ys) - m, max(xs) - min(xs) + 2 * m, max(ys) - min(ys) + 2 * m)
