"""A heatmap over the map: per-hex values on one colour ramp, and its colour legend.

:class:`HeatOverlay` is view state (Scenario mode keeps it on the selection; nothing is saved);
:func:`paint_heat` paints it (the Scenario layer, the PNG export); :class:`HeatLegend` is the
legend widget Scenario mode shows over the map's top-right corner.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QLinearGradient, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QWidget

from editor.qt_geometry import hex_polygon
from model.hexes import Hex

RAMP = ((0.0, QColor(254, 217, 118)), (0.5, QColor(253, 141, 60)), (1.0, QColor(189, 0, 38)))


@dataclass(frozen=True)
class HeatOverlay:
    counts: Mapping[Hex, float]
    title: str                # what the heat shows ("night-drop: hexes landed on, 200 seeds")
    legend: str               # what a value counts ("units landed")

    @property
    def vmax(self) -> float:
        return max(self.counts.values(), default=0.0)


def ramp(t: float) -> QColor:
    """The colour at ``t`` in 0..1 on the heat ramp (linear between its stops)."""
    t = min(1.0, max(0.0, t))
    for (a, ca), (b, cb) in zip(RAMP, RAMP[1:]):
        if t <= b:
            u = (t - a) / (b - a)
            return QColor(int(ca.red() + u * (cb.red() - ca.red())), int(ca.green() + u * (cb.green() - ca.green())),
                          int(ca.blue() + u * (cb.blue() - ca.blue())))
    return RAMP[-1][1]


def paint_heat(painter: QPainter, layout: Any, counts: Mapping[Hex, float], vmax: float, alpha: int = 190) -> None:
    """Each hex of ``counts`` filled with its ramp colour (its value's share of ``vmax``)."""
    painter.save()
    painter.setPen(Qt.PenStyle.NoPen)
    for h, v in counts.items():
        if v <= 0:
            continue
        c = ramp(v / vmax if vmax else 1.0)
        c.setAlpha(alpha)
        painter.setBrush(c)
        painter.drawPolygon(hex_polygon(layout, h))
    painter.restore()


def paint_legend(p: QPainter, rect: QRectF, vmax: float, label: str) -> None:
    """A colour bar from 0 to ``vmax`` with three ticks, titled ``label``."""
    p.save()
    p.setPen(QPen(QColor(40, 40, 40)))
    p.setBrush(QColor(255, 255, 255, 230))
    p.drawRect(rect)
    bar = QRectF(rect.left() + 12, rect.top() + 30, rect.width() - 24, 16)
    g = QLinearGradient(bar.topLeft(), bar.topRight())
    for t, c in RAMP:
        g.setColorAt(t, c)
    p.setBrush(g)
    p.drawRect(bar)
    f = QFont()
    f.setPixelSize(13)
    p.setFont(f)
    p.drawText(QRectF(rect.left() + 8, rect.top() + 6, rect.width() - 16, 20), Qt.AlignmentFlag.AlignLeft, label)
    for frac in (0.0, 0.5, 1.0):
        x = bar.left() + frac * bar.width()
        p.drawLine(QPointF(x, bar.bottom()), QPointF(x, bar.bottom() + 4))
        v = frac * vmax
        txt = f"{v:.0f}" if vmax >= 10 or v == int(v) else f"{v:.1f}"
        p.drawText(QRectF(x - 30, bar.bottom() + 4, 60, 18), Qt.AlignmentFlag.AlignHCenter, txt)
    p.restore()


class HeatLegend(QWidget):
    """The legend of the heat shown, over the map view's top-right corner."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("heat-legend")
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.overlay: HeatOverlay | None = None
        self.resize(240, 80)
        self.hide()

    def set_overlay(self, overlay: HeatOverlay | None) -> None:
        self.overlay = overlay
        self.setToolTip(overlay.title if overlay else "")
        parent = self.parentWidget()
        if parent is not None:
            self.move(max(0, parent.width() - self.width() - 8), 8)
        self.setVisible(overlay is not None)
        self.raise_()
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 (Qt's name)
        if self.overlay is None:
            return
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        paint_legend(p, QRectF(0.5, 0.5, self.width() - 1, self.height() - 1), self.overlay.vmax, self.overlay.legend)
        p.end()
