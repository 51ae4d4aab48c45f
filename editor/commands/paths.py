"""Path commands: roads, railroads, raised/sunken roads as hex sequences."""

from __future__ import annotations

from typing import TYPE_CHECKING

from editor.commands.base import MapCommand, type_name
from model.changes import PathsChanged
from model.edits import add_path, remove_path
from model.mapdata import MapPath

if TYPE_CHECKING:
    from editor.document import MapDocument


class AddPath(MapCommand):
    def __init__(self, doc: "MapDocument", path: MapPath) -> None:
        super().__init__(doc, f"Add {type_name(doc, 'paths', path.type)} Path")
        self.path = path
        self.index: int | None = None

    def redo(self) -> None:
        self.index = add_path(self.hmap, self.path)
        self.emit(PathsChanged(self.map_id, frozenset(self.path.hexes)))

    def undo(self) -> None:
        assert self.index is not None
        remove_path(self.hmap, self.index)
        self.emit(PathsChanged(self.map_id, frozenset(self.path.hexes)))


class RemovePath(MapCommand):
    def __init__(self, doc: "MapDocument", index: int) -> None:
        super().__init__(doc, "Remove Path")
        self.index = index
        self.path: MapPath | None = None

    def redo(self) -> None:
        self.path = remove_path(self.hmap, self.index)
        self.emit(PathsChanged(self.map_id, frozenset(self.path.hexes)))

    def undo(self) -> None:
        assert self.path is not None
        add_path(self.hmap, self.path, self.index)
        self.emit(PathsChanged(self.map_id, frozenset(self.path.hexes)))
