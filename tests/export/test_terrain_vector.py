"""The proof PDF draws terrain as vector hexes (editor/export/map_render.paint_terrain_vector);
the numpy rasteriser it replaced there (TerrainGrid.render, still used for images and the
editor's tiles) is the reference. Both are drawn over the same region at the same pixel
scale, the vector one into an image without antialiasing, and compared pixel by pixel away
from hex edges (where the raster darkens one pixel and the vector stroke straddles the edge).

Maps: every sample's first map (flat, odd) and generated maps in all four layouts (flat and
pointy, odd and even), with holes (``-``), a character outside the legend (magenta) and
terrains outside the system (magenta too).
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QImage, QPainter

from conftest import REPO
from editor.export.map_render import draw_terrain_vector, terrain_paths
from editor.map_view.raster import TerrainGrid, _cube_round
from editor.qt_geometry import HEX_SIZE, layout_for, scene_rect
from model.bundle import load_bundle
from model.labels import GridModel, Sheet
from model.layout import Layout
from model.mapdata import HexMap

pytestmark = pytest.mark.usefixtures("qapp")

SAMPLES = sorted(p.name for p in (REPO / "scenarios").iterdir() if (p / "game.yaml").exists())
EDGE_PX = 2  # pixels this close to a hex edge are not compared


def vector_pixels(grid: TerrainGrid, layout: Layout, source: QRectF, ppu: float) -> np.ndarray:
    """ARGB32 of ``source`` at ``ppu`` pixels per scene unit, drawn by the vector path."""
    w, h = int(round(source.width() * ppu)), int(round(source.height() * ppu))
    img = QImage(w, h, QImage.Format.Format_ARGB32)
    img.fill(0)
    p = QPainter(img)
    p.setRenderHint(QPainter.RenderHint.Antialiasing, False)
    p.scale(ppu, ppu)
    p.translate(-source.x(), -source.y())
    draw_terrain_vector(p, grid, layout, source, ppu)
    p.end()
    buf = np.frombuffer(img.constBits(), dtype=np.uint32, count=img.bytesPerLine() * h // 4)
    return buf.reshape(h, img.bytesPerLine() // 4)[:, :w].copy()


def interior_mask(grid: TerrainGrid, source: QRectF, w: int, h: int, ppu: float) -> np.ndarray:
    """True for pixels at least EDGE_PX from any pixel of another hex (same rounding as the raster)."""
    px = ((source.x() + (np.arange(w) + 0.5) / ppu) / HEX_SIZE).astype(np.float32)
    py = ((source.y() + (np.arange(h) + 0.5) / ppu) / HEX_SIZE).astype(np.float32)
    mx, my = np.meshgrid(px, py)
    if grid.orientation == "flat":
        fq, fr = np.float32(2 / 3) * mx, np.float32(-1 / 3) * mx + np.float32(np.sqrt(3) / 3) * my
    else:
        fq, fr = np.float32(np.sqrt(3) / 3) * mx - np.float32(1 / 3) * my, np.float32(2 / 3) * my
    q, r = _cube_round(fq, fr)
    ident = q.astype(np.int64) * 65536 + r
    ok = np.ones((h, w), dtype=bool)
    for dy in range(-EDGE_PX, EDGE_PX + 1):
        for dx in range(-EDGE_PX, EDGE_PX + 1):
            shifted = np.roll(np.roll(ident, dy, axis=0), dx, axis=1)
            ok &= shifted == ident
    ok[:EDGE_PX, :] = ok[-EDGE_PX:, :] = False  # np.roll wraps around: drop the border
    ok[:, :EDGE_PX] = ok[:, -EDGE_PX:] = False
    return ok


def agreement(grid: TerrainGrid, layout: Layout, source: QRectF, ppu: float) -> tuple[float, int]:
    w, h = int(round(source.width() * ppu)), int(round(source.height() * ppu))
    raster = grid.render(source.x(), source.y(), w, h, ppu, HEX_SIZE)
    vector = vector_pixels(grid, layout, source, ppu)
    mask = interior_mask(grid, source, w, h, ppu)
    compared = int(mask.sum())
    same = int((raster[mask] == vector[mask]).sum())
    return same / max(1, compared), compared


@pytest.mark.parametrize("sample", SAMPLES)
def test_vector_terrain_matches_the_raster_on_every_sample(sample: str) -> None:
    bundle = load_bundle(REPO / "scenarios" / sample).bundle
    assert bundle is not None
    hmap = bundle.default_map
    layout = layout_for(hmap)
    grid = TerrainGrid(hmap, bundle.system)
    full = scene_rect(hmap, layout)
    rng = random.Random(sample)
    for _ in range(3):
        # A page-tile-sized region somewhere on the map, at the proof's terrain resolution
        # (150 dpi at 16 mm hexes is about 0.5 px per scene unit) and at a finer one.
        w, h = min(full.width(), 900.0), min(full.height(), 700.0)
        x = full.x() + rng.uniform(0, max(0.0, full.width() - w))
        y = full.y() + rng.uniform(0, max(0.0, full.height() - h))
        for ppu in (0.55, 1.3):
            share, compared = agreement(grid, layout, QRectF(x, y, w, h), ppu)
            assert compared > 1000
            assert share >= 0.99, (sample, x, y, ppu, share)


@pytest.mark.parametrize("orientation", ["flat", "pointy"])
@pytest.mark.parametrize("stagger", ["odd", "even"])
def test_vector_terrain_matches_the_raster_in_every_layout(orientation: str, stagger: str) -> None:
    bundle = load_bundle(REPO / "scenarios" / "utah-beach").bundle
    assert bundle is not None
    system = bundle.system
    rng = random.Random(f"{orientation}-{stagger}")
    legend = {ch: t.id for ch, t in zip("abcdefgh", system.terrain)}
    legend["z"] = "not-a-terrain-of-this-system"  # drawn magenta by both paths
    chars = "".join(legend) + "-?"  # '-' no hex, '?' outside the legend (magenta)
    grid_model = GridModel(orientation=orientation, stagger=stagger,
                           sheets=[Sheet(id="a", cols=14, rows=11), Sheet(id="b", x0=16, y0=3, cols=9, rows=8)])
    rows = ["".join(rng.choice(chars) for _ in range(27)) for _ in range(12)]
    hmap = HexMap.model_validate({"id": "m", "name": "m", "grid": grid_model.model_dump(),
                                  "terrain": {"legend": legend, "rows": "\n".join(rows)}},
                                 context={"grid": grid_model.spec()})
    layout = layout_for(hmap)
    grid = TerrainGrid(hmap, system)
    full = scene_rect(hmap, layout)
    for ppu in (0.6, 1.0, 2.2):
        share, compared = agreement(grid, layout, full, ppu)
        assert compared > 1000
        assert share >= 0.99, (orientation, stagger, ppu, share)
    # The edges: the vector strokes use exactly the raster's darkened edge colours (and no
    # colour the raster lacks), so the grid reads the same on paper as on screen.
    w, h = int(round(full.width())), int(round(full.height()))
    raster = grid.render(full.x(), full.y(), w, h, 1.0, HEX_SIZE)
    vector = vector_pixels(grid, layout, full, 1.0)
    edge_colours = set(np.unique(raster).tolist()) - set(grid.lut.tolist())
    assert edge_colours, "the raster bakes darkened grid edges at this scale"
    vector_colours = set(np.unique(vector).tolist())
    assert vector_colours <= set(np.unique(raster).tolist()) | {0}
    assert edge_colours <= vector_colours
    # Magenta, the "unknown terrain" colour, is drawn by the vector path too.
    codes = {code for code, _ in terrain_paths(grid, layout, full)}
    assert grid.unknown in codes


def test_vector_terrain_holds_one_path_per_terrain_and_every_hex_in_view() -> None:
    bundle = load_bundle(REPO / "scenarios" / "utah-beach").bundle
    assert bundle is not None
    hmap = bundle.default_map
    layout = layout_for(hmap)
    grid = TerrainGrid(hmap, bundle.system)
    source = QRectF(200, 300, 700, 500)
    paths = terrain_paths(grid, layout, source)
    codes = [c for c, _ in paths]
    assert codes == sorted(set(codes)) and 0 not in codes
    drawn = sum(p.elementCount() for _, p in paths) // 7  # 6 corners + the closing point per hex
    inside = [h for h in hmap.hexes() if source.contains(*layout.center(h))]
    assert drawn >= len(inside) > 50
