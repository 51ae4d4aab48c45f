"""LoadedDice: faces in order, the d10-zero convention, the seeded fallback, running out."""

from __future__ import annotations

import pytest

from loaded_dice import LoadedDice
from play.dice import Dice


class _Game:
    def __init__(self) -> None:
        self.dice = Dice(7)


def test_faces_come_in_order_and_are_consumed() -> None:
    g = _Game()
    dice = LoadedDice.on(g, [3, 5, 1])
    assert g.dice.roll(2, 6) == [3, 5] and dice.faces == [1]
    assert g.dice.roll(1, 10) == [1] and dice.rolled == [(2, 6), (1, 10)]


def test_zero_reads_as_the_top_face() -> None:
    g = _Game()
    LoadedDice.on(g, [0, 4], zero_is_max=True)
    assert g.dice.roll(2, 10) == [10, 4]


def test_then_seeded_falls_back_to_the_games_own_dice() -> None:
    g, seeded = _Game(), _Game()
    LoadedDice.on(g, [2], then_seeded=True)
    assert g.dice.roll(3, 6) == [2] + seeded.dice.roll(2, 6)


def test_running_out_names_the_mistake() -> None:
    g = _Game()
    LoadedDice.on(g, [1])
    with pytest.raises(AssertionError, match="ran out: asked for 2d6, 1 face"):
        g.dice.roll(2, 6)
