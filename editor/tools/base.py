"""Shared tool helpers: hex and nearest hexside under a scene point."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF
from PySide6.QtGui import QMouseEvent

from model.base import HexsideKey, hexside_key
from model.hexes import Hex

if TYPE_CHECKING:
    from editor.document import MapDocument
    from editor.map_view.view import MapView


class BaseTool:
    """No-op tool; subclasses override press/move/release."""

    name = "tool"

    def press(self, view: "MapView", pos: QPointF, event: QMouseEvent) -> None:
        pass

    def move(self, view: "MapView", pos: QPointF, event: QMouseEvent) -> None:
        pass

    def release(self, view: "MapView", pos: QPointF, event: QMouseEvent) -> None:
        pass


def doc_of(view: "MapView") -> "MapDocument":
    return view.map_scene.doc


def hex_at(view: "MapView", pos: QPointF) -> Hex:
    return view.map_scene.layout.hex_at(pos.x(), pos.y())


def nearest_direction(view: "MapView", pos: QPointF) -> tuple[Hex, int]:
    """The hex under ``pos`` and the direction of its side closest to ``pos``."""
    lay = view.map_scene.layout
    h = lay.hex_at(pos.x(), pos.y())
    cx, cy = lay.center(h)
    vx, vy = pos.x() - cx, pos.y() - cy
    best, best_dot = 0, float("-inf")
    for d in range(6):
        nx, ny = lay.center(h.neighbor(d))
        dot = vx * (nx - cx) + vy * (ny - cy)
        if dot > best_dot:
            best, best_dot = d, dot
    return h, best


def nearest_hexside(view: "MapView", pos: QPointF) -> HexsideKey:
    h, d = nearest_direction(view, pos)
    return hexside_key(h, d)
