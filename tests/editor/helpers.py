"""Shared helpers for editor tests: open documents and send mouse events in scene coords."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QApplication

from conftest import FIXTURES
from editor.document import MapDocument
from editor.map_view.view import MapView
from model.hexes import Hex

MINI = FIXTURES / "bundles" / "mini"


def open_doc(path: object = MINI) -> MapDocument:
    doc, diags = MapDocument.open(path)  # type: ignore[arg-type]
    assert doc is not None, diags
    return doc


def scene_point(view: MapView, h: Hex, dx: float = 0.0, dy: float = 0.0) -> QPointF:
    x, y = view.map_scene.layout.center(h)
    return QPointF(x + dx, y + dy)


def mouse(view: MapView, kind: str, scene_pt: QPointF, button: Qt.MouseButton = Qt.MouseButton.LeftButton,
          modifiers: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
    """Deliver a press/move/release at a scene point (QTest.mouseMove cannot hold buttons)."""
    types = {"press": QEvent.Type.MouseButtonPress, "move": QEvent.Type.MouseMove,
             "release": QEvent.Type.MouseButtonRelease}
    local = QPointF(view.mapFromScene(scene_pt))
    glob = QPointF(view.viewport().mapToGlobal(local.toPoint()))
    held = Qt.MouseButton.NoButton if kind == "release" else button
    ev = QMouseEvent(types[kind], local, glob, Qt.MouseButton.NoButton if kind == "move" else button, held, modifiers)
    QApplication.sendEvent(view.viewport(), ev)


def click(view: MapView, scene_pt: QPointF, button: Qt.MouseButton = Qt.MouseButton.LeftButton) -> None:
    mouse(view, "press", scene_pt, button)
    mouse(view, "release", scene_pt, button)
