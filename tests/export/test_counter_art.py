"""Counter artwork (VASSAL pieces, PNG proofs): every line of type fits its box on both sides
of every counter of the three samples — shrunk or wrapped, never clipped. Checked by drawing
each line unclipped on a larger canvas and looking for ink outside its box."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter

from conftest import REPO
from editor.export.counter_art import fit_text, text_blocks
from model.bundle import load_bundle

pytestmark = pytest.mark.usefixtures("qapp")
PX = 60  # export-vassal's default --counter-px
MARGIN = 40


def ink_outside(text: str, box: QRectF, font, flag) -> int:
    """Pixels inked outside ``box`` (1 px antialiasing allowed) when ``text`` is drawn unclipped."""
    img = QImage(PX + 2 * MARGIN, PX + 2 * MARGIN, QImage.Format.Format_ARGB32)
    img.fill(QColor(0, 0, 0, 0))
    p = QPainter(img)
    p.setFont(font)
    p.setPen(QColor("#000000"))
    shifted = box.translated(MARGIN, MARGIN)
    # TextDontClip: drawText into a rectangle otherwise clips at it, which hides the overflow
    p.drawText(shifted, Qt.AlignmentFlag.AlignCenter | flag | Qt.TextFlag.TextDontClip, text)
    p.end()
    allowed = shifted.adjusted(-1, -1, 1, 1)
    count = 0
    for y in range(img.height()):
        for x in range(img.width()):
            if img.pixelColor(x, y).alpha() > 40 and not allowed.contains(x + 0.5, y + 0.5):
                count += 1
    return count


@pytest.mark.parametrize("sample", ["utah-beach", "second-front-now", "killing-ground"])
def test_counter_text_is_never_clipped(sample: str) -> None:
    bundle = load_bundle(REPO / "scenarios" / sample).bundle
    rect = QRectF(0.5, 0.5, PX - 1, PX - 1)
    seen: set[tuple[str, int, bool]] = set()
    for c in bundle.counters:
        for back in (False, True):
            for text, box, pixels, bold in text_blocks(c, bundle.system, back, rect):
                if (text, int(box.height()), bold) in seen:
                    continue
                seen.add((text, int(box.height()), bold))
                font, flag = fit_text(text, box, pixels, bold)
                assert ink_outside(text, box, font, flag) == 0, (c.id, back, text, font.pixelSize())
    assert seen


def test_long_values_are_shrunk_where_the_fixed_size_overflowed() -> None:
    """The Utah backs print five 'unknown' values: at the old fixed size their words ran past both
    edges. They are drawn ``?`` now; a line as long as the old one still fits by shrinking."""
    bundle = load_bundle(REPO / "scenarios" / "utah-beach").bundle
    c = bundle.counter_index()["a-1-502"]
    values, box, pixels, bold = text_blocks(c, bundle.system, True, QRectF(0.5, 0.5, PX - 1, PX - 1))[2]
    assert values == "?-?-?-?-?"
    text = "-".join(["unknown"] * 5)
    from PySide6.QtGui import QFont

    fixed = QFont()
    fixed.setBold(True)
    fixed.setPixelSize(pixels)
    assert ink_outside(text, box, fixed, Qt.TextFlag(0)) > 0  # the old drawing: fixed size, one line, clipped
    font, flag = fit_text(text, box, pixels, bold)
    assert ink_outside(text, box, font, flag) == 0
