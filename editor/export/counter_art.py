"""Counter artwork for proofs and VASSAL pieces: one side of a counter drawn into a square.

Colours come from the game system (nationality, else side); the printed values are the
system's ``counter_fields`` in their declared order, so a new game needs no code here.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QImage, QPainter, QPen

from model.counters import Counter, CounterSide
from model.system import UNKNOWN, GameSystem


def colours(counter: Counter, system: GameSystem) -> tuple[QColor, QColor]:
    """(background, text) for a counter: nationality colours, else the side's colour."""
    for nat in system.nationalities:
        if nat.id == counter.nationality:
            return QColor(nat.color), QColor(nat.text_color)
    side = system.side_by_id.get(counter.side)
    bg = QColor(side.color if side else "#c0c0c0")
    text = QColor("#000000") if bg.lightness() > 110 else QColor("#ffffff")
    return bg, text


def values_line(side: CounterSide, system: GameSystem) -> str:
    """Printed values in the system's field order, then any others (nothing is dropped). A value
    the data gives as ``unknown`` (the rules we hold do not print it), or none, is drawn ``?``:
    ``?-?-?`` reads as a counter, where five ``unknown`` words shrank to unreadable type."""
    order = [f.id for f in system.counter_fields]
    keys = [k for k in order if k in side.values] + sorted(k for k in side.values if k not in order)
    return "-".join("?" if side.values[k] in (None, UNKNOWN) else str(side.values[k]) for k in keys)


MIN_TEXT_PX = 4  # smallest type before text wraps anywhere (a 60 px VASSAL piece)
WRAP = Qt.TextFlag.TextWordWrap
WRAP_ANYWHERE = Qt.TextFlag.TextWrapAnywhere
ONE_LINE = Qt.TextFlag(0)
COUNTER_FLOOR = 0.08  # of the counter's side: see counter_floor
ELLIPSIS = "\u2026"


class Fit(NamedTuple):
    """How to draw a text in a box: the font, the wrap flag and the text itself, which is the
    given text unless it had to be elided (then it ends in ``…`` and ``elided`` is true)."""

    font: QFont
    flag: Qt.TextFlag
    text: str
    elided: bool = False


def fit_text(text: str, box: QRectF, pixels: int, bold: bool = False, floor: int = MIN_TEXT_PX,
             elide: bool = False, wrap: bool = True) -> Fit:
    """The one text-fitting helper (counters, map labels, PDF legends): fit ``text`` inside ``box``.

    In order: the largest size from ``pixels`` down to ``floor`` at which the text fits
    (word-wrapped if ``wrap``, else on one line); then, if ``elide``, one line at ``floor``
    elided with ``…`` to the box's width (empty if not one letter fits); else wrapped anywhere
    at the largest size that fits, down to ``floor``. Shrink, then elide or wrap, never clip
    (a back printing 'unknown' values, a TKG id such as ``us_vii_corps_hq`` on a small counter)."""
    size, flag, shown, elided = _fit(text, round(box.width(), 2), round(box.height(), 2), int(pixels), bold,
                                     max(1, int(floor)), elide, wrap)
    font = QFont()
    font.setBold(bold)
    font.setPixelSize(size)
    return Fit(font, Qt.TextFlag(flag), shown, elided)


@lru_cache(maxsize=4096)
def _fit(text: str, w: float, h: float, pixels: int, bold: bool, floor: int, elide: bool,
         wrap: bool) -> tuple[int, int, str, bool]:
    # Cached: the map and the stacks are repainted often with the same few texts and boxes.
    box = QRectF(0, 0, w, h)
    font = QFont()
    font.setBold(bold)
    first = WRAP if wrap else ONE_LINE
    for size in range(max(floor, pixels), floor - 1, -1):
        font.setPixelSize(size)
        if fits(text, box, font, first):
            return size, int(first), text, False
    if elide:
        font.setPixelSize(floor)
        short = QFontMetricsF(font).elidedText(text, Qt.TextElideMode.ElideRight, w)
        if short and short != ELLIPSIS and fits(short, box, font, ONE_LINE):
            return floor, int(ONE_LINE), short, True
        return floor, int(ONE_LINE), "", True
    for size in range(max(floor, pixels), floor - 1, -1):
        font.setPixelSize(size)
        if fits(text, box, font, WRAP_ANYWHERE):
            return size, int(WRAP_ANYWHERE), text, False
    return floor, int(WRAP_ANYWHERE), text, False


def fits(text: str, box: QRectF, font: QFont, flag: Qt.TextFlag) -> bool:
    """Whether ``text`` laid out in ``box`` with ``flag`` stays inside it."""
    used = QFontMetricsF(font).boundingRect(QRectF(0, 0, box.width(), box.height()),
                                            int(Qt.AlignmentFlag.AlignCenter | flag), text)
    return used.width() <= box.width() + 0.01 and used.height() <= box.height() + 0.01


def counter_floor(rect: QRectF) -> int:
    """Smallest type on a counter: 8 % of its side (5 px on a 60 px VASSAL piece, 15 px on a
    5/8-inch counter at 300 dpi), below which a line is elided rather than shrunk further."""
    return max(MIN_TEXT_PX, round(rect.height() * COUNTER_FLOOR))


def text_blocks(counter: Counter, system: GameSystem, back: bool, rect: QRectF) -> list[tuple[str, QRectF, int, bool]]:
    """(text, box, largest pixel size, bold) of each line of type drawn on one side."""
    side = counter.back if back else counter.front
    pad = rect.width() * 0.06
    inner = rect.adjusted(pad, pad, -pad, -pad)
    h = rect.height()
    designation = (side.designation if side is not None else None) or counter.name
    state = side.state if side is not None and side.state else ("back" if back else counter.category)
    values = values_line(side, system) if side is not None else counter.id
    return [
        (designation, QRectF(inner.x(), inner.y(), inner.width(), inner.height() * 0.32), int(h * 0.14), False),
        (state, QRectF(inner.x(), inner.y() + inner.height() * 0.34, inner.width(), inner.height() * 0.3),
         int(h * 0.11), False),
        (values, QRectF(inner.x(), inner.bottom() - inner.height() * 0.32, inner.width(), inner.height() * 0.32),
         int(h * 0.16), True),
    ]


def draw_counter(painter: QPainter, rect: QRectF, counter: Counter, system: GameSystem, back: bool = False) -> None:
    """Draw one side; the back of a one-sided counter is drawn blank with its id (for duplex)."""
    side = counter.back if back else counter.front
    bg, fg = colours(counter, system)
    painter.save()
    if back and side is None:
        bg = bg.lighter(160)
    painter.setBrush(bg)
    painter.setPen(QPen(QColor("#202020"), max(0.5, rect.width() / 80)))
    painter.drawRect(rect)
    painter.setPen(fg)
    for text, box, pixels, bold in text_blocks(counter, system, back, rect):
        fit = fit_text(text, box, pixels, bold, floor=counter_floor(rect), elide=True)
        painter.setFont(fit.font)
        painter.drawText(box, Qt.AlignmentFlag.AlignCenter | fit.flag, fit.text)
    painter.restore()


def counter_image(counter: Counter, system: GameSystem, back: bool = False, px: int = 75) -> QImage:
    """A px×px image of one side (VASSAL piece images, PNG proofs)."""
    img = QImage(px, px, QImage.Format.Format_ARGB32)
    img.fill(QColor(0, 0, 0, 0))
    p = QPainter(img)
    p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    draw_counter(p, QRectF(0.5, 0.5, px - 1, px - 1), counter, system, back)
    p.end()
    return img
