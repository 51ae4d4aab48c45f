"""Timing a click the way a user sees it: from the mouse press to the end of the frame that
shows its result (shared by bench_scenario_ui's warm and cold measurements; not a benchmark
itself, so it is not named ``bench_*``).

What is timed, exactly (:func:`time_click`):

* ``t0``: just before the mouse press is sent to the map view's viewport (``QApplication.sendEvent``,
  the same delivery as a real press; a left click is press + release, the play tool acts on the
  release, so both are inside the timing);
* ``handler``: until both events have returned (tool, controller, engine query, panels refreshed;
  nothing painted yet — Qt only schedules the repaint);
* ``frame``: until the ``processEvents()`` call in which the viewport received its next Paint
  event has returned. Qt paints every dirty widget of a window in one backing-store sync, so this
  is the end of the window's frame: the map viewport (the overlay) and whatever dock panels the
  click changed, flushed to the (offscreen) screen;
* ``paint_start``: when that Paint event reached the viewport (an event filter), so
  ``frame - paint_start`` is the painting itself and ``paint_start - handler`` the event queue.

Wall time (``time.perf_counter``) and process CPU time (``time.process_time``, every thread of the
process, so a background warm-up would show in it) are both returned.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from PySide6.QtCore import QEvent, QObject, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QApplication, QWidget


class PaintWatch(QObject):
    """Counts the Paint events a widget receives and stamps the last one's arrival."""

    def __init__(self, widget: QWidget) -> None:
        super().__init__(widget)
        self.count = 0
        self.last_start = 0.0
        widget.installEventFilter(self)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if event.type() == QEvent.Type.Paint:
            self.count += 1
            self.last_start = time.perf_counter()
        return False


@dataclass
class ClickTiming:
    wall_s: float          # press → end of the frame that shows the result
    cpu_s: float           # process CPU over the same span
    handler_s: float       # press → press and release handled (no painting yet)
    paint_s: float         # the viewport's Paint event arrived → the frame ended
    frames: int            # processEvents() calls until the viewport painted


def send_click(viewport: QWidget, local: QPointF, button: Qt.MouseButton = Qt.MouseButton.LeftButton) -> None:
    glob = QPointF(viewport.mapToGlobal(local.toPoint()))
    for kind, held in ((QEvent.Type.MouseButtonPress, button), (QEvent.Type.MouseButtonRelease, Qt.MouseButton.NoButton)):
        ev = QMouseEvent(kind, local, glob, button, held, Qt.KeyboardModifier.NoModifier)
        QApplication.sendEvent(viewport, ev)


def time_click(viewport: QWidget, watch: PaintWatch, local: QPointF, max_rounds: int = 1000,
               button: Qt.MouseButton = Qt.MouseButton.LeftButton) -> ClickTiming:
    """A click at ``local`` (viewport coordinates), timed to the end of the viewport's next frame."""
    app = QApplication.instance()
    assert app is not None
    app.processEvents()  # nothing of an earlier action left in the queue
    before = watch.count
    c0, t0 = time.process_time(), time.perf_counter()
    send_click(viewport, local, button)
    t1 = time.perf_counter()
    rounds = 0
    while watch.count == before and rounds < max_rounds:
        app.processEvents()
        rounds += 1
    t2, c2 = time.perf_counter(), time.process_time()
    if watch.count == before:
        raise RuntimeError(f"the viewport did not repaint within {max_rounds} event rounds")
    return ClickTiming(t2 - t0, c2 - c0, t1 - t0, t2 - watch.last_start, rounds)
