"""Point-feature tool: click places a feature (OP, strongpoint, hill, VP, town name);
right-click removes the last feature of that type in the hex."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QMouseEvent

from editor.commands import PlaceFeature, RemoveFeature
from editor.tools.base import BaseTool, doc_of, hex_at
from model.mapdata import Feature

if TYPE_CHECKING:
    from editor.map_view.view import MapView


class FeatureTool(BaseTool):
    name = "feature"

    def __init__(self, kind: str = "town", label: str | None = None) -> None:
        self.kind = kind
        self.label = label

    def press(self, view: "MapView", pos: QPointF, event: QMouseEvent) -> None:
        doc = doc_of(view)
        h = hex_at(view, pos)
        if not doc.hmap.contains(h):
            return
        if event.button() == Qt.MouseButton.RightButton:
            hits = [i for i, f in enumerate(doc.hmap.features) if f.hex == h and f.type == self.kind]
            if hits:
                doc.push(RemoveFeature(doc, hits[-1]))
            return
        doc.push(PlaceFeature(doc, Feature(type=self.kind, hex=h, name=self.label or None)))
