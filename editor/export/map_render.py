"""Render a region of a map through the editor's scene into any QPainter (PDF page, image, SVG).

The terrain layer renders its tiles within a per-frame time budget and draws stand-ins for
the rest (smooth on screen, wrong on paper). Export first renders the same region into a
scratch image until the layer reports no pending tiles, so the real paint is complete.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import QApplication

from editor.document import MapDocument
from editor.map_view.scene import MapScene
from model.bundle import Bundle

MAX_WARM_PASSES = 200  # each pass renders at least one more tile; a page needs far fewer


def scene_for(bundle: Bundle, map_id: str | None = None) -> MapScene:
    """A scene showing ``map_id`` (default: the bundle's first map)."""
    doc = MapDocument(bundle)
    if map_id is not None and map_id != doc.map_id:
        doc.set_current_map(map_id)
    scene = MapScene(doc)
    scene._export_doc = doc  # type: ignore[attr-defined]  # keep the document alive with the scene
    return scene


def render_region(scene: MapScene, painter: QPainter, target: QRectF, source: QRectF) -> None:
    """Paint ``source`` (scene units) into ``target`` (painter units), tiles complete."""
    warm_up(scene, target, source)
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
    scene.render(painter, target, source, Qt.AspectRatioMode.KeepAspectRatio)
    painter.restore()


def warm_up(scene: MapScene, target: QRectF, source: QRectF) -> None:
    """Render into scratch images at the same scale until no terrain tile is pending."""
    terrain = scene.terrain
    if terrain is None or source.isEmpty() or target.isEmpty():
        return
    scale = min(target.width() / source.width(), target.height() / source.height())
    cap = 2048  # scratch image side in pixels; larger regions are warmed piece by piece
    step = cap / scale
    scratch = QImage(cap, cap, QImage.Format.Format_ARGB32_Premultiplied)
    y = source.y()
    while y < source.bottom():
        x = source.x()
        while x < source.right():
            for _ in range(MAX_WARM_PASSES):
                p = QPainter(scratch)
                scene.render(p, QRectF(0, 0, cap, cap), QRectF(x, y, step, step),
                             Qt.AspectRatioMode.IgnoreAspectRatio)
                p.end()
                pending = terrain.pending  # read before the timer clears it
                QApplication.processEvents()
                if not pending:
                    break
            x += step
        y += step
