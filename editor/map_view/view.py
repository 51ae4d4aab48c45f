"""MapView: zoom (wheel, Ctrl+= / Ctrl+- / Ctrl+0 fit / Ctrl+1 100 %), pan (middle button,
Space+drag, arrow keys), hover reporting, and mouse events handed to the current tool."""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import QEvent, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QHelpEvent, QKeyEvent, QMouseEvent, QPainter, QWheelEvent
from PySide6.QtWidgets import QGraphicsView, QToolTip, QWidget

from editor.map_view.detail_item import NAME_MIN_PX
from editor.map_view.scene import MapScene
from editor.map_view.tiles import start_frame
from model.hexes import Hex

ZOOM_STEP = 1.25
MIN_SCALE, MAX_SCALE = 1 / 256, 8.0


class Tool(Protocol):
    def press(self, view: "MapView", pos: QPointF, event: QMouseEvent) -> None: ...
    def move(self, view: "MapView", pos: QPointF, event: QMouseEvent) -> None: ...
    def release(self, view: "MapView", pos: QPointF, event: QMouseEvent) -> None: ...


class MapView(QGraphicsView):
    hexHovered = Signal(object)  # Hex or None
    hexClicked = Signal(object)  # Hex: left press on a map hex (the Properties dock's selection)
    zoomChanged = Signal(float)

    def __init__(self, scene: MapScene, parent: QWidget | None = None) -> None:
        super().__init__(scene, parent)
        self.map_scene = scene
        self.tool: Tool | None = None
        self._panning = False
        self._space = False
        self._last = QPointF()
        self.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.MinimalViewportUpdate)
        self.setMouseTracking(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.last_calibration_report = ""
        scene.calibrationReport.connect(self.show_calibration)

    def show_calibration(self, text: str) -> None:
        """Residuals of a new background fit go to the window's status bar."""
        self.last_calibration_report = text
        window = self.window()
        status = getattr(window, "statusBar", None)
        if callable(status):
            status().showMessage(text, 20000)

    def drawBackground(self, painter: QPainter, rect: QRectF) -> None:
        start_frame(self.map_scene)  # every paint starts here: one tile budget per frame
        super().drawBackground(painter, rect)

    # --- zoom ------------------------------------------------------------------------------

    @property
    def zoom(self) -> float:
        return self.transform().m11()

    def set_zoom(self, z: float) -> None:
        z = max(MIN_SCALE, min(MAX_SCALE, z))
        factor = z / self.zoom
        self.scale(factor, factor)
        self.zoomChanged.emit(self.zoom)

    def zoom_in(self) -> None:
        self.set_zoom(self.zoom * ZOOM_STEP)

    def zoom_out(self) -> None:
        self.set_zoom(self.zoom / ZOOM_STEP)

    def zoom_100(self) -> None:
        self.set_zoom(1.0)

    def fit(self) -> None:
        self.fitInView(self.map_scene.sceneRect(), Qt.AspectRatioMode.KeepAspectRatio)
        self.zoomChanged.emit(self.zoom)

    def center_on_hex(self, h: Hex) -> None:
        self.centerOn(QPointF(*self.map_scene.layout.center(h)))

    def hex_at_view(self, pos: QPointF) -> Hex:
        p = self.mapToScene(pos.toPoint())
        return self.map_scene.layout.hex_at(p.x(), p.y())

    # --- events ----------------------------------------------------------------------------

    def wheelEvent(self, event: QWheelEvent) -> None:
        steps = event.angleDelta().y() / 120.0
        if steps:
            self.set_zoom(self.zoom * ZOOM_STEP ** steps)
        event.accept()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key, mods = event.key(), event.modifiers()
        ctrl = bool(mods & Qt.KeyboardModifier.ControlModifier)
        if ctrl and key in (Qt.Key.Key_Equal, Qt.Key.Key_Plus):
            self.zoom_in()
        elif ctrl and key == Qt.Key.Key_Minus:
            self.zoom_out()
        elif ctrl and key == Qt.Key.Key_0:
            self.fit()
        elif ctrl and key == Qt.Key.Key_1:
            self.zoom_100()
        elif key == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space = True
        elif key in (Qt.Key.Key_Left, Qt.Key.Key_Right, Qt.Key.Key_Up, Qt.Key.Key_Down):
            step = 60
            dx = {Qt.Key.Key_Left: -step, Qt.Key.Key_Right: step}.get(key, 0)
            dy = {Qt.Key.Key_Up: -step, Qt.Key.Key_Down: step}.get(key, 0)
            self.pan(dx, dy)
        else:
            super().keyPressEvent(event)

    def keyReleaseEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space = False
        super().keyReleaseEvent(event)

    def pan(self, dx: float, dy: float) -> None:
        self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() + int(dx))
        self.verticalScrollBar().setValue(self.verticalScrollBar().value() + int(dy))

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.MiddleButton or (self._space and event.button() == Qt.MouseButton.LeftButton):
            self._panning = True
            self._last = event.position()
            self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)
            return
        if event.button() == Qt.MouseButton.LeftButton:
            p = self.mapToScene(event.position().toPoint())
            h = self.map_scene.layout.hex_at(p.x(), p.y())
            if self.map_scene.doc.hmap.contains(h):
                self.hexClicked.emit(h)
        if self.tool is not None and event.button() in (Qt.MouseButton.LeftButton, Qt.MouseButton.RightButton):
            self.tool.press(self, self.mapToScene(event.position().toPoint()), event)
            return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._panning:
            d = event.position() - self._last
            self._last = event.position()
            self.pan(-d.x(), -d.y())
            return
        scene_pos = self.mapToScene(event.position().toPoint())
        h = self.map_scene.layout.hex_at(scene_pos.x(), scene_pos.y())
        self.hexHovered.emit(h if self.map_scene.doc.hmap.contains(h) else None)
        if self.tool is not None and event.buttons() & (Qt.MouseButton.LeftButton | Qt.MouseButton.RightButton):
            self.tool.move(self, scene_pos, event)
            return
        super().mouseMoveEvent(event)

    def label_tooltip(self, scene_pos: QPointF) -> str | None:
        """The full feature name under a scene point, while names are drawn at this zoom: an
        elided name reads whole here, a hidden one with the reason it was not drawn."""
        details = self.map_scene.details
        if details is None or not details.isVisible() or not details.visible_layers["features"]:
            return None
        if details.layout.size * self.zoom < NAME_MIN_PX:
            return None
        return details.labels.tooltip_at(scene_pos)

    def viewportEvent(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            text = self.label_tooltip(self.mapToScene(event.pos()))
            if text:
                QToolTip.showText(event.globalPos(), text, self.viewport())
                return True
            QToolTip.hideText()
        return super().viewportEvent(event)

    def leaveEvent(self, event: QEvent) -> None:
        self.hexHovered.emit(None)  # the pointer left the map: nothing is hovered any more
        super().leaveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if self._panning:
            self._panning = False
            self.viewport().unsetCursor()
            return
        if self.tool is not None:
            self.tool.release(self, self.mapToScene(event.position().toPoint()), event)
            return
        super().mouseReleaseEvent(event)
