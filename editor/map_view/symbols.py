"""Point-feature symbols as QPainterPaths in hex-size units (OP triangle, strongpoint star…)."""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QPainterPath, QPolygonF


def _regular(n: int, radius: float, start: float) -> list[QPointF]:
    return [QPointF(radius * math.cos(start + 2 * math.pi * i / n), radius * math.sin(start + 2 * math.pi * i / n))
            for i in range(n)]


def symbol_path(symbol: str, r: float) -> QPainterPath:
    """A symbol of radius ``r`` centred on (0, 0)."""
    path = QPainterPath()
    if symbol == "triangle":
        path.addPolygon(QPolygonF(_regular(3, r, -math.pi / 2)))
    elif symbol in ("star", "vp"):
        pts = []
        for i in range(10):
            rad = r if i % 2 == 0 else r * 0.45
            a = -math.pi / 2 + math.pi * i / 5
            pts.append(QPointF(rad * math.cos(a), rad * math.sin(a)))
        path.addPolygon(QPolygonF(pts))
    elif symbol == "hill":
        path.moveTo(-r, r * 0.5)
        path.quadTo(0, -r * 1.2, r, r * 0.5)
    elif symbol == "square":
        path.addRect(QRectF(-r * 0.7, -r * 0.7, 1.4 * r, 1.4 * r))
    elif symbol == "flag":
        path.moveTo(-r * 0.5, r)
        path.lineTo(-r * 0.5, -r)
        path.lineTo(r * 0.7, -r * 0.6)
        path.lineTo(-r * 0.5, -r * 0.2)
    elif symbol == "circle":
        path.addEllipse(QPointF(0, 0), r * 0.8, r * 0.8)
    elif symbol == "text":
        path.addEllipse(QPointF(0, 0), r * 0.25, r * 0.25)
    else:  # dot
        path.addEllipse(QPointF(0, 0), r * 0.35, r * 0.35)
    path.closeSubpath()
    return path
