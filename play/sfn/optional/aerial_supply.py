"""SFN 15.8 Allied Aerial Supply (optional rule ``aerial_supply``).

- ``{do: aerial_supply, units: [...]}`` in either supply check step ("During any supply check
  step" [15.8]; 5.2 A.5 and A.6 both say "The Allied player may place his aerial supply
  markers"): the engine checks both sides' supply when each player turn starts (policy
  ``supply-check-both-sides-at-player-turn-start`` of ``play/sfn/supply_check.py``), i.e. in
  either side's administrative phase (policy ``sfn-admin-phase``). One to three units anywhere
  on the map that are OOS after that check get the aerial supply marker; their OOS marker goes
  and their supply is normal until the next supply check [15.8]. At most three per supply
  check (data ``max_units``).
- Policy **aerial-supply-until-next-allied-check**: the next check of Allied units (the next
  player turn of either side [9.2], or a ``check_supply`` of the Allied side) takes the markers
  off, and that check decides the units' supply again.
- Not during a great storm [15.2, 15.8], nor in a game turn in which an airborne drop has been
  made [15.8] (drops are made after the administrative phase, so a later drop leaves the
  markers in place: the text does not take them back).
- Units on aerial supply may not use strategic movement [12.5]: ``strategic_move`` traces
  regular overland supply itself, so the marker does not help them. A unit eliminated on aerial
  supply may not be rebuilt [8.2]: the replacement procedure can read the marker.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from play.sfn.optional.base import OptionalRule, first_phase_of
from play.sfn.params import AerialSupplyParams, sfn_params
from play.sfn.state import AerialSupplyState, sfn_state

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.result import ActionResult

UNTIL_POLICY = ("aerial-supply-until-next-allied-check: the markers last until Allied supply is next checked "
                "(the next player turn of either side [9.2] or check_supply)")


class AerialSupply(OptionalRule):
    key = "aerial_supply"
    c: AerialSupplyParams

    def __init__(self, game: "PlayContext") -> None:
        super().__init__(game)
        self.marker = self.c.marker
        self.oos = sfn_params(game).oos_marker
        self.actions = {"aerial_supply": self.supply}

    def st(self, game: "PlayContext") -> AerialSupplyState:
        return sfn_state(game).optional.aerial_supply

    def _clear(self, game: "PlayContext") -> None:
        """A new Allied supply check ran (SupplyCheck comes first): the markers come off; the
        check has already set OOS on the units it found unsupplied."""
        held = [u for u in game.state.units.values() if self.marker in u.markers]
        for u in held:
            u.markers.remove(self.marker)
        if held:
            game.emit("aerial_supply_ends", units=sorted(u.id for u in held), rule=self.rule, policy=UNTIL_POLICY)

    def on_phase_start(self, game: "PlayContext") -> None:
        if self.on(game) and first_phase_of(game, game.phase.side):  # both sides checked [9.2]
            self.st(game).placed = 0
            self._clear(game)

    def after(self, game: "PlayContext", action: dict[str, Any], result: "ActionResult") -> None:
        if self.on(game) and action.get("do") == "check_supply" and result.ok \
                and str(action.get("side") or game.phase.side) == self.side:
            self.st(game).placed = 0
            self._clear(game)

    def supply(self, game: "PlayContext", action: dict[str, Any]) -> "ActionResult":
        from play.result import ActionResult

        if not self.on(game):
            return self.off()
        # "During any supply check step" [15.8]: the German A.5 or the Allied A.6 [5.2, 9.2].
        refusal = self.admin_refusal(game, game.phase.side or self.side, "aerial supply (a supply check step)")
        if refusal is not None:
            return refusal
        if storm := self.storm_refusal(game, "aerial supply"):
            return storm
        dropped = [u for u, t in sfn_state(game).airdrops.dropped.items() if t == game.state.turn]
        if dropped:
            return ActionResult(False, f"no aerial supply in a game turn an airborne drop was made ({', '.join(dropped)})",
                                self.rule)
        ids = [str(u) for u in (action.get("units") or [action.get("unit")]) if u is not None]
        top = self.c.max_units.value
        st = self.st(game)
        if not ids:
            return ActionResult(False, "name one to three units", self.rule)
        if st.placed + len(ids) > top:
            return ActionResult(False, f"at most {top} units get aerial supply per supply check "
                                       f"({st.placed} already)", self.c.max_units.rule or self.rule)
        oos = self.oos
        for uid in ids:
            u = game.unit(uid)
            if u.side != self.side or not u.on_map:
                return ActionResult(False, f"{uid} is not an Allied unit on the map", self.rule)
            if oos not in u.markers:
                return ActionResult(False, f"{uid} is not out of supply: aerial supply is for units that would "
                                           "otherwise be OOS", self.rule)
        for uid in ids:
            u = game.unit(uid)
            u.markers.remove(oos)
            u.markers.append(self.marker)
        st.placed += len(ids)
        game.emit("aerial_supply", units=ids, rule=self.rule, policy=UNTIL_POLICY)
        return ActionResult(True, f"aerial supply for {', '.join(ids)} until the next supply check", self.rule,
                            UNTIL_POLICY)
