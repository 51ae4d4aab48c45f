"""SFN optional rules [15.0] in test play, one module per rule, each switched on by the
scenario's (or variant's) ``optional_rules`` selection:

========================  =====================  ==============================================
module                    ``optional_rules`` key  actions / hooks
========================  =====================  ==============================================
naval_task_force [15.1]   naval_task_force       ``attack`` argument ``ntf: true``; fire +1/+2
great_storms [15.2]       great_storms           automatic checks; refusals while raging
tactical_air [15.3]       tactical_air           ``declare_air``; LGAS roll per battle
strategic_air [15.4]      strategic_air          ``plot_saf``, ``cancel_saf``; strike roll
airborne_withdrawal       airborne_withdrawal    ``airborne_withdraw``; 30-day rest
[15.5]
blue_point [15.7]         blue_point             ``blue_point``; chaos day, CP -1
aerial_supply [15.8]      aerial_supply          ``aerial_supply``
armored_79th [15.9]       armored_79th           terrain modifiers -1 for the 79th
========================  =====================  ==============================================

15.6 (airdrops) is ``play.sfn.airdrop``; 15.10 (six-sided dice) is not modelled: the engine's
dice are decimal. Data: ``optional_rules.yaml`` next to this file (cited). The battle hooks run
through :class:`OptionalBattles` (last in the procedure list, so every other refusal comes
first and no die is rolled for an attack that is refused).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from play.procedure import Procedure
from play.sfn.optional.base import OptionalRule
from play.sfn.state import OptionalBattle, sfn_state

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.result import ActionResult


def rule_classes() -> list[type[OptionalRule]]:
    """In the order they act: storms first (15.3 says the storm check precedes the air
    declaration), then NTF, SAF before LGAS (no LGAS check in an SAF battle), the 79th."""
    from play.sfn.optional.aerial_supply import AerialSupply
    from play.sfn.optional.airborne_withdrawal import AirborneWithdrawal
    from play.sfn.optional.armored_79th import Armored79th
    from play.sfn.optional.blue_point import BluePoint
    from play.sfn.optional.great_storms import GreatStorms
    from play.sfn.optional.naval_task_force import NavalTaskForce
    from play.sfn.optional.strategic_air import StrategicAir
    from play.sfn.optional.tactical_air import TacticalAir

    return [GreatStorms, BluePoint, NavalTaskForce, StrategicAir, TacticalAir, Armored79th,
            AirborneWithdrawal, AerialSupply]


class OptionalBattles(Procedure):
    """Runs the optional rules' ``battle_start`` once an SFN ``attack`` is legal, and clears
    their battle records afterwards."""

    def __init__(self, game: "PlayContext", rules: list[OptionalRule]) -> None:
        self.rules = rules
        self.actions = {}

    def before(self, game: "PlayContext", action: dict[str, Any]) -> "ActionResult | None":
        if action.get("do") != "attack":
            return None
        if not action.get("ntf") and not any(r.on(game) for r in self.rules):
            return None  # nothing optional to roll or declare in this scenario
        from play.sfn.procedure import SfnCombatProcedure

        combat = next((p for p in game.procedures if isinstance(p, SfnCombatProcedure)), None)
        if combat is None:
            return None
        sfn_state(game).battle = OptionalBattle()
        checked = combat.combat.refuse(game, action)
        if not isinstance(checked, tuple):
            return None  # the attack handler reports the refusal; nothing is rolled
        attackers, _here, target = checked
        label = str(game.label(target))
        for r in self.rules:
            res = r.battle_start(game, action, attackers, label)
            if res is not None:
                return res
        return None

    def after(self, game: "PlayContext", action: dict[str, Any], result: "ActionResult") -> None:
        if action.get("do") == "attack":
            sfn_state(game).battle = None


def optional_procedures(game: "PlayContext") -> list[Procedure]:
    """Every optional-rule procedure: a rule the scenario does not select refuses its actions
    with "SFN 15.0" and adds nothing to play."""
    rules = [cls(game) for cls in rule_classes()]
    return [*rules, OptionalBattles(game, rules)]
