"""Picker: click a hex to make its terrain the brush terrain (calls ``on_pick``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF
from PySide6.QtGui import QMouseEvent

from editor.tools.base import BaseTool, doc_of, hex_at

if TYPE_CHECKING:
    from editor.map_view.view import MapView


class Picker(BaseTool):
    name = "picker"

    def __init__(self, on_pick: Callable[[str], None]) -> None:
        self.on_pick = on_pick

    def press(self, view: "MapView", pos: QPointF, event: QMouseEvent) -> None:
        terrain = doc_of(view).hmap.terrain_at(hex_at(view, pos))
        if terrain is not None:
            self.on_pick(terrain)
