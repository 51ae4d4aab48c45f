"""Roaming Units [Excl 18.6], an optional rule (scenario ``optional_rules: {Excl 18.6: true}``),
with its errata clarification.

"Anytime a Unit is more than twice the range from a Leader that can Command it, the Unit must
make a Troop Quality Check each activation it attempts to move to a hex that maintains or
increases this distance. If the Unit fails ... it must move in a manner to decrease the range to a
leader that can Command it. This applies to Auto-Command Units as well." Errata: the check is
made "at the moment a unit is going to move more than twice the range" — at the start of a
movement action or in the middle of one; passed, the unit "may move freely for that activation";
failed, it "must be closer to the leader at the end of the activation than when it failed".

Before each ``move`` (each unit of the stack): the distance to the nearest Leader that can
command it (play/gts/command.py ``commanders`` [GTS 21.4, 21.4.1]) now and at the destination;
a destination beyond twice that Leader's Command Range and not closer than now needs the check
(policy ``roaming-check-at-destination``: the engine moves hex to hex per action, so the move's
destination stands for "going to move"). The Troop Quality is printed, or declared (``tq``) or
the check's outcome is declared (``roaming_check: passed|failed``, policy ``declared-tq``); Out of
Command -1 [GTS 21.7]. A pass frees the unit for the activation; a failure refuses the move and,
until the activation ends, every move of the unit must end closer to a Leader than when it
failed (policy ``roaming-each-move-closer``). An activation is one chit draw (policy
``roaming-activation-is-chit``). A Leader with an unknown Command Range gives no check (the
rule cannot be applied; the result names policy ``roaming-range-unknown``). Event ``roaming_check``.
Data: ``play/gts/optional_rules.yaml`` (``roaming_units``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from model.hexes import Hex
from play.gts import command
from play.gts.fire import _num, _value
from play.gts.optional_data import optional_data
from play.gts.state import RoamingState, gts_state
from play.procedure import Procedure

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.result import ActionResult
    from play.state import UnitState



def _activation(game: "PlayContext") -> str:
    drawn = gts_state(game).chits.drawn
    return f"{game.state.turn}:{len(drawn)}:{drawn[-1] if drawn else '-'}"


def nearest_leader(game: "PlayContext", u: "UnitState", at: Hex) -> tuple[str, int, int | None] | None:
    """(leader id, distance from ``at``, Command Range) of the nearest Leader on the map that can
    command ``u`` [GTS 21.4]; None if there is none."""
    ids, _ = command.commanders(game, u.id)
    best: tuple[str, int, int | None] | None = None
    for i in ids:
        ldr = game.state.units.get(i)
        if ldr is None or not ldr.on_map or ldr.hex is None:
            continue
        d = ldr.hex.distance(at)
        if best is None or d < best[1]:
            best = (i, d, command.command_range(game, ldr))
    return best


class RoamingUnits(Procedure):
    def __init__(self, game: "PlayContext") -> None:
        self.c = optional_data().roaming_units
        self.rule = self.c.rule
        self.errata = self.c.errata_rule if self.c.errata_rule is not None else self.rule
        self.actions = {}

    def _st(self, game: "PlayContext") -> RoamingState:
        top = gts_state(game)
        key = _activation(game)
        if top.roaming.activation != key:  # a new activation: every unit checks afresh
            top.roaming = RoamingState(activation=key)
        return top.roaming

    @staticmethod
    def _policy(*texts: str) -> str | None:
        """The named policies that apply, joined (a blank one is left out)."""
        return "; ".join(t.strip() for t in texts if t) or None

    def before(self, game: "PlayContext", action: dict[str, Any]) -> "ActionResult | None":
        if action.get("do") != "move" or str(action.get("to", "")).startswith("box:"):
            return None
        dest = game.hex_of(action.get("to"))
        for u in game.stack(action):
            r = self._check(game, u, dest, action)
            if r is not None:
                return r
        return None

    def _check(self, game: "PlayContext", u: "UnitState", dest: Hex, action: dict[str, Any]) -> "ActionResult | None":
        if not u.on_map or u.hex is None or command.is_leader(game, u.id):
            return None
        st = self._st(game)
        failed = st.failed.get(u.id)
        now = nearest_leader(game, u, u.hex)
        there = nearest_leader(game, u, dest)
        if failed is not None:
            if there is None or there[1] >= int(failed):
                return command._ok(False, f"{u.id} failed its Roaming check ({failed} hexes from a Leader): it must end "
                                          f"closer to a Leader that can command it ({there[1] if there else '?'} at "
                                          f"{game.label(dest)})", self.errata, self._policy(self.c.closer_policy))
            return None
        if u.id in st.passed or now is None or there is None:
            return None
        rng = there[2]
        if rng is None:
            return None  # the Command Range is unknown: the rule cannot be applied (policy roaming-range-unknown)
        limit = rng * self.c.range_multiple.value  # "more than twice the range"
        if there[1] <= limit or there[1] < now[1]:
            return None  # within twice the range, or moving closer
        mods = {"out_of_command": command.tq_modifier(game, u)[0]}
        tq = _num(_value(game, u, "tq"))
        policies = [self.c.destination_policy, self.c.activation_policy]
        check: dict[str, Any] = {}
        if tq is None and _num(action.get("tq")) is not None:
            tq = _num(action.get("tq"))
            policies.append(self.c.tq_policy)
        if tq is not None:
            need = int(tq) + sum(mods.values())
            die = game.dice.roll(1, 10)[0] % 10  # faces 1..10, the 10 reads 0
            passed = die != 9 and (die == 0 or die <= need)  # nine always fails, zero always succeeds [GTS 15.5]
            check = {"tq": int(tq), "modifiers": mods, "need": need, "die": die}
            policies.append(self.c.check_policy)
        elif action.get("roaming_check") is not None:
            passed = str(action.get("roaming_check")).lower() in ("passed", "pass", "true", "yes")
            check = {"declared": "passed" if passed else "failed"}
            policies.append(self.c.tq_policy)
        else:
            return command._ok(False, f"{u.id} would be {there[1]} hexes from {there[0]} (more than twice its Command Range "
                                      f"{rng}): a Troop Quality Check is needed and its TQ is unknown; declare 'tq' or "
                                      "'roaming_check: passed|failed'", self.rule)
        policy = self._policy(*policies)
        game.emit("roaming_check", unit=u.id, leader=there[0], distance=there[1], limit=limit, passed=passed,
                  to=game.label(dest), rule=self.errata, policy=policy, **check)
        if passed:
            st.passed.append(u.id)
            return None
        st.failed[u.id] = now[1]
        return command._ok(False, f"{u.id} fails its Roaming check: it must move closer to a Leader that can command it "
                                  f"(now {now[1]} hexes from {now[0]})", self.errata, policy)
