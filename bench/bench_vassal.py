"""VASSAL interchange benchmarks: ``python -m bench vassal`` (add ``--runs=N``, default 3).

Each run is a fresh subprocess; in it the Utah sample (scenarios/utah-beach, the largest) is
exported twice and the exported module imported twice, so the first of each is *cold* (first
use in the process: imports, font and image caches) and the second *warm*. Steps, side by side:

* ``export``: ``module_spec`` (render the 108×71 map at 32 px a hex, 61 counters × 2 sides,
  terrain swatches) plus ``build_vmod`` (buildFile, zip, 4 saved setups) — what
  ``hexproof export-vassal`` does after loading the bundle;
* ``import``: ``read_vmod`` (bounded archive, buildFile, images, saves) plus ``bundle_from_module``
  with terrain read from the board colours (Qt image decode) — what ``hexproof import-vassal
  --system gts-utah`` does before writing the folder.

Wall time (the targets) and process CPU time (``time.process_time``) for each.
Targets (issue #20): export ≤ 5 s, import ≤ 3 s.
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
TARGETS = {"export": 5.0, "import": 3.0}

CHILD = r"""
import json, os, sys, time
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
from pathlib import Path
tmp = Path(sys.argv[1])
out = {}
t0 = time.perf_counter()
from editor.export.qt_app import ensure_app
ensure_app()
from editor.export.vassal_assets import module_spec
from editor.export.pixel_sample import sample_colours
from model.bundle import load_bundle
from model.formats.vassal import build_vmod, bundle_from_module, read_vmod
out["import_s"] = time.perf_counter() - t0
bundle = load_bundle(Path(sys.argv[2])).bundle
colours = {t.color.lower(): t.id for t in bundle.system.terrain}

def timed(fn, key):
    t0, c0 = time.perf_counter(), time.process_time()
    value = fn()
    out[key], out[key + "_cpu"] = time.perf_counter() - t0, time.process_time() - c0
    return value

for tag in ("cold", "warm"):
    vmod = tmp / f"utah-{tag}.vmod"
    timed(lambda: build_vmod(module_spec(bundle)[0], vmod), f"export_{tag}")
    result = timed(lambda: bundle_from_module(read_vmod(vmod), "gts-utah", sample_colours, colours), f"import_{tag}")
    assert len([f for f in result.files if f.startswith("scenarios/")]) == 4
print(json.dumps(out))
"""


def main(args: list[str]) -> dict[str, Any]:
    runs = next((int(a.split("=", 1)[1]) for a in args if a.startswith("--runs=")), 3)
    samples: list[dict[str, float]] = []
    with tempfile.TemporaryDirectory(prefix="hexbench-vassal-") as tmp:
        for _ in range(runs):
            proc = subprocess.run([sys.executable, "-c", CHILD, tmp, str(REPO / "scenarios" / "utah-beach")],
                                  cwd=REPO, capture_output=True, text=True, check=True)
            samples.append(json.loads(proc.stdout.strip().splitlines()[-1]))
    results: dict[str, Any] = {"runs": runs}
    for key in samples[0]:
        values = [s[key] for s in samples]
        results[key] = {"median_s": round(statistics.median(values), 4), "min_s": round(min(values), 4),
                        "max_s": round(max(values), 4)}
    for step in ("export", "import"):
        cold, warm = results[f"{step}_cold"], results[f"{step}_warm"]
        cold_cpu, warm_cpu = results[f"{step}_cold_cpu"], results[f"{step}_warm_cpu"]
        target = TARGETS[step]
        verdict = f"  target {target} s {'met' if cold['max_s'] <= target else 'MISSED'} (cold max)"
        print(f"{step:7} cold median {cold['median_s']:.3f} s (max {cold['max_s']:.3f}; CPU {cold_cpu['median_s']:.3f})   "
              f"warm median {warm['median_s']:.3f} s (max {warm['max_s']:.3f}; CPU {warm_cpu['median_s']:.3f}){verdict}")
    return results


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1:]), indent=2))
