"""Opportunity Fire trigger cost: ``python -m bench opportunity``.

A GTS ``move`` now records pending Opportunity Fire [GTS 17.2] after it runs: every enemy
Fire Zone is computed for every hex the stack leaves and enters (play/gts/opportunity.py).
This times one 3-hex move of a-1-8 back and forth on the Utah beach-landing sample
(illustrative MA 6 and costs 1, as in tests/play/gts_helpers.py), median of 40 moves, with the
trigger hook and with it switched off, for Fire Ranges of 1 (the sample prints none: adjacent
hexes, no LOS trace) and 5 (a viewshed per German unit). The first move of a game builds the
LOS engine's arrays and is not in the median. The load average is recorded (2 shared cores).
"""

from __future__ import annotations

import os
import statistics
import time
from typing import Any

from model.bundle import load_bundle
from play.game import Game
from play.gts import opportunity

MOVES = 40


def _game(fire_range: int | None) -> Game:
    from pathlib import Path

    res = load_bundle(Path(__file__).resolve().parents[1] / "scenarios" / "utah-beach")
    assert res.bundle is not None
    b = res.bundle
    for c in b.counters:
        c.front.values["ma"] = 6  # ILLUSTRATIVE, as in the tests
        if fire_range is not None and c.side == "german":
            c.front.values["fire_range"] = fire_range
    g = Game(b, "beach-landing", 1, start=False)
    g.keep_undo = False
    g.scenario.params["play_costs"] = {tid: 1.0 for tid in [*g.system.terrain_by_id, *g.system.hexside_by_id]}
    # The named opt-out (policy activation-before-first-chit-free): this measures the Opportunity
    # Fire hook of a move, not the chit pull; units move in the 4.0 H Activation Phase.
    g.scenario.params["activation_before_first_chit"] = "free"
    g.start()
    assert g.apply({"do": "next_phase", "to": "activation"}).ok
    g.apply({"do": "place", "unit": "a-1-8", "to": "24.025"})
    return g


def _median_ms(fire_range: int | None, hook: bool) -> tuple[float, int]:
    g = _game(fire_range)
    orig = opportunity.OpportunityFire.after
    if not hook:
        opportunity.OpportunityFire.after = lambda *a: None  # type: ignore[method-assign]
    times: list[float] = []
    recorded = 0
    try:
        for i in range(MOVES + 1):
            g.unit("a-1-8").mp_spent = 0
            t0 = time.perf_counter()
            r = g.apply({"do": "move", "unit": "a-1-8", "to": ("22.025", "24.025")[i % 2]})
            dt = time.perf_counter() - t0
            assert r.ok, r
            recorded += len(opportunity.pending(g))
            if i:
                times.append(dt)
    finally:
        opportunity.OpportunityFire.after = orig  # type: ignore[method-assign]
    return statistics.median(times) * 1000, recorded


def main(args: Any = None) -> dict[str, Any]:
    out: dict[str, Any] = {"load_before": round(os.getloadavg()[0], 2)}
    for rng in (None, 5):
        key = f"range_{rng or 1}"
        with_ms, n = _median_ms(rng, True)
        without_ms, _ = _median_ms(rng, False)
        out[key] = {"with_hook_ms": round(with_ms, 2), "without_hook_ms": round(without_ms, 2),
                    "pending_summed": n}
        print(f"opportunity {key}: move median {with_ms:.2f} ms with the trigger hook, "
              f"{without_ms:.2f} ms without ({n} pending opportunities summed over {MOVES + 1} moves)")
    out["load_after"] = round(os.getloadavg()[0], 2)
    return out
