"""ValidationRunner: re-validate after edits, debounced, on a worker thread.

Edits restart a single-shot timer (250 ms); when it fires the runner takes a snapshot of the
bundle on the UI thread (milliseconds; see :mod:`editor.diagnostics.snapshot`) and hands it to
one :class:`QRunnable` in the global ``QThreadPool``. The worker runs the incremental
:class:`validators.engine.Validator` (only the scenarios an edit touched rerun) and posts the
findings back through a queued signal. One run at a time: edits made meanwhile schedule one
more run when it finishes. The UI thread only ever snapshots and repaints.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QRunnable, QThreadPool, QTimer, Signal

from editor.diagnostics.snapshot import Snapshotter
from model.changes import Change, PropertyChanged, ScenarioChanged
from model.diagnostics import Diagnostic
from validators.engine import Validator

if TYPE_CHECKING:
    from editor.document import MapDocument

DEBOUNCE_MS = 250
# A scenario-only re-validation whose last run cost less CPU than this runs on the UI thread:
# no snapshot, no hand-off, and no GIL ping-pong with the canvas's idle tile rendering (which
# doubled the worker's wall time in bench_scenario_ui). Anything slower goes to the worker.
INLINE_SECONDS = 0.030
_EXIT_HOOK = False


def _wait_for_workers() -> None:
    """At interpreter exit, let a running validation finish first: a Python worker thread
    still running while the interpreter tears down crashes the process (SIGSEGV)."""
    QThreadPool.globalInstance().waitForDone(30000)


def _install_exit_hook() -> None:
    global _EXIT_HOOK
    if not _EXIT_HOOK:
        import atexit

        atexit.register(_wait_for_workers)
        _EXIT_HOOK = True


class _Signals(QObject):
    """Carries results from the worker to the UI thread (a queued connection)."""

    done = Signal(object, float, int)  # diagnostics, seconds, generation
    cpu = 0.0  # CPU seconds of the latest worker run


class _Job(QRunnable):
    def __init__(self, validator: Validator, generation: int, signals: _Signals) -> None:
        super().__init__()
        self.validator, self.generation, self.signals = validator, generation, signals
        self.setAutoDelete(True)

    def run(self) -> None:
        t0 = time.perf_counter()
        c0 = time.thread_time()
        try:
            diags = self.validator.run()
        except Exception as exc:  # noqa: BLE001 - the engine is crash-proof; this is a last guard
            from model.diagnostics import Severity

            diags = [Diagnostic("INTERNAL-001", Severity.ERROR, f"validation failed: {type(exc).__name__}: {exc}")]
        try:
            self.signals.cpu = time.thread_time() - c0  # this thread's CPU: the work, not GIL waits
            self.signals.done.emit(diags, time.perf_counter() - t0, self.generation)
        except RuntimeError:
            pass  # the window closed while this run was going: nobody is listening


class ValidationRunner(QObject):
    """Owns the Validator of one document; emits ``finished(diagnostics)`` after each run."""

    finished = Signal(object)
    started = Signal()

    def __init__(self, doc: "MapDocument", debounce_ms: int = DEBOUNCE_MS, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.diagnostics: list[Diagnostic] = []
        self.last_seconds = 0.0
        self.generation = 0       # bumped by every edit
        self.completed = 0        # generation of the latest published result
        self._running = False
        self._pending: set[str] | None = None  # scenario ids to invalidate; None = everything
        self._dirty_all = True
        self._estimate: float | None = None  # CPU seconds of the latest scenario-only run
        self.inline_runs = 0
        self._snap = Snapshotter()
        self._validator: Validator | None = None
        self._signals = _Signals(self)  # parented: lives exactly as long as the runner
        self._signals.done.connect(self._on_done)
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(debounce_ms)
        self.timer.timeout.connect(self.start)
        doc.changed.connect(self.on_change)

    @property
    def busy(self) -> bool:
        return self._running or self.timer.isActive()

    def on_change(self, change: Change) -> None:
        self.generation += 1
        if isinstance(change, ScenarioChanged) and change.scenario_id is not None:
            if not self._dirty_all:
                self._pending = (self._pending or set()) | {change.scenario_id}
        else:
            if not (isinstance(change, PropertyChanged) and change.owner == "Counter"):
                self._snap.forget_maps()  # a map (or the whole document) changed
            self._dirty_all = True
        self.timer.start()

    def flush(self) -> None:
        """Start now instead of waiting for the debounce (tests and benchmarks)."""
        self.timer.stop()
        self.start()

    def start(self) -> None:
        if self._running:
            return  # _on_done starts the next run
        narrow = self._validator is not None and not self._dirty_all
        if narrow and self._estimate is not None and self._estimate < INLINE_SECONDS:
            self._run_inline()
            return
        snap = self._snap.take(self.doc.bundle)
        if self._validator is None:
            self._validator = Validator(snap)
        else:
            self._validator.bundle = snap
            self._invalidate()
        self._narrow = narrow
        self._running = True
        _install_exit_hook()
        self.started.emit()
        QThreadPool.globalInstance().start(_Job(self._validator, self.generation, self._signals))

    def _invalidate(self) -> None:
        assert self._validator is not None
        if self._dirty_all:
            self._validator.invalidate(None)
        else:
            # Only scenario commands happened: bundle-scope results stay (the engine reruns
            # them anyway if a scenario field they read changed).
            self._validator.invalidate(sorted(self._pending or ()), bundle=False)
        self._dirty_all, self._pending = False, None

    def _run_inline(self) -> None:
        """Validate the live bundle on this (UI) thread: nothing else runs meanwhile, so no
        snapshot is needed."""
        assert self._validator is not None
        self._validator.bundle = self.doc.bundle
        self._invalidate()
        self.started.emit()
        t0, c0 = time.perf_counter(), time.thread_time()
        diags = self._validator.run()
        self._estimate = time.thread_time() - c0
        self.inline_runs += 1
        self._narrow = True
        self._on_done(diags, time.perf_counter() - t0, self.generation)

    def _on_done(self, diags: list[Diagnostic], seconds: float, generation: int) -> None:
        if self._running and getattr(self, "_narrow", False):
            self._estimate = self._signals.cpu
        self._running = False
        self.diagnostics = list(diags)
        self.last_seconds = seconds
        self.completed = generation
        self.finished.emit(self.diagnostics)
        if generation != self.generation and not self.timer.isActive():
            self.start()  # edits arrived during the run
