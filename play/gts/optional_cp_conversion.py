"""Converting Command Points to Dispatch Points [GTS 10.0.3] and the optional limit on it,
Command Point conversion limits [Excl 18.1] (scenario ``optional_rules: {Excl 18.1: true}``).

``{do: convert_points, division, dispatch: N}`` spends 2 Command Points of the Division per
Dispatch Point bought for the same Division [10.0.3]; never more than 19 Dispatch Points
[10.0.4]. The points are the ones ``set_points`` recorded (play/gts/activation.py). Only in Step D
("During Step D of the Sequence of Play" [10.0.3]): the step's ``allows:`` gates it.
With Excl 18.1 selected a player converts at most 4 Command Points per turn, counted over all of
his Divisions (policy ``cp-limit-per-player``: "Players are limited"). Data:
``play/gts/optional_rules.yaml`` (``cp_conversion``, ``conversion_limit``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from play.gts.optional_data import optional_data
from play.gts.state import gts_state
from play.procedure import Procedure
from play.result import result as _ok

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.result import ActionResult



def _int(x: Any) -> int | None:
    try:
        return int(str(x))
    except ValueError:
        return None


def side_of_division(game: "PlayContext", division: str) -> str | None:
    return next((c.side for c in game.counters.values() if getattr(c, "division", None) == division), None)


class CpConversion(Procedure):
    plays = frozenset({"dispatch"})  # GTS 4.0 D "First, buy Dispatch Points at a cost of 2 Command Points"

    def __init__(self, game: "PlayContext") -> None:
        data = optional_data()
        self.c, self.limit = data.cp_conversion, data.conversion_limit
        self.rule = self.c.rule
        self.actions = {"convert_points": self.convert}

    def limited(self, game: "PlayContext") -> bool:
        return bool(game.scenario.optional_rules.get(self.limit.optional_rule))

    def convert(self, game: "PlayContext", action: dict[str, Any]) -> "ActionResult":
        policy = self.c.step_policy.strip() or None
        div = str(action.get("division") or "")
        n = _int(action.get("dispatch", 1))
        if n is None or n < 1:
            return _ok(False, "dispatch: the number of Dispatch Points to buy (1 or more)", self.rule)
        pts = gts_state(game).activation.points.get(div)
        if pts is None:
            return _ok(False, f"{div or 'division'!s} has no points recorded; declare them with set_points", self.rule)
        cost = n * self.c.cp_per_dp.value
        if pts.command < cost:
            return _ok(False, f"{div} has {pts.command} Command Points; {n} Dispatch Point(s) cost {cost}", self.rule)
        dp_max = self.c.dp_max.value
        if pts.dispatch + n > dp_max:
            return _ok(False, f"{div} would have {pts.dispatch + n} Dispatch Points (at most {dp_max})",
                       self.c.dp_max.rule or "GTS 10.0.4")
        limit_rule, limit_policy, who = None, None, None
        if self.limited(game):
            limit_rule = self.limit.rule
            limit_policy = self.limit.per_player_policy.strip() or None
            who = side_of_division(game, div) or f"division:{div}"
            used = self._used(game).get(who, 0)
            cap = self.limit.max_cp_per_turn.value
            if used + cost > cap:
                return _ok(False, f"converting {cost} more Command Points would make {used + cost} this turn for "
                                  f"{who} (at most {cap})", limit_rule, limit_policy)
            self._used(game)[who] = used + cost
        pts.command -= cost
        pts.dispatch += n
        game.emit("convert_points", division=div, command_spent=cost, dispatch_bought=n, command=pts.command,
                  dispatch=pts.dispatch, limited_side=who, rule=limit_rule or self.rule, policy=policy)
        return _ok(True, f"{div}: {cost} CP converted to {n} DP ({pts.command} CP, {pts.dispatch} DP)",
                   limit_rule or self.rule, policy)

    def _used(self, game: "PlayContext") -> dict[str, int]:
        """CP converted this turn per player (reset when the turn changes)."""
        st = gts_state(game).cp_conversion
        if st.turn != game.state.turn:
            st.turn, st.used = game.state.turn, {}
        return st.used
