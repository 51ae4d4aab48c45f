"""Path tool: click hex to hex (gaps filled along the hex line); right-click or finish()
adds the path with the chosen class (road, railroad, raised road…)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QMouseEvent

from editor.commands import AddPath
from editor.tools.base import BaseTool, doc_of, hex_at
from model.hexes import Hex
from model.mapdata import MapPath

if TYPE_CHECKING:
    from editor.map_view.view import MapView


class PathTool(BaseTool):
    name = "path"

    def __init__(self, kind: str = "road") -> None:
        self.kind = kind
        self.pending: list[Hex] = []
        self._view: "MapView | None" = None

    def press(self, view: "MapView", pos: QPointF, event: QMouseEvent) -> None:
        self._view = view
        if event.button() == Qt.MouseButton.RightButton:
            self.finish()
            return
        h = hex_at(view, pos)
        if not doc_of(view).hmap.contains(h):
            return
        if self.pending and h != self.pending[-1]:
            self.pending.extend(self.pending[-1].line_to(h)[1:])
        elif not self.pending:
            self.pending.append(h)

    def finish(self) -> None:
        view, hexes = self._view, self.pending
        self.pending = []
        if view is not None and len(hexes) >= 2:
            doc = doc_of(view)
            doc.push(AddPath(doc, MapPath(type=self.kind, hexes=hexes)))
