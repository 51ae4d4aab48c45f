"""LOS benchmarks: reference vs fast, single queries, viewsheds, all-pairs matrix.

``python -m bench los [--quick]``. The map is 100×70 (GTS labels, flat-top odd-q) with
seeded random clumps of woods/town/hedgerow, hills, crests and ridges on 4 % of hexsides,
raised roads, OPs and strongpoints, evaluated with the GTS Utah system definition
(resources/systems/gts-utah.yaml). The reference all-pairs time is extrapolated from a
timed random sample of pairs (stated in the output).
"""

from __future__ import annotations

import gc
import random
import resource
import statistics
import time
from typing import Any

import yaml

from model.base import hexside_key
from model.hexes import Hex
from model.labels import GridModel, LabelScheme, Sheet
from model.los import line_of_sight
from model.los_fast import FastLos, template
from model.mapdata import HexMap
from model.system import GameSystem, system_path

COLS, ROWS = 100, 70


def bench_system() -> GameSystem:
    data = yaml.safe_load(system_path("gts-utah").read_text())
    return GameSystem.model_validate(data)


def bench_map(seed: int = 1) -> HexMap:
    rng = random.Random(seed)
    g = GridModel(orientation="flat", stagger="odd", sheets=[Sheet(
        id="main", cols=COLS, rows=ROWS,
        labels=LabelScheme(separator=".", col_digits=2, row_digits=3, first_col=0, first_row=0))])
    spec = g.spec()
    grid = [["."] * COLS for _ in range(ROWS)]
    for _ in range(260):                     # clumps of blocking terrain
        x, y = rng.randrange(COLS), rng.randrange(ROWS)
        ch = rng.choice("wwwthov")
        for h in spec.hex_at_offset(x, y).range(rng.choice((0, 1, 1, 2))):
            ox, oy = spec.offset(h)
            if 0 <= ox < COLS and 0 <= oy < ROWS:
                grid[oy][ox] = ch
    for _ in range(12):
        grid[rng.randrange(ROWS)][rng.randrange(COLS)] = "H"
    hexes = [spec.hex_at_offset(x, y) for y in range(ROWS) for x in range(COLS)]
    crest = sorted({hexside_key(rng.choice(hexes), rng.randrange(6)) for _ in range(COLS * ROWS * 3 // 50)})
    ridge = sorted({hexside_key(rng.choice(hexes), rng.randrange(6)) for _ in range(COLS * ROWS * 3 // 200)})
    paths = []
    for _ in range(6):                       # raised roads wandering east
        h = spec.hex_at_offset(0, rng.randrange(ROWS))
        run = [h]
        for _ in range(40):
            h = h.neighbor(rng.choice((0, 1, 5)))
            run.append(h)
        run = [x for x in run if spec.in_sheets(x)]
        if len(run) >= 2:
            paths.append({"type": "raised", "hexes": [spec.label(x) for x in run]})
    feats = [{"type": t, "hex": spec.label(rng.choice(hexes))} for t in ["op"] * 20 + ["strongpoint"] * 20]
    data: dict[str, Any] = {
        "id": "bench", "name": "LOS bench", "grid": g.model_dump(),
        "terrain": {"legend": {".": "clear", "w": "woods", "t": "town", "h": "hedgerow", "o": "orchard",
                               "v": "village", "H": "hill"},
                    "rows": "\n".join("".join(r) for r in grid)},
        "hexsides": {"crest": [f"({k.hex.q},{k.hex.r})/{['SE', 'NE', 'N'][k.direction]}" for k in crest],
                     "ridge": [f"({k.hex.q},{k.hex.r})/{['SE', 'NE', 'N'][k.direction]}" for k in ridge]},
        "paths": paths, "features": feats,
    }
    return HexMap.model_validate(data, context={"grid": spec})


def _pairs(hmap: HexMap, n: int, reach: int, rng: random.Random) -> list[tuple[Hex, Hex]]:
    hexes = hmap.hexes()
    on = set(hexes)
    out = []
    while len(out) < n:
        a = rng.choice(hexes)
        b = a + rng.choice([o for o in Hex(0, 0).range(reach) if o != Hex(0, 0)])
        if b in on:
            out.append((a, b))
    return out


def _median_us(fn: Any, items: list[Any]) -> float:
    ts = []
    for it in items:
        t0 = time.perf_counter()
        fn(*it)
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts) * 1e6


def main(args: list[str]) -> dict[str, Any]:
    """``--cold`` (or ``--cold=N``, default 5): only the cold/warm table of the first LOS use,
    N fresh processes; ``--quick``: fewer samples."""
    cold = next((a for a in args if a.startswith("--cold")), None)
    if cold is not None:
        return cold_main(int(cold.split("=", 1)[1]) if "=" in cold else 5)
    quick = "--quick" in args
    rng = random.Random(7)
    system = bench_system()
    hmap = bench_map()
    n_hexes = len(hmap.hexes())
    out: dict[str, Any] = {"map": f"{COLS}x{ROWS}", "hexes": n_hexes}

    t0 = time.perf_counter()
    fast = FastLos(hmap, system)
    out["fast_setup_s"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    for off in Hex(0, 0).range(13):
        template(off, "flat")
    out["templates_r13_s"] = time.perf_counter() - t0

    pairs = _pairs(hmap, 300 if quick else 2000, 8, rng)
    out["single_fast_explain_median_us"] = _median_us(lambda a, b: fast.query(a, b).explain(), pairs)
    out["single_ref_explain_median_us"] = _median_us(lambda a, b: line_of_sight(hmap, system, a, b).explain(),
                                                     pairs[:300])

    origins = rng.sample(hmap.hexes(), 50 if quick else 200)
    fast.viewshed(origins[0], 13, purpose="spot")        # builds the per-map arrays and offset batch
    out["viewshed_r13_fast_median_ms"] = _median_us(lambda h: fast.viewshed(h, 13, purpose="spot"),
                                                    [(h,) for h in origins]) / 1000

    gc.collect()
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t0 = time.perf_counter()
    mat = fast.matrix(13, purpose="spot")
    out["allpairs_r13_fast_s"] = time.perf_counter() - t0
    out["allpairs_pairs"] = n_hexes * len(mat.offsets)
    out["allpairs_visible"] = mat.count()
    out["allpairs_matrix_bytes"] = mat.nbytes
    out["peak_rss_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out["peak_rss_before_matrix_mib"] = rss0 / 1024

    sample = _pairs(hmap, 300 if quick else 1500, 13, rng)
    t0 = time.perf_counter()
    for a, b in sample:
        line_of_sight(hmap, system, a, b, purpose="spot")
    per = (time.perf_counter() - t0) / len(sample)
    out["ref_per_pair_us"] = per * 1e6
    out["allpairs_r13_ref_extrapolated_s"] = per * out["allpairs_pairs"]
    out["speedup_allpairs"] = out["allpairs_r13_ref_extrapolated_s"] / out["allpairs_r13_fast_s"]
    # Spot-check the matrix against the reference on the sample.
    agree = sum(mat.visible(a, b) == line_of_sight(hmap, system, a, b, purpose="spot").visible
                for a, b in sample[:300])
    out["matrix_vs_reference_agree"] = f"{agree}/{min(300, len(sample))}"
    for k, v in out.items():
        print(f"  {k:36} {v:.4g}" if isinstance(v, float) else f"  {k:36} {v}")
    return out


# --- cold: the first LOS query, template and viewshed of a fresh process (issue #21 item 5) ------

UTAH = "scenarios/utah-beach"
COLD_PAIR = ("30.027", "33.029")      # a first query (3 hexes apart)
UNBUILT_PAIR = ("30.027", "35.025")   # another offset: its template is not yet looked up


def cold_child() -> dict[str, float]:
    """In a fresh process: the bundle is loaded (not timed), then each first use is timed, wall
    and process CPU; then the same calls again (warm), in the same process."""
    from bench.cold import REPO
    from model.bundle import load_bundle

    res = load_bundle(REPO / UTAH)
    assert res.bundle is not None
    b = res.bundle
    hmap, system = b.maps[next(iter(b.maps))], b.system
    a, t = hmap.parse(COLD_PAIR[0]), hmap.parse(COLD_PAIR[1])
    a2, t2 = hmap.parse(UNBUILT_PAIR[0]), hmap.parse(UNBUILT_PAIR[1])
    out: dict[str, float] = {}

    def timed(name: str, fn: Any) -> Any:
        c0, t0 = time.process_time(), time.perf_counter()
        r = fn()
        out[name], out[name + "_cpu"] = time.perf_counter() - t0, time.process_time() - c0
        return r

    fl = timed("first_query", lambda: (lambda f: (f, f.query(a, t).explain()))(FastLos(hmap, system)))[0]
    timed("unbuilt_template", lambda: fl.query(a2, t2).explain())
    timed("unbuilt_again", lambda: fl.query(a2, t2).explain())
    timed("first_viewshed", lambda: fl.viewshed(a))
    timed("warm_query", lambda: fl.query(a, t).explain())
    timed("warm_viewshed", lambda: fl.viewshed(t))
    return out


def cold_main(n: int) -> dict[str, Any]:
    from bench.cold import load, run_children, table, verdict

    before = load()
    runs = run_children("bench_los", "cold", n)
    after = load()
    col = {k: [r[k] for r in runs] for k in runs[0]}
    rows = [
        ("first LOS query in a process (`FastLos(...)` + `query().explain()`, Utah, bundle loaded), wall",
         col["first_query"], col["warm_query"], f"≤ 5 ms — {verdict(col['first_query'], 0.005)}"),
        ("same, CPU", col["first_query_cpu"], col["warm_query_cpu"], ""),
        ("query whose offset template is not yet looked up (table read), wall",
         col["unbuilt_template"], col["warm_query"], f"≤ 200 µs — {verdict(col['unbuilt_template'], 0.0002)}"),
        ("same, CPU", col["unbuilt_template_cpu"], col["warm_query_cpu"], ""),
        ("that query again at once (its offset decoded; code run twice before), wall", col["unbuilt_again"],
         None, ""),
        ("first viewshed (engine, from 30.027), wall", col["first_viewshed"], col["warm_viewshed"], ""),
        ("same, CPU", col["first_viewshed_cpu"], col["warm_viewshed_cpu"], ""),
    ]
    print(f"  cold LOS: {n} fresh processes, load average before {before}, after {after}")
    print("  (warm: the same call again in the same process; its 'warm' for the unbuilt template is the warm query)")
    print()  # a blank line: the table below is Markdown, pasted as is into docs/benchmarks.md
    for line in table(rows):
        print("  " + line)
    return {"cold_runs": n, "load_before": before, "load_after": after, **{k: v for k, v in col.items()}}


if __name__ == "__main__":
    import sys

    if sys.argv[1:3] == ["--child", "cold"]:
        from bench.cold import emit

        emit(cold_child())
