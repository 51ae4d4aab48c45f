"""Movement benchmark: reachable set, MA 12, on the 100×70 LOS bench map, reference vs fast.

``python -m bench movement``. The GTS system gives no TEC base costs (they are ``unknown``),
so — by the movement policy — the benchmark passes illustrative costs explicitly
(clear/village/hedgerow/orchard 1, woods/hill 2, town 1); roads are raised roads usable in
Column. Both paths run side by side in one process on the same starts: the reference
(:func:`model.movement.reachable`, a lazy per-edge step table) and the fast path
(:func:`model.movement_fast.reachable_dense`, dense tables). Cold = first query on a fresh map
(fills the lazy step table / builds the dense one); warm = later queries. Every warm answer of
the fast path is compared with the reference's (``fast_vs_reference_agree``).
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from bench.bench_los import bench_map, bench_system
from model.movement import reachable
from model.movement_fast import reachable_dense

COSTS = {"clear": 1, "village": 1, "hedgerow": 1, "orchard": 1, "woods": 2, "hill": 2, "town": 1}


def main(args: list[str]) -> dict[str, Any]:
    system = bench_system()
    hmap = bench_map()
    rng = random.Random(5)
    starts = rng.sample(hmap.hexes(), 200)
    out: dict[str, Any] = {}
    # --- reference -------------------------------------------------------------------------
    t0 = time.perf_counter()
    first = reachable(hmap, system, starts[0], 12, "leg", costs=COSTS)
    out["cold_first_query_ms"] = (time.perf_counter() - t0) * 1000
    t0 = time.perf_counter()
    for h in hmap.hexes():                                   # fill the whole step table once
        reachable(hmap, system, h, 0, "leg", costs=COSTS)
    out["step_table_fill_s"] = time.perf_counter() - t0
    ts, sizes, answers = [], [], []
    for h in starts:
        t0 = time.perf_counter()
        got = reachable(hmap, system, h, 12, "leg", costs=COSTS)
        ts.append(time.perf_counter() - t0)
        sizes.append(len(got))
        answers.append(got)
    out["warm_median_ms"] = statistics.median(ts) * 1000
    out["warm_max_ms"] = max(ts) * 1000
    out["median_reachable_hexes"] = statistics.median(sizes)
    ts = []
    for h in starts[:100]:
        t0 = time.perf_counter()
        reachable(hmap, system, h, 12, "leg", column=True, costs=COSTS)
        ts.append(time.perf_counter() - t0)
    out["column_cold_then_warm_median_ms"] = statistics.median(ts) * 1000
    out["first_size"] = len(first)
    # --- fast path, on a fresh map of the same seed (its own cold build) -----------------------
    fresh = bench_map()
    t0 = time.perf_counter()
    fast_first = reachable_dense(fresh, system, starts[0], 12, "leg", costs=COSTS)
    out["fast_cold_first_query_ms"] = (time.perf_counter() - t0) * 1000
    ts, agree = [], 0
    for h, ref in zip(starts, answers):
        t0 = time.perf_counter()
        got = reachable_dense(fresh, system, h, 12, "leg", costs=COSTS)
        ts.append(time.perf_counter() - t0)
        agree += got == ref
    out["fast_warm_median_ms"] = statistics.median(ts) * 1000
    out["fast_warm_max_ms"] = max(ts) * 1000
    out["fast_vs_reference_agree"] = f"{agree + (fast_first == first)}/{len(starts) + 1}"
    for k, v in out.items():
        print(f"  {k:36} {v:.4g}" if isinstance(v, float) else f"  {k:36} {v}")
    return out
