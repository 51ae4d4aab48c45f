"""The one way a test fixes a game's dice: :class:`LoadedDice`.

``LoadedDice.on(game, [3, 5])`` makes the game's next rolls return those faces in order (the
game's own seeded dice are untouched otherwise). Options name the conventions a test needs:
``zero_is_max`` reads a 0 as the die's top face (a d10 printed 0 is 10), ``then_seeded``
falls back to the game's seeded dice once the faces run out (else running out is an error
that names the test's mistake)."""

from __future__ import annotations

from typing import Any, Callable, Iterable


class LoadedDice:
    def __init__(self, faces: Iterable[int], *, zero_is_max: bool = False,
                 fallback: Callable[[int, int], list[int]] | None = None) -> None:
        # The faces still to come: a list given is consumed in place, so its owner sees what is left.
        self.faces = faces if isinstance(faces, list) else list(faces)
        self.zero_is_max = zero_is_max
        self.fallback = fallback
        self.rolled: list[tuple[int, int]] = []  # (count, sides) of every roll asked for

    @classmethod
    def on(cls, game: Any, faces: Iterable[int], *, zero_is_max: bool = False,
           then_seeded: bool = False) -> "LoadedDice":
        """Load ``game``'s dice with ``faces``; returns the loaded dice."""
        dice = cls(faces, zero_is_max=zero_is_max, fallback=game.dice.roll if then_seeded else None)
        game.dice.roll = dice.roll  # an instance attribute: the Dice class is not changed
        return dice

    def roll(self, count: int = 1, sides: int = 6) -> list[int]:
        self.rolled.append((count, sides))
        take = min(count, len(self.faces))
        if take < count and self.fallback is None:
            raise AssertionError(f"the test's dice ran out: asked for {count}d{sides}, {len(self.faces)} face(s) left")
        out = [self.faces.pop(0) for _ in range(take)]
        if self.zero_is_max:
            out = [f or sides for f in out]
        if take < count and self.fallback is not None:
            out += self.fallback(count - take, sides)
        return out
