"""Saving benchmarks: ``python -m bench save`` (add ``--runs=N``, default 5).

Each run is a fresh subprocess, so the first call of each step is *cold* (the first use in
that process: imports, caches) and a second identical step in the same process is *warm*:

* ``load``: ``load_bundle`` of a generated 700×700 bundle (bench/gen_map.py), which also
  keeps each file's text, raw data and a frozen copy of its model for format-preserving saves;
* ``edit save``: paint one hex, then ``Bundle.save()`` (only the map file changes; only the
  changed terrain row of its text is replaced, and checked by reading that block back), and
  side by side in the same process the *reference*: the canonical rewrite of the same file
  (``dump_files`` of that map, written through ``commit_files``), which is what every save did
  before;
* ``no-op save``: ``Bundle.save()`` with no edit on the largest sample (``scenarios/utah-beach``),
  which compares the data with the snapshots and writes nothing.

Each step is timed as wall time (the figure the targets are about) and as the process's CPU
time (``time.process_time``: the work itself, less what waiting for a core or for ``fsync``
adds on a busy machine).

Targets (issue #14): load ≤ 0.5 s; save after a one-hex edit ≤ 0.3 s; no-op save ≤ 0.1 s.
"""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
TARGETS = {"load": 0.5, "edit_save": 0.3, "noop_save": 0.1}

CHILD = r"""
import json, sys, time
from pathlib import Path
big, sample = Path(sys.argv[1]), Path(sys.argv[2])
out = {}
t0 = time.perf_counter()
from model.bundle import load_bundle
from model.edits import set_terrain
from model.safefile import commit_files
out["import_s"] = time.perf_counter() - t0

def timed(fn, key):
    t0, c0 = time.perf_counter(), time.process_time()
    value = fn()
    out[key], out[key + "_cpu"] = time.perf_counter() - t0, time.process_time() - c0
    return value

for tag in ("cold", "warm"):
    result = timed(lambda: load_bundle(big), f"load_{tag}")
    bundle = result.bundle
    hmap = bundle.default_map
    hexes = hmap.hexes()
    h = hexes[len(hexes) // 2 + (0 if tag == "cold" else 7)]
    other = next(t.id for t in bundle.system.terrain if t.id != hmap.terrain_at(h))
    set_terrain(hmap, {h: other}, bundle.system)
    written = timed(bundle.save, f"edit_save_{tag}")
    assert len(written) == 1 and not bundle.last_save_fallbacks, (written, bundle.last_save_fallbacks)
    rel = bundle.files[f"map:{hmap.id}"]
    timed(lambda: commit_files(bundle.root, {Path(rel): bundle.dump_files()[bundle.root / rel].encode("utf-8")}),
          f"reference_save_{tag}")
    noop = load_bundle(sample).bundle
    written = timed(noop.save, f"noop_save_{tag}")
    assert written == []
print(json.dumps(out))
"""


def main(args: list[str]) -> dict[str, Any]:
    from bench.gen_map import generate

    runs = next((int(a.split("=", 1)[1]) for a in args if a.startswith("--runs=")), 5)
    samples: list[dict[str, float]] = []
    with tempfile.TemporaryDirectory(prefix="hexbench-save-") as tmp:
        big = generate(Path(tmp) / "700x700", 700, 700)
        sample = Path(tmp) / "utah-beach"
        shutil.copytree(REPO / "scenarios" / "utah-beach", sample)
        for _ in range(runs):
            proc = subprocess.run([sys.executable, "-c", CHILD, str(big), str(sample)], cwd=REPO,
                                  capture_output=True, text=True, check=True)
            samples.append(json.loads(proc.stdout.strip().splitlines()[-1]))
    results: dict[str, Any] = {"runs": runs}
    for key in samples[0]:
        values = [s[key] for s in samples]
        results[key] = {"median_s": round(statistics.median(values), 4), "min_s": round(min(values), 4),
                        "max_s": round(max(values), 4)}
    for step in ("load", "edit_save", "reference_save", "noop_save"):
        cold, warm = results[f"{step}_cold"], results[f"{step}_warm"]
        cold_cpu, warm_cpu = results[f"{step}_cold_cpu"], results[f"{step}_warm_cpu"]
        target = TARGETS.get(step)
        verdict = ""
        if target is not None:
            verdict = f"  target {target} s {'met' if cold['max_s'] <= target else 'MISSED'} (cold max)"
        print(f"{step:15} cold median {cold['median_s']:.4f} s (max {cold['max_s']:.4f}; CPU {cold_cpu['median_s']:.4f})   "
              f"warm median {warm['median_s']:.4f} s (max {warm['max_s']:.4f}; CPU {warm_cpu['median_s']:.4f}){verdict}")
    return results


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1:]), indent=2))
