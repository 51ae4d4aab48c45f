"""The generic ``attack`` action for odds and differential CRTs (``combat.crt``, see
:mod:`play.generic.crt`), with terrain effects (:mod:`play.generic.terrain_combat`), applying
the results (step losses, elimination, exchange, retreat: :mod:`play.generic.retreat`).

``{do: attack, attackers: [ids], target: hex, losses: [ids], retreat_to: {unit: hex}}``:

- only in a combat phase of the attackers' side (phase kinds: play/sequence.py); policy
  **attack-in-own-combat-phase**;
- the attackers are on the map, of one side, each adjacent to the target hex, which holds enemy
  units only; all of them defend; with ``combat.once_per_phase`` (the default) no unit attacks
  and no hex is attacked twice in one phase;
- strength: the sum of the attackers' ``attack_field`` and the defenders' ``defense_field``
  counter values (the reduced side's when reduced). A unit whose value the counter data does
  not give refuses the attack (policy **combat-value-unknown-not-invented**), never a made-up 0;
- the column, its shifts and the die roll: :mod:`play.generic.crt`; a result below the first
  column is the table's ``below`` (``refused``: nothing happens, no die is rolled);
- results, in this order: ``exchange`` (the defenders are eliminated; the attackers lose steps
  until the attack strength they lost is at least the defenders' defence strength), each side's
  ``eliminated`` and ``steps``, then each side's ``retreat``. Policy **loss-order**: each step
  lost goes to the first surviving unit of that side in the action's ``losses`` list, then in
  the ``attackers`` order / the defenders' order in the hex.

Advance after combat is not played (the players ``move`` or ``place`` afterwards).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from model.generic_rules import CombatRules, CrtResult, CrtTable, SideEffect

from play.generic import crt as table
from play.generic import retreat as retreats
from play.generic.terrain_combat import effects_between
from play.procedure import Procedure
from play.result import ActionResult
from play.state import CombatRecord

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.state import UnitState

PHASE_POLICY = "attack-in-own-combat-phase: attacks are made in a combat phase of the attacking side"
UNKNOWN_POLICY = "combat-value-unknown-not-invented: a unit without the counter value cannot take part"
LOSS_ORDER_POLICY = ("loss-order: each step lost goes to the first surviving unit in the action's 'losses', "
                     "then in the attackers' order / the defenders' order in the hex")


def strength(game: "PlayContext", uid: str, field: str) -> float | None:
    """The counter value (reduced side when reduced), or None when the data does not give it."""
    c = game.counters.get(uid)
    if c is None:
        return None
    u = game.state.units[uid]
    side = c.back if u.reduced and c.back is not None else c.front
    v = side.values.get(field)
    if isinstance(v, bool):
        return None
    try:
        return float(str(v)) if v is not None else None
    except ValueError:
        return None


def category_tags(game: "PlayContext", uid: str) -> set[str]:
    c = game.counters.get(uid)
    cat = game.system.category_by_id.get(c.category) if c is not None else None
    return (set(cat.tags) if cat is not None else set()) | ({c.category} if c is not None else set())


class GenericAttack(Procedure):
    """Registers ``attack`` for a system whose ``combat.crt`` is an odds or differential table."""

    def __init__(self, game: "PlayContext", combat: CombatRules) -> None:
        assert combat.crt is not None and combat.crt.kind in ("odds", "differential")
        self.combat = combat
        self.crt: CrtTable = combat.crt
        self.actions = {"attack": self.attack}
        self.replaces = frozenset({"attack"})  # the engine's log-only attack (play/combat.py)

    def on_phase_start(self, game: "PlayContext") -> None:
        game.state.combat = CombatRecord()

    def _refusal(self, game: "PlayContext", action: dict[str, Any]) -> "ActionResult | tuple[list[UnitState], list[UnitState]]":
        rule = self.crt.rule or self.combat.rule
        ids = [str(a) for a in action.get("attackers") or []]
        target = game.hex_of(action.get("target"))
        if not ids:
            return ActionResult(False, "an attack needs attackers", rule)
        units = [game.unit(a) for a in ids]
        side = units[0].side
        ph = game.phase
        if not ph.permits("attack") or (ph.side is not None and ph.side != side):
            return ActionResult(False, f"not a combat phase of {side} (phase: {ph.name}{', ' + ph.side if ph.side else ''})",
                                ph.rule, PHASE_POLICY)
        if any(u.side != side for u in units):
            return ActionResult(False, "the attackers belong to different sides", rule)
        far = [u.id for u in units if not u.on_map or u.hex is None or u.hex.distance(target) != 1]
        if far:
            return ActionResult(False, f"{', '.join(far)} not adjacent to {game.label(target)}", rule)
        there = game.state.at(target)
        defenders = [u for u in there if u.side != side]
        if not defenders or len(defenders) != len(there):
            return ActionResult(False, f"no enemy stack in {game.label(target)}", rule)
        if self.combat.once_per_phase:
            again = [u.id for u in units if u.id in game.state.combat.attacked]
            if again:
                return ActionResult(False, f"{', '.join(again)} already attacked this phase", self.combat.rule)
            if game.label(target) in game.state.combat.defended:
                return ActionResult(False, f"{game.label(target)} was already attacked this phase", self.combat.rule)
        return units, defenders

    def attack(self, game: "PlayContext", action: dict[str, Any]) -> "ActionResult":
        crt, rule = self.crt, self.crt.rule or self.combat.rule
        checked = self._refusal(game, action)
        if isinstance(checked, ActionResult):
            return checked
        attackers, defenders = checked
        target = game.hex_of(action.get("target"))
        att_v = {u.id: strength(game, u.id, crt.attack_field) for u in attackers}
        def_v = {u.id: strength(game, u.id, crt.defense_field) for u in defenders}
        unknown = [k for k, v in {**att_v, **def_v}.items() if v is None]
        if unknown:
            return ActionResult(False, f"no {crt.attack_field}/{crt.defense_field} value in the counter data for "
                                       f"{', '.join(unknown)}", rule, UNKNOWN_POLICY)
        att = sum(v for v in att_v.values() if v is not None)
        dfn = sum(v for v in def_v.values() if v is not None)
        if crt.kind == "odds" and dfn <= 0:
            return ActionResult(False, "the defenders have no defence strength", rule)
        policies: set[str] = set()
        shifts, drm = self._shifts(game, attackers, defenders, target, policies)
        base = table.base_column(crt, att, dfn)
        col = table.shifted(crt, base, sum(shifts.values()))
        if col.policy:
            policies.add(col.policy)
        if col.index < 0 and crt.below == "refused":
            at = crt.columns[base] if base >= 0 else f"below {crt.columns[0]}"
            moved = f", shifted {col.shift:+d} ({', '.join(f'{k} {v:+d}' for k, v in shifts.items())})" if col.shift else ""
            return ActionResult(False, f"{self._odds(att, dfn)} ({at}{moved}) is below the lowest column of the CRT "
                                       f"({crt.columns[0]})", rule, "; ".join(sorted(policies)) or None)
        dice: list[int] = []
        if col.index < 0:
            code, column = crt.below, f"below {crt.columns[0]}"  # no die: the table's result below it
        else:
            n, s = crt.dice_count_sides
            dice = game.dice.roll(n, s)
            code, pol = table.lookup(crt, col.index, sum(dice) + drm)
            if pol:
                policies.add(pol)
            column = crt.columns[col.index]

        game.state.combat.attacked.extend(u.id for u in attackers)
        game.state.combat.defended.append(str(game.label(target)))
        res = crt.results[code]
        game.emit("attack", attackers=[u.id for u in attackers], target=game.label(target),
                  defenders=[u.id for u in defenders], attack=att, defense=dfn, odds=self._ratio(att, dfn),
                  base_column=crt.columns[base] if col.shift and base >= 0 else None,
                  shift=col.shift or None, shifts=shifts or None, drm=drm or None, dice=dice or None,
                  column=column, result=code, rule=res.rule or rule, illustrative=crt.illustrative or None,
                  policy="; ".join(sorted(policies)) or None)
        outcome = self._apply(game, res, attackers, defenders, dfn, action, policies, res.rule or rule)
        roll = f", rolled {sum(dice)}{f' {drm:+d}' if drm else ''}" if dice else ""
        return ActionResult(True, f"{self._odds(att, dfn)} at {column}{roll}: {code}"
                                  + (f" ({outcome})" if outcome else "")
                                  + (" (illustrative CRT)" if crt.illustrative else ""),
                            res.rule or rule, "; ".join(sorted(policies)) or None,
                            data={"column": column, "dice": dice, "result": code, "attack": att, "defense": dfn})

    def _ratio(self, att: float, dfn: float) -> str:
        """The attack as the table reads it: ``"10:3"`` (odds) or ``"+4"`` (differential)."""
        return f"{att - dfn:+g}" if self.crt.kind == "differential" else f"{att:g}:{dfn:g}"

    def _odds(self, att: float, dfn: float) -> str:
        return f"{'differential' if self.crt.kind == 'differential' else 'odds'} {self._ratio(att, dfn)}"

    def _shifts(self, game: "PlayContext", attackers: list["UnitState"], defenders: list["UnitState"], target: Any,
                policies: set[str]) -> tuple[dict[str, int], int]:
        """Column shifts by name, and the die roll modifier (terrain effects of kind modifier)."""
        shifts: dict[str, int] = {}
        drm = 0
        fx = self.combat.terrain_effects
        if fx is not None:
            found = effects_between(game.system, game.hmap, fx,
                                    [(u.hex, category_tags(game, u.id)) for u in attackers if u.hex is not None],
                                    target, policies)
            if fx.effect == "shift":
                shifts.update({k: int(v) for k, v in found.items()})
            else:
                drm += int(sum(found.values()))
        for i, s in enumerate(self.crt.shifts):
            if (s.attacker_marker is not None and any(s.attacker_marker in u.markers for u in attackers)) \
                    or (s.defender_marker is not None and any(s.defender_marker in u.markers for u in defenders)) \
                    or (s.attackers_tag is not None and all(s.attackers_tag in category_tags(game, u.id) for u in attackers)) \
                    or (s.defenders_tag is not None and any(s.defenders_tag in category_tags(game, u.id) for u in defenders)):
                name = s.attacker_marker or s.defender_marker or s.attackers_tag or s.defenders_tag
                shifts[f"shift:{name}"] = shifts.get(f"shift:{name}", 0) + s.shift
        return shifts, drm

    # --- results ------------------------------------------------------------------------------

    def _order(self, units: list["UnitState"], losses: list[str]) -> list["UnitState"]:
        first = [u for uid in losses for u in units if u.id == uid]
        return first + [u for u in units if u not in first]

    def _lose(self, game: "PlayContext", units: list["UnitState"], n: int, losses: list[str], policies: set[str]) -> int:
        """``n`` steps from the side, in loss order; returns the steps actually lost."""
        lost = 0
        for u in self._order(units, losses):
            while lost < n and u.where == "hex":
                game.lose_step(u.id)
                lost += 1
                if u.id not in losses:
                    policies.add(LOSS_ORDER_POLICY)  # the default order chose this unit
        return lost

    def _eliminate(self, game: "PlayContext", units: list["UnitState"]) -> None:
        for u in units:
            if u.where == "hex":
                game.lose_step(u.id, max(1, u.steps))

    def _apply(self, game: "PlayContext", res: CrtResult, attackers: list["UnitState"], defenders: list["UnitState"],
               defence: float, action: dict[str, Any], policies: set[str], rule: str | None) -> str:
        losses = [str(x) for x in action.get("losses") or []]
        notes: list[str] = []
        if res.exchange:
            self._eliminate(game, defenders)
            lost = 0.0
            for u in self._order(attackers, losses):
                while lost < defence and u.where == "hex":
                    before = strength(game, u.id, self.crt.attack_field) or 0.0
                    game.lose_step(u.id)
                    after = (strength(game, u.id, self.crt.attack_field) or 0.0) if u.where == "hex" else 0.0
                    lost += before - after
                    if u.id not in losses:
                        policies.add(LOSS_ORDER_POLICY)
            notes.append(f"exchange: attackers lost {lost:g} of {defence:g} strength")
        for who, units, effect in (("attacker", attackers, res.attacker), ("defender", defenders, res.defender)):
            notes += self._side(game, who, units, effect, losses, policies)
        wanted = {str(k): str(v) for k, v in (action.get("retreat_to") or {}).items()}
        target = game.hex_of(action.get("target"))
        for units, effect in ((attackers, res.attacker), (defenders, res.defender)):
            if effect.retreat:
                ezoc = self._ezoc(game, units[0].side)
                for u in units:
                    if u.where == "hex" and u.hex is not None:
                        retreats.retreat(game, u, target, effect.retreat, wanted.get(u.id), ezoc, policies, rule)
        return "; ".join(notes)

    def _side(self, game: "PlayContext", who: str, units: list["UnitState"], effect: SideEffect, losses: list[str],
              policies: set[str]) -> list[str]:
        if effect.eliminated:
            self._eliminate(game, units)
            return [f"{who}s eliminated"]
        if effect.steps:
            lost = self._lose(game, units, effect.steps, losses, policies)
            return [f"{who} lost {lost} step(s)"]
        return []

    def _ezoc(self, game: "PlayContext", side: str) -> set[Any]:
        """Enemy ZOC hexes a retreat may not enter (``zoc.retreat: prohibited``), if the system has a ZOC."""
        z = game.system.zoc
        if z is None or z.kind == "none" or z.retreat == "allowed":
            return set()
        from play.generic.zoc import enemy_zoc_hexes

        return enemy_zoc_hexes(game, side, z)
