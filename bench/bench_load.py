"""Loading benchmarks: ``python -m bench load`` (add ``--runs=N``, default 3).

Generates two bundles with :mod:`bench.gen_map` (700×700 and 100×70 hexes) and measures,
each in a fresh subprocess so that peak RSS (``resource.getrusage(RUSAGE_SELF).ru_maxrss``)
belongs to that one measurement:

* ``load``: ``model.bundle.load_bundle`` of the bundle (wall time of the call, peak RSS of the process);
* ``save``: ``Bundle.save`` of the loaded bundle to a fresh folder, so every file is dumped
  and written atomically (wall time of the save only; peak RSS includes the load before it);
* ``scan``: after a load, ``HexMap.hexes()`` plus ``terrain_at`` of every hex (the lazy
  per-hex work the loader skips; wall time of the scan only). The first pass includes
  building the map's dense terrain index (:mod:`model.terrain_index`), not numpy's first
  import (timed separately: whole-map consumers have imported numpy already); ``again`` is
  a second identical pass on the warm index;
* ``baseline``: peak RSS of a process that only imports the model (what Python + pydantic cost).

Targets: 700×700 load and save < 5 s and < 1.5 GB peak RSS; 100×70 load < 0.3 s.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
SIZES = {"700x700": (700, 700), "100x70": (100, 70)}
TARGETS = {("700x700", "load"): (5.0, 1.5e9), ("700x700", "save"): (5.0, 1.5e9), ("100x70", "load"): (0.3, None)}

CHILD = r"""
import json, resource, sys, time, tempfile
from pathlib import Path
mode, path = sys.argv[1], sys.argv[2]
from model.bundle import load_bundle
out = {}
if mode != "baseline":
    t0 = time.perf_counter()
    result = load_bundle(path)
    out["load_s"] = time.perf_counter() - t0
    assert result.ok, [d.render() for d in result.diagnostics]
    if mode == "save":
        with tempfile.TemporaryDirectory() as tmp:
            t0 = time.perf_counter()
            written = result.bundle.save(Path(tmp) / "copy")
            out["save_s"] = time.perf_counter() - t0
            out["files"] = len(written)
    if mode == "scan":
        # What a first full redraw or whole-map rule needs: every hex and its terrain.
        hmap = result.bundle.default_map
        # The terrain index needs numpy; every process that makes whole-map passes (editor,
        # validators, play) has imported it already, so its import is timed on its own.
        t0 = time.perf_counter()
        import numpy
        out["numpy_import_s"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        hexes = hmap.hexes()
        kinds = {hmap.terrain_at(h) for h in hexes}
        out["scan_s"] = time.perf_counter() - t0
        out["hexes"] = len(hexes)
        t0 = time.perf_counter()
        kinds = {hmap.terrain_at(h) for h in hmap.hexes()}
        out["again_s"] = time.perf_counter() - t0
out["peak_rss"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # KiB on Linux
print(json.dumps(out))
"""


def measure(mode: str, path: Path) -> dict[str, Any]:
    proc = subprocess.run([sys.executable, "-c", CHILD, mode, str(path)], cwd=REPO,
                          capture_output=True, text=True, check=True)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main(args: list[str]) -> dict[str, Any]:
    from bench.gen_map import generate

    runs = next((int(a.split("=", 1)[1]) for a in args if a.startswith("--runs=")), 3)
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="hexbench-") as tmp:
        base = [measure("baseline", Path(tmp))["peak_rss"] for _ in range(runs)]
        results["baseline_rss_mb"] = round(max(base) / 1e6, 1)
        print(f"baseline (python + model imports): peak RSS {results['baseline_rss_mb']} MB")
        for name, (cols, rows) in SIZES.items():
            root = generate(Path(tmp) / name, cols, rows)
            size = sum(p.stat().st_size for p in root.rglob("*.yaml"))
            for mode in ("load", "save", "scan"):
                samples = [measure(mode, root) for _ in range(runs)]
                key = {"load": "load_s", "save": "save_s", "scan": "scan_s"}[mode]
                times = [s[key] for s in samples]
                rss = max(s["peak_rss"] for s in samples)
                row = {"median_s": round(statistics.median(times), 4), "max_s": round(max(times), 4),
                       "peak_rss_mb": round(rss / 1e6, 1), "bundle_mb": round(size / 1e6, 2), "runs": runs}
                target = TARGETS.get((name, mode))
                if target:
                    t_cap, m_cap = target
                    row["meets_target"] = max(times) < t_cap and (m_cap is None or rss < m_cap)
                if mode == "scan":
                    row["numpy_import_median_s"] = round(statistics.median(s["numpy_import_s"] for s in samples), 4)
                    again = [s["again_s"] for s in samples]
                    row["again_median_s"] = round(statistics.median(again), 4)
                    row["again_max_s"] = round(max(again), 4)
                results[f"{name}_{mode}"] = row
                print(f"{name:8} {mode:5} median {row['median_s']:.4f} s  max {row['max_s']:.4f} s  "
                      f"peak RSS {row['peak_rss_mb']} MB  ({row['bundle_mb']} MB of YAML, {runs} runs)"
                      + (f"  target {'met' if row.get('meets_target') else 'MISSED'}" if target else "")
                      + (f"  (second pass median {row['again_median_s']:.4f} s, max {row['again_max_s']:.4f} s;"
                         f" numpy import before it {row['numpy_import_median_s']:.4f} s)"
                         if mode == "scan" else ""))
    return results


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1:]), indent=2))
