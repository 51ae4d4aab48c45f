"""Eraser: removes the features, portion, paths through the hex and hexside features of the
clicked hex (terrain stays: paint it instead). One click is one undo step."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF
from PySide6.QtGui import QMouseEvent

from editor.commands import ClearHexsideFeature, ClearPortion, RemoveFeature, RemovePath
from editor.tools.base import BaseTool, doc_of, hex_at
from model.base import hexside_key

if TYPE_CHECKING:
    from editor.map_view.view import MapView


class Eraser(BaseTool):
    name = "eraser"

    def press(self, view: "MapView", pos: QPointF, event: QMouseEvent) -> None:
        doc = doc_of(view)
        hmap = doc.hmap
        h = hex_at(view, pos)
        stack = doc.undo_stack
        stack.beginMacro("Erase")
        for i in reversed([i for i, f in enumerate(hmap.features) if f.hex == h]):
            doc.push(RemoveFeature(doc, i))
        for i in reversed([i for i, p in enumerate(hmap.paths) if h in p.hexes]):
            doc.push(RemovePath(doc, i))
        if h in hmap.portion_by_hex:
            doc.push(ClearPortion(doc, h))
        for d in range(6):
            key = hexside_key(h, d)
            for kind in hmap.hexside_features(key):
                doc.push(ClearHexsideFeature(doc, key, kind))
        stack.endMacro()
