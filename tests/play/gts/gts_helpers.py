"""Shared helpers for the GTS play tests: the Utah sample, optionally with illustrative MAs
and terrain costs patched in memory (the sample prints none)."""

from __future__ import annotations

from conftest import REPO
from model.bundle import Bundle, load_bundle
from play.game import Game

UTAH = REPO / "scenarios" / "utah-beach"


def utah() -> Bundle:
    result = load_bundle(UTAH)
    assert result.bundle is not None
    return result.bundle


def game(scenario: str = "beach-landing", seed: int = 1, ma: float | None = None) -> Game:
    b = utah()
    if ma is not None:
        for c in b.counters:
            c.front.values["ma"] = ma  # ILLUSTRATIVE: the counter sheets are not in the file
    g = Game(b, scenario, seed)
    if ma is not None:
        costs = {tid: 1.0 for tid in g.system.terrain_by_id}
        costs.update({sid: 1.0 for sid in g.system.hexside_by_id})
        g.scenario.params["play_costs"] = costs
    return g


def to_phase(g: Game, kind: str, side: str | None) -> None:
    for _ in range(40):
        if g.phase.kind == kind and g.phase.side == side:
            return
        g.apply({"do": "next_phase"})
    raise AssertionError(f"never reached {kind} {side}")


def in_play(g: Game, chit: str) -> None:
    """Put ``chit`` in play as if drawn [GTS 10.0.1] (play/gts/gate.py)."""
    from play.gts import gate
    from play.gts.params import gts_params
    from play.gts.state import gts_state

    gts_state(g).chits.drawn.append(chit)
    gate.start(g, chit, gts_params(g).activation)
