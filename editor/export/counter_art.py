"""Counter artwork for proofs and VASSAL pieces: one side of a counter drawn into a square.

Colours come from the game system (nationality, else side); the printed values are the
system's ``counter_fields`` in their declared order, so a new game needs no code here.
"""

from __future__ import annotations

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


def fit_text(text: str, box: QRectF, pixels: int, bold: bool = False) -> tuple[QFont, Qt.TextFlag]:
    """Font and wrap flag that fit ``text`` inside ``box``: the largest size up to ``pixels``
    whose word-wrapped text fits, else wrapped anywhere at the largest size that fits, down to
    MIN_TEXT_PX — shrink or wrap, never clip (a back printing 'unknown' values, a long designation)."""
    font = QFont()
    font.setBold(bold)
    for flag in (WRAP, WRAP_ANYWHERE):
        for size in range(max(MIN_TEXT_PX, pixels), MIN_TEXT_PX - 1, -1):
            font.setPixelSize(size)
            if fits(text, box, font, flag):
                return font, flag
    font.setPixelSize(MIN_TEXT_PX)
    return font, WRAP_ANYWHERE


def fits(text: str, box: QRectF, font: QFont, flag: Qt.TextFlag) -> bool:
    """Whether ``text`` laid out in ``box`` with ``flag`` stays inside it."""
    used = QFontMetricsF(font).boundingRect(QRectF(0, 0, box.width(), box.height()),
                                            int(Qt.AlignmentFlag.AlignCenter | flag), text)
    return used.width() <= box.width() + 0.01 and used.height() <= box.height() + 0.01


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
        font, flag = fit_text(text, box, pixels, bold)
        painter.setFont(font)
        painter.drawText(box, Qt.AlignmentFlag.AlignCenter | flag, text)
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
