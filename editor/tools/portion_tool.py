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
