"""ValidationRunner: re-validate after edits, debounced, on a worker thread.

Edits restart a single-shot timer (250 ms); when it fires the runner takes a snapshot of the
bundle on the UI thread (milliseconds; see :mod:`editor.diagnostics.snapshot`) and hands it to
one :class:`QRunnable` in the global ``QThreadPool``. The worker runs the incremental
:class:`validators.engine.Validator` (only the scenarios an edit touched rerun) and posts the
findings back through a queued signal. One run at a time: edits made meanwhile schedule one
more run when it finishes. The UI thread only ever snapshots and repaints.

Warm-up: the first run of a document (at open) is a full validation on the worker; the same job
then re-validates every scenario once more, warm, to measure what a scenario-only re-validation
costs (the inline estimate below). So the first drop after opening runs inline against the
frozen maps, counters and game file whose look-ups the open-time run memoised
(:meth:`Snapshotter.view`), instead of a cold full run on the worker.
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
    probe: float | None = None  # CPU seconds of the latest warm-up's warm scenario pass


class _Job(QRunnable):
    def __init__(self, validator: Validator, generation: int, signals: _Signals, warm: bool = False) -> None:
        super().__init__()
        self.validator, self.generation, self.signals, self.warm = validator, generation, signals, warm
        self.setAutoDelete(True)

    def run(self) -> None:
        t0 = time.perf_counter()
        c0 = time.thread_time()
        self.signals.probe = None
        try:
            diags = self.validator.run()
            if self.warm:
                # Same snapshot, so the same findings: rerun every scenario (bundle-scope results
                # kept) with the look-ups now built, and time it. It bounds what one scenario
                # edit costs (an edit reruns one scenario and its variants), which decides
                # whether the first drop may run inline.
                c1 = time.thread_time()
                self.validator.invalidate(self.validator.scenario_ids(), bundle=False)
                diags = self.validator.run()
                self.signals.probe = time.thread_time() - c1
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
        self.warmups = 0          # warm-up jobs completed (one per document unless it fails)
        # How the latest run went: "warm-up" (full, then the warm scenario pass), "full",
        # "worker" (scenario-only, on the worker) or "inline" (scenario-only, on this thread).
        self.last_mode = ""
        self._narrow = False
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
            self._snap.forget_rest()  # counters or the game file may have changed in place
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
            # A new Validator runs everything anyway and this snapshot holds every edit so far,
            # so the next scenario edit may rerun just its scenario (this flag used to stay set,
            # which made the first drop after opening a second cold full run).
            self._dirty_all, self._pending = False, None
        else:
            self._validator.bundle = snap
            self._invalidate()
        warm = not narrow and self._estimate is None
        self._narrow = narrow
        self.last_mode = "worker" if narrow else "warm-up" if warm else "full"
        self._running = True
        _install_exit_hook()
        self.started.emit()
        QThreadPool.globalInstance().start(_Job(self._validator, self.generation, self._signals, warm))

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
        # Live scenarios over the frozen maps/counters/game file of the latest snapshot: equal
        # content (only scenario edits since), and the owners the validator's memos are keyed by.
        self._validator.bundle = self._snap.view(self.doc.bundle)
        self._invalidate()
        self.last_mode = "inline"
        self.started.emit()
        t0, c0 = time.perf_counter(), time.thread_time()
        diags = self._validator.run()
        self._estimate = time.thread_time() - c0
        self.inline_runs += 1
        self._narrow = True
        self._on_done(diags, time.perf_counter() - t0, self.generation)

    def _on_done(self, diags: list[Diagnostic], seconds: float, generation: int) -> None:
        if self._running and self._narrow:
            self._estimate = self._signals.cpu
        elif self._running and self._signals.probe is not None:
            self._estimate = self._signals.probe  # the warm-up measured a warm scenario pass
            self.warmups += 1
        self._running = False
        self.diagnostics = list(diags)
        self.last_seconds = seconds
        self.completed = generation
        self.finished.emit(self.diagnostics)
        if generation != self.generation and not self.timer.isActive():
            self.start()  # edits arrived during the run
