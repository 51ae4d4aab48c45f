"""Hexside feature commands (crest, stream, river, …), one canonical hexside each."""

from __future__ import annotations

from typing import TYPE_CHECKING

from editor.commands.base import MapCommand, type_name
from model.base import HexsideKey
from model.changes import HexsidesChanged
from model.edits import HexsideUndo, clear_hexside, restore_hexside, set_hexside

if TYPE_CHECKING:
    from editor.document import MapDocument


class _HexsideCommand(MapCommand):
    def __init__(self, doc: "MapDocument", key: HexsideKey, kind: str, text: str) -> None:
        super().__init__(doc, text)
        self.key = key
        self.kind = kind
        self._undo: HexsideUndo | None = None

    def _event(self) -> None:
        self.emit(HexsidesChanged(self.map_id, frozenset({self.key})))

    def undo(self) -> None:
        assert self._undo is not None
        restore_hexside(self.hmap, self._undo)
        self._event()


class SetHexsideFeature(_HexsideCommand):
    def __init__(self, doc: "MapDocument", key: HexsideKey, kind: str) -> None:
        super().__init__(doc, key, kind, f"Set {type_name(doc, 'hexsides', kind)} Hexside")

    def redo(self) -> None:
        self._undo = set_hexside(self.hmap, self.key, self.kind)
        self._event()


class ClearHexsideFeature(_HexsideCommand):
    def __init__(self, doc: "MapDocument", key: HexsideKey, kind: str) -> None:
        super().__init__(doc, key, kind, f"Clear {type_name(doc, 'hexsides', kind)} Hexside")

    def redo(self) -> None:
        self._undo = clear_hexside(self.hmap, self.key, self.kind)
        self._event()
