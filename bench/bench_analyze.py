"""Monte-Carlo analysis and LOS coverage benchmark: ``python -m bench analyze``.

Times 1,000 seeds of the Utah night drop (play/analysis/, the bundle loaded once, in this
process) with 1 job and with 2 jobs, side by side in one run, and the speed-up; and LOS coverage
of the whole Utah German set-up (beach-landing, 13 units) with the fast all-pairs engine, once
cold (this process's first FastLos) and warm. Issue #22's targets: 1,000 seeds ≤ 10 s with 2
jobs, speed-up ≥ 1.7×; coverage ≤ 1 s. The load average is recorded, since the 2 cores are shared.

``HEXPROOF_BENCH_SEEDS`` sets the seeds (default 1000).
"""

from __future__ import annotations

import os
import resource
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]


def run() -> dict[str, Any]:
    from model.bundle import load_bundle
    from play.analysis.coverage import coverage
    from play.analysis.executor import ProcessExecutor, SerialExecutor
    from play.analysis.trial import seed_task

    bundle = load_bundle(REPO / "scenarios" / "utah-beach").bundle
    n = int(os.environ.get("HEXPROOF_BENCH_SEEDS", "1000"))
    seeds = list(range(1, n + 1))
    out: dict[str, Any] = {"seeds": n, "load_before": os.getloadavg()[0]}
    SerialExecutor().map(seed_task, (bundle, "night-drop"), [0])  # imports and caches, as a CLI run pays once
    t, cpu = time.perf_counter(), time.process_time()
    one = SerialExecutor().map(seed_task, (bundle, "night-drop"), seeds)
    out["jobs1_s"] = round(time.perf_counter() - t, 2)
    out["jobs1_cpu_s"] = round(time.process_time() - cpu, 2)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    two = ProcessExecutor(2).map(seed_task, (bundle, "night-drop"), seeds)
    out["jobs2_s"] = round(time.perf_counter() - t, 2)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    # the workers' CPU seconds: with 2 free cores, wall ≈ this / 2; on a loaded machine the
    # workers wait for a core, and wall-clock speed-up says more about the load than the code
    out["jobs2_workers_cpu_s"] = round(after.ru_utime + after.ru_stime - children.ru_utime - children.ru_stime, 2)
    out["identical"] = one == two
    out["speedup"] = round(out["jobs1_s"] / out["jobs2_s"], 2)
    out["cpu_per_seed_ms"] = round(1000 * out["jobs1_cpu_s"] / n, 2)
    cold = coverage(bundle, "beach-landing", "german")
    warm = coverage(bundle, "beach-landing", "german")
    out["coverage_cold_los_s"] = round(cold.seconds, 3)
    out["coverage_cold_setup_s"] = round(cold.setup_seconds, 3)
    out["coverage_warm_los_s"] = round(warm.seconds, 3)
    out["load_after"] = os.getloadavg()[0]
    for k, v in out.items():
        print(f"  {k}: {v}")
    return out


def main(argv: list[str]) -> dict[str, Any]:
    return run()


if __name__ == "__main__":
    main([])
