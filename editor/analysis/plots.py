"""Heatmaps on the map and histograms, painted with QPainter (issue #22).

:func:`heatmap_image` renders the map region around the counted hexes through the export
renderer (editor/export/map_render.py), fills each hex with its colour on one ramp (pale
yellow to dark red, the count's share of the largest) and adds a colour legend with its
scale. :func:`histogram_image` draws bars with axes, tick labels, a title and a legend.
:func:`write_plots` writes the landing heatmap and one drift histogram per group of an
analysis report; :func:`coverage_png` the LOS coverage heatmap.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QImage, QPainter, QPen

from editor.analysis.heat import paint_heat, paint_legend
from editor.export.map_render import render_region, scene_for
from editor.export.qt_app import ensure_app
from editor.qt_geometry import layout_for
from model.hexes import Hex

LEGEND_TOP = 36  # the colour legend's top, under the title line

if TYPE_CHECKING:
    from model.bundle import Bundle
    from play.analysis.coverage import Coverage

def heatmap_image(bundle: "Bundle", scenario: str, counts: Mapping[Hex, float], *, title: str, legend: str,
                  scale: float = 0.8, margin_hexes: int = 4) -> QImage:
    """The map around ``counts`` with the heat painted on it, a title and a colour legend."""
    ensure_app()
    scen = bundle.resolved(scenario)
    hmap = bundle.map_for(scen)
    scene = scene_for(bundle, hmap.id)
    layout = layout_for(hmap)
    src = scene.sceneRect()
    if counts:
        pts = [pt for h in counts for pt in layout.corners(h)]
        pad = margin_hexes * 2 * layout.size
        src = QRectF(min(x for x, _ in pts) - pad, min(y for _, y in pts) - pad, 0, 0)
        src.setRight(max(x for x, _ in pts) + pad)
        src.setBottom(max(y for _, y in pts) + pad)
        src = src.intersected(scene.sceneRect())
    f = QFont()
    f.setPixelSize(16)
    f.setBold(True)
    # the title and the colour legend sit in a band above the map, never over it; the picture
    # is at least as wide as its title
    top = LEGEND_TOP + 72 + 8
    title_w = math.ceil(QFontMetricsF(f).horizontalAdvance(title)) + 16
    img = QImage(max(320, int(src.width() * scale), title_w), int(src.height() * scale) + top,
                 QImage.Format.Format_ARGB32)
    img.fill(QColor("white"))
    p = QPainter(img)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    target = QRectF(0, top, img.width(), img.height() - top)
    shown = render_region(scene, p, target, src)
    s = target.width() / shown.width()
    p.save()
    p.setClipRect(target)
    p.translate(target.left() - shown.left() * s, target.top() - shown.top() * s)
    p.scale(s, s)
    vmax = max(counts.values(), default=0)
    paint_heat(p, layout, counts, vmax)
    p.restore()
    p.setFont(f)
    p.setPen(QColor(20, 20, 20))
    p.drawText(QRectF(8, 8, img.width() - 16, 26), Qt.AlignmentFlag.AlignLeft, title)
    paint_legend(p, QRectF(8, LEGEND_TOP, 224, 72), float(vmax), legend)
    p.end()
    return img


def histogram_image(bins: Mapping[int, float], *, title: str, xlabel: str, ylabel: str, legend: str,
                    width: int = 640, height: int = 400) -> QImage:
    """A bar chart of ``bins`` (value -> count) with axes, ticks, labels and a legend."""
    ensure_app()
    img = QImage(width, height, QImage.Format.Format_ARGB32)
    img.fill(QColor("white"))
    p = QPainter(img)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    left, right, top, bottom = 64, 20, 44, 56
    plot = QRectF(left, top, width - left - right, height - top - bottom)
    xs = sorted(bins)
    lo, hi = (min(xs), max(xs)) if xs else (0, 1)
    ticks = nice_ticks(max(bins.values(), default=1) or 1)
    ymax = ticks[-1]  # the axis ends on its top tick, so every label is where its value is
    n = hi - lo + 1
    f = QFont()
    f.setPixelSize(12)
    p.setFont(f)
    bar_w = plot.width() / n
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor(49, 130, 189))
    for x, v in bins.items():
        hgt = plot.height() * v / ymax
        p.drawRect(QRectF(plot.left() + (x - lo) * bar_w + 1, plot.bottom() - hgt, max(1.0, bar_w - 2), hgt))
    p.setPen(QPen(QColor(30, 30, 30), 1))
    p.drawLine(plot.bottomLeft(), plot.bottomRight())
    p.drawLine(plot.bottomLeft(), plot.topLeft())
    step = max(1, n // 12)
    for x in range(lo, hi + 1, step):
        cx = plot.left() + (x - lo + 0.5) * bar_w
        p.drawLine(QPointF(cx, plot.bottom()), QPointF(cx, plot.bottom() + 4))
        p.drawText(QRectF(cx - 20, plot.bottom() + 5, 40, 16), Qt.AlignmentFlag.AlignHCenter, str(x))
    for v in ticks:
        y = plot.bottom() - plot.height() * v / ymax
        p.drawLine(QPointF(plot.left() - 4, y), QPointF(plot.left(), y))
        p.drawText(QRectF(0, y - 8, left - 8, 16), Qt.AlignmentFlag.AlignRight, _tick_text(v))
    p.drawText(QRectF(plot.left(), height - 22, plot.width(), 18), Qt.AlignmentFlag.AlignHCenter, xlabel)
    p.save()
    p.translate(14, plot.center().y())
    p.rotate(-90)
    p.drawText(QRectF(-plot.height() / 2, -8, plot.height(), 18), Qt.AlignmentFlag.AlignHCenter, ylabel)
    p.restore()
    # legend
    box = QRectF(plot.right() - 200, plot.top() + 4, 196, 24)
    p.setBrush(QColor(255, 255, 255, 230))
    p.drawRect(box)
    p.setBrush(QColor(49, 130, 189))
    p.drawRect(QRectF(box.left() + 6, box.top() + 6, 12, 12))
    p.drawText(QRectF(box.left() + 24, box.top() + 4, box.width() - 28, 18), Qt.AlignmentFlag.AlignLeft, legend)
    f.setPixelSize(15)
    f.setBold(True)
    p.setFont(f)
    p.drawText(QRectF(8, 10, width - 16, 24), Qt.AlignmentFlag.AlignLeft, title)
    p.end()
    return img


def nice_ticks(vmax: float, most: int = 6) -> list[float]:
    """0 and steps of 1, 2 or 5 × 10^k up to the first tick ≥ ``vmax``, at most ``most`` + 1
    ticks; counts (whole numbers) never get a fractional step."""
    step = 10 ** math.floor(math.log10(vmax / most)) if vmax > 0 else 1.0
    for m in (1, 2, 5, 10):
        if vmax / (step * m) <= most:
            step *= m
            break
    if float(vmax).is_integer():
        step = max(1.0, round(step))
    n = math.ceil(vmax / step - 1e-9)
    return [i * step for i in range(n + 1)]


def _tick_text(v: float) -> str:
    return f"{v:.0f}" if float(v).is_integer() else f"{v:g}"


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-") or "x"


def write_plots(bundle: "Bundle", scenario: str, report: dict[str, Any], out: Path) -> list[Path]:
    """The landing heatmap and the drift histograms of an analysis report, as PNG files in ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    hmap = bundle.map_for(bundle.resolved(scenario))
    n = report["seeds"]["count"]
    written: list[Path] = []
    for kind, block in report["kinds"].items():
        if not block["hexes"]:
            continue  # nothing landed on the map (the Random Events draws): no heatmap of nothing
        counts = {hmap.parse(label): float(v) for label, v in block["hexes"].items()}
        img = heatmap_image(bundle, scenario, counts, title=f"{scenario}: {kind} - hexes landed on, {n} seeds",
                            legend="units landed (all seeds)")
        path = out / f"{_safe(scenario)}-{_safe(kind)}-heatmap.png"
        img.save(str(path))
        written.append(path)
        for group, entry in block["by_group"].items():
            bins = {int(k): float(v) for k, v in entry["drift_histogram"].items()}
            if not bins:
                continue  # no unit of the group drifted in any seed: an empty histogram says nothing
            img = histogram_image(bins, title=f"{scenario}: {group} drift ({kind}), {n} seeds",
                                  xlabel="hexes drifted", ylabel="units (all seeds)", legend=f"{group}: drifted units")
            path = out / f"{_safe(scenario)}-{_safe(kind)}-drift-{_safe(group)}.png"
            img.save(str(path))
            written.append(path)
    return written


def coverage_png(bundle: "Bundle", scenario: str, cov: "Coverage", path: Path) -> Path:
    cond = ", ".join(c for c, on in (("night", cov.night), ("storm", cov.storm)) if on) or "day"
    who = f"{cov.side} set-up units" if cov.observers_kind == "units" else f"{cov.observers_kind} features"
    img = heatmap_image(bundle, scenario, {h: float(v) for h, v in cov.counts.items()},
                        title=f"{scenario}: LOS coverage by {who} ({cond})", legend="observers with LOS")
    path.parent.mkdir(parents=True, exist_ok=True)
    img.save(str(path))
    return path
