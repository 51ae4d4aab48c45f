"""SFN 15.1 Allied Naval (Gun Support) Task Force (optional rule ``naval_task_force``).

The Allied player declares the NTF at the time of use, as an argument of the ``attack``
action: ``{do: attack, …, ntf: true}`` — on his own attack, or on a German attack against his
units (the defender's choices are arguments of the attack, like ``retreat``):

- Allied units attacking a German-occupied coastal hex fire with +1 (preparatory barrage and
  offensive fire); never for attacks inland from the coast [15.1];
- Allied units defending in a coastal hex fire with +2 (defensive fire) [15.1];
- once per game turn, from the very first; no CP, no plan; never while a great storm rages
  [15.1, 15.2]. German units never fire at the NTF (it is not a unit on the board).

A coastal hex is a land hex next to a sea hex (as for coastal supply, ``play.supply``).
A declaration the rules forbid refuses the whole ``attack`` (nothing is rolled, no CP spent),
so the playtester can retry without ``ntf``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from play.sfn.optional.base import OptionalRule, storm_raging
from play.sfn.params import NavalTaskForceParams
from play.sfn.state import sfn_state

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.result import ActionResult
    from play.sfn.combat import Battle, Fighter


def _truth(v: Any) -> bool:
    return str(v).strip().lower() in ("1", "true", "yes", "on")


class NavalTaskForce(OptionalRule):
    key = "naval_task_force"
    c: NavalTaskForceParams

    def battle_start(self, game: "PlayContext", action: dict[str, Any], attackers: list[str],
                     target_label: str) -> "ActionResult | None":
        from play.result import ActionResult
        from play.supply import _coastal

        if not _truth(action.get("ntf", False)):
            return None
        if not self.on(game):
            return self.off()
        if storm_raging(game):
            return ActionResult(False, "the NTF may not appear while a great storm is raging", "SFN 15.2")
        used = sfn_state(game).optional.naval_task_force.used
        per = self.c.per_game_turn.value
        if used.get(game.state.turn, 0) >= per:
            return ActionResult(False, "the NTF was already used this game turn (once per game turn)",
                                self.c.per_game_turn.rule or self.rule)
        target = game.hex_of(target_label)
        attacking_side = game.state.units[attackers[0]].side
        coastal_rule = self.c.coastal.rule or self.rule
        if attacking_side == self.side:
            if not _coastal(game, target):
                return ActionResult(False, f"{target_label} is not a coastal hex: the NTF supports attacks into "
                                           "coast hexes only, never inland from the coast", coastal_rule)
            mode, mod = "attacking", self.c.attacking_modifier.value
        else:
            if not any(u.side == self.side for u in game.state.at(target)):
                return ActionResult(False, "the NTF supports Allied units only", self.rule)
            if not _coastal(game, target):
                return ActionResult(False, f"{target_label} is not a coastal hex: the NTF supports Allied units "
                                           "defending in a coastal hex only", coastal_rule)
            mode, mod = "defending", self.c.defending_modifier.value
        rec = self.battle(game)
        rec.ntf_mode, rec.ntf_modifier = mode, mod
        game.emit("ntf", target=target_label, mode=mode, modifier=mod, rule=self.rule)
        return None

    def adjust_fire(self, game: "PlayContext", b: "Battle", f: "Fighter", target: "Fighter", attacking: bool,
                    mods: dict[str, int]) -> None:
        rec = self.battle(game)
        if rec.ntf_mode is None or f.side != self.side:
            return
        if (rec.ntf_mode == "attacking") == attacking:
            mods["ntf"] = rec.ntf_modifier

    def after(self, game: "PlayContext", action: dict[str, Any], result: "ActionResult") -> None:
        if action.get("do") == "attack" and result.ok and self.battle(game).ntf_mode:
            used = sfn_state(game).optional.naval_task_force.used
            used[game.state.turn] = used.get(game.state.turn, 0) + 1
