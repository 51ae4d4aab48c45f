"""Publisher outputs: the full proof PDF of the Utah sample (target ≤ 20 s in-process), the
whole ``hexproof proof scenarios/utah-beach`` command in fresh processes (cold: imports, load,
Qt start-up, the PDF; issue #21 target ≤ 1.5 s) and a semantic diff of two versions of the
largest sample (target ≤ 1 s, :func:`model.diff.diff_bundles`).

The terrain of the map tiles is drawn as vector hexes on the PDF (editor/export/map_render);
the raster it replaced is the reference in tests/export/test_terrain_vector.py.

The second version is the first with edits a real errata pass makes: 20 hexes of terrain
repainted, one setup hex moved, one counter value changed.
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]


def _largest_sample() -> Path:
    samples = [p for p in (REPO / "scenarios").glob("*") if (p / "game.yaml").exists()]
    return max(samples, key=lambda p: sum(f.stat().st_size for f in p.rglob("*.yaml")))


def bench_pdf(runs: int = 3) -> dict[str, Any]:
    from editor.export.pdf import export_proof_pdf
    from editor.export.qt_app import ensure_app
    from model.bundle import load_bundle

    ensure_app()
    times, pages, size = [], 0, 0
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(runs):
            bundle = load_bundle(REPO / "scenarios" / "utah-beach").bundle  # a fresh load: no warm scene
            assert bundle is not None
            out = Path(tmp) / f"utah-{i}.pdf"
            t0 = time.perf_counter()
            summary = export_proof_pdf(bundle, out)
            times.append(time.perf_counter() - t0)
            pages, size = summary.pages, out.stat().st_size
    return {"pdf_median_s": statistics.median(times), "pdf_max_s": max(times), "pages": pages,
            "pdf_mib": round(size / 2**20, 1), "pdf_runs": runs}


def bench_cli(runs: int = 3) -> dict[str, Any]:
    """``hexproof proof`` as a whole command, each run a fresh process: CPU (getrusage of the
    child) and wall seconds, after one run that is not counted (disk cache, .pyc files)."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    cpu, wall = [], []
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-m", "hexproof", "proof", "scenarios/utah-beach", "--out", tmp, "--quiet"]
        for i in range(runs + 1):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, check=True)
            w = time.perf_counter() - t0
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            if i:
                wall.append(w)
                cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return {"cli_cpu_median_s": statistics.median(cpu), "cli_wall_median_s": statistics.median(wall),
            "cli_wall_max_s": max(wall), "cli_runs": runs}


def bench_diff(runs: int = 10) -> dict[str, Any]:
    from model.bundle import load_bundle
    from model.diff import diff_bundles
    from model.edits import set_terrain

    path = _largest_sample()
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / path.name
        shutil.copytree(path, copy)
        new = load_bundle(copy).bundle
        assert new is not None
        hmap = new.default_map
        hexes = hmap.hexes()
        other = next(t.id for t in new.system.terrain if t.id != hmap.terrain_at(hexes[0]))
        set_terrain(hmap, {h: other for h in hexes[100:120]}, new.system)
        sid = next(s for s in new.scenario_ids() if new.scenarios[s].setup)
        entry = next(e for e in new.scenarios[sid].setup if e.hex is not None)
        entry.hex = entry.hex.neighbor(0)
        c = next(c for c in new.counters if c.front.values)
        key = next(iter(c.front.values))
        c.front.values[key] = "changed"
        new.save()
        old = load_bundle(path).bundle
        new = load_bundle(copy).bundle
        assert old is not None and new is not None
        times, changes = [], []
        for _ in range(runs):
            t0 = time.perf_counter()
            changes = diff_bundles(old, new)
            times.append(time.perf_counter() - t0)
    return {"diff_sample": path.name, "diff_median_s": statistics.median(times), "diff_max_s": max(times),
            "changes": len(changes), "diff_runs": runs}


def main(args: list[str] | None = None) -> dict[str, Any]:
    out = {**bench_pdf(), **bench_cli(), **bench_diff()}
    print(f"proof PDF, utah-beach: median {out['pdf_median_s']:.2f} s, max {out['pdf_max_s']:.2f} s "
          f"({out['pages']} pages, {out['pdf_mib']} MiB, {out['pdf_runs']} runs; target ≤ 20 s)")
    print(f"hexproof proof scenarios/utah-beach, fresh process: cpu median {out['cli_cpu_median_s']:.2f} s, "
          f"wall median {out['cli_wall_median_s']:.2f} s (max {out['cli_wall_max_s']:.2f} s, {out['cli_runs']} runs; "
          "target ≤ 1.5 s)")
    print(f"diff, {out['diff_sample']}: median {out['diff_median_s'] * 1000:.1f} ms, max "
          f"{out['diff_max_s'] * 1000:.1f} ms ({out['changes']} changes, {out['diff_runs']} runs; target ≤ 1 s)")
    return out


if __name__ == "__main__":
    main()
