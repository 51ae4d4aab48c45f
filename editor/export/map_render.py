"""Render a region of a map through the editor's scene layers into any QPainter (PDF page,
image, SVG).

``QGraphicsScene.render`` hands every item its whole bounding rectangle as the exposed
area, so the terrain layer would rasterise every tile of the map (and, within its frame
budget, leave stand-ins) and the detail layer would emit every hex label of the map into
each page. Export therefore paints the scene's visible items itself, in z order, each
with the exposed rectangle set to the region (background image, detail layer with grid,
hexsides, paths, features and labels as vectors and text), except the terrain, which goes
through its :class:`~editor.map_view.raster.TerrainGrid` rasteriser once at the device
resolution.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QRectF
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem

from editor.document import MapDocument
from editor.map_view.scene import MapScene
from editor.qt_geometry import HEX_SIZE
from model.bundle import Bundle

MAX_RASTER_PX = 6000  # longest side of one terrain raster; larger regions are split in bands


def scene_for(bundle: Bundle, map_id: str | None = None) -> MapScene:
    """A scene showing ``map_id`` (default: the bundle's first map)."""
    doc = MapDocument(bundle)
    if map_id is not None and map_id != doc.map_id:
        doc.set_current_map(map_id)
    scene = MapScene(doc)
    scene._export_doc = doc  # type: ignore[attr-defined]  # keep the document alive with the scene
    return scene


def fit_source(target: QRectF, source: QRectF) -> QRectF:
    """``source`` grown about its centre to ``target``'s aspect ratio (one uniform scale)."""
    s = min(target.width() / source.width(), target.height() / source.height())
    w, h = target.width() / s, target.height() / s
    c = source.center()
    return QRectF(c.x() - w / 2, c.y() - h / 2, w, h)


def render_region(scene: MapScene, painter: QPainter, target: QRectF, source: QRectF,
                  raster_scale: float = 1.0) -> QRectF:
    """Paint ``source`` (scene units) into ``target`` (painter units) at one uniform scale.

    The terrain is rasterised at ``raster_scale`` × the device resolution (flat colours
    need less than text: 0.5 on a 300 dpi PDF is a 150 dpi terrain image under vector
    labels, a quarter of the pixels and file size).

    Returns the scene rectangle actually shown (``source`` fitted to the target's shape).
    """
    source = fit_source(target, source)
    s = target.width() / source.width()
    painter.save()
    painter.setClipRect(target)
    painter.translate(target.x(), target.y())
    painter.scale(s, s)
    painter.translate(-source.x(), -source.y())
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
    device_scale = _device_pixels_per_unit(painter) * raster_scale
    # Every visible item in z order, each given the region as its exposed rectangle. The
    # terrain item is rasterised here in one piece (its own paint works in per-frame tile
    # budgets meant for the screen).
    items = [it for it in scene.items(source) if it.isVisible() and it.parentItem() is None]
    for item in sorted(items, key=lambda it: it.zValue()):
        if item is scene.terrain:
            _paint_terrain(scene, painter, source, device_scale)
            continue
        _paint_item(item, painter, source)
    painter.restore()
    return source


def _paint_item(item: QGraphicsItem, painter: QPainter, source: QRectF) -> None:
    painter.save()
    painter.setTransform(item.sceneTransform(), True)
    painter.setOpacity(painter.opacity() * item.opacity())
    option = QStyleOptionGraphicsItem()
    option.exposedRect = item.mapRectFromScene(source).intersected(item.boundingRect())
    item.paint(painter, option, None)
    for child in sorted(item.childItems(), key=lambda c: c.zValue()):
        if child.isVisible():
            _paint_item(child, painter, source)
    painter.restore()


def _device_pixels_per_unit(painter: QPainter) -> float:
    """Device pixels per unit of the painter's current coordinates."""
    t = painter.deviceTransform()
    return max(1e-6, float(np.hypot(t.m11(), t.m12())))


def _paint_terrain(scene: MapScene, painter: QPainter, source: QRectF, ppu: float) -> None:
    """Terrain of ``source`` rasterised once at ``ppu`` device pixels per scene unit."""
    assert scene.terrain is not None
    grid = scene.terrain.grid
    ppu = max(0.05, min(ppu, 16.0))
    width = max(1, int(round(source.width() * ppu)))
    height = max(1, int(round(source.height() * ppu)))
    band = max(1, MAX_RASTER_PX * MAX_RASTER_PX // max(width, 1) // 4)
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, False)
    for y0 in range(0, height, band):
        h = min(band, height - y0)
        argb = np.ascontiguousarray(grid.render(source.x(), source.y() + y0 / ppu, width, h, ppu, HEX_SIZE))
        img = QImage(argb.data, width, h, width * 4, QImage.Format.Format_ARGB32).copy()
        painter.drawImage(QRectF(source.x(), source.y() + y0 / ppu, width / ppu, h / ppu), img)
    painter.restore()


def render_image(scene: MapScene, source: QRectF | None = None, scale: float = 1.0,
                 raster_scale: float = 1.0) -> QImage:
    """The region (default: the whole map) as an image, ``scale`` pixels per scene unit; the
    terrain rasterised at ``raster_scale`` of that (see :func:`render_region`)."""
    src = source if source is not None else scene.sceneRect()
    img = QImage(max(1, int(src.width() * scale)), max(1, int(src.height() * scale)), QImage.Format.Format_ARGB32)
    img.fill(scene.backgroundBrush().color())
    p = QPainter(img)
    render_region(scene, p, QRectF(0, 0, img.width(), img.height()), src, raster_scale)
    p.end()
    return img
