"""Shared set-up for the SFN procedure tests (not a test module)."""

from __future__ import annotations

from functools import lru_cache

from conftest import REPO
from model.bundle import Bundle, load_bundle
from play.game import Game
from play.sequence import Phase


@lru_cache(maxsize=1)
def sfn_bundle() -> Bundle:
    res = load_bundle(REPO / "scenarios" / "second-front-now")
    assert res.bundle is not None
    return res.bundle


def sfn_game(scenario: str = "calais-landing", seed: int = 1) -> Game:
    return Game(sfn_bundle(), scenario, seed)


# What a test asks for → what the SFN phase must permit: moves and attacks are both made in the
# Command & Action Phase [5.2 B]; "reinforcement" is the Administrative Phase [5.2 A].
_WANTS = {"movement": "move", "combat": "attack"}


def _fits(ph: "Phase", side: str, kind: str) -> bool:
    return ph.side == side and (ph.permits(_WANTS[kind]) if kind in _WANTS else ph.kind == kind)


def to_phase(game: Game, side: str, kind: str) -> None:
    """On to the next phase of ``side`` that fits ``kind`` (this turn, else the next), by name."""
    for _ in range(3):
        if _fits(game.phase, side, kind):
            return
        ahead = [p for p in game.phases[game.state.phase + 1:] if _fits(p, side, kind)]
        if ahead:
            assert game.apply({"do": "next_phase", "to": f"{ahead[0].id} {ahead[0].side}"}).ok
        else:
            game.apply({"do": "end_turn"})
    raise AssertionError(f"no {kind} phase of {side}")
