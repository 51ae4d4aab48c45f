"""Shared command plumbing: merge ids (one enum, as in Tiled's undocommands.h) and a base."""

from __future__ import annotations

import re
from enum import IntEnum
from typing import TYPE_CHECKING

from PySide6.QtGui import QUndoCommand

from model.changes import Change
from model.mapdata import HexMap

if TYPE_CHECKING:
    from editor.document import MapDocument


def type_name(doc: "MapDocument", table: str, type_id: str) -> str:
    """The system's display name of a hexside, path, feature or terrain type (``table``:
    "hexsides", "paths", "features", "terrain"), for undo texts ("Set Crest Hexside", not
    "Set crest Hexside"); the id itself when the system does not list it."""
    for t in getattr(doc.system, table, ()):
        if t.id == type_id:
            return str(t.name)
    return type_id


def title_words(text: str) -> str:
    """``"HexMap"``/``"move_class"`` → ``"Hex Map"``/``"Move Class"``: a noun for an undo text."""
    spaced = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", text).replace("_", " ")
    return " ".join(w[:1].upper() + w[1:] for w in spaced.split())


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
