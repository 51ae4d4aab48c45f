"""Smoke playtest command benchmark: ``python -m bench smoke``.

Times ``hexproof smoke PATH`` (the default scenario) and ``hexproof smoke --all-variants PATH``
for every sample bundle as a user runs them: a new Python process each time (imports,
loading the bundle, every turn of every scenario), wall clock. Issue 8's target: the largest
sample's full smoke ≤ 10 s. The load average (``os.getloadavg``) is recorded before and after
each command, since the machine's 2 cores are shared.

``HEXPROOF_BENCH_REPS`` sets the repetitions (default 3).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
SAMPLES = ("utah-beach", "second-front-now", "killing-ground")


def _run(args: list[str]) -> tuple[float, int, tuple[float, float]]:
    before = os.getloadavg()[0]
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "hexproof", "smoke", *args], cwd=REPO,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - t0
    return wall, proc.returncode, (before, os.getloadavg()[0])


def main(args: list[str]) -> dict[str, Any]:
    reps = int(os.environ.get("HEXPROOF_BENCH_REPS", "3"))
    rows = []
    for name in SAMPLES:
        path = str(Path("scenarios") / name)
        for mode, extra in (("default", []), ("all-variants", ["--all-variants"])):
            times, codes, loads = [], set(), []
            for _ in range(reps):
                wall, code, load = _run([*extra, path])
                times.append(wall)
                codes.add(code)
                loads.append(load)
            row = {"bundle": name, "mode": mode, "runs_s": [round(t, 2) for t in times],
                   "median_s": round(statistics.median(times), 2), "max_s": round(max(times), 2),
                   "exit_codes": sorted(codes), "load_1min": [f"{a:.2f}->{b:.2f}" for a, b in loads]}
            rows.append(row)
            print(f"hexproof smoke {' '.join(extra)} {path}: {row['runs_s']} s (median {row['median_s']} s, "
                  f"max {row['max_s']} s; exit {row['exit_codes']}; load {', '.join(row['load_1min'])})")
    return {"smoke_cli": rows}
