"""AfterPaint: run a callback once a widget has painted (or after a short time at the latest).

Play mode uses it to refresh its panels after the map view's frame that shows a click's answer
(PlayMode.map_first). The callback is posted from the widget's Paint event, so it runs after
that paint has been flushed, in the next turn of the event loop; the fallback timer runs it when
no paint comes (the changed rectangle was outside the view, or the window is not exposed).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QWidget

# At the latest this long after arming: the panels are never left stale when nothing repaints.
PANELS_AFTER_MS = 50


class AfterPaint(QObject):
    """``arm()``: ``callback`` runs after ``widget()``'s next Paint event, or ``PANELS_AFTER_MS``
    later if none comes; ``disarm()`` (the callback run by hand) cancels it."""

    def __init__(self, parent: QObject, widget: Callable[[], QWidget | None], callback: Callable[[], None]) -> None:
        super().__init__(parent)
        self._widget = widget
        self._callback = callback
        self._watched: QWidget | None = None
        self.armed = False
        # Each arming is a generation: a run posted by a paint of an earlier arming (a second
        # paint before its run came) must not run the callback for this one before its paint.
        self._generation = 0
        self._posted = -1  # the generation a run was posted for
        self._fallback = QTimer(self)
        self._fallback.setSingleShot(True)
        self._fallback.setInterval(PANELS_AFTER_MS)
        self._fallback.timeout.connect(lambda: self._run(self._generation))

    def arm(self) -> None:
        if self.armed:
            return
        widget = self._widget()
        if widget is None:
            self._callback()
            return
        self.armed = True
        self._generation += 1
        if widget is not self._watched:
            if self._watched is not None:
                self._watched.removeEventFilter(self)
                self._watched.destroyed.disconnect(self._forget)  # its end is no news for the next
            widget.installEventFilter(self)
            self._watched = widget
            widget.destroyed.connect(self._forget)
        self._fallback.start()

    def disarm(self) -> None:
        self.armed = False
        self._fallback.stop()

    def _forget(self) -> None:
        self._watched = None

    def _run(self, generation: int) -> None:
        if self.armed and generation == self._generation:
            self.disarm()
            self._callback()

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if self.armed and obj is self._watched and event.type() == QEvent.Type.Paint \
                and self._posted != self._generation:
            self._posted = g = self._generation
            QTimer.singleShot(0, self, lambda: self._run(g))  # after this paint, in the next turn of the loop
        return False
