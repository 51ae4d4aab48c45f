"""Counter artwork (VASSAL pieces, PNG proofs): every line of type fits its box on both sides
of every counter of the three samples — shrunk to a floor, then elided, never clipped. Checked by
drawing each line unclipped on a larger canvas and looking for ink outside its box."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter

from conftest import REPO
from editor.export.counter_art import ELLIPSIS, counter_floor, fit_text, text_blocks
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
                fit = fit_text(text, box, pixels, bold, floor=counter_floor(rect), elide=True)  # as draw_counter
                assert ink_outside(fit.text, box, fit.font, fit.flag) == 0, (c.id, back, text, fit.font.pixelSize())
                assert fit.font.pixelSize() >= counter_floor(rect)
                assert fit.text == text or (fit.elided and fit.text.endswith(ELLIPSIS))
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
    fit = fit_text(text, box, pixels, bold)
    assert ink_outside(fit.text, box, fit.font, fit.flag) == 0


LONGEST_TKG_ID = "us_vii_corps_hq"  # the longest counter id of the Killing Ground sample


def test_the_longest_tkg_id_is_the_longest() -> None:
    bundle = load_bundle(REPO / "scenarios" / "killing-ground").bundle
    assert max((c.id for c in bundle.counters), key=len) == LONGEST_TKG_ID


@pytest.mark.parametrize("side", [18.0, 23.0, 60.0])
def test_a_long_id_shrinks_to_the_floor_then_elides(side: float) -> None:
    """The editor draws a TKG counter with no designation by its id ("is_22_in" was the id cut at
    both edges): on a small counter it shrinks to the floor, then is elided, inside the box."""
    box = QRectF(0.5, 0.5, side - 1, side * 0.4)
    fit = fit_text(LONGEST_TKG_ID, box, 9, bold=True, floor=5, elide=True)
    assert fit.font.pixelSize() >= 5
    assert ink_outside(fit.text, box, fit.font, fit.flag) == 0
    if fit.elided:
        assert fit.text.endswith(ELLIPSIS) and LONGEST_TKG_ID.startswith(fit.text[:-1])
        # Elided only because the whole id did not fit at the floor on one line or wrapped.
        from PySide6.QtGui import QFont

        floor = QFont()
        floor.setBold(True)
        floor.setPixelSize(5)
        assert ink_outside(LONGEST_TKG_ID, box, floor, Qt.TextFlag.TextWordWrap) > 0
    else:
        assert fit.text == LONGEST_TKG_ID


def test_fit_text_shrinks_before_it_elides() -> None:
    box = QRectF(0, 0, 80, 14)
    whole = fit_text("Ste-Marie-du-Mont", box, 14, bold=True, floor=6, elide=True, wrap=False)
    assert whole.text == "Ste-Marie-du-Mont" and whole.font.pixelSize() < 14 and not whole.elided
    short = fit_text("American Reinforcement Hex 1", box, 14, bold=True, floor=6, elide=True, wrap=False)
    assert short.elided and short.font.pixelSize() == 6 and short.text.endswith(ELLIPSIS)
    assert ink_outside(short.text, box, short.font, short.flag) == 0
