"""The one small executor interface: run ``fn(context, seed)`` for many seeds.

:class:`Executor` has one method, :meth:`Executor.map`; it returns the results in the order of
``seeds`` whatever order they complete in, so a report never depends on the executor or on
the number of jobs. :class:`SerialExecutor` runs in this process; :class:`ProcessExecutor`
runs chunks of seeds on a ``concurrent.futures`` process pool, the ``context`` (the bundle)
sent once to each worker. A Dask or Ray executor is another class with the same ``map``
(docs/analysis.md shows one): submit :func:`run_chunk` per chunk, gather by chunk index.
"""

from __future__ import annotations

import gc
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any, Callable, Protocol, Sequence, TypeVar

R = TypeVar("R")
Progress = Callable[[int, int], None]     # (done, total)
Cancelled = Callable[[], bool]           # True: stop as soon as possible


class AnalysisCancelled(Exception):
    """The run was cancelled (a progress dialog's Cancel); nothing partial is reported."""


class Executor(Protocol):
    def map(self, fn: Callable[[Any, int], R], context: Any, seeds: Sequence[int], *,
            progress: Progress | None = None, cancelled: Cancelled | None = None) -> list[R]:
        """``[fn(context, s) for s in seeds]``, in that order."""
        ...


class SerialExecutor:
    """In this process, one seed after another."""

    def map(self, fn: Callable[[Any, int], R], context: Any, seeds: Sequence[int], *,
            progress: Progress | None = None, cancelled: Cancelled | None = None) -> list[R]:
        out: list[R] = []
        for i, s in enumerate(seeds):
            if cancelled is not None and cancelled():
                raise AnalysisCancelled()
            out.append(fn(context, s))
            if progress is not None:
                progress(i + 1, len(seeds))
        return out


# --- the process pool: each worker holds the context once ------------------------------------
_WORKER: dict[str, Any] = {}


def _init_worker(fn: Callable[[Any, int], Any], context: Any) -> None:
    _WORKER["fn"], _WORKER["context"] = fn, context


def run_chunk(seeds: Sequence[int]) -> list[Any]:
    """A worker's task: ``fn(context, seed)`` for each seed of the chunk."""
    fn, context = _WORKER["fn"], _WORKER["context"]
    return [fn(context, s) for s in seeds]


def chunks(seeds: Sequence[int], jobs: int, per_job: int = 8) -> list[list[int]]:
    """``seeds`` cut into about ``jobs * per_job`` consecutive chunks (progress steps)."""
    if not seeds:
        return []
    size = max(1, -(-len(seeds) // (jobs * per_job)))
    return [list(seeds[i:i + size]) for i in range(0, len(seeds), size)]


class ProcessExecutor:
    """``jobs`` worker processes (``concurrent.futures.ProcessPoolExecutor``)."""

    def __init__(self, jobs: int) -> None:
        if jobs < 1:
            raise ValueError(f"jobs must be at least 1, got {jobs}")
        self.jobs = jobs

    def map(self, fn: Callable[[Any, int], R], context: Any, seeds: Sequence[int], *,
            progress: Progress | None = None, cancelled: Cancelled | None = None) -> list[R]:
        parts = chunks(seeds, self.jobs)
        results: dict[int, list[R]] = {}
        done = 0
        # Forked workers share the parent's memory copy-on-write; the cyclic GC walking every
        # object would touch (and copy) those pages in each worker: freeze them first.
        gc.freeze()
        try:
            return self._run(fn, context, seeds, parts, results, done, progress, cancelled)
        finally:
            gc.unfreeze()

    def _run(self, fn: Callable[[Any, int], R], context: Any, seeds: Sequence[int], parts: list[list[int]],
             results: dict[int, list[R]], done: int, progress: Progress | None,
             cancelled: Cancelled | None) -> list[R]:
        with ProcessPoolExecutor(self.jobs, initializer=_init_worker, initargs=(fn, context)) as pool:
            pending: dict[Future[list[R]], int] = {pool.submit(run_chunk, part): i for i, part in enumerate(parts)}
            while pending:
                finished, _ = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
                if cancelled is not None and cancelled():
                    for f in pending:
                        f.cancel()
                    raise AnalysisCancelled()
                for f in finished:
                    i = pending.pop(f)
                    results[i] = f.result()
                    done += len(parts[i])
                    if progress is not None:
                        progress(done, len(seeds))
        return [r for i in range(len(parts)) for r in results[i]]


def executor_for(jobs: int) -> SerialExecutor | ProcessExecutor:
    return SerialExecutor() if jobs <= 1 else ProcessExecutor(jobs)
