"""PaintWarmUp: the first-use costs of a Play-mode selection paid when Play mode opens, not on
the first click.

The first click in a fresh process paid ~15 ms more than the next ones (docs/benchmarks.md):
Qt builds the glyphs of the overlay's MP costs at the view's zoom, the path, dash and
antialiased-line code paths of the overlay, and lays out its first rich text (the Unit panel's
HTML) and its first list item, all on first use. These are process-wide caches (font engines and
their glyph caches, the text layout and HTML code, the style's item painting), so drawing the
same kinds of things once, off screen, fills them: the warm-up paints a small synthetic overlay
(two hexes, every digit, each pen the overlay uses) into an image with the view's transform, and
renders a throw-away label and list like the Unit panel's. Nothing on screen changes and no game
state is read beyond the layout.

It never blocks the window for long: each step runs on its own zero-timer turn of the event loop
(input and paints in between are handled first), and each step's wall time is kept in
:attr:`PaintWarmUp.steps` (the bench prints the longest). A zoom change later is not re-warmed:
the cost then is a zoom's own glyphs, which a first paint at that zoom builds anyway.
"""

from __future__ import annotations

import time
from typing import Any, Callable

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtGui import QColor, QFont, QImage, QPainter, QTransform
from PySide6.QtWidgets import QLabel, QListWidget, QListWidgetItem, QWidget

from editor.play.move_overlay import Built, hexside_lines, loop_lines, loops_path, paint_built, _text_box
from editor.qt_geometry import hex_polygon
from model.hex_outline import outline_loops
from model.hexes import Hex

# Every character an MP cost can show (costs are printed with ``:g``).
COST_CHARS = "0123456789.-e+"
SAMPLE_HTML = ("<b>Warm-up</b> (id)<br>side s · category<br>at 00.000<br>steps 1/2 · full strength<br>"
               "values: a 1<br>MA 1 (printed)<br>MP spent 0<hr><i>Cannot move: warm-up</i>")


def sample_overlay(layout: Any) -> Built:
    """Two hexes drawn as the overlay draws a reach, with every cost character, the selected
    outline, a refused outline and a fire zone (each of the overlay's pens and fills)."""
    hexes = [Hex(0, 0), Hex(1, 0)]
    loops = outline_loops(layout, hexes)  # the calls a reach's build makes (move_overlay.build)
    reach, rect = loops_path(loops)
    b = Built(("warm-up",), fire_zone=reach, fire_edges=hexside_lines(layout, hexes),
              selected=hex_polygon(layout, hexes[0]), reach=reach, reach_edges=loop_lines(loops),
              refused=[hex_polygon(layout, hexes[1])], rect=rect.adjusted(-3, -3, 3, 3))
    cx, cy = layout.center(hexes[0])
    half = len(COST_CHARS) // 2
    b.texts = [(_text_box(cx, cy), COST_CHARS[:half]), (_text_box(cx, cy + 10), COST_CHARS[half:])]
    return b


def paint_sample(layout: Any, transform: QTransform, font: QFont) -> QImage:
    """The sample overlay painted with the view's scale, into an opaque image like the window's
    backing store (the glyph cache is chosen by the target's format and the transform)."""
    b = sample_overlay(layout)
    sx, sy = transform.m11(), transform.m22()
    w, h = max(8, int(b.rect.width() * sx) + 2), max(8, int(b.rect.height() * sy) + 2)
    img = QImage(w, h, QImage.Format.Format_RGB32)
    img.fill(QColor("white"))
    p = QPainter(img)
    p.setTransform(QTransform().scale(sx, sy).translate(-b.rect.left(), -b.rect.top()))
    p.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
    paint_built(p, b, b.rect, font)
    p.end()
    return img


def render_panel_samples(template: QWidget) -> None:
    """A rich-text, word-wrapped label and a one-item list, styled and sized like the Unit
    panel's, rendered off screen (the first HTML layout and the first item paint)."""
    label = QLabel()
    label.setFont(template.font())
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.RichText)
    label.setText(SAMPLE_HTML)
    width = max(200, template.width())
    label.resize(width, label.heightForWidth(width))
    lst = QListWidget()
    lst.setFont(template.font())
    item = QListWidgetItem("warm-up · side")
    lst.addItem(item)
    item.setSelected(True)
    lst.resize(width, 40)
    for widget in (label, lst):
        img = QImage(widget.size(), QImage.Format.Format_RGB32)
        img.fill(QColor("white"))
        widget.render(img)
        widget.deleteLater()


class PaintWarmUp(QObject):
    """Runs the warm-up steps one per event-loop turn; :attr:`done` once all ran."""

    def __init__(self, steps: list[tuple[str, Callable[[], object]]], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._todo = list(steps)
        self.steps: dict[str, float] = {}  # step → wall seconds (each ran between two events)
        self.done = False
        self.failed: list[str] = []  # steps that raised (a warm-up is an optimisation only)

    def start(self) -> None:
        QTimer.singleShot(0, self, self._next)

    def _next(self) -> None:
        if not self._todo:
            self.done = True
            return
        name, step = self._todo.pop(0)
        t0 = time.perf_counter()
        try:
            step()
        except Exception:  # a failed warm-up costs the first click its first use, nothing else
            self.failed.append(name)
        self.steps[name] = time.perf_counter() - t0
        QTimer.singleShot(0, self, self._next)

    @property
    def longest(self) -> float:
        return max(self.steps.values(), default=0.0)

    @property
    def total(self) -> float:
        return sum(self.steps.values())


def play_warm_up(view: Any, layout: Any, overlay_font: QFont, panel: QWidget, parent: QObject) -> PaintWarmUp:
    """The Play-mode warm-up for this view (its zoom at the time) and the Unit panel."""
    return PaintWarmUp([("overlay glyphs and pens", lambda: paint_sample(layout, view.transform(), overlay_font)),
                        ("panel text and list", lambda: render_panel_samples(panel))], parent)
