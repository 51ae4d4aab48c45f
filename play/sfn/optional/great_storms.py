"""SFN 15.2 Great Storms (optional rule ``great_storms``).

Automatic, with the game's seeded dice, at the start of the German administrative phase
(policy ``sfn-admin-phase``):

- on Game Turn 10 and every fifth turn after, a d10 of 10 means a storm is approaching; a check
  day while a storm is raging (or one is still approaching) is skipped [15.2];
- on the following turns the storm arrives on 1-2, then 1-4, 1-6, 1-8; failing the 1-8 check it
  changes course [15.2]; a check day that finds a storm still approaching is not rolled;
- at the very end of every game turn of a raging storm it departs on 1-2 (first day), then 1-4,
  1-6, 1-8, and always at the end of its fifth day [15.2].

While a storm rages (``play.sfn.optional.base.storm_raging``) the Allied player may not move
units from England to France (``move``/``strategic_move`` out of the England box), take
replacements (refused by action name, data ``blocked_actions``), use the NTF [15.1] or SAF [15.4],
make airdrops [15.6] or airborne withdrawals [15.5], nor place aerial supply [15.8]; no LGAS is
checked [15.3]. Each of those is refused (or skipped) by its own rule module citing SFN 15.2.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from play.sfn.optional.base import OptionalRule, action_units, d10, first_phase_of
from play.sfn.params import GreatStormsParams
from play.sfn.state import GreatStormsState, sfn_state

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.result import ActionResult


class GreatStorms(OptionalRule):
    key = "great_storms"
    steps_played = frozenset({"I.A.1"})  # 5.2 I.A.1
    c: GreatStormsParams

    def st(self, game: "PlayContext") -> GreatStormsState:
        return sfn_state(game).optional.great_storms

    def _check_day(self, game: "PlayContext") -> bool:
        first, every = self.c.first_check_turn.value, self.c.every.value
        t = game.state.turn
        return t >= first and (t - first) % every == 0

    def on_phase_start(self, game: "PlayContext") -> None:
        if not self.on(game) or game.phase.side != "german" or not first_phase_of(game, "german"):
            return
        st = self.st(game)
        if st.checked_turn == game.state.turn:
            return
        st.checked_turn = game.state.turn
        if st.approaching:
            self._arrival_check(game, st)
        elif self._check_day(game):
            if st.raging:
                game.emit("storm_check_skipped", reason="a great storm is raging", rule=self.rule)
                return
            roll = d10(game)
            approach = roll in self.c.approach_on.value
            game.emit("storm_approach_check", roll=roll, approaching=approach, rule=self.rule)
            if approach:
                st.approaching, st.arrival_checks = True, 0

    def _arrival_check(self, game: "PlayContext", st: GreatStormsState) -> None:
        table = self.c.arrival_max.value
        n = st.arrival_checks
        roll = d10(game)
        arrives = roll <= table[n]
        st.arrival_checks = n + 1
        game.emit("storm_arrival_check", roll=roll, needed=f"1-{table[n]}", arrives=arrives, rule=self.rule)
        if arrives:
            st.approaching, st.raging, st.days, st.since = False, True, 1, game.state.turn
            game.emit("storm_arrives", rule=self.rule)
        elif n + 1 >= len(table):
            st.approaching = False
            game.emit("storm_changes_course", rule=self.rule)

    def on_turn_end(self, game: "PlayContext") -> None:
        st = self.st(game)
        if not self.on(game) or not st.raging:
            return
        table = self.c.departure_max.value
        days = st.days
        if days >= self.c.max_days.value:
            st.raging, st.days = False, 0
            game.emit("storm_departs", days=days, automatic=True, rule=self.rule)
            return
        roll = d10(game)
        leaves = roll <= table[min(days, len(table)) - 1]
        game.emit("storm_departure_check", roll=roll, needed=f"1-{table[min(days, len(table)) - 1]}",
                  departs=leaves, day=days, rule=self.rule)
        if leaves:
            st.raging, st.days = False, 0
            game.emit("storm_departs", days=days, rule=self.rule)
        else:
            st.days = days + 1

    def before(self, game: "PlayContext", action: dict[str, Any]) -> "ActionResult | None":
        from play.result import ActionResult

        if not self.on(game) or not self.st(game).raging:
            return None
        do = str(action.get("do"))
        blocked = self.c.blocked_actions.value
        side = self.c.blocked_side
        units = [game.state.units.get(u) for u in action_units(action)]
        if do in blocked and any(u is not None and u.side == side for u in units):
            return ActionResult(False, f"no {do} for the {side} player while a great storm is raging",
                                self.c.blocked_actions.rule or self.rule)
        if do in ("move", "strategic_move"):
            box = self.c.from_box.value
            units = [game.state.units.get(u) for u in action_units(action)]
            if any(u is not None and u.where == "box" and u.box == box for u in units):
                return ActionResult(False, f"no moves from the {box} box to France while a great storm is raging",
                                    self.c.from_box.rule or self.rule)
        return None

    def set_storm(self, game: "PlayContext", raging: bool) -> None:
        """Test/play helper: put a storm on the map (or clear it) without dice."""
        st = self.st(game)
        st.raging, st.days, st.approaching = raging, 1 if raging else 0, False
