"""Counter previews drawn from the data: side/nationality colours, a unit-type symbol from
the category's ``symbol`` (box, infantry cross, armour oval, artillery dot …) and the printed
values in the system's field order. Colours and value layout reuse the export artwork."""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from editor.export.counter_art import colours, fit_text, values_line
from model.counters import Counter
from model.system import GameSystem


def side_colours(counter: Counter, system: GameSystem) -> tuple[QColor, QColor]:
    return colours(counter, system)


def symbol_for(counter: Counter, system: GameSystem) -> str:
    """The category's declared symbol; categories left at the default ``box`` fall back to
    their id/tags (``armor`` → oval), so the SFN/TKG data need no extra field."""
    cat = system.category_by_id.get(counter.category)
    sym = cat.symbol if cat is not None else "box"
    if sym != "box":
        return sym
    words = " ".join([counter.category, *(cat.tags if cat else [])]).lower()
    for key, name in (("armo", "armor"), ("tank", "armor"), ("panzer", "armor"), ("artil", "artillery"),
                      ("para", "airborne"), ("airborne", "airborne"), ("glider", "airborne"), ("infan", "infantry"),
                      ("mech", "mech"), ("engin", "engineer"), ("leader", "leader"), ("hq", "leader")):
        if key in words:
            return name
    return "box"


def draw_preview(p: QPainter, rect: QRectF, counter: Counter, system: GameSystem, back: bool = False) -> None:
    side = counter.back if back else counter.front
    bg, fg = colours(counter, system)
    if back and side is None:
        bg = bg.lighter(150)
    p.save()
    p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    p.setBrush(bg)
    p.setPen(QPen(QColor("#202020"), 1))
    p.drawRoundedRect(rect, 3, 3)
    w, h = rect.width(), rect.height()
    box = QRectF(rect.x() + w * 0.28, rect.y() + h * 0.30, w * 0.44, h * 0.28)
    p.setPen(QPen(fg, 1.2))
    p.setBrush(Qt.BrushStyle.NoBrush)
    sym = symbol_for(counter, system)
    if sym != "leader":
        p.drawRect(box)
    if sym in ("infantry", "airborne", "mech"):
        p.drawLine(box.topLeft(), box.bottomRight())
        p.drawLine(box.bottomLeft(), box.topRight())
    if sym in ("armor", "mech"):
        p.drawEllipse(box.adjusted(box.width() * 0.15, box.height() * 0.2, -box.width() * 0.15, -box.height() * 0.2))
    if sym == "airborne":
        p.drawArc(QRectF(box.center().x() - box.width() * 0.25, box.bottom() - box.height() * 0.35,
                         box.width() * 0.5, box.height() * 0.5), 0, 180 * 16)
    if sym == "artillery":
        p.setBrush(fg)
        p.drawEllipse(box.center(), box.height() * 0.15, box.height() * 0.15)
    if sym == "engineer":
        p.drawLine(box.center().x() - box.width() * 0.3, box.center().y(), box.center().x() + box.width() * 0.3,
                   box.center().y())
    if sym == "leader":
        p.drawLine(box.bottomLeft(), box.center())
        p.drawLine(box.center(), box.bottomRight())
    p.setPen(fg)
    name = (side.designation if side is not None and side.designation else None) or counter.name
    text = values_line(side, system) if side is not None else "(no back)"
    for line, box, pixels, bold in ((name, QRectF(rect.x() + 2, rect.y() + 1, w - 4, h * 0.28), int(h * 0.15), False),
                                    (text, QRectF(rect.x() + 2, rect.y() + h * 0.62, w - 4, h * 0.34), int(h * 0.18),
                                     True)):
        fit = fit_text(line, box, pixels, bold)  # shrink, then wrap: never past the counter's edge
        p.setFont(fit.font)
        p.drawText(box, Qt.AlignmentFlag.AlignCenter | fit.flag, fit.text)
    p.restore()


class CounterPreview(QWidget):
    """Front and back of one counter side by side."""

    def __init__(self, system: Callable[[], GameSystem], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.system = system  # asked at paint time: the document can change
        self.counter: Counter | None = None
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.setMinimumHeight(84)

    def sizeHint(self) -> QSize:
        return QSize(180, 84)

    def set_counter(self, counter: Counter | None) -> None:
        self.counter = counter
        self.update()

    def paintEvent(self, _e: QPaintEvent) -> None:
        if self.counter is None:
            return
        p = QPainter(self)
        s = min(self.height() - 4, (self.width() - 12) / 2)
        draw_preview(p, QRectF(2, 2, s, s), self.counter, self.system())
        draw_preview(p, QRectF(8 + s, 2, s, s), self.counter, self.system(), back=True)
        p.end()
