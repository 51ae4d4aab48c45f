"""The counter preview keeps its text inside the counter (a back of ``unknown`` values used to
overflow both edges, seen in the counter editor's screenshot), and draws ``unknown`` as ``?``."""

from __future__ import annotations

from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QImage, QPainter

from conftest import REPO
from editor.export.counter_art import values_line
from editor.scenario.counter_preview import draw_preview
from model.bundle import load_bundle


def test_unknown_values_are_drawn_as_question_marks() -> None:
    bundle = load_bundle(REPO / "scenarios" / "utah-beach").bundle
    assert bundle is not None
    counter = next(c for c in bundle.counters if c.front is not None and "unknown" in c.front.values.values())
    line = values_line(counter.front, bundle.system)
    assert "unknown" not in line and set(line) <= set("?-0123456789*") and "?" in line


def test_no_ink_outside_the_counter(qapp) -> None:  # noqa: ARG001 - fonts need the application
    bundle = load_bundle(REPO / "scenarios" / "second-front-now").bundle
    assert bundle is not None
    for counter in bundle.counters[:20]:
        for back in (False, True):
            img = QImage(200, 120, QImage.Format.Format_ARGB32)
            img.fill(QColor("white"))
            p = QPainter(img)
            draw_preview(p, QRectF(40, 20, 120, 80), counter, bundle.system, back=back)
            p.end()
            outside = [(x, y) for x in range(0, 200, 2) for y in range(0, 120, 2)
                       if not (38 <= x <= 162 and 18 <= y <= 102) and img.pixelColor(x, y) != QColor("white")]
            assert not outside, (counter.id, back, outside[:3])
