"""A seeded dice source: every roll comes from ``random.Random(seed)`` and is logged.

Its full generator state can be saved and restored, so a game saved mid-way continues with
exactly the rolls it would have had.
"""

from __future__ import annotations

import random
from typing import Any

from play.arguments import MAX_DICE, MAX_SIDES


class Dice:
    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._rng = random.Random(seed)
        self.rolls = 0

    def roll(self, count: int = 1, sides: int = 6) -> list[int]:
        """``count`` dice of ``sides`` faces."""
        # The caps stop a hang here too (a billion dice from system data, not only from a
        # {do: roll} action, which play.arguments refuses before it gets this far).
        if not 1 <= count <= MAX_DICE or not 2 <= sides <= MAX_SIDES:
            raise ValueError(f"cannot roll {count}d{sides}: 1-{MAX_DICE} dice of 2-{MAX_SIDES} sides")
        self.rolls += count
        return [self._rng.randint(1, sides) for _ in range(count)]

    def choice_index(self, n: int) -> int:
        """A uniform index in ``range(n)`` (e.g. which chit comes out of the mug)."""
        self.rolls += 1
        return self._rng.randrange(n)

    def get_state(self) -> dict[str, Any]:
        version, internal, gauss = self._rng.getstate()
        return {"seed": self.seed, "rolls": self.rolls, "version": version,
                "internal": list(internal), "gauss": gauss}

    def set_state(self, data: dict[str, Any]) -> None:
        self.seed = int(data["seed"])
        self.rolls = int(data["rolls"])
        self._rng.setstate((int(data["version"]), tuple(int(x) for x in data["internal"]), data["gauss"]))
