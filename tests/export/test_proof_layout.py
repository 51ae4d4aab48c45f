"""Proof PDF layout (editor/export/pdf.py): legend entries agree in number ("1 hex") and do not
overlap; map tiles cover the map's used extent, so no tile is mostly blank (SFN tile 1 was about
70 % blank: its first ten columns are off the map)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtGui import QImage

from conftest import REPO
from editor.export.pdf import ProofBuilder, ProofOptions, count, export_proof_pdf, legend_text, used_extent
from editor.qt_geometry import layout_for, scene_rect
from model.bundle import load_bundle
from model.hexes import Hex
from model.label_layout import flow
from pdftools import need, text, words

pytestmark = pytest.mark.usefixtures("qapp")


def test_counts_agree_with_their_number() -> None:
    assert count(1, "hex", "hexes") == "1 hex"
    assert count(0, "hex", "hexes") == "0 hexes"
    assert count(17, "hex", "hexes") == "17 hexes"
    assert legend_text("reinforcement hexes", [Hex(0, 0)], []) == "reinforcement hexes: 1 hex"
    from model.base import HexsideKey

    assert legend_text("Beach", [Hex(0, 0), Hex(1, 0)], [HexsideKey(Hex(0, 0), 0)]) == "Beach: 2 hexes, 1 gap hexside"


@settings(max_examples=100, deadline=None)
@given(st.lists(st.floats(1, 400), max_size=20), st.floats(50, 300))
def test_flowed_legend_items_never_overlap(widths: list[float], width: float) -> None:
    rects = flow(widths, 10.0, width, gap=2.0)
    assert len(rects) == len(widths)
    for i, a in enumerate(rects):
        assert a.x >= 0 and a.right <= width + 1e-6
        for b in rects[i + 1:]:
            assert not a.overlaps(b)


@pytest.fixture(scope="module")
def utah_pdf(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, object]:
    bundle = load_bundle(REPO / "scenarios" / "utah-beach").bundle
    out = tmp_path_factory.mktemp("utah") / "utah.pdf"
    return out, export_proof_pdf(bundle, out, ProofOptions(hex_mm=10, validate=False))


def test_beach_overlay_legend_reads_1_hex_and_does_not_overlap(utah_pdf: tuple[Path, object]) -> None:
    pdf, summary = utah_pdf
    page = next(p for t, p in summary.sections if t.startswith("Beach overlay"))  # type: ignore[attr-defined]
    page_text = text(pdf, page, page)
    assert "reinforcement hexes: 1 hex" in page_text
    assert "1 hexes" not in page_text
    assert "Utah Beach Overlay: 17 hexes, 3 gap hexsides" in page_text
    boxes = words(pdf, page)
    top = min(y0 for w, _, y0, _, _ in boxes if w == "Overlay:")  # the legend's first row
    legend = [b for b in boxes if b[2] >= top - 1]
    assert len(legend) >= 10
    for i, (wa, ax0, ay0, ax1, ay1) in enumerate(legend):
        for wb, bx0, by0, bx1, by1 in legend[i + 1:]:
            overlap = min(ax1, bx1) - max(ax0, bx0) > 0.5 and min(ay1, by1) - max(ay0, by0) > 0.5
            assert not overlap, (wa, wb)


@pytest.mark.parametrize("sample", ["second-front-now", "utah-beach", "killing-ground"])
def test_no_map_tile_is_mostly_blank(sample: str) -> None:
    """Each tile lies inside the used extent and its on-grid hexes fill at least 45 % of it
    (a diagonal coast leaves a triangle blank; a rectangle of void does not survive)."""
    bundle = load_bundle(REPO / "scenarios" / sample).bundle
    builder = ProofBuilder(bundle, Path("unused.pdf"), ProofOptions(), None)
    for hmap in bundle.maps.values():
        lay = layout_for(hmap)
        extent = used_extent(hmap, lay)
        centres = [lay.center(h) for h in hmap.hexes()]
        hex_area = 3 * math.sqrt(3) / 2 * lay.size ** 2
        tiles = builder.map_tiles(hmap)
        assert tiles
        for t in tiles:
            assert extent.adjusted(-1e-6, -1e-6, 1e-6, 1e-6).contains(t)
            filled = sum(1 for x, y in centres if t.contains(x, y)) * hex_area / (t.width() * t.height())
            assert filled >= 0.45, (hmap.id, t, filled)
        # Every on-grid hex is on some tile.
        assert all(any(t.contains(x, y) for t in tiles) for x, y in centres)


def test_sfn_tile_1_is_map_not_paper(tmp_path: Path) -> None:
    """Render the first map tile's page and count its non-white pixels in the map area."""
    bundle = load_bundle(REPO / "scenarios" / "second-front-now").bundle
    hmap = next(iter(bundle.maps.values()))
    lay = layout_for(hmap)
    assert used_extent(hmap, lay).x() > scene_rect(hmap, lay).x() + 5 * lay.size  # ten void columns
    pdf = tmp_path / "sfn.pdf"
    summary = export_proof_pdf(bundle, pdf, ProofOptions(validate=False))
    page = next(p for t, p in summary.sections if t.startswith("Map "))
    import subprocess

    subprocess.run([need("pdftoppm"), "-r", "30", "-png", "-f", str(page), "-l", str(page), str(pdf),
                    str(tmp_path / "tile")], check=True)
    img = QImage(str(next(tmp_path.glob("tile*.png"))))
    # The map area: below the caption (10 mm + 10 mm margin) and inside the page margins.
    mm = img.width() / 210.0
    x0, x1, y0, y1 = int(11 * mm), int(199 * mm), int(21 * mm), int(img.height() - 11 * mm)
    ink = sum(1 for y in range(y0, y1, 2) for x in range(x0, x1, 2) if img.pixelColor(x, y).lightness() < 245)
    total = len(range(y0, y1, 2)) * len(range(x0, x1, 2))
    assert ink / total > 0.8, ink / total
