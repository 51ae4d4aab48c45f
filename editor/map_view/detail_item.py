"""DetailItem: grid, hexside features, paths, portions, point features, areas and labels.

Only hexes inside the exposed rectangle are visited, and details are skipped when more than
:data:`DETAIL_LIMIT` hexes are visible (low zoom shows the cached terrain tiles only).
Grid lines and printed labels need a larger on-screen hex still. Layer toggles and opacity
are view state held here, never in the model.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from editor.map_view.symbols import symbol_path
from editor.qt_geometry import center, hex_polygon, hexside_line, polyline, portion_polygon
from model.base import HexsideKey
from model.hexes import Hex
from model.layout import Layout
from model.mapdata import HexMap
from model.system import GameSystem

DETAIL_LIMIT = 40000  # visible hexes above which only terrain tiles are drawn
GRID_MIN_PX = 6.0  # on-screen hex size (px) from which grid lines are drawn
LABEL_MIN_PX = 22.0  # … and printed labels
LAYERS = ("grid", "labels", "hexsides", "paths", "features", "portions", "areas")


class DetailItem(QGraphicsItem):
    def __init__(self, hmap: HexMap, system: GameSystem, layout: Layout, bounds: QRectF) -> None:
        super().__init__()
        self.hmap = hmap
        self.system = system
        self.layout = layout
        self._bounds = bounds
        self.visible_layers: dict[str, bool] = {name: True for name in LAYERS}
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)

    def boundingRect(self) -> QRectF:
        return self._bounds

    def set_layer_visible(self, name: str, on: bool) -> None:
        self.visible_layers[name] = on
        self.update()

    def visible_hexes(self, rect: QRectF) -> list[Hex]:
        spec = self.hmap.spec
        corners = [self.layout.hex_at(p.x(), p.y()) for p in (rect.topLeft(), rect.topRight(),
                                                               rect.bottomLeft(), rect.bottomRight())]
        offs = [spec.offset(h) for h in corners]
        bx0, by0, bx1, by1 = spec.bounds()
        x0 = max(bx0, min(o[0] for o in offs) - 1)
        x1 = min(bx1 - 1, max(o[0] for o in offs) + 1)
        y0 = max(by0, min(o[1] for o in offs) - 1)
        y1 = min(by1 - 1, max(o[1] for o in offs) + 1)
        if x1 < x0 or y1 < y0:
            return []
        if (x1 - x0 + 1) * (y1 - y0 + 1) > DETAIL_LIMIT:
            return []
        return [spec.hex_at_offset(x, y) for y in range(y0, y1 + 1) for x in range(x0, x1 + 1)]

    def repaint_hexes(self, hexes: object) -> None:
        """Schedule a repaint of the area around these hexes only."""
        s = self.layout.size * 1.2
        for h in hexes:  # type: ignore[attr-defined]
            cx, cy = self.layout.center(h)
            self.update(QRectF(cx - s, cy - s, 2 * s, 2 * s))

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        scale = option.levelOfDetailFromTransform(painter.worldTransform())
        hexes = self.visible_hexes(option.exposedRect)
        if not hexes:
            return
        hmap, lay, on = self.hmap, self.layout, self.visible_layers
        hex_px = lay.size * scale
        hexes = [h for h in hexes if hmap.contains(h)]
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, hex_px > 8)
        if on["grid"] and hex_px >= GRID_MIN_PX:
            pen = QPen(QColor(0, 0, 0, 90), 0)
            painter.setPen(pen)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            for h in hexes:
                painter.drawPolygon(hex_polygon(lay, h))
        if on["areas"]:
            self._paint_areas(painter, set(hexes))
        if on["portions"]:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(150, 150, 150, 220))
            for h in hexes:
                p = hmap.portion_by_hex.get(h)
                if p is not None:
                    painter.drawPolygon(portion_polygon(lay, p, hmap.grid.orientation))
        if on["paths"]:
            self._paint_paths(painter, hexes)
        if on["hexsides"]:
            self._paint_hexsides(painter, hexes)
        if on["features"]:
            self._paint_features(painter, hexes, hex_px)
        if on["labels"] and hex_px >= LABEL_MIN_PX:
            font = QFont()
            font.setPixelSize(max(1, int(lay.size * 0.32)))
            painter.setFont(font)
            painter.setPen(QColor(40, 40, 40))
            for h in hexes:
                c = center(lay, h)
                painter.drawText(QRectF(c.x() - lay.size, c.y() - lay.size * 0.85, 2 * lay.size, lay.size * 0.4),
                                 Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop, hmap.label(h))

    def _paint_hexsides(self, painter: QPainter, hexes: list[Hex]) -> None:
        index = self.hmap.hexside_index
        if not index:
            return
        types = self.system.hexside_by_id
        for h in hexes:
            for d in (0, 1, 2, 3, 4, 5):
                key = HexsideKey(h, d) if d < 3 else HexsideKey(h.neighbor(d), d - 3)
                # Draw each side once: from its canonical hex, or from this hex when the
                # canonical hex is off the visible list's map (contains() False).
                if d >= 3 and self.hmap.contains(key.hex):
                    continue
                for kind in index.get(key, ()):
                    t = types.get(kind)
                    color = QColor(t.color if t else "#ff00ff")
                    width = (t.width if t else 0.12) * self.layout.size
                    style = t.style if t else "line"
                    line = hexside_line(self.layout, key)
                    pen = QPen(color, width, Qt.PenStyle.DashLine if style == "dashed" else Qt.PenStyle.SolidLine,
                               Qt.PenCapStyle.RoundCap)
                    painter.setPen(pen)
                    if style == "double":
                        n = line.normalVector().unitVector()
                        off = QPointF(n.dx(), n.dy()) * width
                        painter.drawLine(line.translated(off))
                        painter.drawLine(line.translated(-off))
                    else:
                        painter.drawLine(line)
                    if style == "ticks":
                        # Crest-style tick toward the hex the side belongs to.
                        mid = line.center()
                        c = center(self.layout, key.hex)
                        v = c - mid
                        length = math.hypot(v.x(), v.y()) or 1.0
                        painter.drawLine(mid, mid + v * (0.25 * self.layout.size / length))

    def _paint_paths(self, painter: QPainter, hexes: list[Hex]) -> None:
        seen: set[int] = set()
        types = self.system.path_by_id
        by_hex = self.hmap.paths_by_hex
        for h in hexes:
            for p in by_hex.get(h, ()):
                if id(p) in seen:
                    continue
                seen.add(id(p))
                t = types.get(p.type)
                color = QColor(t.color if t else "#ff00ff")
                width = (t.width if t else 0.1) * self.layout.size
                pen = QPen(color, width, Qt.PenStyle.DashLine if (t and t.dash) else Qt.PenStyle.SolidLine,
                           Qt.PenCapStyle.RoundCap, Qt.PenJoinStyle.RoundJoin)
                painter.setPen(pen)
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.drawPolyline(polyline(self.layout, p.hexes))

    def _paint_features(self, painter: QPainter, hexes: list[Hex], hex_px: float) -> None:
        by_hex = self.hmap.features_by_hex
        types = self.system.feature_by_id
        r = self.layout.size * 0.35
        font = QFont()
        font.setPixelSize(max(1, int(self.layout.size * 0.3)))
        font.setBold(True)
        painter.setFont(font)
        for h in hexes:
            for f in by_hex.get(h, ()):
                t = types.get(f.type)
                symbol = t.symbol if t else "dot"
                color = QColor(t.color if t else "#ff00ff")
                c = center(self.layout, h)
                path = symbol_path(symbol, r).translated(c)
                painter.setPen(QPen(color, self.layout.size * 0.06))
                painter.setBrush(Qt.BrushStyle.NoBrush if symbol == "hill" else QBrush(color))
                painter.drawPath(path)
                if f.name and hex_px >= 10:
                    painter.setPen(QColor(0, 0, 0))
                    painter.drawText(QRectF(c.x() - self.layout.size * 1.5, c.y() + r, 3 * self.layout.size,
                                            self.layout.size * 0.5), Qt.AlignmentFlag.AlignHCenter, f.name)

    def _paint_areas(self, painter: QPainter, visible: set[Hex]) -> None:
        painter.setPen(Qt.PenStyle.NoPen)
        for i, area in enumerate(self.hmap.areas):
            painter.setBrush(QColor.fromHsv((i * 67) % 360, 160, 220, 60))
            for h in area.hexes:
                if h in visible:
                    painter.drawPolygon(hex_polygon(self.layout, h))
        pen = QPen(QColor(180, 0, 0), self.layout.size * 0.08)
        for loc in self.hmap.locations:
            for h in loc.all_hexes():
                if h in visible:
                    painter.setPen(pen)
                    painter.setBrush(Qt.BrushStyle.NoBrush)
                    painter.drawEllipse(center(self.layout, h), self.layout.size * 0.7, self.layout.size * 0.7)
