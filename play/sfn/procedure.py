"""The SFN combat procedure: registers ``attack`` with the battle-board resolution."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from play.procedures import Procedure
from play.sfn.combat import SfnCombat

if TYPE_CHECKING:
    from play.game import ActionResult, Game


class SfnCombatProcedure(Procedure):
    def __init__(self, game: "Game") -> None:
        self.combat = SfnCombat(game)
        self.actions = {"attack": self.attack}

    def attack(self, game: "Game", action: dict[str, Any]) -> "ActionResult":
        return self.combat.attack(game, action)
