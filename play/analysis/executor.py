"""The one small executor interface: run ``fn(context, seed)`` for many seeds.

:class:`Executor` has one method, :meth:`Executor.map`; it returns the results in the order of
``seeds`` whatever order they complete in, so a report never depends on the executor or on
the number of jobs. :class:`SerialExecutor` runs in this process; :class:`ProcessExecutor`
runs chunks of seeds on a ``concurrent.futures`` process pool, the ``context`` (the bundle)
handed once to each worker by the pool's initializer, never with a task (a task carries only
its seeds). A Dask or Ray executor is another class with the same ``map``
(docs/analysis.md shows one): submit :func:`run_chunk` per chunk, gather by chunk index.

Where the parallel run loses time against ``jobs`` times the serial one (issue #22's
speed-up): the pool's start, the last chunk of the slower worker (the *tail*: small chunks keep
it short), the results sent back, and the parent's summary after the run. :class:`RunStats`
measures the first three for every pooled run (``ProcessExecutor.last_run``).
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Protocol, Sequence, TypeVar

R = TypeVar("R")
Progress = Callable[[int, int], None]     # (done, total)
Cancelled = Callable[[], bool]           # True: stop as soon as possible

# Seeds per chunk: about this many chunks per job. A chunk of the Utah night drop costs about
# 6 ms a seed, so 1,000 seeds on 2 jobs make 64 chunks of 16 seeds (0.1 s): the tail, the
# time one worker idles while the other finishes its last chunk, stays under 0.1 s of ~3 s,
# and 64 round trips cost ~1 ms each (the old 8 chunks per job left up to 0.4 s of tail).
CHUNKS_PER_JOB = 32


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
        # What exists now (the bundle, the imported engine) outlives the run: the cyclic GC
        # need not walk it at every collection, as a pool's workers do not (_init_worker).
        # Without this 1 job paid ~10 % more CPU per seed than each worker, which flattered
        # the pool's speed-up (issue #22 measured 2.1-2.4x on 2 cores).
        gc.freeze()
        try:
            for i, s in enumerate(seeds):
                if cancelled is not None and cancelled():
                    raise AnalysisCancelled()
                out.append(fn(context, s))
                if progress is not None:
                    progress(i + 1, len(seeds))
        finally:
            gc.unfreeze()
        return out


# --- the process pool: each worker holds the context once ------------------------------------
_WORKER: dict[str, Any] = {}


def _init_worker(fn: Callable[[Any, int], Any], context: Any) -> None:
    _WORKER["fn"], _WORKER["context"] = fn, context
    # Everything the worker holds now (a forked worker: the parent's whole heap, shared
    # copy-on-write) lives as long as the worker: the cyclic GC need not walk it at every
    # collection, which would also touch, and so copy, the parent's pages. O(1): lists spliced.
    gc.freeze()


@dataclass(frozen=True)
class ChunkRun:
    """What one task did: which worker, when (``time.perf_counter``, system-wide on Linux), CPU."""

    pid: int
    start: float
    end: float
    cpu: float
    results: list[Any]


def run_chunk(seeds: Sequence[int]) -> list[Any]:
    """A worker's task: ``fn(context, seed)`` for each seed of the chunk."""
    fn, context = _WORKER["fn"], _WORKER["context"]
    return [fn(context, s) for s in seeds]


def run_chunk_timed(seeds: Sequence[int]) -> ChunkRun:
    t, cpu = time.perf_counter(), time.process_time()
    out = run_chunk(seeds)
    return ChunkRun(os.getpid(), t, time.perf_counter(), time.process_time() - cpu, out)


