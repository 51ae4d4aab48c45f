"""DetailItem: hexside features, paths, features, portions, areas and printed labels.

On screen the details are drawn from cached transparent tiles (:class:`TiledItem`), one
flavour per zoom band (which of labels, feature names and details show), so a pan or zoom
frame costs a few image blits instead of hundreds of ``drawText`` calls; an edit drops only
the tiles around the changed hexes. Export (``QGraphicsScene.render``, no widget) draws the
same layers directly as vectors, so exports stay exact.

Only hexes near the drawn rectangle are visited, and labels are skipped when more than
:data:`DETAIL_LIMIT` hexes are visible. Layer toggles and per-layer opacity are view state
held here, never in the model (the grid is drawn by the terrain items; see the scene).
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QImage, QPainter, QPen

from editor.map_view.detail_index import DetailIndex
from editor.map_view.labels import (NUMBER_PX, RING_PEN, RING_R, SYMBOL_PEN, SYMBOL_R, FeatureLabels, location_ring,
                                    number_height, number_plate, number_rect)
from editor.map_view.symbols import symbol_path
from editor.map_view.tiles import TILE, TiledItem, TileKey
from editor.qt_geometry import center, hex_polygon, hexside_line, polyline, portion_polygon
from model.hexes import Hex
from model.label_layout import Rect
from model.layout import Layout
from model.mapdata import HexMap
from model.system import GameSystem

DETAIL_LIMIT = 40000  # visible hexes above which labels are not even considered
MIN_DETAIL_PX = 2.5  # on-screen hex size (px) below which only terrain tiles are drawn
NAME_MIN_PX = 10.0  # … from which feature names are drawn
LABEL_MIN_PX = 22.0  # … and printed labels
PORTION_GREY = QColor(150, 150, 150, 220)
NUMBER_INK = QColor(40, 40, 40)
NUMBER_PLATE = QColor(255, 255, 255, 200)  # under a hex number that a symbol runs through
RING_INK = QColor(180, 0, 0)  # the ring round a named location's hex (areas layer)
LAYERS = ("grid", "labels", "hexsides", "paths", "features", "portions", "areas")
MAX_DETAIL_TILES = 400

class DetailItem(TiledItem):
    max_tiles = MAX_DETAIL_TILES

    def __init__(self, hmap: HexMap, system: GameSystem, layout: Layout, bounds: QRectF) -> None:
        super().__init__(bounds)
        self.hmap = hmap
        self.system = system
        self.layout = layout
        self.visible_layers: dict[str, bool] = {name: True for name in LAYERS}
        self.layer_opacity: dict[str, float] = {name: 1.0 for name in LAYERS}
        self.index = DetailIndex(hmap)
        self._pens: dict[tuple[str, str], tuple[QPen, str, float]] = {}
        self._labels: dict[Hex, str] = {}
        # Hex numbers and feature names, times their usual size (Edit ▸ Preferences ▸ Label font size).
        self.label_scale = 1.0
        self.labels = FeatureLabels(hmap, system, layout, bounds)
        self._under_symbols: set[Hex] | None = None

    def set_layer_visible(self, name: str, on: bool) -> None:
        self.visible_layers[name] = on
        self.clear_tiles()

    def set_layer_opacity(self, name: str, value: float) -> None:
        """One layer's opacity (0–1); baked into the cached tiles, so they are redrawn."""
        self.layer_opacity[name] = max(0.0, min(1.0, value))
        self.clear_tiles()

    def reset(self) -> None:
        """The map was replaced: forget every cached drawing."""
        self._pens.clear()
        self._labels.clear()
        self.labels = FeatureLabels(self.hmap, self.system, self.layout, self._bounds)
        self.labels.scale = self.label_scale
        self._under_symbols = None
        self.clear_tiles()

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

    def repaint_hexes(self, hexes: Iterable[Hex]) -> None:
        """Drop the cached tiles around these hexes and repaint that area only."""
        s = self.layout.size * 1.6  # names and tick marks reach a little beyond the hex
        dirty = QRectF()
        for h in hexes:
            cx, cy = self.layout.center(h)
            r = QRectF(cx - s, cy - s, 2 * s, 2 * s)
            dirty = r if dirty.isNull() else dirty.united(r)
        if dirty.isNull():
            return
        self.drop_tiles(dirty)
        self.update(dirty)

    def relayout_labels(self) -> None:
        """The features or their names changed: lay the names out again and repaint where a
        name appeared, moved or went (one edit can move a lower-priority name elsewhere)."""
        before = set(self.labels.result.placed)
        self.labels.invalidate()
        after = set(self.labels.result.placed)
        for p in before ^ after:
            self.repaint_rect(QRectF(p.rect.x, p.rect.y, p.rect.w, p.rect.h).adjusted(-1, -1, 1, 1))

    def repaint_rect(self, r: QRectF) -> None:
        self.drop_tiles(r)
        self.update(r)

    def _offset_range(self, rect: QRectF) -> tuple[int, int, int, int]:
        spec = self.hmap.spec
        corners = [self.layout.hex_at(p.x(), p.y()) for p in (rect.topLeft(), rect.topRight(),
                                                               rect.bottomLeft(), rect.bottomRight())]
        offs = [spec.offset(h) for h in corners]
        return (min(o[0] for o in offs) - 1, min(o[1] for o in offs) - 1,
                max(o[0] for o in offs) + 1, max(o[1] for o in offs) + 1)

    # --- tiles ----------------------------------------------------------------------------------

    def variant_for(self, scale: float) -> int | None:
        """Zoom band from the *actual* on-screen hex size, so thresholds are exactly those
        of direct drawing: bit 0 feature names, bit 1 printed labels."""
        hex_px = self.layout.size * scale
        if hex_px < MIN_DETAIL_PX:
            return None
        return (1 if hex_px >= NAME_MIN_PX else 0) | (2 if hex_px >= LABEL_MIN_PX else 0)

    def variants(self) -> tuple[int, ...]:
        return (0, 1, 2, 3)

    def render_tile(self, key: TileKey) -> QImage:
        ppu, variant, tx, ty = key
        span = TILE / ppu
        img = QImage(TILE, TILE, QImage.Format.Format_ARGB32_Premultiplied)
        img.fill(0)
        painter = QPainter(img)
        painter.scale(ppu, ppu)
        painter.translate(-tx * span, -ty * span)
        rect = QRectF(tx * span, ty * span, span, span)
        painter.setClipRect(rect)
        self.draw(painter, rect, self.layout.size * ppu, names=bool(variant & 1), labels=bool(variant & 2))
        painter.end()
        return img

    def paint_direct(self, painter: QPainter, rect: QRectF, scale: float) -> bool:
        hex_px = self.layout.size * scale
        if hex_px >= MIN_DETAIL_PX:
            self.draw(painter, rect, hex_px, names=hex_px >= NAME_MIN_PX, labels=hex_px >= LABEL_MIN_PX)
        return True

    # --- drawing --------------------------------------------------------------------------------

    def _layer(self, painter: QPainter, name: str) -> bool:
        """Whether to draw this layer; sets its opacity on the painter."""
        if not self.visible_layers[name] or self.layer_opacity[name] <= 0.0:
            return False
        painter.setOpacity(self.layer_opacity[name])
        return True

    def draw(self, painter: QPainter, rect: QRectF, hex_px: float, names: bool, labels: bool) -> None:
        """Every visible detail layer inside ``rect`` (scene units), each with its opacity."""
        lay = self.layout
        margin = lay.size * 1.5
        area = rect.adjusted(-margin, -margin, margin, margin)
        buckets = self.index.buckets(*self._offset_range(rect))
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, hex_px > 8)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)

        def near(h: Hex) -> bool:
            x, y = lay.center(h)
            return area.contains(x, y)

        if self._layer(painter, "areas"):
            self._paint_areas(painter, buckets, near)
        if self._layer(painter, "portions"):
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(PORTION_GREY)
            for b in buckets:
                for p in self.index.portions.get(b, ()):
                    if near(p.hex):
                        painter.drawPolygon(portion_polygon(lay, p, self.hmap.grid.orientation))
        if self._layer(painter, "paths"):
            self._paint_paths(painter, buckets)
        if self._layer(painter, "hexsides"):
            self._paint_hexsides(painter, buckets, near)
        if self._layer(painter, "features"):
            self._paint_features(painter, buckets, near, names, rect)
        if labels and self._layer(painter, "labels"):
            self._paint_labels(painter, rect)
        painter.setOpacity(1.0)

    def under_symbols(self) -> set[Hex]:
        """Hexes whose printed number a hexside symbol (crest ticks, a river's lines), a path or
        a named location's ring can run through: a hex with a feature on a side near its number
        (the upper sides), the lower hex of each path segment that climbs out of it, and each
        hex whose number's box (at the Label font size) meets a ring's stroke: the ringed hex
        itself (the ring's top crosses its number) and, at a large font size, a neighbour."""
        if self._under_symbols is None:
            lay = self.layout
            reach = lay.size * 0.85  # from the number's centre to a side's midpoint that can touch it
            hexes: set[Hex] = set()
            for key in self.hmap.hexside_index:
                mid = hexside_line(lay, key).center()
                for h in key.hexes():
                    cx, cy = lay.center(h)
                    if math.hypot(mid.x() - cx, mid.y() - (cy - lay.size * 0.65)) < reach:
                        hexes.add(h)
            for path in self.hmap.paths:
                for a, b in zip(path.hexes, path.hexes[1:]):
                    (_, ay), (_, by) = lay.center(a), lay.center(b)
                    # A segment leaves the lower hex upwards, through where its number is printed.
                    if abs(ay - by) > lay.size * 0.3:
                        hexes.add(a if ay > by else b)
            hexes |= self.under_rings()
            self._under_symbols = hexes
        return self._under_symbols

    def under_rings(self) -> set[Hex]:
        """The hexes whose printed number (glyphs and plate) a location's ring crosses. A ring
        reaches 0.74 hex sizes from its centre and a number's box lies within its hex's column,
        so only the ringed hex and its six neighbours can meet it."""
        lay, hmap = self.layout, self.hmap
        font = QFont()
        font.setPixelSize(max(1, int(lay.size * NUMBER_PX * self.label_scale)))
        fm = QFontMetricsF(font)
        out: set[Hex] = set()
        for loc in hmap.locations:
            for centre in loc.all_hexes():
                ring = location_ring(lay, centre)
                for h in centre.range(1):
                    if h in out or not hmap.contains(h):
                        continue
                    text = hmap.label(h)
                    box = number_rect(lay, h, text, fm, self.label_scale).united(
                        number_plate(lay, h, text, fm, self.label_scale))
                    if ring.overlaps(Rect(box.x(), box.y(), box.width(), box.height())):
                        out.add(h)
        return out

    def symbols_changed(self) -> None:
        self._under_symbols = None

    def _paint_labels(self, painter: QPainter, rect: QRectF) -> None:
        """Printed hex numbers, drawn after (over) every symbol. Where a hexside symbol or a path
        can run through the number, a pale plate is laid under the number first, so the symbol
        reads as drawn below it and the number stays legible (issue #21: crest ticks and river
        lines covered the numbers, and a named location's ring crossed its hex's number)."""
        lay = self.layout
        labels = self._labels
        font = QFont()
        font.setPixelSize(max(1, int(lay.size * NUMBER_PX * self.label_scale)))
        painter.setFont(font)
        fm = QFontMetricsF(font)
        align = Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop
        w, top, hgt = 2 * lay.size, lay.size * 0.85, number_height(lay, self.label_scale)
        under = self.under_symbols()
        for h in self.visible_hexes(rect):
            text = labels.get(h)
            if text is None:
                # Cached: labels depend only on the grid, which a new document replaces.
                text = labels[h] = self.hmap.label(h) if self.hmap.contains(h) else ""
            if text:
                cx, cy = lay.center(h)
                if h in under:
                    painter.fillRect(number_plate(lay, h, text, fm, self.label_scale), NUMBER_PLATE)
                painter.setPen(NUMBER_INK)
                painter.drawText(QRectF(cx - lay.size, cy - top, w, hgt), align, text)

    def _pen_for_hexside(self, kind: str) -> tuple[QPen, str, float]:
        cached = self._pens.get(("side", kind))
        if cached is None:
            t = self.system.hexside_by_id.get(kind)
            width = (t.width if t else 0.12) * self.layout.size
            style = t.style if t else "line"
            pen = QPen(QColor(t.color if t else "#ff00ff"), width,
                       Qt.PenStyle.DashLine if style == "dashed" else Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap)
            cached = (pen, style, width)
            self._pens[("side", kind)] = cached
        return cached

    def _paint_hexsides(self, painter: QPainter, buckets: list[tuple[int, int]], near: object) -> None:
        index = self.hmap.hexside_index
        for b in buckets:
            for key in self.index.hexsides.get(b, ()):
                if not near(key.hex):  # type: ignore[operator]
                    continue
                for kind in index.get(key, ()):
                    pen, style, width = self._pen_for_hexside(kind)
                    painter.setPen(pen)
                    line = hexside_line(self.layout, key)
                    if style == "double":
                        n = line.normalVector().unitVector()
                        off = QPointF(n.dx(), n.dy()) * width
                        painter.drawLine(line.translated(off))
                        painter.drawLine(line.translated(-off))
                    else:
                        painter.drawLine(line)
                    if style == "ticks":
                        # Crest-style tick toward the hex the side is keyed on.
                        mid = line.center()
                        v = center(self.layout, key.hex) - mid
                        length = math.hypot(v.x(), v.y()) or 1.0
                        painter.drawLine(QLineF(mid, mid + v * (0.25 * self.layout.size / length)))

    def _paint_paths(self, painter: QPainter, buckets: list[tuple[int, int]]) -> None:
        seen: set[int] = set()
        types = self.system.path_by_id
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for b in buckets:
            for p in self.index.paths.get(b, ()):
                if id(p) in seen:
                    continue
                seen.add(id(p))
                t = types.get(p.type)
                width = (t.width if t else 0.1) * self.layout.size
                pen = QPen(QColor(t.color if t else "#ff00ff"), width,
                           Qt.PenStyle.DashLine if (t and t.dash) else Qt.PenStyle.SolidLine,
                           Qt.PenCapStyle.RoundCap, Qt.PenJoinStyle.RoundJoin)
                painter.setPen(pen)
                painter.drawPolyline(polyline(self.layout, p.hexes))

    def _paint_features(self, painter: QPainter, buckets: list[tuple[int, int]], near: object, names: bool,
                        rect: QRectF) -> None:
        types = self.system.feature_by_id
        r = self.layout.size * SYMBOL_R
        for b in buckets:
            for f in self.index.features.get(b, ()):
                if not near(f.hex):  # type: ignore[operator]
                    continue
                t = types.get(f.type)
                symbol = t.symbol if t else "dot"
                color = QColor(t.color if t else "#ff00ff")
                c = center(self.layout, f.hex)
                painter.setPen(QPen(color, self.layout.size * SYMBOL_PEN))
                painter.setBrush(Qt.BrushStyle.NoBrush if symbol == "hill" else QBrush(color))
                painter.drawPath(symbol_path(symbol, r).translated(c))
        if not names:
            return
        # Names from the map's label layout (policy label-layout): each drawn whole or elided
        # where it was placed, by every tile it reaches into, so none is cut at a tile's edge.
        painter.setPen(QColor(0, 0, 0))
        flags = Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextDontClip
        for p in self.labels.placed_in(rect):
            painter.setFont(self.labels.font(p))
            painter.drawText(QRectF(p.rect.x, p.rect.y, p.rect.w, p.rect.h), flags, p.text)

    def _paint_areas(self, painter: QPainter, buckets: list[tuple[int, int]], near: object) -> None:
        painter.setPen(Qt.PenStyle.NoPen)
        for b in buckets:
            for i, h in self.index.areas.get(b, ()):
                if near(h):  # type: ignore[operator]
                    painter.setBrush(QColor.fromHsv((i * 67) % 360, 160, 220, 60))
                    painter.drawPolygon(hex_polygon(self.layout, h))
        pen = QPen(RING_INK, self.layout.size * RING_PEN)
        for b in buckets:
            for h in self.index.locations.get(b, ()):
                if near(h):  # type: ignore[operator]
                    painter.setPen(pen)
                    painter.setBrush(Qt.BrushStyle.NoBrush)
                    painter.drawEllipse(center(self.layout, h), self.layout.size * RING_R, self.layout.size * RING_R)

