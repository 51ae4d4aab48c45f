"""SFN 15.5 Allied Airborne Withdrawal (optional rule ``airborne_withdrawal``).

- ``{do: airborne_withdraw, unit}`` from the Allied administrative phase of Game Turn 25 on
  (policy ``sfn-admin-phase``): only the US 82nd and 101st and the British 1st and 6th Airborne
  (data ``eligible``), on the map and in regular supply; the unit goes to the England box; no CP
  [15.5]. Policy **regular-supply-is-traced**: "regular supply" is a traced overland path to a
  supply source, as for strategic movement [12.5] — not coastal or aerial supply, not OOS.
- Not while a great storm rages [15.2]. A dropped unit may be withdrawn again only after 25
  days on the continent since its drop [15.6].
- A withdrawn division rests 30 days in England before it may drop again [15.5]: ``plot_drop``
  for an earlier day and ``airdrop`` before then are refused (15.6 itself is
  ``play.sfn.airdrop``). Resting does not rebuild a reduced unit (that needs a replacement
  point, 8.0). Bringing it back over the beaches (a normal ``move`` out of the box) is allowed
  [15.6].
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from play.sfn.optional.base import OptionalRule
from play.sfn.params import AirborneWithdrawalParams, sfn_params
from play.sfn.state import sfn_state

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.result import ActionResult

SUPPLY_POLICY = "regular-supply-is-traced: a traced overland supply path, as for strategic movement [12.5]"


class AirborneWithdrawal(OptionalRule):
    key = "airborne_withdrawal"
    steps_played = frozenset({"II.A.2"})  # 5.2 II.A.2
    c: AirborneWithdrawalParams

    def __init__(self, game: "PlayContext") -> None:
        super().__init__(game)
        self.actions = {"airborne_withdraw": self.withdraw}

    def withdraw(self, game: "PlayContext", action: dict[str, Any]) -> "ActionResult":
        from play.result import ActionResult
        from play.supply import trace

        if not self.on(game):
            return self.off()
        uid = str(action.get("unit"))
        u = game.unit(uid)
        first = self.c.first_turn.value
        if game.state.turn < first:
            return ActionResult(False, f"airborne withdrawals start on Game Turn {first}",
                                self.c.first_turn.rule or self.rule)
        refusal = self.admin_refusal(game, self.side, "an airborne withdrawal")
        if refusal is not None:
            return refusal
        if uid not in self.c.eligible.value:
            return ActionResult(False, f"{uid} is not one of the airborne divisions eligible for withdrawal",
                                self.c.eligible.rule or self.rule)
        if storm_refusal := self.storm_refusal(game, "airborne withdrawals"):
            return storm_refusal
        if not u.on_map or u.hex is None:
            return ActionResult(False, f"{uid} is not on the map", self.rule)
        dropped = sfn_state(game).airdrops.dropped.get(uid)
        stay = self.c.days_on_continent_after_drop.value
        if dropped is not None and game.state.turn - int(dropped) < stay:
            return ActionResult(False, f"{uid} dropped on turn {dropped}: it may be withdrawn again only after "
                                       f"{stay} days on the continent (turn {int(dropped) + stay})",
                                self.c.days_on_continent_after_drop.rule or "SFN 15.6")
        params = sfn_params(game)
        supply = params.supply
        marker = params.oos_marker
        aerial = params.optional.aerial_supply.marker
        if marker in u.markers or aerial in u.markers:
            return ActionResult(False, f"{uid} is not in regular supply ({'aerial supply' if aerial in u.markers else 'OOS'})",
                                self.rule, SUPPLY_POLICY)
        if supply is not None and u.hex not in trace(game, u.side, supply.trace_config).reached:
            return ActionResult(False, f"{uid} has no traced overland supply path from {game.label(u.hex)} "
                                       "(coastal supply is not regular supply)", self.rule, SUPPLY_POLICY)
        box = self.c.to_box.value
        frm = game.label(u.hex)
        u.where, u.hex, u.box = "box", None, box
        sfn_state(game).optional.airborne_withdrawal.withdrawn[uid] = game.state.turn
        rest = self.c.rest_days.value
        game.emit("airborne_withdraw", unit=uid, hex=frm, box=box, rests_until=game.state.turn + rest, rule=self.rule,
                  policy=SUPPLY_POLICY)
        return ActionResult(True, f"{uid} withdrawn from {frm} to the {box} box; it may drop again from turn "
                                  f"{game.state.turn + rest}", self.rule, SUPPLY_POLICY)

    def before(self, game: "PlayContext", action: dict[str, Any]) -> "ActionResult | None":
        from play.result import ActionResult

        if not self.on(game) or action.get("do") not in ("airdrop", "plot_drop"):
            return None
        uid = str(action.get("unit"))
        since = sfn_state(game).optional.airborne_withdrawal.withdrawn.get(uid)
        if since is None:
            return None
        rest = self.c.rest_days.value
        day = game.state.turn
        if action.get("do") == "plot_drop":
            try:
                day = int(str(action.get("turn")))
            except ValueError:
                return None  # the airdrop procedure reports the unreadable turn
        if day < int(since) + rest:
            return ActionResult(False, f"{uid} was withdrawn on turn {since}: it rests {rest} days in England "
                                       f"and may drop from turn {int(since) + rest}",
                                self.c.rest_days.rule or self.rule)
        return None
