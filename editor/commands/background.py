"""Scanned-map background commands: set/remove the image, calibrate it to the grid."""

from __future__ import annotations

from typing import TYPE_CHECKING

from editor.commands.base import MapCommand
from model.changes import BackgroundChanged
from model.edits import set_background, set_calibration
from model.mapdata import Background, CalibrationPoint

if TYPE_CHECKING:
    from editor.document import MapDocument


class SetBackground(MapCommand):
    def __init__(self, doc: "MapDocument", background: Background | None) -> None:
        super().__init__(doc, "Set Background" if background else "Remove Background")
        self.background = background
        self.old: Background | None = None

    def redo(self) -> None:
        self.old = set_background(self.hmap, self.background)
        self.emit(BackgroundChanged(self.map_id))

    def undo(self) -> None:
        set_background(self.hmap, self.old)
        self.emit(BackgroundChanged(self.map_id))


class CalibrateBackground(MapCommand):
    def __init__(self, doc: "MapDocument", points: list[CalibrationPoint]) -> None:
        super().__init__(doc, "Calibrate Background")
        self.points = list(points)
        self.old: list[CalibrationPoint] = []

    def redo(self) -> None:
        self.old = set_calibration(self.hmap, self.points)
        self.emit(BackgroundChanged(self.map_id))

    def undo(self) -> None:
        set_calibration(self.hmap, self.old)
        self.emit(BackgroundChanged(self.map_id))