def chunks(seeds: Sequence[int], jobs: int, per_job: int = CHUNKS_PER_JOB) -> list[list[int]]:
    """``seeds`` cut into about ``jobs * per_job`` consecutive chunks (progress steps)."""
    if not seeds:
        return []
    size = max(1, -(-len(seeds) // (jobs * per_job)))
    return [list(seeds[i:i + size]) for i in range(0, len(seeds), size)]


def in_seed_order(n_parts: int, finished: Iterable[tuple[int, list[R]]]) -> list[R]:
    """The chunks' results, given as (chunk index, results) in any order, put back in chunk
    (and so seed) order. Every chunk must be there exactly once."""
    by_index: dict[int, list[R]] = {}
    for i, rs in finished:
        if i in by_index or not 0 <= i < n_parts:
            raise ValueError(f"chunk {i} given twice or out of range 0..{n_parts - 1}")
        by_index[i] = rs
    if len(by_index) != n_parts:
        raise ValueError(f"{n_parts - len(by_index)} chunk(s) missing")
    return [r for i in range(n_parts) for r in by_index[i]]


@dataclass
class RunStats:
    """Where a pooled run's wall time went (seconds, from ``map``'s start)."""

    jobs: int
    chunks: int
    wall: float = 0.0
    first_start: float = 0.0            # the pool's start: the first chunk began this late
    worker_busy: dict[int, float] = field(default_factory=dict)   # pid -> seconds running chunks
    worker_cpu: dict[int, float] = field(default_factory=dict)    # pid -> CPU seconds in chunks
    worker_end: dict[int, float] = field(default_factory=dict)    # pid -> its last chunk's end
    collected: float = 0.0              # the parent had every result (after the last end: transfer)
    order: list[int] = field(default_factory=list)                # chunk indices as their workers ended them

    @property
    def tail(self) -> float:
        """How long the first worker to finish waited for the last one."""
        ends = list(self.worker_end.values())
        return max(ends) - min(ends) if len(ends) > 1 else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"jobs": self.jobs, "chunks": self.chunks, "wall_s": round(self.wall, 3),
                "pool_start_s": round(self.first_start, 3), "tail_s": round(self.tail, 3),
                "after_last_chunk_s": round(self.wall - max(self.worker_end.values(), default=0.0), 3),
                "workers": len(self.worker_busy),
                "worker_busy_s": sorted(round(v, 3) for v in self.worker_busy.values()),
                "worker_cpu_s": sorted(round(v, 3) for v in self.worker_cpu.values())}


def _start_method() -> str | None:
    # fork where the platform has it: the workers inherit the bundle already in memory, nothing
    # pickled (Python 3.14 makes forkserver the default on Linux, which would pickle it once per
    # worker). HEXPROOF_ANALYSIS_START chooses another (spawn, forkserver): the GUI, whose Qt
    # threads make a fork unsafe, asks for spawn.
    wanted = os.environ.get("HEXPROOF_ANALYSIS_START")
    if wanted:
        return wanted
    return "fork" if "fork" in multiprocessing.get_all_start_methods() else None


class ProcessExecutor:
    """``jobs`` worker processes (``concurrent.futures.ProcessPoolExecutor``)."""

    def __init__(self, jobs: int, start_method: str | None = None, per_job: int = CHUNKS_PER_JOB) -> None:
        if jobs < 1:
            raise ValueError(f"jobs must be at least 1, got {jobs}")
        self.jobs = jobs
        self.start_method = start_method or _start_method()
        self.per_job = per_job
        self.last_run: RunStats | None = None

    def map(self, fn: Callable[[Any, int], R], context: Any, seeds: Sequence[int], *,
            progress: Progress | None = None, cancelled: Cancelled | None = None) -> list[R]:
        parts = chunks(seeds, self.jobs, self.per_job)
        stats = RunStats(self.jobs, len(parts))
        self.last_run = stats
        t0 = time.perf_counter()
        ctx = multiprocessing.get_context(self.start_method) if self.start_method else None
        pool = ProcessPoolExecutor(self.jobs, mp_context=ctx, initializer=_init_worker, initargs=(fn, context))
        finished: list[tuple[int, list[R]]] = []
        ends: list[tuple[float, int]] = []  # (a chunk's end, its index)
        done = 0
        try:
            pending: dict[Future[ChunkRun], int] = {pool.submit(run_chunk_timed, part): i
                                                    for i, part in enumerate(parts)}
            first = float("inf")
            while pending:
                ready, _ = wait(pending, timeout=0.1, return_when=FIRST_COMPLETED)
                if cancelled is not None and cancelled():
                    raise AnalysisCancelled()
                for f in ready:
                    i = pending.pop(f)
                    run = f.result()
                    finished.append((i, run.results))
                    ends.append((run.end, i))
                    # ``order``: the chunks in the order their workers ended them, not the order
                    # the parent saw them (one wait's batch is a set, and a result can reach the
                    # parent after one that ended later: under load chunk 0 was seen first)
                    stats.order = [k for _end, k in sorted(ends)]
                    first = min(first, run.start)
                    stats.worker_busy[run.pid] = stats.worker_busy.get(run.pid, 0.0) + run.end - run.start
                    stats.worker_cpu[run.pid] = stats.worker_cpu.get(run.pid, 0.0) + run.cpu
                    stats.worker_end[run.pid] = max(stats.worker_end.get(run.pid, 0.0), run.end - t0)
                    done += len(parts[i])
                    if progress is not None:
                        progress(done, len(seeds))
            stats.collected = time.perf_counter() - t0
            stats.first_start = first - t0 if parts else 0.0
        finally:
            # on cancel, drop the chunks not started; a running chunk (~0.1 s) ends on its own
            pool.shutdown(wait=True, cancel_futures=True)
        stats.wall = time.perf_counter() - t0
        return in_seed_order(len(parts), finished)


def executor_for(jobs: int, start_method: str | None = None) -> SerialExecutor | ProcessExecutor:
    return SerialExecutor() if jobs <= 1 else ProcessExecutor(jobs, start_method)
