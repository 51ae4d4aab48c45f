"""SFN Allied airdrops [15.6] (an optional rule [15.0]: the scenario's ``optional_rules.airdrops``).

- ``{do: plot_drop, unit, hex, turn}`` writes a drop plan: only the eligible divisions (system
  ``params.airdrops.eligible``: British 1st and 6th, US 82nd and 101st), at least two game turns
  ahead, at most three divisions plotted for one day, never into marsh, city or fortress hexes
  (``forbidden_terrain`` / terrain tagged ``no_airdrop``); a plan once written is never changed,
  and a unit has at most one plan per day [15.6]. A plan into a German-occupied hex is allowed.
  The scenario's ``params.airdrops`` (``unit, hex, turn, plotted``) are plans written before
  play; they are checked the same way when the game starts.
- ``{do: cancel_drop, unit, turn}`` cancels a plan [15.6].
- ``{do: airdrop, unit}`` on the planned day, in the Allied Movement phase (policy
  ``sfn-command-phase``): the unit must be in the England box; one CP per division; never onto
  German units (the unit stays in England); in a German ZOC a d10 of 1-5 hits it (reduce, or
  destroy if reduced) [15.6]. A dropped unit is supplied for the rest of the game turn and may
  not move or attack in it (retreat after combat is allowed) [15.6].

Great storms (15.2) and airborne withdrawal with its 30/25-day rest periods (15.5) refuse drops
through ``play/sfn/optional`` when the scenario selects them. Not modelled: the secrecy of the
plan (the log shows it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from model.hexes import Hex

from play.procedure import Procedure
from play.sfn.common import check_cp, enemy_zoc_of, spend_cp
from play.sfn.params import sfn_params
from play.sfn.state import AirdropState, DropPlan, sfn_state

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.result import ActionResult

PHASE_POLICY = ("sfn-command-phase: drops are made in the Allied Movement phase (SFN's Command & Action phase "
                "[5.2 B]); plans may be written in any phase of the Allied player turn [5.2 A.3]")


class Airdrops(Procedure):
    def __init__(self, game: "PlayContext") -> None:
        params = sfn_params(game)
        self.c = params.airdrop        # the plug-in's airdrop section
        self.p = params.airdrops       # the system file's airdrops block (who, from where, limits)
        self.marker = params.oos_marker
        self.rule = self.c.rule or self.p.rule or "SFN 15.6"
        self.actions = {"plot_drop": self.plot, "cancel_drop": self.cancel, "airdrop": self.drop}
        # Step 5.2 II.A.3 "Plot Allied Airborne drops" [15.6], when the scenario selects the rule.
        self.plays = frozenset({"II.A.3"}) if self._enabled(game) else frozenset()

    def _st(self, game: "PlayContext") -> AirdropState:
        return sfn_state(game).airdrops

    def _enabled(self, game: "PlayContext") -> bool:
        return bool(game.scenario.optional_rules.get(self.c.optional_rule))

    def _off(self, game: "PlayContext") -> "ActionResult":
        from play.result import ActionResult

        return ActionResult(False, "airdrops are an optional rule not in effect in this scenario "
                                   f"(optional_rules.{self.c.optional_rule})", "SFN 15.0")

    def _terrain_problem(self, game: "PlayContext", h: Hex) -> str | None:
        if not game.hmap.contains(h):
            return "off the map"
        tid = game.hmap.terrain_at(h) or ""
        t = game.system.terrain_by_id.get(tid)
        banned = set(self.p.forbidden_terrain)
        tags = set(self.c.forbidden_terrain_tags)
        if t is not None and (t.id in banned or set(t.tags) & tags):
            return f"no drops into {t.name} hexes"
        if t is not None and t.move and all(v == "prohibited" for v in t.move.values()):
            return f"no drops into {t.name} hexes"
        return None

    def _plan_problem(self, game: "PlayContext", uid: str, h: Hex, turn: int, plotted: int) -> str | None:
        st = self._st(game)
        if uid not in self.p.eligible:
            return f"{uid} is not one of the divisions eligible for airdrops"
        why = self._terrain_problem(game, h)
        if why:
            return why
        lead = self.p.min_plot_lead
        if turn - plotted < lead:
            return f"a drop must be plotted at least {lead} game turns ahead (plotted on {plotted} for {turn})"
        if turn > game.last_turn:
            return f"turn {turn} is after the last turn"
        live = [p for p in st.plots if p.turn == turn and p.status != "cancelled"]
        if any(p.unit == uid for p in st.plots if p.turn == turn):
            return f"{uid} already has a plan for turn {turn}; a written plan is never changed"
        top = self.p.max_divisions_per_day
        if len(live) >= top:
            return f"no more than {top} divisions may be plotted to drop on one day"
        return None

    def on_phase_start(self, game: "PlayContext") -> None:
        st = self._st(game)
        if not st.scenario_plots_loaded:
            st.scenario_plots_loaded = True
            for p in game.scenario.params.get("airdrops") or []:
                if not isinstance(p, dict):
                    continue
                try:
                    h = game.hex_of(p.get("hex"))
                    turn, plotted = int(str(p.get("turn"))), int(str(p.get("plotted", game.first_turn)))
                except (ValueError, TypeError, Exception):  # an unreadable plan is reported, not run
                    game.emit("plot_refused", unit=p.get("unit"), message="unreadable drop plan", rule=self.rule)
                    continue
                why = self._plan_problem(game, str(p.get("unit")), h, turn, plotted)
                if why and self._enabled(game):
                    game.emit("plot_refused", unit=p.get("unit"), hex=game.label(h), turn_planned=turn, message=why,
                              rule=self.rule)
                    continue
                st.plots.append(DropPlan(unit=str(p.get("unit")), hex=str(game.label(h)), turn=turn, plotted=plotted))
                game.emit("plot_drop", unit=p.get("unit"), hex=game.label(h), turn_planned=turn, plotted=plotted,
                          source="scenario", rule=self.rule)
        self._keep_supplied(game)

    def _keep_supplied(self, game: "PlayContext") -> None:
        """A dropped unit is supplied throughout the game turn of its drop [15.6]."""
        marker = self.marker
        for uid, turn in self._st(game).dropped.items():
            u = game.state.units.get(uid)
            if u is not None and turn == game.state.turn and marker in u.markers:
                u.markers.remove(marker)
                game.emit("supply", supply_side=u.side, supplied=[uid], reason="airdropped this game turn",
                          rule=self.c.supplied_on_drop_turn.rule or self.rule)

    def before(self, game: "PlayContext", action: dict[str, Any]) -> "ActionResult | None":
        from play.result import ActionResult

        do = action.get("do")
        if do not in ("move", "attack", "strategic_move"):
            return None
        ids = [str(a) for a in action.get("attackers") or []] if do == "attack" else \
            [str(u) for u in (action.get("units") or [action.get("unit")]) if u is not None]
        dropped = self._st(game).dropped
        late = [u for u in ids if dropped.get(u) == game.state.turn]
        if late:
            return ActionResult(False, f"{', '.join(late)} dropped this game turn: no move or attack until next turn",
                                self.c.no_move_or_attack_on_drop_turn.rule or self.rule)
        return None

    def after(self, game: "PlayContext", action: dict[str, Any], result: "ActionResult") -> None:
        if action.get("do") == "check_supply" and result.ok:
            self._keep_supplied(game)

    def plot(self, game: "PlayContext", action: dict[str, Any]) -> "ActionResult":
        from play.result import ActionResult

        if not self._enabled(game):
            return self._off(game)
        uid = str(action.get("unit"))
        u = game.unit(uid)
        h = game.hex_of(action.get("hex"))
        turn = int(str(action.get("turn")))
        if game.phase.side != u.side:
            return ActionResult(False, f"drops are plotted in the {u.side} player turn", "SFN 5.2", PHASE_POLICY)
        why = self._plan_problem(game, uid, h, turn, game.state.turn)
        if why:
            return ActionResult(False, f"cannot plot the drop: {why}", self.rule)
        self._st(game).plots.append(DropPlan(unit=uid, hex=str(game.label(h)), turn=turn, plotted=game.state.turn))
        game.emit("plot_drop", unit=uid, hex=game.label(h), turn_planned=turn, plotted=game.state.turn, rule=self.rule)
        return ActionResult(True, f"{uid} plotted to drop on {game.label(h)} on turn {turn}", self.rule)

    def _plan(self, game: "PlayContext", uid: str, turn: int) -> DropPlan | None:
        return next((p for p in self._st(game).plots if p.unit == uid and p.turn == turn), None)

    def cancel(self, game: "PlayContext", action: dict[str, Any]) -> "ActionResult":
        from play.result import ActionResult

        uid, turn = str(action.get("unit")), int(str(action.get("turn", game.state.turn)))
        plan = self._plan(game, uid, turn)
        if plan is None or plan.status != "plotted":
            return ActionResult(False, f"{uid} has no open drop plan for turn {turn}", self.rule)
        plan.status = "cancelled"
        game.emit("cancel_drop", unit=uid, turn_planned=turn, rule=self.rule)
        return ActionResult(True, f"drop of {uid} on turn {turn} cancelled", self.rule)

    def drop(self, game: "PlayContext", action: dict[str, Any]) -> "ActionResult":
        from play.result import ActionResult

        if not self._enabled(game):
            return self._off(game)
        uid = str(action.get("unit"))
        u = game.unit(uid)
        ph = game.phase
        if ph.side != u.side or not ph.permits("move"):
            return ActionResult(False, f"drops are made in the {u.side} Movement (Command & Action) phase "
                                       f"(phase: {ph.name})", "SFN 5.2", PHASE_POLICY)
        plan = self._plan(game, uid, game.state.turn)
        if plan is None or plan.status != "plotted":
            lead = self.p.min_plot_lead
            return ActionResult(False, f"{uid} has no drop plan for turn {game.state.turn} (plans are written "
                                       f"at least {lead} game turns ahead)", self.rule)
        h = game.hex_of(plan.hex)
        if action.get("hex") is not None and game.hex_of(action.get("hex")) != h:
            return ActionResult(False, f"the plan says {plan.hex}; a written plan is never changed", self.rule)
        box = self.p.from_box
        if u.where != "box" or u.box != box:
            return ActionResult(False, f"{uid} is not in the {box} box: drops are made from it only", self.rule)
        why = self._terrain_problem(game, h)
        if why:
            return ActionResult(False, f"cannot drop on {plan.hex}: {why}", self.rule)
        if any(x.side != u.side for x in game.state.at(h)):
            return ActionResult(False, f"no drop onto enemy units in {plan.hex}: {uid} stays in {box}", self.rule)
        from play import rules

        sp = rules.stacking_problem(game.hmap, game.system, h, game.state.at(h) + [u], game.counters)
        if sp is not None:
            return ActionResult(False, f"cannot drop on {plan.hex}: overstacked, {sp.message}", sp.rule)
        cost = self.c.cost.value
        refusal = check_cp(game, [uid], cost, self.c.cost.rule or self.rule)
        if refusal is not None:
            return refusal
        spend_cp(game, [uid], cost, "drop", self.c.cost.rule or self.rule)
        u.where, u.hex, u.box = "hex", h, None
        if u.arrived is None:
            u.arrived = game.state.turn
        plan.status = "dropped"
        self._st(game).dropped[uid] = game.state.turn
        data: dict[str, Any] = {"hex": plan.hex}
        msg = f"{uid} dropped on {plan.hex}"
        if h in enemy_zoc_of(game, u.side):
            roll = game.dice.roll(1, 10)[0]  # decimal die, 0 reads 10 [2.2]
            hit = roll <= self.c.ezoc_hit_max.value
            data.update(roll=roll, hit=hit, result="hit" if hit else "no hit")
            game.emit("airdrop", unit=uid, hex=plan.hex, ezoc=True, roll=roll, hit=hit, rule=self.rule)
            if hit:
                game.lose_step(uid)
                msg += f" into an enemy ZOC: rolled {roll}, hit ({'eliminated' if u.where == 'eliminated' else 'reduced'})"
            else:
                msg += f" into an enemy ZOC: rolled {roll}, no loss"
        else:
            data["result"] = "no EZOC"  # no roll: it lands without casualties [15.6]
            game.emit("airdrop", unit=uid, hex=plan.hex, ezoc=False, rule=self.rule)
        return ActionResult(True, msg, self.rule, data=data)
