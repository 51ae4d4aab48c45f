"""Impassable-portion tools: click inside a hex near one side to grey the part of the hex
against that side (preset split, ``depth`` of the centre-to-side distance), right-click
clears the hex's portion; or draw a free polygon, and drag the corners of existing ones."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QMouseEvent

from editor.commands import ChangeProperty, ClearPortion, SetPortion
from editor.tools.base import BaseTool, doc_of, nearest_direction
from model.changes import PortionsChanged
from model.edits import PortionUndo, restore_portion, set_portion
from model.geometry import portion_local_polygon
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
    right-click closes it (three or more corners) as one SetPortion.

    Pressing on a corner of an existing portion drags that corner instead (edit point by
    point). The drag previews live and lands as one undo step on release: ChangeProperty of
    ``polygon`` for a polygon portion; a preset portion becomes the equivalent polygon with
    that corner moved (one SetPortion)."""

    name = "portion-polygon"
    GRAB_PX = 9.0  # how close (screen pixels) a press must be to a corner to grab it

    def __init__(self) -> None:
        self.hex: object = None
        self.points: list[tuple[float, float]] = []
        self.drag: _VertexDrag | None = None

    def press(self, view: "MapView", pos: QPointF, event: QMouseEvent) -> None:
        doc = doc_of(view)
        lay = view.map_scene.layout
        if event.button() == Qt.MouseButton.LeftButton and self.hex is None:
            grabbed = self._grab(view, pos)
            if grabbed is not None:
                self.drag = grabbed
                return
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

    def move(self, view: "MapView", pos: QPointF, event: QMouseEvent) -> None:
        if self.drag is not None:
            self.drag.move_to(view, pos)

    def release(self, view: "MapView", pos: QPointF, event: QMouseEvent) -> None:
        if self.drag is not None:
            self.drag.move_to(view, pos)
            self.drag.finish(view)
            self.drag = None

    def _grab(self, view: "MapView", pos: QPointF) -> "_VertexDrag | None":
        doc = doc_of(view)
        lay = view.map_scene.layout
        tol = self.GRAB_PX / max(view.zoom, 1e-6)
        here = lay.hex_at(pos.x(), pos.y())
        best: tuple[float, ImpassablePortion, int, list[tuple[float, float]]] | None = None
        for h in [here, *here.neighbors()]:
            portion = doc.hmap.portion_by_hex.get(h)
            if portion is None:
                continue
            corners = portion_corners(portion, doc.hmap.grid.orientation)
            cx, cy = lay.center(h)
            for i, (x, y) in enumerate(corners):
                d = math.hypot(cx + x * lay.size - pos.x(), cy + y * lay.size - pos.y())
                if d <= tol and (best is None or d < best[0]):
                    best = (d, portion, i, corners)
        if best is None:
            return None
        return _VertexDrag(best[1], best[2], best[3])


def portion_corners(portion: ImpassablePortion, orientation: str) -> list[tuple[float, float]]:
    """The editable corners (hex-local): the polygon's points, or the outline of a preset."""
    if portion.polygon is not None:
        return [(float(x), float(y)) for x, y in portion.polygon]
    ring = list(portion_local_polygon(portion, orientation).exterior.coords)[:-1]
    return [(round(x, 3), round(y, 3)) for x, y in ring]


class _VertexDrag:
    """One corner being dragged: a live preview through the pure edits, then one command."""

    def __init__(self, portion: ImpassablePortion, index: int, corners: list[tuple[float, float]]) -> None:
        self.original = portion
        self.index = index
        self.corners = list(corners)
        self.preview: PortionUndo | None = None

    def move_to(self, view: "MapView", pos: QPointF) -> None:
        doc = doc_of(view)
        lay = view.map_scene.layout
        cx, cy = lay.center(self.original.hex)
        self.corners[self.index] = (round((pos.x() - cx) / lay.size, 3), round((pos.y() - cy) / lay.size, 3))
        shown = ImpassablePortion(hex=self.original.hex, polygon=list(self.corners), rule=self.original.rule,
                                  illustrative=self.original.illustrative)
        # Preview without the undo stack: the original is put back before the real command.
        undo = set_portion(doc.hmap, shown)
        if self.preview is None:
            self.preview = undo
        doc.notify(PortionsChanged(doc.map_id, frozenset({self.original.hex})))

    def finish(self, view: "MapView") -> None:
        doc = doc_of(view)
        if self.preview is None:
            return
        restore_portion(doc.hmap, self.preview)
        event = PortionsChanged(doc.map_id, frozenset({self.original.hex}))
        if self.original.polygon is not None:
            if [tuple(p) for p in self.original.polygon] != self.corners:
                doc.push(ChangeProperty(doc, self.original, "polygon", list(self.corners), event=event))
            else:
                doc.notify(event)
        else:
            doc.push(SetPortion(doc, ImpassablePortion(hex=self.original.hex, polygon=list(self.corners),
                                                       rule=self.original.rule,
                                                       illustrative=self.original.illustrative)))
