"""Shared set-up for the SFN optional-rule tests [15.1-15.9] (not a test module)."""

from __future__ import annotations

from typing import Any

from test_sfn_helpers import sfn_game, to_phase

from play.game import Game

VARIANT = "calais-optional-rules"  # every optional rule the engine plays is on


def game(seed: int = 1) -> Game:
    return sfn_game(VARIANT, seed)


def to_turn(g: Game, turn: int) -> None:
    """Step to the first phase (German administrative) of ``turn``."""
    while g.state.turn < turn:
        r = g.apply({"do": "next_phase"})
        assert r.ok, r


def events(g: Game, kind: str) -> list[dict[str, Any]]:
    return [e for e in g.log if e["type"] == kind]


def shots(g: Game, unit: str | None = None) -> list[dict[str, Any]]:
    return [e for e in events(g, "sfn_shot") if unit is None or e["unit"] == unit]


def place(g: Game, where: dict[str, str], reduce: tuple[str, ...] = ()) -> None:
    for uid, h in where.items():
        assert g.apply({"do": "place", "unit": uid, "to": h}).ok
    for uid in reduce:
        assert g.apply({"do": "step_loss", "unit": uid}).ok


__all__ = ["VARIANT", "events", "game", "place", "shots", "to_phase", "to_turn"]
