"""Render a region of a map through the editor's scene layers into any QPainter (PDF page,
image, SVG).

``QGraphicsScene.render`` hands every item its whole bounding rectangle as the exposed
area, so the terrain layer would rasterise every tile of the map (and, within its frame
budget, leave stand-ins) and the detail layer would emit every hex label of the map into
each page. Export therefore paints the scene's visible items itself, in z order, each
with the exposed rectangle set to the region (background image, detail layer with grid,
hexsides, paths, features and labels as vectors and text), except the terrain.

The terrain goes one of two ways:

* on a PDF (a vector device), as vector hexes (:func:`paint_terrain_vector`): one filled
  path per terrain colour, its outlines stroked in that colour darkened as the raster bakes
  its grid. Sharp at any zoom, a few hundred kB for the Utah proof instead of 13 MiB of
  images, and about 40× faster to write than the raster it replaced (issue #21: 73 % of
  ``hexproof proof`` went to rasterising and embedding images);
* on an image or SVG, through the :class:`~editor.map_view.raster.TerrainGrid` rasteriser
  once at the device resolution (:func:`paint_terrain_raster`, also the reference the
  vector path is tested against: tests/export/test_terrain_vector.py).
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPaintEngine, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem

from editor.document import MapDocument
from editor.map_view.raster import GRID_MIN_TILE_PX, TerrainGrid
from editor.map_view.scene import MapScene
from editor.qt_geometry import HEX_SIZE
from model.bundle import Bundle
from model.layout import Layout

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
                  raster_scale: float = 1.0, vector_terrain: bool | None = None) -> QRectF:
    """Paint ``source`` (scene units) into ``target`` (painter units) at one uniform scale.

    ``vector_terrain``: hexes as vector polygons (:func:`paint_terrain_vector`) or the
    raster; ``None`` (default) chooses vectors on a PDF and the raster elsewhere. The
    raster is made at ``raster_scale`` × the device resolution (flat colours need less than
    text: 0.5 on a 300 dpi PDF is a 150 dpi terrain image under vector labels); the vector
    path uses the same resolution for the width of its grid lines, so both look alike.

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
    if vector_terrain is None:
        engine = painter.paintEngine()
        vector_terrain = engine is not None and engine.type() == QPaintEngine.Type.Pdf
    # Every visible item in z order, each given the region as its exposed rectangle. The
    # terrain item is rasterised here in one piece (its own paint works in per-frame tile
    # budgets meant for the screen).
    items = [it for it in scene.items(source) if it.isVisible() and it.parentItem() is None]
    for item in sorted(items, key=lambda it: it.zValue()):
        if item is scene.terrain:
            if vector_terrain:
                paint_terrain_vector(scene, painter, source, device_scale)
            else:
                paint_terrain_raster(scene, painter, source, device_scale)
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


def paint_terrain_raster(scene: MapScene, painter: QPainter, source: QRectF, ppu: float) -> None:
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


def _offset_box(grid: TerrainGrid, layout: Layout, source: QRectF, margin: int = 2) -> tuple[int, int, int, int]:
    """Offset (column, row) bounds, inclusive, of every hex that can touch ``source``."""
    spec = grid.hmap.spec
    xs, ys = [], []
    for px, py in ((source.left(), source.top()), (source.right(), source.top()),
                   (source.left(), source.bottom()), (source.right(), source.bottom())):
        x, y = spec.offset(layout.hex_at(px, py))
        xs.append(x)
        ys.append(y)
    return min(xs) - margin, min(ys) - margin, max(xs) + margin, max(ys) + margin


def terrain_paths(grid: TerrainGrid, layout: Layout, source: QRectF) -> list[tuple[int, QPainterPath]]:
    """(colour-table index, path of every hex of that terrain) for the hexes that can touch
    ``source``, in colour-table order. One path per terrain: a PDF then holds one fill per
    colour and tile instead of one object per hex."""
    bx0, by0, bx1, by1 = _offset_box(grid, layout, source)
    i0, j0 = max(0, bx0 - grid.x0), max(0, by0 - grid.y0)
    i1, j1 = min(grid.cols, bx1 - grid.x0 + 1), min(grid.rows, by1 - grid.y0 + 1)
    if i0 >= i1 or j0 >= j1:
        return []
    block = grid.grid[j0:j1, i0:i1]
    jj, ii = np.nonzero(block)
    if len(jj) == 0:
        return []
    codes = block[jj, ii]
    x = ii.astype(np.int64) + (i0 + grid.x0)
    y = jj.astype(np.int64) + (j0 + grid.y0)
    # Offset → axial (model.labels.hex_to_offset inverted, vectorised), then the centres.
    if grid.orientation == "flat":
        q = x
        r = y - ((x - (x & 1)) >> 1 if grid.stagger == "odd" else (x + (x & 1)) >> 1)
    else:
        r = y
        q = x - ((y - (y & 1)) >> 1 if grid.stagger == "odd" else (y + (y & 1)) >> 1)
    o = layout.orientation
    cx = ((o.f0 * q + o.f1 * r) * layout.size + layout.origin_x).tolist()
    cy = ((o.f2 * q + o.f3 * r) * layout.size + layout.origin_y).tolist()
    unit = QPolygonF([QPointF(*layout.corner_offset(k)) for k in range(6)] + [QPointF(*layout.corner_offset(0))])
    out = []
    order = np.argsort(codes, kind="stable")
    codes_sorted = codes[order]
    starts = np.flatnonzero(np.r_[True, codes_sorted[1:] != codes_sorted[:-1]])
    bounds = [*starts.tolist(), len(order)]
    for k in range(len(starts)):
        path = QPainterPath()
        path.setFillRule(Qt.FillRule.WindingFill)
        for n in order[bounds[k]:bounds[k + 1]].tolist():
            path.addPolygon(unit.translated(cx[n], cy[n]))
        out.append((int(codes_sorted[bounds[k]]), path))
    return out


def paint_terrain_vector(scene: MapScene, painter: QPainter, source: QRectF, ppu: float) -> None:
    """Terrain of ``source`` as vector hexes: per terrain colour one filled path, its
    outlines stroked one raster pixel wide (``1 / ppu`` scene units) in the colour the
    raster bakes into its edge pixels (:meth:`TerrainGrid.render`: 60 % at full grid
    strength), or in the fill colour when the grid is off (no hairline seams between
    hexes in a PDF viewer)."""
    assert scene.terrain is not None
    draw_terrain_vector(painter, scene.terrain.grid, scene.terrain.layout, source, ppu)


def draw_terrain_vector(painter: QPainter, grid: TerrainGrid, layout: Layout, source: QRectF, ppu: float) -> None:
    """:func:`paint_terrain_vector` for a terrain grid and layout (painter in scene units)."""
    ppu = max(0.05, min(ppu, 16.0))
    lines = grid.grid_lines and HEX_SIZE * ppu >= GRID_MIN_TILE_PX
    keep = 1000 - int(round(400 * grid.grid_strength)) if lines else 1000
    painter.save()
    for code, path in terrain_paths(grid, layout, source):
        argb = int(grid.lut[code])
        r, g, b = argb >> 16 & 255, argb >> 8 & 255, argb & 255
        pen = QPen(QColor(r * keep // 1000, g * keep // 1000, b * keep // 1000), 1.0 / ppu)
        pen.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
        painter.setPen(pen)
        painter.setBrush(QColor(r, g, b))
        painter.drawPath(path)
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
