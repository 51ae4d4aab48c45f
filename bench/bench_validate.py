"""Validation speed: full validation of each sample bundle (largest first) with all packs,
and re-validation after one edit through the incremental :class:`validators.engine.Validator`:
``invalidate([sid])`` (the scenario, its variants and the bundle-scope rules rerun) and the
editor's scenario-only path ``invalidate([sid], bundle=False)`` (bundle-scope results kept).

Targets: full ≤ 300 ms, incremental ≤ 30 ms.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]


def _samples() -> list[Path]:
    """Every sample bundle, largest (bytes of YAML) first."""
    samples = [p for p in (REPO / "scenarios").glob("*") if (p / "game.yaml").exists()]
    return sorted(samples, key=lambda p: -sum(f.stat().st_size for f in p.rglob("*.yaml")))


def measure(path: Path, runs: int = 10) -> dict[str, Any]:
    """Full and incremental validation of one bundle, ``runs`` times each."""
    from model.bundle import load_bundle
    from validators.config import Config
    from validators.engine import Validator
    from validators.registry import default_registry

    bundle = load_bundle(path).bundle
    assert bundle is not None, f"{path} does not load"
    registry = default_registry()
    config = Config(preview=True)
    Validator(bundle, config, registry).run()  # warm caches (imports, calendars, terrain index)
    full = []
    for _ in range(runs):
        t0 = time.perf_counter()
        diags = Validator(bundle, config, registry).run()
        full.append((time.perf_counter() - t0) * 1000)
    v = Validator(bundle, config, registry)
    v.run()
    sid = next((s for s, sc in bundle.scenarios.items() if sc.setup), bundle.scenario_ids()[0])
    incr = []
    for i in range(runs):
        scen = bundle.scenarios[sid]
        # One edit: toggle a note on the first setup line (what an editor change looks like).
        if scen.setup:
            scen.setup[0].note = f"bench edit {i}"
        t0 = time.perf_counter()
        v.invalidate([sid])
        v.run()
        incr.append((time.perf_counter() - t0) * 1000)
    # The editor's path for a scenario-only edit: bundle-scope results are kept.
    narrow = []
    for i in range(runs):
        scen = bundle.scenarios[sid]
        if scen.setup:
            scen.setup[0].note = f"bench narrow edit {i}"
        t0 = time.perf_counter()
        v.invalidate([sid], bundle=False)
        v.run()
        narrow.append((time.perf_counter() - t0) * 1000)
    return {
        "bundle": path.name,
        "scenarios": len(bundle.scenarios),
        "rules": len(v.active_rules()),
        "findings": len(diags),
        "full_ms_median": round(statistics.median(full), 1),
        "full_ms_max": round(max(full), 1),
        "incremental_ms_median": round(statistics.median(incr), 1),
        "incremental_ms_max": round(max(incr), 1),
        "scenario_only_ms_median": round(statistics.median(narrow), 1),
        "scenario_only_ms_max": round(max(narrow), 1),
        "rerun_scenarios": _family_size(bundle, sid),
        "edited_scenario": sid,
        "runs": runs,
    }


def _family_size(bundle: Any, sid: str) -> int:
    """How many scenarios one edit to ``sid`` reruns: it and every variant built on it."""
    family = {sid}
    while grown := {s for s, sc in bundle.scenarios.items() if sc.extends in family} - family:
        family |= grown
    return len(family)


def main(args: Any = None) -> dict[str, Any]:
    """The largest sample's figures at the top level (as before), every sample under ``samples``.

    ``--runs=N`` changes the number of runs per measure (default 10).
    """
    runs = next((int(a.split("=", 1)[1]) for a in (args or []) if str(a).startswith("--runs=")), 10)
    per_bundle = [measure(p, runs) for p in _samples()]
    result = dict(per_bundle[0])
    result["samples"] = {r["bundle"]: r for r in per_bundle}
    for r in per_bundle:
        print(f"== {r['bundle']}")
        for k, val in r.items():
            if k != "bundle":
                print(f"{k:>24}: {val}")
    return result


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
