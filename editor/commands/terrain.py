"""Terrain commands: brush painting (strokes merge), paste and move of terrain blocks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QUndoCommand

from editor.commands.base import MapCommand, MergeId
from model.changes import TerrainChanged
from model.edits import TerrainUndo, restore_terrain, set_terrain
from model.hexes import Hex

if TYPE_CHECKING:
    from editor.document import MapDocument


class _TerrainCommand(MapCommand):
    def __init__(self, doc: "MapDocument", changes: dict[Hex, str], text: str) -> None:
        super().__init__(doc, text)
        self.changes = dict(changes)
        self._undo: TerrainUndo | None = None

    def redo(self) -> None:
        self._undo = set_terrain(self.hmap, self.changes, self.doc.system)
        self.emit(TerrainChanged(self.map_id, frozenset(self.changes)))

    def undo(self) -> None:
        assert self._undo is not None
        restore_terrain(self.hmap, self._undo)
        self.emit(TerrainChanged(self.map_id, frozenset(self.changes)))


class PaintTerrain(_TerrainCommand):
    """Paint terrain ids onto hexes. Commands sharing a ``stroke`` merge into one undo step."""

    def __init__(self, doc: "MapDocument", changes: dict[Hex, str], stroke: int | None = None) -> None:
        super().__init__(doc, changes, "Paint Terrain")
        self.stroke = stroke

    def id(self) -> int:
        return int(MergeId.PAINT_TERRAIN) if self.stroke is not None else -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, PaintTerrain) or other.stroke != self.stroke or other.map_id != self.map_id:
            return False
        assert self._undo is not None and other._undo is not None
        # Our old characters are the earliest; the other's fill in hexes we had not touched.
        self._undo = TerrainUndo({**other._undo.old_chars, **self._undo.old_chars}, self._undo.old_legend)
        self.changes.update(other.changes)
        return True


class PasteTerrain(_TerrainCommand):
    """Paste a block of terrain (hex → terrain id) at its target hexes."""

    def __init__(self, doc: "MapDocument", changes: dict[Hex, str]) -> None:
        super().__init__(doc, changes, "Paste Terrain")


class MoveTerrain(_TerrainCommand):
    """Move the terrain of ``hexes`` by ``delta``; vacated hexes get ``fill``."""

    def __init__(self, doc: "MapDocument", hexes: list[Hex], delta: Hex, fill: str) -> None:
        hmap = doc.bundle.maps[doc.map_id]
        moved = {h + delta: t for h in hexes if (t := hmap.terrain_at(h)) is not None}
        changes = {h: fill for h in hexes if h not in moved}
        changes.update(moved)
        super().__init__(doc, changes, "Move Terrain")
