"""Impassable-portion commands (grey parts of hexes, Utah Excl 2.1)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from editor.commands.base import MapCommand
from model.changes import PortionsChanged
from model.edits import PortionUndo, clear_portion, restore_portion, set_portion
from model.hexes import Hex
from model.mapdata import ImpassablePortion

if TYPE_CHECKING:
    from editor.document import MapDocument


class SetPortion(MapCommand):
    def __init__(self, doc: "MapDocument", portion: ImpassablePortion) -> None:
        super().__init__(doc, "Set Impassable Portion")
        self.portion = portion
        self._undo: PortionUndo | None = None

    def redo(self) -> None:
        self._undo = set_portion(self.hmap, self.portion)
        self.emit(PortionsChanged(self.map_id, frozenset({self.portion.hex})))

    def undo(self) -> None:
        assert self._undo is not None
        restore_portion(self.hmap, self._undo)
        self.emit(PortionsChanged(self.map_id, frozenset({self.portion.hex})))


class ClearPortion(MapCommand):
    def __init__(self, doc: "MapDocument", h: Hex) -> None:
        super().__init__(doc, "Clear Impassable Portion")
        self.hex = h
        self._undo: PortionUndo | None = None

    def redo(self) -> None:
        self._undo = clear_portion(self.hmap, self.hex)
        self.emit(PortionsChanged(self.map_id, frozenset({self.hex})))

    def undo(self) -> None:
        assert self._undo is not None
        restore_portion(self.hmap, self._undo)
        self.emit(PortionsChanged(self.map_id, frozenset({self.hex})))
