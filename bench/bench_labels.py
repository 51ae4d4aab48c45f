"""Map label layout benchmark: ``python -m bench labels``.

Times laying out the feature names of each sample map (``FeatureLabels.result``:
measuring every name's forms with Qt fonts, building the obstacles, which since issue #21
include every printed hex number, and ``model.label_layout.layout_labels``). Each sample runs
in a new Python process: *cold* is the first layout there (first font use included), *warm*
the median of the next runs after ``invalidate()`` (the relayout after a feature edit). The
scene is built first and not timed. The load average is recorded around each process.

``HEXPROOF_BENCH_REPS`` sets the warm repetitions (default 5).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
SAMPLES = ("utah-beach", "second-front-now", "killing-ground")

_CHILD = r"""
import json, os, statistics, sys, time
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
from pathlib import Path
from PySide6.QtWidgets import QApplication
app = QApplication.instance() or QApplication([])
from editor.export.map_render import scene_for
from model.bundle import load_bundle
scene = scene_for(load_bundle(Path(sys.argv[1])).bundle)
labels = scene.details.labels
labels.invalidate()
t0 = time.perf_counter(); res = labels.result; cold = time.perf_counter() - t0
warm = []
for _ in range(int(sys.argv[2])):
    labels.invalidate()
    t0 = time.perf_counter(); labels.result; warm.append(time.perf_counter() - t0)
print(json.dumps({"hexes": len(scene.doc.hmap.hexes()), "names": len(res.placed) + len(res.hidden),
                  "cold_ms": round(cold * 1e3, 1), "warm_ms": round(statistics.median(warm) * 1e3, 1)}))
"""


def main(args: list[str]) -> dict[str, Any]:
    reps = int(os.environ.get("HEXPROOF_BENCH_REPS", "5"))
    rows = []
    for name in SAMPLES:
        before = os.getloadavg()[0]
        out = subprocess.run([sys.executable, "-c", _CHILD, str(REPO / "scenarios" / name), str(reps)],
                             cwd=REPO, capture_output=True, text=True, check=True).stdout
        row = {"bundle": name, **json.loads(out.strip().splitlines()[-1]),
               "load_1min": f"{before:.2f}->{os.getloadavg()[0]:.2f}"}
        rows.append(row)
        print(f"{name}: {row['hexes']} hexes, {row['names']} names: cold {row['cold_ms']} ms, "
              f"warm {row['warm_ms']} ms (median of {reps}; load {row['load_1min']})")
    return {"labels": rows}
