"""ScenarioLayer: the scenario drawn over the map — stacks with counts, "in or adjacent to"
setup areas, drop zones (distinct outlines where they overlap), beach overlays (hexes,
landing hexes, gap-hexside arrows), named locations, a highlighted hex, and the LOS tool's
line, viewshed and range rings.

One QGraphicsItem above the map layers. It holds no state of its own beyond a paint cache:
what is highlighted, chosen and shown is the :class:`ScenarioSelection`'s, and every paint reads
the selection's resolved scenario. Scenario mode repaints it when either changes.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from editor.export.counter_art import fit_text
from editor.map_view.scene import MapScene
from editor.qt_geometry import hex_polygon
from model import scenario_edits as se
from model.base import HexsideKey
from model.hexes import Hex
from model.layout import Layout

if TYPE_CHECKING:
    from editor.document import MapDocument
    from editor.scenario.selection import ScenarioSelection

ZONE_COLOURS = ["#e53935", "#1e88e5", "#43a047", "#8e24aa", "#fb8c00", "#00897b", "#6d4c41", "#3949ab",
                "#c0ca33", "#d81b60", "#00acc1", "#5e35b1"]
AREA_FILL = QColor(255, 235, 59, 90)
STACK_TEXT_PX = 9  # a stack's top counter's name: largest type (scene units) …
STACK_TEXT_FLOOR = 5  # … and the floor below which it is elided
HIGHLIGHT = QColor(255, 0, 160)
VISIBLE_FILL = QColor(46, 204, 113, 80)


class ScenarioLayer(QGraphicsItem):
    def __init__(self, document: "MapDocument", selection: "ScenarioSelection", bounds: QRectF) -> None:
        super().__init__()
        self.document, self.selection = document, selection
        self._bounds = QRectF(bounds)
        self.setZValue(15)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self._vs_path = QPainterPath()
        self._vs_key: tuple[int, int, Hex | None] | None = None
        self.show_zones = True
        self.show_areas = True
        self._font = QFont()
        self._font.setPixelSize(9)
        self._font.setBold(True)

    def boundingRect(self) -> QRectF:
        return self._bounds

    @property
    def layout(self) -> Layout:
        # The scene's, read at paint time: switching the current map gives the scene a new layout.
        scene = self.scene()
        assert isinstance(scene, MapScene)
        return scene.layout

    def _poly(self, h: Hex) -> QPolygonF:
        return hex_polygon(self.layout, h)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        sel = self.selection
        scen = sel.resolved()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        exposed = option.exposedRect  # type: ignore[attr-defined]
        if sel.viewshed:
            # One cached path for the whole viewshed, filled without antialiasing: a path per
            # hex (or AA on shared edges) made the overlay cost more than the viewshed itself.
            painter.save()
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
            painter.fillPath(self._viewshed_path(), VISIBLE_FILL)
            painter.restore()
        if sel.heat is not None:  # an analysis / LOS-coverage heatmap (editor/analysis/)
            from editor.analysis.heat import paint_heat

            paint_heat(painter, self.layout, sel.heat.counts, sel.heat.vmax)
        if scen is not None:
            if self.show_areas:
                painter.setPen(Qt.PenStyle.NoPen)
                painter.setBrush(AREA_FILL)
                for h in se.setup_area_hexes(scen, self.document.hmap):
                    painter.drawPolygon(self._poly(h))
            self._paint_overlays(painter, scen)
            if self.show_zones:
                self._paint_zones(painter, scen)
            self._paint_locations(painter, scen)
            self._paint_stacks(painter, scen, exposed)
        for h in sel.zone_preview:
            painter.setPen(QPen(HIGHLIGHT, 2, Qt.PenStyle.DashLine))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawPolygon(self._poly(h))
        self._paint_rings(painter)
        self._paint_los(painter)
        for h in sel.highlight:
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.setPen(QPen(HIGHLIGHT, 4))
            painter.drawPolygon(self._poly(h))

    def _viewshed_path(self) -> QPainterPath:
        sel = self.selection
        key = (id(sel.viewshed), len(sel.viewshed), sel.viewshed_origin)
        if self._vs_key != key:
            path = QPainterPath()
            path.setFillRule(Qt.FillRule.WindingFill)
            for h in sel.viewshed:
                path.addPolygon(self._poly(h))
            self._vs_path, self._vs_key = path, key
        return self._vs_path

    def _paint_zones(self, painter: QPainter, scen: object) -> None:
        # Each zone gets its colour and an inset that grows with its index, so zones sharing
        # hexes (LZ E over DZ C) show every outline instead of one hiding another.
        counts: dict[Hex, int] = {}
        for i, z in enumerate(scen.drop_zones):  # type: ignore[attr-defined]
            col = QColor(ZONE_COLOURS[i % len(ZONE_COLOURS)])
            width = 3.5 if z.id == self.selection.zone else 1.8
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.setPen(QPen(col, width, Qt.PenStyle.SolidLine if z.kind == "dz" else Qt.PenStyle.DashLine))
            for h in z.hexes:
                k = counts.get(h, 0)
                counts[h] = k + 1
                cx, cy = self.layout.center(h)
                poly = self._poly(h)
                s = max(0.55, 1.0 - 0.14 * k)
                painter.drawPolygon(QPolygonF([QPointF(cx + (p.x() - cx) * s, cy + (p.y() - cy) * s) for p in poly]))

    def _paint_overlays(self, painter: QPainter, scen: object) -> None:
        for ov in scen.beach_overlays:  # type: ignore[attr-defined]
            if not ov.visible or not self.selection.overlay_shown.get(ov.id, True):
                continue
            painter.setPen(QPen(QColor("#0277bd"), 1))
            painter.setBrush(QColor(3, 169, 244, 60))
            for h in ov.hexes:
                painter.drawPolygon(self._poly(h))
            for sb in ov.sub_beaches:
                painter.setBrush(QColor(255, 193, 7, 70))
                for h in sb.hexes:
                    painter.drawPolygon(self._poly(h))
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.setPen(QPen(QColor("#2e7d32"), 2, Qt.PenStyle.DotLine))
                for h in sb.landing.planned:
                    painter.drawPolygon(self._poly(h))
                painter.setPen(QPen(QColor("#1b5e20"), 2.5))
                for h in sb.landing.actual:
                    painter.drawPolygon(self._poly(h))
            painter.setPen(QPen(QColor("#6a1b9a"), 2))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            for h in ov.reinforcement_hexes:
                painter.drawEllipse(QPointF(*self.layout.center(h)), 6, 6)
            for key in ov.gap_hexsides:
                self._arrow(painter, key)

    def _arrow(self, painter: QPainter, key: HexsideKey) -> None:
        """A gap hexside: an arrow across the side, from the hex towards its neighbour."""
        a = QPointF(*self.layout.center(key.hex))
        b = QPointF(*self.layout.center(key.hex.neighbor(key.direction)))
        mid = (a + b) / 2
        d = b - a
        n = math.hypot(d.x(), d.y()) or 1.0
        ux, uy = d.x() / n, d.y() / n
        tail, tip = mid - QPointF(ux, uy) * n * 0.3, mid + QPointF(ux, uy) * n * 0.3
        painter.setPen(QPen(QColor("#d50000"), 2.5))
        painter.drawLine(tail, tip)
        head = QPolygonF([tip, tip - QPointF(ux * 7 - uy * 4, uy * 7 + ux * 4), tip - QPointF(ux * 7 + uy * 4, uy * 7 - ux * 4)])
        painter.setBrush(QColor("#d50000"))
        painter.drawPolygon(head)

    def _paint_locations(self, painter: QPainter, scen: object) -> None:
        painter.setFont(self._font)
        for loc in scen.locations:  # type: ignore[attr-defined]
            for h in loc.all_hexes():
                cx, cy = self.layout.center(h)
                painter.setPen(QPen(QColor("#4a148c"), 1.5))
                painter.setBrush(QColor(206, 147, 216, 160))
                painter.drawRect(QRectF(cx - 5, cy - 14, 10, 10))
                painter.setPen(QColor("#311b92"))
                painter.drawText(QPointF(cx + 7, cy - 6), loc.label or loc.name)

    def _paint_stacks(self, painter: QPainter, scen: object, exposed: QRectF) -> None:
        counters = self.document.bundle.counter_index()
        size = self.layout.size * 0.95 if hasattr(self.layout, "size") else 18.0
        size = float(size if isinstance(size, (int, float)) else 18.0)
        from editor.scenario.counter_preview import side_colours

        for h, units in se.stacks(scen).items():  # type: ignore[arg-type]
            cx, cy = self.layout.center(h)
            if not exposed.adjusted(-40, -40, 40, 40).contains(QPointF(cx, cy)):
                continue
            top = counters.get(units[0])
            bg, fg = side_colours(top, self.document.system) if top is not None else (QColor("#bbbbbb"), QColor("#000"))
            r = QRectF(cx - size / 2, cy - size / 2, size, size)
            for k in range(min(len(units), 3) - 1, -1, -1):  # stack depth shown as offset shadows
                painter.setPen(QPen(QColor("#202020"), 1))
                painter.setBrush(bg.darker(100 + 25 * k))
                painter.drawRect(r.translated(2.5 * k, -2.5 * k))
            painter.setPen(fg)
            label = (top.front.designation or top.name) if top is not None else units[0]
            # Shrink to the floor, then elide: never clipped at the counter's edge (a TKG id).
            box = r.adjusted(1, 1, -1, -1)
            fit = fit_text(label, box, STACK_TEXT_PX, bold=True, floor=STACK_TEXT_FLOOR, elide=True)
            painter.setFont(fit.font)
            painter.drawText(box, Qt.AlignmentFlag.AlignCenter | fit.flag, fit.text)
            painter.setFont(self._font)
            if len(units) > 1:
                painter.setBrush(QColor("#212121"))
                painter.setPen(Qt.PenStyle.NoPen)
                badge = QRectF(r.right() - 6, r.top() - 9, 13, 13)
                painter.drawEllipse(badge)
                painter.setPen(QColor("#ffffff"))
                painter.drawText(badge, Qt.AlignmentFlag.AlignCenter, str(len(units)))

    def _paint_rings(self, painter: QPainter) -> None:
        origin = self.selection.viewshed_origin
        if origin is None:
            return
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for radius in self.selection.rings:
            painter.setPen(QPen(QColor(0, 0, 0, 140), 1.5, Qt.PenStyle.DashLine))
            path = QPainterPath()
            for h in origin.ring(radius):
                path.addPolygon(self._poly(h))
            painter.drawPath(path)

    def _paint_los(self, painter: QPainter) -> None:
        if self.selection.los is None:
            return
        a, b, visible = self.selection.los
        col = QColor("#00c853") if visible else QColor("#d50000")
        painter.setPen(QPen(col, 3.5, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
        pa, pb = QPointF(*self.layout.center(a)), QPointF(*self.layout.center(b))
        painter.drawLine(pa, pb)
        painter.setBrush(col)
        painter.drawEllipse(pa, 5, 5)
        painter.drawEllipse(pb, 5, 5)
