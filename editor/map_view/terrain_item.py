"""TerrainItem: terrain drawn from cached tile images rendered by the numpy rasteriser.

Tiles are TILE×TILE pixel images at the view's zoom, so panning reuses cached tiles (see
:mod:`editor.map_view.tiles` for the frame budget, stand-ins and idle prefetch). A
terrain change re-renders, in place, only a hex-sized patch of the cached tiles.

With ``grid_only`` the item draws just the grid lines on transparency: the scene shows it
when the terrain layer is hidden but the grid is not (the terrain tiles bake the grid in).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import numpy as np
from PySide6.QtCore import QRectF
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QGraphicsItem

from editor.map_view.raster import TerrainGrid
from editor.map_view.tiles import FRAME_BUDGET_S, TILE, TiledItem, TileKey, scale_key
from editor.qt_geometry import HEX_SIZE
from model.hexes import Hex
from model.layout import Layout

__all__ = ["TerrainItem", "TILE", "FRAME_BUDGET_S", "scale_key"]

MAX_TILES = 600


class TerrainItem(TiledItem):
    max_tiles = MAX_TILES

    def __init__(self, grid: TerrainGrid, layout: Layout, bounds: QRectF, grid_only: bool = False) -> None:
        super().__init__(bounds)
        self.grid = grid
        self.layout = layout
        self.grid_only = grid_only
        self._pixels: dict[TileKey, np.ndarray] = {}

    def set_grid(self, grid: TerrainGrid, bounds: QRectF) -> None:
        self.prepareGeometryChange()
        self.grid = grid
        self._bounds = bounds
        self.clear_tiles()

    def render_tile(self, key: TileKey) -> QImage:
        ppu, _variant, tx, ty = key
        span = TILE / ppu
        # One extra row and column so grid edges on the tile border are found, then cropped.
        argb = np.ascontiguousarray(self.grid.render(tx * span, ty * span, TILE + 1, TILE + 1, ppu, HEX_SIZE,
                                                     grid_only=self.grid_only)[:TILE, :TILE])
        # The image shares the array's memory, so a terrain edit can patch pixels in place.
        # Premultiplied: every pixel is opaque or fully transparent black (or, grid-only,
        # premultiplied grey), and the raster engine draws this format without conversion.
        self._pixels[key] = argb
        return QImage(argb.data, TILE, TILE, TILE * 4, QImage.Format.Format_ARGB32_Premultiplied)

    def forget_tile(self, key: TileKey) -> None:
        self._pixels.pop(key, None)

    @property
    def pending(self) -> bool:
        """True while any tiled layer of the scene still shows stand-ins (screenshots wait)."""
        scene = self.scene()
        if scene is None:
            return self._refresh_scheduled
        return any(isinstance(i, TiledItem) and i._refresh_scheduled for i in scene.items())

    def set_grid_lines(self, on: bool) -> None:
        self.grid.grid_lines = on
        if not self.grid_only:
            self.clear_tiles()
        scene: Any = self.scene()
        if scene is not None and hasattr(scene, "sync_grid_item"):
            scene.sync_grid_item()

    def itemChange(self, change: QGraphicsItem.GraphicsItemChange, value: Any) -> Any:
        # Hiding the terrain must not hide the grid: the scene then shows the grid-only item.
        if change == QGraphicsItem.GraphicsItemChange.ItemVisibleHasChanged and not self.grid_only:
            scene: Any = self.scene()
            if scene is not None and hasattr(scene, "sync_grid_item"):
                scene.sync_grid_item()
        return super().itemChange(change, value)

    def terrain_changed(self, hexes: Iterable[Hex]) -> None:
        """Update the grid for these hexes and re-render, in place, only the pixels of the
        cached tiles that hold them (a brush dab costs a hex-sized patch, not a tile)."""
        hexes = list(hexes)
        self.grid.update_hexes(hexes)
        if self.grid_only:
            return
        dirty = QRectF()
        s = self.layout.size * 1.05
        for h in hexes:
            cx, cy = self.layout.center(h)
            r = QRectF(cx - s, cy - s, 2 * s, 2 * s)
            dirty = r if dirty.isNull() else dirty.united(r)
        if dirty.isNull():
            return
        # One pass over the cache for the whole change (a stroke's dab, a pasted block).
        for key in self.cached_tiles_in(dirty):
            for h in hexes if len(hexes) <= 8 else ():
                cx, cy = self.layout.center(h)
                self._patch(key, QRectF(cx - s, cy - s, 2 * s, 2 * s))
            if len(hexes) > 8:
                self._patch(key, dirty)
        self.update(dirty)

    def _patch(self, key: TileKey, r: QRectF) -> None:
        ppu, _variant, tx, ty = key
        arr = self._pixels.get(key)
        if arr is None:
            if self._tiles.pop(key, None) is not None:
                self._forget(key)
            return
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

