"""Hexside painter: click near a hexside or drag along hexsides to set a feature type;
right button clears it. A drag is one undo step (a macro)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QMouseEvent

from editor.commands import ClearHexsideFeature, SetHexsideFeature
from editor.tools.base import BaseTool, doc_of, nearest_hexside
from model.base import HexsideKey

if TYPE_CHECKING:
    from editor.map_view.view import MapView


class HexsidePainter(BaseTool):
    name = "hexside"

    def __init__(self, kind: str = "river") -> None:
        self.kind = kind
        self._active = False
        self._clear = False
        self._done: set[HexsideKey] = set()

    def _apply(self, view: "MapView", pos: QPointF) -> None:
        doc = doc_of(view)
        key = nearest_hexside(view, pos)
        if key in self._done:
            return
        self._done.add(key)
        present = self.kind in doc.hmap.hexside_features(key)
        if self._clear and present:
            doc.push(ClearHexsideFeature(doc, key, self.kind))
        elif not self._clear and not present:
            doc.push(SetHexsideFeature(doc, key, self.kind))

    def press(self, view: "MapView", pos: QPointF, event: QMouseEvent) -> None:
        self._active = True
        self._clear = event.button() == Qt.MouseButton.RightButton
        self._done = set()
        doc_of(view).undo_stack.beginMacro(("Clear " if self._clear else "Set ") + f"{self.kind} Hexsides")
        self._apply(view, pos)

    def move(self, view: "MapView", pos: QPointF, event: QMouseEvent) -> None:
        if self._active:
            self._apply(view, pos)

    def release(self, view: "MapView", pos: QPointF, event: QMouseEvent) -> None:
        if self._active:
            self._active = False
            doc_of(view).undo_stack.endMacro()
