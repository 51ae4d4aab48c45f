"""The SFN combat procedure: registers ``attack`` with the battle-board resolution."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from play.procedures import Procedure
from play.sfn.combat import Battle, Fighter, SfnCombat

if TYPE_CHECKING:
    from play.game import ActionResult, Game


class HookedCombat(SfnCombat):
    """SfnCombat plus the fire modifiers of other procedures (SFN optional rules 15.1, 15.3,
    15.4, 15.9 in ``play/sfn/optional``): each procedure with ``adjust_fire`` may add to a shot's
    modifiers."""

    def _modifiers(self, game: "Game", b: Battle, f: Fighter, target: Fighter, attacking: bool) -> dict[str, int]:
        mods = super()._modifiers(game, b, f, target, attacking)
        for proc in game.procedures:
            adjust = getattr(proc, "adjust_fire", None)
            if adjust is not None:
                adjust(game, b, f, target, attacking, mods)
        return mods


class SfnCombatProcedure(Procedure):
    def __init__(self, game: "Game") -> None:
        self.combat = HookedCombat(game)
        self.actions = {"attack": self.attack}

    def attack(self, game: "Game", action: dict[str, Any]) -> "ActionResult":
        return self.combat.attack(game, action)
