"""What every SFN optional rule [15.0] shares: its data, its switch, its state, the
administrative phase, and the hooks the SFN battle board calls.

- **Data**: ``play/sfn/optional/optional_rules.yaml`` (key ``sfn_optional``), one block per
  rule, every value cited; a system ``params.<key>`` of the same name replaces the block.
  Typed and validated with the other SFN parameters (``play.sfn.params.SfnOptionalParams``);
  each rule reads its block as ``self.c``.
- **Switch**: the scenario's ``optional_rules.<optional_rule>`` (a variant selects them; see
  ``model.bundle.resolve_variant``). A rule that is off refuses its actions with "SFN 15.0".
- **State**: each rule's dataclass in ``SfnState.optional`` (``play/sfn/state.py``; saved and
  undone with the game); what the rules decided for the battle being fought is
  ``SfnState.battle`` (:func:`battle_of`).
- **Administrative phase** [5.2 A]: the generic sequence has none; policy
  ``sfn-admin-phase``: the side's Reinforcement phase stands in for it.
- **Battle hooks**: ``battle_start`` runs in ``before`` of an ``attack`` once the attack is
  legal (LGAS and SAF rolls, NTF declaration); ``adjust_fire`` adds fire modifiers to each shot
  (called by ``play.sfn.procedure.HookedCombat``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from play.procedure import Procedure
from play.sfn.params import OptionalRuleParams, sfn_params
from play.sfn.state import OptionalBattle, sfn_state

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.result import ActionResult
    from play.sfn.combat import Battle, Fighter

ADMIN_POLICY = ("sfn-admin-phase: the generic sequence has no Administrative Phase [5.2 A]; "
                "the side's Reinforcement phase stands in for it")


def is_on(game: "PlayContext", name: str) -> bool:
    """Whether the scenario (or variant) selects the optional rule ``name``."""
    return bool(game.scenario.optional_rules.get(name))


def battle_of(game: "PlayContext") -> OptionalBattle:
    """The optional rules' record of the battle being fought (empty outside an attack)."""
    st = sfn_state(game)
    if st.battle is None:
        st.battle = OptionalBattle()
    return st.battle


def storm_raging(game: "PlayContext") -> bool:
    """A great storm is raging this game turn [15.2] (always False when 15.2 is off)."""
    return sfn_state(game).optional.great_storms.raging


def d10(game: "PlayContext") -> int:
    """The decimal die: faces 1..10, the 0 reads 10 [2.2]."""
    return game.dice.roll(1, 10)[0]


def first_phase_of(game: "PlayContext", side: str | None) -> bool:
    """The current phase is the first of ``side``'s player turn."""
    first = next((i for i, p in enumerate(game.phases) if p.side == side), None)
    return side is not None and first == game.state.phase


def action_units(action: dict[str, Any]) -> list[str]:
    if action.get("do") == "attack":
        return [str(a) for a in action.get("attackers") or []]
    return [str(u) for u in (action.get("units") or [action.get("unit")]) if u is not None]


class OptionalRule(Procedure):
    """One SFN optional rule: data block ``key``, switched on by ``optional_rules.<name>``."""

    key = ""
    c: OptionalRuleParams  # the block ``key`` of SfnOptionalParams (each rule names its own type)
    # The 5.2 step ids this rule plays when the scenario selects it (Procedure.plays).
    steps_played: frozenset[str] = frozenset()

    def __init__(self, game: "PlayContext") -> None:
        self.c = getattr(sfn_params(game).optional, self.key)
        self.rule = self.c.rule
        self.name = self.c.optional_rule or self.key
        self.side = self.c.side
        self.admin_kind = sfn_params(game).optional.admin_phase.kind
        self.actions = {}
        self.plays = self.steps_played if self.on(game) else frozenset()

    def on(self, game: "PlayContext") -> bool:
        return is_on(game, self.name)

    def offers(self, game: "PlayContext") -> bool:
        """Play mode enables this rule's buttons only when the scenario selects the rule."""
        return self.on(game)

    def off(self) -> "ActionResult":
        from play.result import ActionResult

        title = self.rule.replace("SFN ", "")
        return ActionResult(False, f"optional rule {title} is not in effect in this scenario "
                                   f"(optional_rules.{self.name})", "SFN 15.0")

    def admin_refusal(self, game: "PlayContext", side: str, what: str) -> "ActionResult | None":
        """A refusal unless this is ``side``'s administrative phase (policy sfn-admin-phase)."""
        from play.result import ActionResult

        kind = self.admin_kind
        ph = game.phase
        if ph.side == side and ph.kind == kind:
            return None
        return ActionResult(False, f"{what} is done in the {side} administrative phase (here: the {side} "
                                   f"{kind.title()} phase; now: {ph.name}{', ' + ph.side if ph.side else ''})",
                            self.rule, ADMIN_POLICY)

    def storm_refusal(self, game: "PlayContext", what: str) -> "ActionResult | None":
        from play.result import ActionResult

        if storm_raging(game):
            return ActionResult(False, f"no {what} while a great storm is raging", "SFN 15.2")
        return None

    # --- battle hooks (see play.sfn.procedure.HookedCombat) -------------------------------------

    def battle_start(self, game: "PlayContext", action: dict[str, Any], attackers: list[str],
                     target_label: str) -> "ActionResult | None":
        """Called once an ``attack`` is legal, before any fire; a result replaces the battle."""
        return None

    def adjust_fire(self, game: "PlayContext", b: "Battle", f: "Fighter", target: "Fighter", attacking: bool,
                    mods: dict[str, int]) -> None:
        """Add this rule's fire modifiers for one shot to ``mods``."""
        return None

    def battle(self, game: "PlayContext") -> OptionalBattle:
        """The record of the battle being fought (cleared after the attack)."""
        return battle_of(game)
