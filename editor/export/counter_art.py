"""Counter artwork for proofs and VASSAL pieces: one side of a counter drawn into a square.

Colours come from the game system (nationality, else side); the printed values are the
system's ``counter_fields`` in their declared order, so a new game needs no code here.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QImage, QPainter, QPen

from model.counters import Counter, CounterSide
from model.system import GameSystem


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
    """Printed values in the system's field order, then any others (nothing is dropped)."""
    order = [f.id for f in system.counter_fields]
    keys = [k for k in order if k in side.values] + sorted(k for k in side.values if k not in order)
    return "-".join("?" if side.values[k] is None else str(side.values[k]) for k in keys)


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
    pad = rect.width() * 0.06
    inner = rect.adjusted(pad, pad, -pad, -pad)
    font = QFont()
    font.setPixelSize(max(1, int(rect.height() * 0.14)))
    painter.setFont(font)
    top = QRectF(inner.x(), inner.y(), inner.width(), inner.height() * 0.3)
    designation = (side.designation if side is not None else None) or counter.name
    painter.drawText(top, Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap,
                     designation)
    mid = QRectF(inner.x(), inner.y() + inner.height() * 0.34, inner.width(), inner.height() * 0.3)
    small = QFont(font)
    small.setPixelSize(max(1, int(rect.height() * 0.11)))
    painter.setFont(small)
    state = side.state if side is not None and side.state else ("back" if back else counter.category)
    painter.drawText(mid, Qt.AlignmentFlag.AlignCenter, state)
    bottom = QRectF(inner.x(), inner.bottom() - inner.height() * 0.3, inner.width(), inner.height() * 0.3)
    big = QFont(font)
    big.setBold(True)
    big.setPixelSize(max(1, int(rect.height() * 0.16)))
    painter.setFont(big)
    painter.drawText(bottom, Qt.AlignmentFlag.AlignCenter, values_line(side, system) if side is not None else counter.id)
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
