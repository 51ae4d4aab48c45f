"""Shared helpers for the GTS play tests: the Utah sample, optionally with illustrative MAs
and terrain costs patched in memory (the sample prints none)."""

from __future__ import annotations

from conftest import REPO
from model.bundle import Bundle, load_bundle
from play.game import Game
from play.sequence import Phase

UTAH = REPO / "scenarios" / "utah-beach"


def utah() -> Bundle:
    result = load_bundle(UTAH)
    assert result.bundle is not None
    return result.bundle


# The named opt-out of the strict chit gate (play/gts/gate.py, policy
# activation-before-first-chit-free, ILLUSTRATIVE): for a test of one other rule.
OPT_OUT = "activation_before_first_chit"


def game(scenario: str = "beach-landing", seed: int = 1, ma: float | None = None, at: str | None = "activation",
         free: bool = True) -> Game:
    """A game of the Utah sample; ``at``: a phase of the first turn to go on to (``next_phase to:``),
    by default ``activation``, GTS 4.0 H, the one step in which units act ("During the Activation
    Phase you perform Actions with your Active Units" [GTS 13.1]); ``reinforcements`` (4.0 C: the
    scheduled craft are in their boxes); None: the turn's first step. ``free``: the scenario takes
    the named opt-out ``activation_before_first_chit: free`` (a test of one other rule: units act
    before the first chit, ungated); ``free=False``: strict, a chit must be drawn (``draw_chit``) or
    put in play (:func:`in_play`) before any unit acts [GTS 10.0.1]."""
    b = utah()
    if ma is not None:
        for c in b.counters:
            c.front.values["ma"] = ma  # ILLUSTRATIVE: the counter sheets are not in the file
    g = Game(b, scenario, seed, start=False)
    if free:
        g.scenario.params[OPT_OUT] = "free"
    if ma is not None:
        costs = {tid: 1.0 for tid in g.system.terrain_by_id}
        costs.update({sid: 1.0 for sid in g.system.hexside_by_id})
        g.scenario.params["play_costs"] = costs
    g.start()
    if at is not None:
        r = g.apply({"do": "next_phase", "to": at})
        assert r.ok, r
    return g


# What a test asks for → what the GTS phase must permit: both sides move and fire in the
# Activation Phase [GTS 4.0 H]; reinforcements arrive in Step C.
_WANTS = {"movement": "move", "combat": "attack"}


def _fits(ph: "Phase", kind: str, side: str | None) -> bool:
    if ph.side is not None and ph.side != side:
        return False
    return ph.permits(_WANTS[kind]) if kind in _WANTS else ph.kind == kind


def to_phase(g: Game, kind: str, side: str | None) -> None:
    """On to the next phase of this turn (else the next turn) that fits ``kind`` for ``side``, by name."""
    for _ in range(3):
        if _fits(g.phase, kind, side):
            return
        ahead = [p for p in g.phases[g.state.phase + 1:] if _fits(p, kind, side)]
        if ahead:
            assert g.apply({"do": "next_phase", "to": ahead[0].id}).ok
        else:
            g.apply({"do": "end_turn"})
    raise AssertionError(f"never reached {kind} {side}")


def in_play(g: Game, chit: str) -> None:
    """Put ``chit`` in play as if drawn [GTS 10.0.1] (play/gts/gate.py)."""
    from play.gts import gate
    from play.gts.params import gts_params
    from play.gts.state import gts_state

    gts_state(g).chits.drawn.append(chit)
    gate.start(g, chit, gts_params(g).activation)
