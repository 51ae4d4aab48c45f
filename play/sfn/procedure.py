"""The SFN combat procedure: registers ``attack`` with the battle-board resolution."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from play.procedure import Procedure
from play.sfn.combat import Battle, Fighter, SfnCombat

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.result import ActionResult


class HookedCombat(SfnCombat):
    """SfnCombat plus the fire modifiers of other procedures (SFN optional rules 15.1, 15.3,
    15.4, 15.9 in ``play/sfn/optional``): each procedure with ``adjust_fire`` may add to a shot's
    modifiers."""

    def _modifiers(self, game: "PlayContext", b: Battle, f: Fighter, target: Fighter, attacking: bool) -> dict[str, int]:
        mods = super()._modifiers(game, b, f, target, attacking)
        for proc in game.procedures:
            adjust = getattr(proc, "adjust_fire", None)
            if adjust is not None:
                adjust(game, b, f, target, attacking, mods)
        return mods


class SfnCombatProcedure(Procedure):
    replaces = frozenset({"attack"})  # SFN battle-board combat [13.1] is the attack
    plays = frozenset({"german_command", "allied_command"})  # Attack Commands [5.2 B, 6.3]

    def __init__(self, game: "PlayContext") -> None:
        self.combat = HookedCombat(game)
        self.actions = {"attack": self.attack}

    def attack(self, game: "PlayContext", action: dict[str, Any]) -> "ActionResult":
        return self.combat.attack(game, action)
