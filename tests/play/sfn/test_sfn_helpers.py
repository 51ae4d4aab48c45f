"""Shared set-up for the SFN procedure tests (not a test module)."""

from __future__ import annotations

from functools import lru_cache

from conftest import REPO
from model.bundle import Bundle, load_bundle
from play.game import Game


@lru_cache(maxsize=1)
def sfn_bundle() -> Bundle:
    res = load_bundle(REPO / "scenarios" / "second-front-now")
    assert res.bundle is not None
    return res.bundle


def sfn_game(scenario: str = "calais-landing", seed: int = 1) -> Game:
    return Game(sfn_bundle(), scenario, seed)


def to_phase(game: Game, side: str, kind: str) -> None:
    for _ in range(20):
        if game.phase.side == side and game.phase.kind == kind:
            return
        game.apply({"do": "next_phase"})
    raise AssertionError(f"no {kind} phase of {side}")
