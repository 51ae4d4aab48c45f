"""SFN command points [SFN 6.0]: each side's CP are set at the start of its player turn
(German 3, Allied 2 + bonus up to 5 [6.1]); a Move command costs 1 CP per unit or stack
[6.2], an Attack command 2 CP [6.3]; a unit acts once per player turn and a hex is attacked
once [6.4]; CP do not accumulate [6.4]. The bonus CP depend on map control the engine does
not evaluate: the playtester declares them with ``{do: set_cp_bonus, side, bonus}``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from play.procedure import Procedure
from play.result import ActionResult
from play.sfn.params import CommandPointsParams, sfn_params
from play.sfn.state import CommandPointsState, sfn_state

if TYPE_CHECKING:
    from play.context import PlayContext


class CommandPoints(Procedure):
    # Move and Attack Commands cost CP, one at a time, in either Command & Action Phase [5.2 B, 6.0].
    plays = frozenset({"german_command", "allied_command"})

    def __init__(self, game: "PlayContext") -> None:
        self.params: CommandPointsParams = sfn_params(game).command_points
        self.actions = {"set_cp_bonus": self.set_bonus}

    def st(self, game: "PlayContext") -> CommandPointsState:
        return sfn_state(game).command_points

    def allowance(self, game: "PlayContext", side: str) -> int:
        s = self.params.sides.get(side)
        base = s.base if s is not None else 0
        top = s.max if s is not None and s.max is not None else base
        return min(top, base + self.st(game).bonus.get(side, 0))

    def on_phase_start(self, game: "PlayContext") -> None:
        side = game.phase.side
        first = next((i for i, p in enumerate(game.phases) if p.side == side), None)
        if side is None or first != game.state.phase:
            return
        st = self.st(game)
        # CP may not be accumulated [6.4]: the new player turn starts from the allowance.
        st.points[side] = self.allowance(game, side)
        st.acted = {}
        st.attacked = []
        game.emit("command_points", cp_side=side, points=st.points[side], rule=self.params.rule)

    def set_bonus(self, game: "PlayContext", action: dict[str, Any]) -> "ActionResult":
        side, bonus = str(action.get("side")), int(str(action.get("bonus", 0)))
        self.st(game).bonus[side] = bonus
        game.emit("cp_bonus", cp_side=side, bonus=bonus, allowance=self.allowance(game, side), rule=self.params.rule)
        return ActionResult(True, f"{side} CP allowance {self.allowance(game, side)} from next player turn",
                            self.params.rule)

    def _units(self, action: dict[str, Any]) -> list[str]:
        if action.get("do") == "attack":
            return [str(a) for a in action.get("attackers", [])]
        return [str(u) for u in (action.get("units") or [action.get("unit")]) if u is not None]

    def before(self, game: "PlayContext", action: dict[str, Any]) -> "ActionResult | None":
        do = action.get("do")
        if do not in ("move", "attack"):
            return None
        st = self.st(game)
        units = self._units(action)
        side = game.phase.side or ""
        acted = {u: st.acted.get(u) for u in units}
        one = self.params.one_action_per_turn.rule
        if do == "move":
            if any(a == "attack" for a in acted.values()):
                return ActionResult(False, "a unit that attacked may not move this player turn", one)
            if all(a == "move" for a in acted.values()):
                return None  # continuing an activated move: no new command
            cost, rule = self.params.move_cost.value, self.params.move_cost.rule
        else:
            if any(a is not None for a in acted.values()):
                return ActionResult(False, "a unit that moved or attacked may not attack this player turn", one)
            if game.label(game.hex_of(action.get("target"))) in st.attacked:
                return ActionResult(False, "that hex was already attacked this player turn", one)
            cost, rule = self.params.attack_cost.value, self.params.attack_cost.rule
        have = st.points.get(side, 0)
        if have < cost:
            return ActionResult(False, f"{side} has {have} CP left; the command costs {cost}", rule)
        return None

    def after(self, game: "PlayContext", action: dict[str, Any], result: "ActionResult") -> None:
        do = action.get("do")
        if not result.ok or do not in ("move", "attack"):
            return
        st = self.st(game)
        units = self._units(action)
        side = game.phase.side or ""
        if do == "move" and all(st.acted.get(u) == "move" for u in units):
            return
        cost = (self.params.move_cost if do == "move" else self.params.attack_cost).value
        st.points[side] = st.points.get(side, 0) - cost
        for u in units:
            st.acted[u] = do
        if do == "attack":
            st.attacked.append(str(game.label(game.hex_of(action.get("target")))))
        game.emit("cp_spent", cp_side=side, cost=cost, left=st.points[side], units=units)
