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
  ``frame - paint_start`` is the painting itself and ``paint_start - handler`` the event queue;
* ``settled`` (when a ``settled`` test is given): until the ``processEvents()`` call after the
  one in which it first held has returned: the work a click defers past its first frame
  (Play mode's panels, PlayMode.map_first) done and painted.

Before the press, the queue is drained for ``IDLE_S`` (events of an earlier click: a deferred
panel refresh and its paint), as a user's clicks are apart: one ``processEvents()`` left the
previous click's deferred work to be counted in this one's frame.

Wall time (``time.perf_counter``) and process CPU time (``time.process_time``, every thread of the
process, so a background warm-up would show in it) are both returned.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QEvent, QEventLoop, QObject, QPointF, Qt, QTimer
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


IDLE_S = 0.03  # drained before a press: far less than the time between two clicks of a user
SETTLE_LIMIT_S = 2.0  # a click's deferred work (Play mode's panels: 50 ms at the latest) not done by then is an error


@dataclass
class ClickTiming:
    wall_s: float          # press → end of the frame that shows the result
    cpu_s: float           # process CPU over the same span
    handler_s: float       # press → press and release handled (no painting yet)
    paint_s: float         # the viewport's Paint event arrived → the frame ended
    frames: int            # processEvents() calls until the viewport painted
    settled_s: float | None = None  # press → the deferred work done and painted (``settled``)


def drain(seconds: float = IDLE_S) -> None:
    """Run the event loop for ``seconds``: whatever an earlier action left queued runs now, and
    the process then sleeps in the loop until the time is up (idle, as the machine is between
    a user's clicks). An event loop quit by a timer, not ``processEvents(flags, ms)`` in a loop:
    that returns at once when nothing is queued (a busy loop), and on PySide6 6.12 each call
    also dropped a reference to ``None``, which a long busy loop ran out ("none_dealloc")."""
    loop = QEventLoop()
    QTimer.singleShot(max(1, round(seconds * 1000)), loop.quit)
    loop.exec()


def send_button(viewport: QWidget, local: QPointF, kind: QEvent.Type,
                button: Qt.MouseButton = Qt.MouseButton.LeftButton) -> None:
    """One press or release of ``button`` at ``local`` (viewport coordinates)."""
    glob = QPointF(viewport.mapToGlobal(local.toPoint()))
    held = button if kind == QEvent.Type.MouseButtonPress else Qt.MouseButton.NoButton
    QApplication.sendEvent(viewport, QMouseEvent(kind, local, glob, button, held, Qt.KeyboardModifier.NoModifier))


def send_click(viewport: QWidget, local: QPointF, button: Qt.MouseButton = Qt.MouseButton.LeftButton) -> None:
    """A press and its release, back to back: both handled before the event loop turns."""
    for kind in (QEvent.Type.MouseButtonPress, QEvent.Type.MouseButtonRelease):
        send_button(viewport, local, kind, button)


def send_move(viewport: QWidget, local: QPointF) -> None:
    """The pointer moved to ``local`` with no button held (the view's hover)."""
    glob = QPointF(viewport.mapToGlobal(local.toPoint()))
    ev = QMouseEvent(QEvent.Type.MouseMove, local, glob, Qt.MouseButton.NoButton, Qt.MouseButton.NoButton,
                     Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(viewport, ev)


def time_click(viewport: QWidget, watch: PaintWatch, local: QPointF, max_rounds: int = 1000,
               button: Qt.MouseButton = Qt.MouseButton.LeftButton,
               settled: Callable[[], bool] | None = None) -> ClickTiming:
    """A click at ``local`` (viewport coordinates), timed to the end of the viewport's next frame
    (and, with ``settled``, to the end of the work the click deferred)."""
    app = QApplication.instance()
    assert app is not None
    drain()  # nothing of an earlier action left in the queue
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
    done: float | None = None
    if settled is not None:
        deadline = time.perf_counter() + SETTLE_LIMIT_S
        while not settled():
            if time.perf_counter() > deadline:
                raise RuntimeError(f"the click's deferred work was not done within {SETTLE_LIMIT_S} s")
            app.processEvents()
        app.processEvents()  # the paint of what the deferred work changed
        done = time.perf_counter() - t0
    return ClickTiming(t2 - t0, c2 - c0, t1 - t0, t2 - watch.last_start, rounds, done)


def time_tap(viewport: QWidget, watch: PaintWatch, local: QPointF, hold_s: float, max_rounds: int = 1000) -> float:
    """A left press at ``local``, the event loop run for ``hold_s`` with the button held (as a
    finger or a mouse button is held between press and release), then the release: wall time
    from the release (where a tool that acts on the release acts) to the end of the viewport's
    next frame."""
    app = QApplication.instance()
    assert app is not None
    drain()
    send_button(viewport, local, QEvent.Type.MouseButtonPress)
    drain(hold_s)
    before = watch.count
    t0 = time.perf_counter()
    send_button(viewport, local, QEvent.Type.MouseButtonRelease)
    rounds = 0
    while watch.count == before and rounds < max_rounds:
        app.processEvents()
        rounds += 1
    if watch.count == before:
        raise RuntimeError(f"the viewport did not repaint within {max_rounds} event rounds")
    return time.perf_counter() - t0
