"""TerrainItem: terrain drawn from cached tile images (level of detail by zoom level).

Tiles are TILE×TILE pixel images rendered at a power-of-two pixels-per-scene-unit level
close to the current zoom, so panning reuses cached tiles and zooming re-renders only when
it crosses a level. A terrain change drops only the tiles holding the changed hexes.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Iterable

import numpy as np
from PySide6.QtCore import QRectF, QTimer
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from editor.map_view.raster import TerrainGrid
from editor.qt_geometry import HEX_SIZE
from model.hexes import Hex
from model.layout import Layout

TILE = 256
MAX_TILES = 600
FRAME_BUDGET_S = 0.006  # time per paint for rendering new tiles; the rest follow next frame
MIN_LEVEL, MAX_LEVEL = -7, 2  # pixels per scene unit = 2**level


class TerrainItem(QGraphicsItem):
    def __init__(self, grid: TerrainGrid, layout: Layout, bounds: QRectF) -> None:
        super().__init__()
        self.grid = grid
        self.layout = layout
        self._bounds = bounds
        self._tiles: OrderedDict[tuple[int, int, int], QImage] = OrderedDict()
        self.tiles_rendered = 0
        self._refresh_scheduled = False
        self._pixels: dict[tuple[int, int, int], np.ndarray] = {}
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)

    def boundingRect(self) -> QRectF:
        return self._bounds

    def set_grid(self, grid: TerrainGrid, bounds: QRectF) -> None:
        self.prepareGeometryChange()
        self.grid = grid
        self._bounds = bounds
        self._tiles.clear()
        self.update()

    @staticmethod
    def level_for(scale: float) -> int:
        level = math.ceil(math.log2(max(scale, 1e-6)))
        return max(MIN_LEVEL, min(MAX_LEVEL, level))

    def _tile(self, level: int, tx: int, ty: int) -> QImage:
        key = (level, tx, ty)
        img = self._tiles.get(key)
        if img is not None:
            self._tiles.move_to_end(key)
            return img
        ppu = 2.0 ** level
        span = TILE / ppu
        # One extra row and column so grid edges on the tile border are found, then cropped.
        argb = np.ascontiguousarray(self.grid.render(tx * span, ty * span, TILE + 1, TILE + 1, ppu, HEX_SIZE)[:TILE, :TILE])
        # The image shares the array's memory, so a terrain edit can patch pixels in place.
        img = QImage(argb.data, TILE, TILE, TILE * 4, QImage.Format.Format_ARGB32)
        self._pixels[key] = argb
        self._tiles[key] = img
        self.tiles_rendered += 1
        while len(self._tiles) > MAX_TILES:
            old, _ = self._tiles.popitem(last=False)
            self._pixels.pop(old, None)
        return img

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        """Draw cached tiles; render missing ones within a time budget and stand in for the
        rest with an upscaled coarser cached tile, then schedule another paint. A zoom that
        crosses a level therefore never stalls a frame on dozens of new tiles."""
        scale = option.levelOfDetailFromTransform(painter.worldTransform())
        level = self.level_for(scale)
        span = TILE / 2.0 ** level
        rect = option.exposedRect.intersected(self._bounds)
        if rect.isEmpty():
            return
        # Tiles are drawn at 0.5–1× their resolution; nearest-neighbour sampling would drop
        # pixels of the baked 1 px grid lines (dashed look), so filter when shrinking.
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, scale < 2.0 ** level * 0.99)
        tx0, tx1 = math.floor(rect.left() / span), math.floor(rect.right() / span)
        ty0, ty1 = math.floor(rect.top() / span), math.floor(rect.bottom() / span)
        # Only on-screen paints are budgeted: QGraphicsScene.render() (export, print) passes
        # no widget and must get every tile at once.
        deadline = time.perf_counter() + FRAME_BUDGET_S if widget is not None else math.inf
        pending = False
        for ty in range(ty0, ty1 + 1):
            for tx in range(tx0, tx1 + 1):
                target = QRectF(tx * span, ty * span, span, span)
                if (level, tx, ty) in self._tiles or time.perf_counter() < deadline:
                    painter.drawImage(target, self._tile(level, tx, ty))
                    continue
                pending = True
                self._draw_stand_in(painter, level, tx, ty, target)
        scene = self.scene()
        if pending and not self._refresh_scheduled and scene is not None:
            self._refresh_scheduled = True
            # The scene is the timer's context: no callback after it is gone.
            QTimer.singleShot(0, scene, self._refresh)

    def _draw_stand_in(self, painter: QPainter, level: int, tx: int, ty: int, target: QRectF) -> None:
        for up in (1, 2, 3, 4):
            key = (level - up, tx >> up, ty >> up)
            img = self._tiles.get(key)
            if img is not None:
                part = TILE >> up
                src = QRectF((tx - (key[1] << up)) * part, (ty - (key[2] << up)) * part, part, part)
                painter.drawImage(target, img, src)
                return

    @property
    def pending(self) -> bool:
        """True while some visible tiles are still stand-ins awaiting their render."""
        return self._refresh_scheduled

    def _refresh(self) -> None:
        self._refresh_scheduled = False
        try:
            self.update()
        except RuntimeError:  # the C++ item went away with its scene
            pass

    def set_grid_lines(self, on: bool) -> None:
        self.grid.grid_lines = on
        self._tiles.clear()
        self.update()

    def terrain_changed(self, hexes: Iterable[Hex]) -> None:
        """Update the grid for these hexes and re-render, in place, only the pixels of the
        cached tiles that hold them (a brush dab costs a hex-sized patch, not a tile)."""
        hexes = list(hexes)
        self.grid.update_hexes(hexes)
        dirty = QRectF()
        s = self.layout.size * 1.05
        for h in hexes:
            cx, cy = self.layout.center(h)
            r = QRectF(cx - s, cy - s, 2 * s, 2 * s)
            dirty = r if dirty.isNull() else dirty.united(r)
            for key in [k for k in self._tiles if _tile_hits(k, r)]:
                self._patch(key, r)
        if not dirty.isNull():
            self.update(dirty)

    def _patch(self, key: tuple[int, int, int], r: QRectF) -> None:
        level, tx, ty = key
        arr = self._pixels.get(key)
        if arr is None:
            self._tiles.pop(key, None)
            return
        ppu = 2.0 ** level
        span = TILE / ppu
        x0 = max(0, math.floor((r.left() - tx * span) * ppu) - 1)
        y0 = max(0, math.floor((r.top() - ty * span) * ppu) - 1)
        x1 = min(TILE, math.ceil((r.right() - tx * span) * ppu) + 1)
        y1 = min(TILE, math.ceil((r.bottom() - ty * span) * ppu) + 1)
        if x1 <= x0 or y1 <= y0:
            return
        # Render one pixel more on each side so grid edges at the patch border are right.
        patch = self.grid.render(tx * span + x0 / ppu, ty * span + y0 / ppu, x1 - x0 + 1, y1 - y0 + 1, ppu, HEX_SIZE)
        arr[y0:y1, x0:x1] = patch[: y1 - y0, : x1 - x0]


def _tile_hits(key: tuple[int, int, int], r: QRectF) -> bool:
    level, tx, ty = key
    span = TILE / 2.0 ** level
    return QRectF(tx * span, ty * span, span, span).intersects(r)
