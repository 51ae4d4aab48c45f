"""Monte-Carlo analysis and LOS coverage benchmark: ``python -m bench analyze``.

Times 1,000 seeds of the Utah night drop (play/analysis/, the bundle loaded once, in this
process) with 1 job and with 2 jobs, side by side: ``HEXPROOF_BENCH_REPEAT`` pairs (default 3),
1 job then 2 jobs, each pair with the load average before it, so a pair measured while another
process held a core can be told from one measured on a quiet machine. Each 2-job run says where
its wall time went (:class:`play.analysis.executor.RunStats`: the pool's start, the workers'
busy and CPU seconds, the tail, the results' transfer). A *calibration* pair beside it runs a
pure-Python spin of the same length on 1 and 2 processes: the speed-up the machine itself
allows at that moment (1.0 when another process holds the other core), the ceiling for ours.

Then LOS coverage of the whole Utah German set-up (beach-landing, 13 units) with the fast
all-pairs engine, in a fresh process (cold: its first coverage, FastLos built and the line
templates loaded) and a second call in it (warm). Issue #22's targets: 1,000 seeds ≤ 10 s with 2
jobs, speed-up ≥ 1.7×; coverage ≤ 1 s. ``HEXPROOF_BENCH_SEEDS`` sets the seeds (default 1000).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
COVERAGE_SNIPPET = """
import json, time
t, c = time.perf_counter(), time.process_time()
from model.bundle import load_bundle
from play.analysis.coverage import coverage
b = load_bundle({path!r}).bundle
t1, c1 = time.perf_counter(), time.process_time()
cold = coverage(b, "beach-landing", "german")
t2, c2 = time.perf_counter(), time.process_time()
warm = coverage(b, "beach-landing", "german")
t3, c3 = time.perf_counter(), time.process_time()
print(json.dumps({{"import_load_s": round(t1 - t, 3), "cold_call_s": round(t2 - t1, 3), "cold_call_cpu_s": round(c2 - c1, 3),
                  "cold_los_s": round(cold.seconds, 3), "cold_setup_s": round(cold.setup_seconds, 3),
                  "warm_call_s": round(t3 - t2, 3), "warm_call_cpu_s": round(c3 - c2, 3), "warm_los_s": round(warm.seconds, 3),
                  "covered": cold.covered, "same": cold.counts == warm.counts}}))
"""


def _spin(n: int) -> float:
    """Pure-Python CPU work, no memory traffic to speak of: the calibration."""
    t = time.process_time()
    x = 0
    for i in range(n):
        x = (x * 31 + i) % 1_000_003
    return time.process_time() - t


def calibrate(n: int) -> dict[str, float]:
    """Two spins of ``n`` on 1 process, then on 2: the machine's speed-up now."""
    load = os.getloadavg()[0]
    t = time.perf_counter()
    _spin(n), _spin(n)
    one = time.perf_counter() - t
    with ProcessPoolExecutor(2) as pool:
        list(pool.map(_spin, [1000, 1000]))  # the workers started
        t = time.perf_counter()
        list(pool.map(_spin, [n, n]))
        two = time.perf_counter() - t
    return {"load": round(load, 2), "one_s": round(one, 2), "two_s": round(two, 2), "speedup": round(one / two, 2)}


def run() -> dict[str, Any]:
    from model.bundle import load_bundle
    from play.analysis.executor import ProcessExecutor, SerialExecutor
    from play.analysis.trial import seed_task

    bundle = load_bundle(REPO / "scenarios" / "utah-beach").bundle
    n = int(os.environ.get("HEXPROOF_BENCH_SEEDS", "1000"))
    repeat = int(os.environ.get("HEXPROOF_BENCH_REPEAT", "3"))
    seeds = list(range(1, n + 1))
    ctx = (bundle, "night-drop")
    out: dict[str, Any] = {"seeds": n, "load_before": [round(x, 2) for x in os.getloadavg()]}
    SerialExecutor().map(seed_task, ctx, [0])  # imports and caches, as a CLI run pays once
    # a spin of about 1 s per process (for 1,000 seeds): what 2 processes get from the machine now
    t = time.process_time()
    _spin(200_000)
    spin_n = int(200_000 * (0.001 * n) / max(1e-6, time.process_time() - t))
    pairs: list[dict[str, Any]] = []
    for _ in range(repeat):
        p: dict[str, Any] = {"load": round(os.getloadavg()[0], 2)}
        t, cpu = time.perf_counter(), time.process_time()
        one = SerialExecutor().map(seed_task, ctx, seeds)
        p["jobs1_s"] = round(time.perf_counter() - t, 2)
        p["jobs1_cpu_s"] = round(time.process_time() - cpu, 2)
        ex = ProcessExecutor(2)
        t = time.perf_counter()
        two = ex.map(seed_task, ctx, seeds)
        p["jobs2_s"] = round(time.perf_counter() - t, 2)
        assert ex.last_run is not None
        p["jobs2"] = ex.last_run.to_dict()
        p["identical"] = one == two
        p["speedup"] = round(p["jobs1_s"] / p["jobs2_s"], 2)
        p["calibration"] = calibrate(spin_n)
        pairs.append(p)
        print(f"  pair: {json.dumps(p)}")
    speedups = [p["speedup"] for p in pairs]
    out["speedup_median"] = statistics.median(speedups)
    out["speedup_best"] = max(speedups)
    out["jobs2_best_s"] = min(p["jobs2_s"] for p in pairs)
    out["identical"] = all(p["identical"] for p in pairs)
    out["cpu_per_seed_ms"] = round(1000 * statistics.median(p["jobs1_cpu_s"] for p in pairs) / n, 2)
    out["pairs"] = pairs
    t = time.perf_counter()
    cov = subprocess.run([sys.executable, "-c", COVERAGE_SNIPPET.format(path=str(REPO / "scenarios" / "utah-beach"))],
                         cwd=REPO, capture_output=True, text=True, check=True)
    out["coverage_fresh_process"] = json.loads(cov.stdout.strip().splitlines()[-1])
    out["coverage_process_s"] = round(time.perf_counter() - t, 2)
    out["load_after"] = [round(x, 2) for x in os.getloadavg()]
    for k, v in out.items():
        if k != "pairs":
            print(f"  {k}: {v}")
    return out


def main(argv: list[str]) -> dict[str, Any]:
    return run()


if __name__ == "__main__":
    main([])
