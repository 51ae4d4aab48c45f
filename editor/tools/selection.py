"""Rectangle and lasso selection of hexes, with copy / paste / move of their terrain.

The selection is view state (a set of hexes) shown as an outline item; copy keeps terrain
relative to an anchor hex, paste pushes PasteTerrain at a target hex, and move pushes
MoveTerrain (vacated hexes get the fill terrain).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QMouseEvent, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsPathItem

from editor.commands import MoveTerrain, PasteTerrain
from editor.qt_geometry import hex_polygon
from editor.tools.base import BaseTool, doc_of, hex_at
from model.hexes import Hex

if TYPE_CHECKING:
    from editor.document import MapDocument
    from editor.map_view.view import MapView


class SelectionTool(BaseTool):
    name = "select"

    def __init__(self, mode: str = "rect") -> None:
        self.mode = mode  # "rect" | "lasso"
        self.selected: set[Hex] = set()
        self.clipboard: dict[Hex, str] = {}
        self._points: list[QPointF] = []
        self._item: QGraphicsPathItem | None = None
        self._view: "MapView | None" = None

    # --- mouse -------------------------------------------------------------------------------

    def press(self, view: "MapView", pos: QPointF, event: QMouseEvent) -> None:
        self._view = view
        self._points = [pos]

    def move(self, view: "MapView", pos: QPointF, event: QMouseEvent) -> None:
        self._points.append(pos)

    def release(self, view: "MapView", pos: QPointF, event: QMouseEvent) -> None:
        self._points.append(pos)
        if self.mode == "lasso" and len(self._points) >= 3:
            shape = QPolygonF(self._points)
        else:
            shape = QPolygonF(QRectF(self._points[0], pos).normalized())
        self.select_in(view, shape, extend=bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier))
        self._points = []

    # --- selection -----------------------------------------------------------------------------

    def select_in(self, view: "MapView", shape: QPolygonF, extend: bool = False) -> None:
        self._view = view
        doc = doc_of(view)
        lay = view.map_scene.layout
        box = shape.boundingRect()
        hits = set()
        for h in view.map_scene.details.visible_hexes(box) if view.map_scene.details else []:
            if doc.hmap.contains(h) and shape.containsPoint(QPointF(*lay.center(h)), Qt.FillRule.OddEvenFill):
                hits.add(h)
        self.selected = (self.selected | hits) if extend else hits
        self._show(view)

    def select_all(self, view: "MapView") -> None:
        self._view = view
        self.selected = set(doc_of(view).hmap.hexes())
        self._show(view)

    def _show(self, view: "MapView") -> None:
        path = QPainterPath()
        for h in self.selected:
            path.addPolygon(hex_polygon(view.map_scene.layout, h))
        if self._item is None or self._item.scene() is not view.map_scene:
            self._item = QGraphicsPathItem()
            self._item.setZValue(20)
            self._item.setPen(QPen(QColor(0, 90, 255), 0))
            self._item.setBrush(QColor(0, 90, 255, 50))
            view.map_scene.addItem(self._item)
        self._item.setPath(path)

    # --- clipboard ------------------------------------------------------------------------------

    def copy(self, doc: "MapDocument") -> dict[Hex, str]:
        if not self.selected:
            return {}
        anchor = min(self.selected)
        self.clipboard = {h - anchor: t for h in self.selected if (t := doc.hmap.terrain_at(h)) is not None}
        return self.clipboard

    def paste(self, doc: "MapDocument", at: Hex) -> None:
        changes = {at + d: t for d, t in self.clipboard.items() if doc.hmap.contains(at + d)}
        if changes:
            doc.push(PasteTerrain(doc, changes))

    def cut(self, doc: "MapDocument", fill: str) -> None:
        self.copy(doc)
        if self.selected:
            doc.push(PasteTerrain(doc, {h: fill for h in self.selected}))

    def move_by(self, doc: "MapDocument", delta: Hex, fill: str) -> None:
        if self.selected:
            doc.push(MoveTerrain(doc, sorted(self.selected), delta, fill))
            self.selected = {h + delta for h in self.selected if doc.hmap.contains(h + delta)}
            if self._view is not None:
                self._show(self._view)
