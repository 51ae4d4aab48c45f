"""Background calibration by clicking: click a hex centre on the scanned image, type its
printed label; after two or more points, right-click (or finish()) pushes one
CalibrateBackground command. Image coordinates come from the background item's current
placement, so re-calibrating a placed image works too."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QMouseEvent

from editor.commands import CalibrateBackground
from editor.tools.base import BaseTool, doc_of
from model.mapdata import CalibrationPoint

if TYPE_CHECKING:
    from editor.map_view.view import MapView


class CalibrateTool(BaseTool):
    name = "calibrate"

    def __init__(self, ask_label: Callable[[], str | None]) -> None:
        self.ask_label = ask_label
        self.points: list[CalibrationPoint] = []
        self._view: "MapView | None" = None

    def press(self, view: "MapView", pos: QPointF, event: QMouseEvent) -> None:
        self._view = view
        doc = doc_of(view)
        if doc.hmap.background is None:
            return
        if event.button() == Qt.MouseButton.RightButton:
            self.finish()
            return
        label = self.ask_label()
        if not label:
            return
        h = doc.hmap.spec.try_parse(label)
        if h is None:
            return
        img = view.map_scene.background.mapFromScene(pos)
        self.points.append(CalibrationPoint(label=h, x=round(img.x(), 2), y=round(img.y(), 2)))

    def finish(self) -> bool:
        view, points = self._view, self.points
        self.points = []
        if view is None or len(points) < 2:
            return False
        doc = doc_of(view)
        doc.push(CalibrateBackground(doc, points))
        return True
