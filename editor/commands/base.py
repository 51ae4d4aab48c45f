"""Shared command plumbing: merge ids (one enum, as in Tiled's undocommands.h) and a base."""

from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING

from PySide6.QtGui import QUndoCommand

from model.changes import Change
from model.mapdata import HexMap

if TYPE_CHECKING:
    from editor.document import MapDocument


class MergeId(IntEnum):
    """Commands with the same id (and the same stroke/target) merge into one undo step."""

    PAINT_TERRAIN = 1
    CHANGE_PROPERTY = 2


class MapCommand(QUndoCommand):
    """A command editing one map of the document; remembers which map."""

    def __init__(self, doc: "MapDocument", text: str, map_id: str | None = None) -> None:
        super().__init__(text)
        self.doc = doc
        self.map_id = map_id or doc.map_id

    @property
    def hmap(self) -> HexMap:
        return self.doc.bundle.maps[self.map_id]

    def emit(self, change: Change) -> None:
        self.doc.notify(change)
