"""SFN 15.4 Allied Strategic Air Forces (optional rule ``strategic_air``).

- ``{do: plot_saf, hex, turn}`` writes the strike plan in the Allied administrative phase
  (policy ``sfn-admin-phase``): the day 2 to 7 game turns ahead, never two strikes for one day, a
  plan never changed once written [15.4]. The Air turns (5, 10, …) are when the plan "should" be
  written, but 15.4 lets the player delay it: policy **saf-plot-any-admin-phase** accepts it in
  any Allied administrative phase; policy **saf-one-open-plan**: one open plan at a time ("his
  next SAF strike"). The plan is public in the log (secrecy is not modelled).
- ``{do: cancel_saf}`` cancels the open plan [15.4].
- The Allied ``attack`` into the plotted hex on the plotted day rolls a d10 after all forces are
  on the battle board [15.4]: 1 fiasco (the attack is cancelled, its CP lost, the attackers may
  not move or attack that turn, no other attack into the hex, the German scores 1 VP); 2-3 no
  show (the attack goes ahead unmodified, or is cancelled with ``saf_cancel: true``: CP lost
  either way; policy **saf-no-show-attacks** when the action does not say); 4-6 +1, 7-9 +2,
  10 +3 to every attacking unit's fire (preparatory barrage and offensive fire). The "may not move
  or attack" and "no other attack into the hex" parts are the command-point bookkeeping of a spent
  Attack command [6.4].
- A plan whose day ends without that attack is forfeit; during a great storm the SAF may not be
  used, so a strike day under a storm is forfeit [15.2, 15.4].
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from play.sfn.optional.base import OptionalRule, d10, storm_raging
from play.sfn.params import SafRow, StrategicAirParams
from play.sfn.state import SafPlan, sfn_state

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.result import ActionResult
    from play.sfn.combat import Battle, Fighter

PLOT_POLICY = ("saf-plot-any-admin-phase: 15.4 lets the plan be delayed past the Air turn, so it may be "
               "written in any Allied administrative phase; saf-one-open-plan: one open plan at a time")
NO_SHOW_POLICY = "saf-no-show-attacks: on a 2-3 the ground attack goes ahead unless the action says saf_cancel: true"


class StrategicAir(OptionalRule):
    key = "strategic_air"
    steps_played = frozenset({"II.A.1"})  # 5.2 II.A.1
    c: StrategicAirParams

    def __init__(self, game: "PlayContext") -> None:
        super().__init__(game)
        self.actions = {"plot_saf": self.plot, "cancel_saf": self.cancel}

    def _plans(self, game: "PlayContext") -> list[SafPlan]:
        return sfn_state(game).optional.strategic_air.plans

    def _open(self, game: "PlayContext") -> SafPlan | None:
        return next((p for p in self._plans(game) if p.status == "plotted"), None)

    def plot(self, game: "PlayContext", action: dict[str, Any]) -> "ActionResult":
        from play.result import ActionResult

        if not self.on(game):
            return self.off()
        refusal = self.admin_refusal(game, self.side, "SAF plotting")
        if refusal is not None:
            return refusal
        h = game.hex_of(action.get("hex"))
        if not game.hmap.contains(h):
            return ActionResult(False, f"{action.get('hex')} is off the map", self.rule)
        try:
            turn = int(str(action.get("turn")))
        except ValueError:
            return ActionResult(False, f"cannot read the strike day {action.get('turn')!r}", self.rule)
        lo, hi = self.c.min_lead.value, self.c.max_lead.value
        lead = turn - game.state.turn
        if not lo <= lead <= hi:
            return ActionResult(False, f"the strike day must be {lo} to {hi} game turns away (turn {turn} is {lead})",
                                self.rule)
        if turn > game.last_turn:
            return ActionResult(False, f"turn {turn} is after the last turn", self.rule)
        if any(p.turn == turn and p.status != "cancelled" for p in self._plans(game)):
            return ActionResult(False, f"a strike is already planned for turn {turn}: never two on one day", self.rule)
        open_ = self._open(game)
        if open_ is not None:
            return ActionResult(False, f"the plan for {open_.hex} on turn {open_.turn} is still open; a written "
                                       "plan is never changed (cancel it first)", self.rule, PLOT_POLICY)
        plan = SafPlan(hex=str(game.label(h)), turn=turn, plotted=game.state.turn)
        self._plans(game).append(plan)
        game.emit("plot_saf", hex=plan.hex, turn_planned=turn, plotted=game.state.turn, rule=self.rule,
                  policy=PLOT_POLICY)
        return ActionResult(True, f"SAF strike plotted on {plan.hex} for turn {turn}", self.rule, PLOT_POLICY)

    def cancel(self, game: "PlayContext", action: dict[str, Any]) -> "ActionResult":
        from play.result import ActionResult

        if not self.on(game):
            return self.off()
        plan = self._open(game)
        if plan is None:
            return ActionResult(False, "no open SAF plan to cancel", self.rule)
        plan.status = "cancelled"
        game.emit("cancel_saf", hex=plan.hex, turn_planned=plan.turn, rule=self.rule)
        return ActionResult(True, f"SAF strike on {plan.hex} (turn {plan.turn}) cancelled", self.rule)

    def battle_start(self, game: "PlayContext", action: dict[str, Any], attackers: list[str],
                     target_label: str) -> "ActionResult | None":
        from play.result import ActionResult

        if not self.on(game) or game.phase.side != self.side:
            return None
        plan = self._open(game)
        if plan is None or plan.turn != game.state.turn or plan.hex != target_label:
            return None
        if storm_raging(game):
            plan.status = "forfeit"
            game.emit("saf_forfeit", hex=plan.hex, reason="a great storm is raging", rule="SFN 15.2")
            return None
        self.battle(game).saf_plotted = True
        roll = d10(game)
        table = self.c.table
        row = table.rows.get(roll) or SafRow()
        result = row.result
        trule = table.rule or self.rule
        plan.status, plan.roll = result, roll
        if result == "fiasco":
            vp = row.vp
            game.state.vp["german"] = game.state.vp.get("german", 0) + vp
            game.emit("saf_strike", hex=target_label, roll=roll, result=result, rule=trule)
            game.emit("vp", vp_side="german", delta=vp, total=game.state.vp["german"], reason="SAF fiasco", rule=trule)
            return ActionResult(True, f"SAF fiasco (rolled {roll}): the ground attack is cancelled, its CP are lost, "
                                      f"the attackers may not move or attack this turn; German +{vp} VP", trule,
                                data={"saf_roll": roll, "saf": result})
        if result == "no_show":
            cancel = str(action.get("saf_cancel", "false")).lower() in ("1", "true", "yes")
            game.emit("saf_strike", hex=target_label, roll=roll, result=result, cancelled=cancel, rule=trule,
                      policy=None if "saf_cancel" in action else NO_SHOW_POLICY)
            if cancel:
                return ActionResult(True, f"SAF no-show (rolled {roll}): the ground attack is cancelled, its CP are "
                                          "lost, the attackers may not move or attack this turn", trule,
                                    data={"saf_roll": roll, "saf": result})
            return None
        if result == "modifier":
            self.battle(game).saf_modifier = row.modifier
        game.emit("saf_strike", hex=target_label, roll=roll, result=result,
                  modifier=self.battle(game).saf_modifier, rule=trule)
        return None

    def adjust_fire(self, game: "PlayContext", b: "Battle", f: "Fighter", target: "Fighter", attacking: bool,
                    mods: dict[str, int]) -> None:
        m = self.battle(game).saf_modifier
        if m and attacking and f.side == self.side:
            mods["saf"] = m

    def on_turn_end(self, game: "PlayContext") -> None:
        if not self.on(game):
            return
        for plan in self._plans(game):
            if plan.status == "plotted" and plan.turn <= game.state.turn:
                plan.status = "forfeit"
                game.emit("saf_forfeit", hex=plan.hex, turn_planned=plan.turn,
                          reason="no Allied attack on the plotted hex that day", rule=self.rule)
