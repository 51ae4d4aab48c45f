"""Validation speed: full validation of the largest sample bundle with all packs, and
re-validation after one edit through the incremental :class:`validators.engine.Validator`.

Targets: full ≤ 300 ms, incremental ≤ 30 ms.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]


def _largest_sample() -> Path:
    samples = [p for p in (REPO / "scenarios").glob("*") if (p / "game.yaml").exists()]
    return max(samples, key=lambda p: sum(f.stat().st_size for f in p.rglob("*.yaml")))


def main(args: Any = None) -> dict[str, Any]:
    from model.bundle import load_bundle
    from validators.config import Config
    from validators.engine import Validator
    from validators.registry import default_registry

    path = _largest_sample()
    bundle = load_bundle(path).bundle
    assert bundle is not None, f"{path} does not load"
    registry = default_registry()
    config = Config(preview=True)
    Validator(bundle, config, registry).run()  # warm caches (imports, calendars)
    full = []
    for _ in range(10):
        t0 = time.perf_counter()
        diags = Validator(bundle, config, registry).run()
        full.append((time.perf_counter() - t0) * 1000)
    v = Validator(bundle, config, registry)
    v.run()
    sid = next((s for s, sc in bundle.scenarios.items() if sc.setup), bundle.scenario_ids()[0])
    incr = []
    for i in range(10):
        scen = bundle.scenarios[sid]
        # One edit: toggle a note on the first setup line (what an editor change looks like).
        if scen.setup:
            scen.setup[0].note = f"bench edit {i}"
        t0 = time.perf_counter()
        v.invalidate([sid])
        v.run()
        incr.append((time.perf_counter() - t0) * 1000)
    result = {
        "bundle": path.name,
        "scenarios": len(bundle.scenarios),
        "rules": len(v.active_rules()),
        "findings": len(diags),
        "full_ms_median": round(statistics.median(full), 1),
        "full_ms_max": round(max(full), 1),
        "incremental_ms_median": round(statistics.median(incr), 1),
        "incremental_ms_max": round(max(incr), 1),
        "edited_scenario": sid,
    }
    for k, val in result.items():
        print(f"{k:>24}: {val}")
    return result


if __name__ == "__main__":
    main()
