"""Impassable-portion tool: click inside a hex near one side to grey the part of the hex
against that side (preset split, ``depth`` of the centre-to-side distance); right-click
clears the hex's portion."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QMouseEvent

from editor.commands import ClearPortion, SetPortion
from editor.tools.base import BaseTool, doc_of, nearest_direction
from model.hexes import DIRECTION_NAMES
from model.mapdata import ImpassablePortion

if TYPE_CHECKING:
    from editor.map_view.view import MapView


class PortionTool(BaseTool):
    name = "portion"

    def __init__(self, depth: float = 0.5) -> None:
        self.depth = depth

    def press(self, view: "MapView", pos: QPointF, event: QMouseEvent) -> None:
        doc = doc_of(view)
        h, d = nearest_direction(view, pos)
        if not doc.hmap.contains(h):
            return
        if event.button() == Qt.MouseButton.RightButton:
            if h in doc.hmap.portion_by_hex:
                doc.push(ClearPortion(doc, h))
            return
        side = DIRECTION_NAMES[doc.hmap.grid.orientation][d]
        doc.push(SetPortion(doc, ImpassablePortion(hex=h, preset=side, depth=self.depth)))


class PortionPolygonTool(BaseTool):
    """Draw a free portion polygon inside one hex: clicks add corners (hex-local units),
    right-click closes it (three or more corners) as one SetPortion."""

    name = "portion-polygon"

    def __init__(self) -> None:
        self.hex: object = None
        self.points: list[tuple[float, float]] = []

    def press(self, view: "MapView", pos: QPointF, event: QMouseEvent) -> None:
        doc = doc_of(view)
        lay = view.map_scene.layout
        if event.button() == Qt.MouseButton.RightButton:
            if self.hex is not None and len(self.points) >= 3:
                doc.push(SetPortion(doc, ImpassablePortion(hex=self.hex, polygon=list(self.points))))
            self.hex, self.points = None, []
            return
        h = lay.hex_at(pos.x(), pos.y()) if self.hex is None else self.hex
        if not doc.hmap.contains(h):  # type: ignore[arg-type]
            return
        self.hex = h
        cx, cy = lay.center(h)  # type: ignore[arg-type]
        self.points.append((round((pos.x() - cx) / lay.size, 3), round((pos.y() - cy) / lay.size, 3)))
