"""Terrain rasterisation with numpy: a terrain-index grid → RGBA tile images.

Each tile pixel is mapped back to a fractional hex, rounded in cube space (vectorised Red
Blob hex rounding), converted to offset coordinates and looked up in the terrain grid; the
colour table comes from the game system. This is the low-zoom fast path; the per-hex
reference (``HexMap.terrain_at``) is what tests compare it against.
"""

from __future__ import annotations

import numpy as np

from model.mapdata import VOID, HexMap
from model.system import GameSystem


def parse_color(text: str) -> tuple[int, int, int]:
    text = text.lstrip("#")
    return int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16)


GRID_MIN_TILE_PX = 5.0  # hex size in tile pixels from which grid lines are baked in


class TerrainGrid:
    """Terrain as a 2-D array of colour-table indices (0 = no hex), indexed [row, col]."""

    grid_lines = True
    grid_strength = 1.0  # the grid layer's opacity: 1 darkens edge pixels to 60 %

    def __init__(self, hmap: HexMap, system: GameSystem) -> None:
        self.hmap = hmap
        self.system = system
        self.x0, self.y0 = hmap.offset_origin()
        self.cols, self.rows = hmap.size()
        self.orientation = hmap.grid.orientation
        self.stagger = hmap.grid.stagger
        ids = [t.id for t in system.terrain]
        self.index_of = {tid: i + 1 for i, tid in enumerate(ids)}
        # Unknown terrain ids (not in the system) draw magenta so they are noticed.
        table = [(0, 0, 0, 0)] + [(*parse_color(t.color), 255) for t in system.terrain] + [(255, 0, 255, 255)]
        self.unknown = len(table) - 1
        self.lut = np.array([(a << 24) | (r << 16) | (g << 8) | b for r, g, b, a in table], dtype=np.uint32)
        self.grid = np.zeros((self.rows, self.cols), dtype=np.uint16)
        self._pad: np.ndarray | None = None
        self.rebuild()

    def _padded(self) -> np.ndarray:
        """The grid with a one-cell border of 0, flattened (rebuilt after edits)."""
        if self._pad is None:
            pad = np.zeros((self.rows + 2, self.cols + 2), dtype=np.uint16)
            pad[1:-1, 1:-1] = self.grid
            self._pad = pad.ravel()
        return self._pad

    def code_for_char(self, ch: str) -> int:
        if ch == VOID:
            return 0
        tid = self.hmap.terrain.legend.get(ch)
        if tid is None:
            return self.unknown
        return self.index_of.get(tid, self.unknown)

    def rebuild(self) -> None:
        codes = {ch: self.code_for_char(ch) for ch in self.hmap.terrain.legend}
        codes[VOID] = 0
        for j, line in enumerate(self.hmap.terrain.lines[: self.rows]):
            row = [codes.get(c, self.unknown) for c in line[: self.cols]]
            self.grid[j, : len(row)] = row
            self.grid[j, len(row):] = 0
        self._pad = None

    def update_hexes(self, hexes: object) -> None:
        for h in hexes:  # type: ignore[attr-defined]
            x, y = self.hmap.spec.offset(h)
            i, j = x - self.x0, y - self.y0
            if 0 <= j < self.rows and 0 <= i < self.cols:
                self.grid[j, i] = self.code_for_char(self.hmap.terrain_char(h))
                if self._pad is not None:
                    self._pad[(j + 1) * (self.cols + 2) + i + 1] = self.grid[j, i]

    def render(self, x: float, y: float, width: int, height: int, scale: float, size: float,
               grid_only: bool = False) -> np.ndarray:
        """ARGB32 pixels (height × width) of the scene rectangle starting at (x, y).

        ``scale`` is pixels per scene unit and ``size`` the hex size in scene units. With
        ``grid_only`` the pixels are transparent except the grid lines (premultiplied grey).
        """
        # float32 halves the work; map units stay below ~10^4, far inside its precision.
        px = ((x + (np.arange(width, dtype=np.float64) + 0.5) / scale) / size).astype(np.float32)
        py = ((y + (np.arange(height, dtype=np.float64) + 0.5) / scale) / size).astype(np.float32)
        mx, my = np.meshgrid(px, py)
        if self.orientation == "flat":
            fq = np.float32(2.0 / 3.0) * mx
            fr = np.float32(-1.0 / 3.0) * mx + np.float32(np.sqrt(3.0) / 3.0) * my
        else:
            fq = np.float32(np.sqrt(3.0) / 3.0) * mx - np.float32(1.0 / 3.0) * my
            fr = np.float32(2.0 / 3.0) * my
        q, r = _cube_round(fq, fr)
        if self.orientation == "flat":
            ox = q
            oy = r + ((q - (q & 1)) // 2 if self.stagger == "odd" else (q + (q & 1)) // 2)
        else:
            oy = r
            ox = q + ((r - (r & 1)) // 2 if self.stagger == "odd" else (r + (r & 1)) // 2)
        # Look up in a copy of the grid with a border of "no hex": indices clipped into the
        # border need no boolean masks (the slowest part of a tile before).
        padded = self._padded()
        i = np.clip(ox - (self.x0 - 1), 0, self.cols + 1)
        j = np.clip(oy - (self.y0 - 1), 0, self.rows + 1)
        j *= self.cols + 2
        j += i
        codes = padded.take(j)
        argb = self.lut[codes] if not grid_only else np.zeros(codes.shape, dtype=np.uint32)
        if self.grid_lines and size * scale >= GRID_MIN_TILE_PX:
            # Grid baked into the tile: a pixel whose right or lower neighbour lies in
            # another hex is on a hex edge; darken it (cached with the tile, so free to pan).
            ident = q * 65536 + r
            edge = np.zeros(ident.shape, dtype=bool)
            edge[:, :-1] |= ident[:, :-1] != ident[:, 1:]
            edge[:-1, :] |= ident[:-1, :] != ident[1:, :]
            edge &= codes > 0
            if grid_only:
                # Dark grey lines, alpha = the grid opacity (premultiplied ARGB).
                a = int(round(200 * self.grid_strength))
                g = 0x40 * a // 255
                argb[edge] = np.uint32((a << 24) | (g << 16) | (g << 8) | g)
                return argb
            px = argb[edge]
            # Darken to 60 % at full opacity, less as the grid layer fades (integer math).
            keep = np.uint32(1000 - int(round(400 * self.grid_strength)))
            dark = (((px >> 16 & 255) * keep // 1000) << 16) | (((px >> 8 & 255) * keep // 1000) << 8) \
                | ((px & 255) * keep // 1000)
            argb[edge] = (px & np.uint32(0xFF000000)) | dark
        return argb


def _cube_round(fq: np.ndarray, fr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    fs = -fq - fr
    q = np.rint(fq)
    r = np.rint(fr)
    s = np.rint(fs)
    dq = np.abs(q - fq)
    dr = np.abs(r - fr)
    ds = np.abs(s - fs)
    fix_q = (dq > dr) & (dq > ds)
    fix_r = ~fix_q & (dr > ds)
    q = np.where(fix_q, -r - s, q)
    r = np.where(fix_r, -q - s, r)
    return q.astype(np.int32), r.astype(np.int32)
