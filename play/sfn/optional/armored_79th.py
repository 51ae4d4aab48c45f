"""SFN 15.9 British 79th Armored (optional rule ``armored_79th``).

Whenever the 79th Armoured Division (data ``unit``) fires on the attack (preparatory barrage or
offensive fire), every applicable terrain modifier [14.2] — the defenders' hex terrain and an
intervening river / major river hexside — is decreased by one for it, not for the other
attackers [15.9]. Policy **79th-reduces-magnitude**: the terrain modifiers are penalties
(-1 … -3), so "decreased by one" is read as one point less penalty each (-2 becomes -1, -1
becomes 0, never above 0); the shot carries ``armored_79th: +n`` next to the unchanged terrain
modifiers. The sample counter prints no fire values for the 79th (``unknown``), so in the sample
it does not fire at all (SFN 2.10: value unknown); the effect is tested with illustrative values.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from play.sfn.optional.base import OptionalRule
from play.sfn.params import Armored79thParams

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.result import ActionResult
    from play.sfn.combat import Battle, Fighter

MAGNITUDE_POLICY = ("79th-reduces-magnitude: each terrain modifier (a penalty) is one point smaller for the "
                    "79th, never above 0")
TERRAIN_KEYS = ("terrain:", "hexside:")  # the 14.2 modifiers SfnCombat puts on a shot


class Armored79th(OptionalRule):
    key = "armored_79th"
    c: Armored79thParams

    def unit(self) -> str:
        return self.c.unit.value

    def battle_start(self, game: "PlayContext", action: dict[str, Any], attackers: list[str],
                     target_label: str) -> "ActionResult | None":
        if self.on(game) and self.unit() in attackers:
            self.battle(game).armored_79th = True
            game.emit("armored_79th", unit=self.unit(), target=target_label, rule=self.rule, policy=MAGNITUDE_POLICY)
        return None

    def adjust_fire(self, game: "PlayContext", b: "Battle", f: "Fighter", target: "Fighter", attacking: bool,
                    mods: dict[str, int]) -> None:
        if not attacking or f.id != self.unit() or not self.battle(game).armored_79th:
            return
        relief = sum(min(1, -m) for k, m in mods.items() if k.startswith(TERRAIN_KEYS) and m < 0)
        if relief:
            mods["armored_79th"] = relief
