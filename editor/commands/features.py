"""Point-feature commands: OP, strongpoint, hill, VP hex, town name."""

from __future__ import annotations

from typing import TYPE_CHECKING

from editor.commands.base import MapCommand, type_name
from model.changes import FeaturesChanged
from model.edits import place_feature, remove_feature
from model.mapdata import Feature

if TYPE_CHECKING:
    from editor.document import MapDocument


class PlaceFeature(MapCommand):
    def __init__(self, doc: "MapDocument", feature: Feature) -> None:
        super().__init__(doc, f"Place {type_name(doc, 'features', feature.type)}")
        self.feature = feature
        self.index: int | None = None

    def redo(self) -> None:
        self.index = place_feature(self.hmap, self.feature)
        self.emit(FeaturesChanged(self.map_id, frozenset({self.feature.hex})))

    def undo(self) -> None:
        assert self.index is not None
        remove_feature(self.hmap, self.index)
        self.emit(FeaturesChanged(self.map_id, frozenset({self.feature.hex})))


class RemoveFeature(MapCommand):
    def __init__(self, doc: "MapDocument", index: int) -> None:
        super().__init__(doc, "Remove Feature")
        self.index = index
        self.feature: Feature | None = None

    def redo(self) -> None:
        self.feature = remove_feature(self.hmap, self.index)
        self.emit(FeaturesChanged(self.map_id, frozenset({self.feature.hex})))

    def undo(self) -> None:
        assert self.feature is not None
        place_feature(self.hmap, self.feature, self.index)
        self.emit(FeaturesChanged(self.map_id, frozenset({self.feature.hex})))
