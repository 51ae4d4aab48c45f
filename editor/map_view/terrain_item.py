"""TerrainItem: terrain drawn from cached tile images (level of detail by zoom level).

Tiles are TILE×TILE pixel images rendered at a power-of-two pixels-per-scene-unit level
close to the current zoom, so panning reuses cached tiles and zooming re-renders only when
it crosses a level. A terrain change drops only the tiles holding the changed hexes.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Iterable

from PySide6.QtCore import QRectF
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from editor.map_view.raster import TerrainGrid
from editor.qt_geometry import HEX_SIZE
from model.hexes import Hex
from model.layout import Layout

TILE = 256
MAX_TILES = 600
MIN_LEVEL, MAX_LEVEL = -7, 2  # pixels per scene unit = 2**level


class TerrainItem(QGraphicsItem):
    def __init__(self, grid: TerrainGrid, layout: Layout, bounds: QRectF) -> None:
        super().__init__()
        self.grid = grid
        self.layout = layout
        self._bounds = bounds
        self._tiles: OrderedDict[tuple[int, int, int], QImage] = OrderedDict()
        self.tiles_rendered = 0
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
        argb = self.grid.render(tx * span, ty * span, TILE + 1, TILE + 1, ppu, HEX_SIZE)[:TILE, :TILE]
        img = QImage(argb.tobytes(), TILE, TILE, TILE * 4, QImage.Format.Format_ARGB32).copy()
        self._tiles[key] = img
        self.tiles_rendered += 1
        while len(self._tiles) > MAX_TILES:
            self._tiles.popitem(last=False)
        return img

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        scale = option.levelOfDetailFromTransform(painter.worldTransform())
        level = self.level_for(scale)
        span = TILE / 2.0 ** level
        rect = option.exposedRect.intersected(self._bounds)
        if rect.isEmpty():
            return
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, False)
        tx0, tx1 = math.floor(rect.left() / span), math.floor(rect.right() / span)
        ty0, ty1 = math.floor(rect.top() / span), math.floor(rect.bottom() / span)
        for ty in range(ty0, ty1 + 1):
            for tx in range(tx0, tx1 + 1):
                painter.drawImage(QRectF(tx * span, ty * span, span, span), self._tile(level, tx, ty))

    def set_grid_lines(self, on: bool) -> None:
        self.grid.grid_lines = on
        self._tiles.clear()
        self.update()

    def terrain_changed(self, hexes: Iterable[Hex]) -> None:
        """Update the grid for these hexes and drop only the tiles that hold them."""
        hexes = list(hexes)
        self.grid.update_hexes(hexes)
        dirty = QRectF()
        for h in hexes:
            cx, cy = self.layout.center(h)
            s = self.layout.size
            r = QRectF(cx - s, cy - s, 2 * s, 2 * s)
            dirty = r if dirty.isNull() else dirty.united(r)
            for key in [k for k in self._tiles if _tile_hits(k, r)]:
                del self._tiles[key]
        if not dirty.isNull():
            self.update(dirty)


def _tile_hits(key: tuple[int, int, int], r: QRectF) -> bool:
    level, tx, ty = key
    span = TILE / 2.0 ** level
    return QRectF(tx * span, ty * span, span, span).intersects(r)
