"""Shared set-up for the generic-rules tests (not a test module): the format-example bundle
(resources/systems/example-hex.yaml, scenarios/format-example), with system variants."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from conftest import REPO
from model.bundle import Bundle, load_bundle
from model.system import GameSystem
from play.game import Game

FORMAT_EXAMPLE = REPO / "scenarios" / "format-example"


@lru_cache(maxsize=1)
def example_bundle() -> Bundle:
    res = load_bundle(FORMAT_EXAMPLE)
    assert res.bundle is not None, [d.render() for d in res.diagnostics]
    return res.bundle


def variant(**sections: Any) -> GameSystem:
    """The example system with some sections replaced, validated like a loaded file."""
    data = example_bundle().system.model_dump(mode="json", exclude_none=True)
    for key, value in sections.items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    return GameSystem.model_validate(data)


def example_game(seed: int = 1, system: GameSystem | None = None, *, empty: bool = False) -> Game:
    """A game of the example; ``empty`` starts it with every unit off the map (place them)."""
    bundle = example_bundle()
    if system is not None or empty:
        import copy

        bundle = copy.copy(bundle)
        if system is not None:
            bundle.system = system
    game = Game(bundle, "meeting", seed)
    if empty:
        for u in game.state.units.values():
            u.where, u.hex, u.box = "offmap", None, None
    return game


def place(game: Game, where: dict[str, str]) -> None:
    for uid, hx in where.items():
        assert game.apply({"do": "place", "unit": uid, "to": hx}).ok, (uid, hx)


def to_phase(game: Game, side: str, kind: str) -> None:
    for _ in range(20):
        if game.phase.side == side and game.phase.kind == kind:
            return
        game.apply({"do": "next_phase"})
    raise AssertionError(f"no {kind} phase of {side}")



def events(game: Game, kind: str) -> list[dict[str, Any]]:
    return [e for e in game.log if e["type"] == kind]
