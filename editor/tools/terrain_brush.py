"""Terrain brush: paint one hex or a radius while dragging (one undo step per stroke), or
flood-fill the connected region of the clicked hex's terrain."""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF
from PySide6.QtGui import QMouseEvent

from editor.commands import PaintTerrain
from editor.tools.base import BaseTool, doc_of, hex_at
from model.hexes import Hex
from model.mapdata import HexMap

if TYPE_CHECKING:
    from editor.map_view.view import MapView

_strokes = itertools.count(1)


def flood_region(hmap: HexMap, start: Hex) -> set[Hex]:
    target = hmap.terrain_at(start)
    if target is None:
        return set()
    seen = {start}
    todo = [start]
    while todo:
        h = todo.pop()
        for n in h.neighbors():
            if n not in seen and hmap.terrain_at(n) == target:
                seen.add(n)
                todo.append(n)
    return seen


class TerrainBrush(BaseTool):
    name = "terrain"

    def __init__(self, terrain: str = "clear", radius: int = 0, mode: str = "brush") -> None:
        self.terrain = terrain
        self.radius = radius
        self.mode = mode  # "brush" | "fill"
        self._stroke: int | None = None
        self._last: Hex | None = None

    def _paint(self, view: "MapView", h: Hex) -> None:
        doc = doc_of(view)
        changes = {x: self.terrain for x in h.range(self.radius)
                   if doc.hmap.contains(x) and doc.hmap.terrain_at(x) != self.terrain}
        if changes:
            doc.push(PaintTerrain(doc, changes, stroke=self._stroke))

    def press(self, view: "MapView", pos: QPointF, event: QMouseEvent) -> None:
        h = hex_at(view, pos)
        doc = doc_of(view)
        if self.mode == "fill":
            region = flood_region(doc.hmap, h)
            if region and doc.hmap.terrain_at(h) != self.terrain:
                doc.push(PaintTerrain(doc, {x: self.terrain for x in region}))
            return
        self._stroke = next(_strokes)
        self._last = h
        self._paint(view, h)

    def move(self, view: "MapView", pos: QPointF, event: QMouseEvent) -> None:
        if self._stroke is None:
            return
        h = hex_at(view, pos)
        if h != self._last:
            # Fill the gap between fast mouse samples so strokes have no holes.
            for x in (self._last.line_to(h)[1:] if self._last else [h]):
                self._paint(view, x)
            self._last = h

    def release(self, view: "MapView", pos: QPointF, event: QMouseEvent) -> None:
        self._stroke = None
        self._last = None
