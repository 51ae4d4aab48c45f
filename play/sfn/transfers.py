"""SFN German transfers from Italy [7.4], the Italy scheduling option [7.5], the Riga-Odessa
option [7.6], the same-turn entry ban [7.1] and the army HQs' extra CP [6.6].

The generic sequence has no Administrative Phase: policy **sfn-admin-is-reinforcement-phase**
— the German Administrative Phase is the German Reinforcement phase (the first phase of his
player turn), where every transfer below happens. "Every fifth game turn" from GT 5 is GT 5,
10, 15, … (the "It" turns of the Turn Record Track).

- ``{do: italy_transfer, unit}`` [7.4]: on GT 5, 10, 15 … one unit of the German's choice
  moves from the Italy box into the South box, at full two-step strength, for no CP. With the
  optional rule ``italy_scheduling`` [7.5] the unit must have been set aside with
  ``{do: schedule_italy, unit, turn}`` at least 4 game turns before (the text's example: chosen
  on GT 1 for GT 5; "five days in advance" counts both ends).
- ``{do: declare_riga_odessa}`` [7.6] (optional rule ``riga_odessa``): in the German
  Administrative Phase of GT 5 or of every fifth turn after it; never rescinded. The
  scenario's ``params.riga_odessa_declared: N`` declares it on turn N. From 15 game turns
  after the declaration, every fifth turn, five units are drawn at random (the game's dice)
  from the Russia box into the North box at full strength, for no CP. Without the
  declaration nothing ever leaves the Russia box.
- [7.1]: a unit that came into the North/South box from Italy or Russia this game turn may
  not move onto the map (nor strategically) in the same game turn.
- [6.6]: an army HQ drawn from Russia goes straight to the German CP box; one that came
  from Italy waits in the South box and moves to the CP box with ``{do: hq_to_cp, unit}`` for
  one CP, not in the turn it arrived (the 6.6 example). Each HQ that starts a game turn in
  the CP box gives the German one more CP that turn, up to six [6.1, 6.6].
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from play.procedure import Procedure
from play.sfn.common import check_cp, command_points, has_tag, spend_cp
from play.sfn.params import Italy, ItalyScheduling, RigaOdessa, TransfersParams, sfn_params
from play.sfn.state import TransfersState, sfn_state
from play.result import result as _result

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.result import ActionResult
    from play.state import UnitState

ADMIN_POLICY = ("sfn-admin-is-reinforcement-phase: the generic sequence has no Administrative Phase; "
                "the German Reinforcement phase stands in for it")


class GermanTransfers(Procedure):
    def __init__(self, game: "PlayContext") -> None:
        transfers = sfn_params(game).transfers
        self.enabled = transfers is not None  # off: no HQ CP or Russia draws at phase starts
        # Step 5.2 I.A.3, with the engine's scheduled arrivals: the Italy and Russia transfers [7.1, 7.4-7.6].
        self.plays = frozenset({"I.A.3"}) if self.enabled else frozenset()
        self.c = transfers or TransfersParams()
        self.actions = {"italy_transfer": self.italy_transfer, "schedule_italy": self.schedule_italy,
                        "declare_riga_odessa": self.declare, "hq_to_cp": self.hq_to_cp}

    # --- helpers ------------------------------------------------------------------------------

    def _st(self, game: "PlayContext") -> TransfersState:
        st = sfn_state(game).transfers
        if st.riga_odessa is None:
            declared = game.scenario.params.get(self.c.riga_odessa.scenario_param)
            if declared is not None and self._optional(game, self.c.riga_odessa):
                st.riga_odessa = int(str(declared))
        return st

    def _optional(self, game: "PlayContext", spec: ItalyScheduling | RigaOdessa) -> bool:
        return bool(game.scenario.optional_rules.get(spec.optional_rule))

    def _german(self) -> str:
        return self.c.side

    def _fifth(self, spec: Italy | RigaOdessa, turn: int) -> bool:
        return turn >= spec.first_turn and (turn - spec.first_turn) % spec.every == 0

    def _admin(self, game: "PlayContext") -> bool:
        ph = game.phase
        return ph.side == self._german() and ph.kind == self.c.admin_phase_kind

    def _arrive(self, game: "PlayContext", u: "UnitState", box: str, st: TransfersState) -> None:
        u.where, u.hex, u.box = "box", None, box
        u.steps, u.reduced = u.max_steps, False  # "at their full, two-step strength" [7.4, 7.6]
        st.arrived[u.id] = game.state.turn

    # --- Italy [7.4, 7.5] ---------------------------------------------------------------------

    def italy_transfer(self, game: "PlayContext", action: dict[str, Any]) -> "ActionResult":
        spec = self.c.italy
        rule = spec.rule
        u = game.unit(str(action.get("unit")))
        st = self._st(game)
        turn = game.state.turn
        if not self._admin(game):
            return _result(False, "Italy transfers happen in the German Administrative Phase", rule, ADMIN_POLICY)
        if not self._fifth(spec, turn):
            return _result(False, f"GT {turn} is not an Italy transfer turn (GT {spec.first_turn} "
                                  f"and every {spec.every}th turn after)", rule)
        if u.where != "box" or u.box != spec.from_box:
            return _result(False, f"{u.id} is not in the Italy box", rule)
        if st.italy_done.get(turn, 0) >= spec.per_turn:
            return _result(False, "one unit per transfer turn comes from Italy", rule)
        sched = self.c.italy_scheduling
        if self._optional(game, sched):
            chosen = st.scheduled.get(turn)
            if chosen != u.id:
                return _result(False, f"with Italy scheduling the GT {turn} transfer is "
                                      f"{chosen or 'not scheduled'}, not {u.id}", sched.rule)
        self._arrive(game, u, spec.to_box, st)
        st.italy_done[turn] = st.italy_done.get(turn, 0) + 1
        game.emit("transfer", unit=u.id, from_box=spec.from_box, box=u.box, cost=0, rule=rule,
                  policy=ADMIN_POLICY)
        return _result(True, f"{u.id} transferred from Italy to the {u.box} box (no CP)", rule, ADMIN_POLICY)

    def schedule_italy(self, game: "PlayContext", action: dict[str, Any]) -> "ActionResult":
        spec = self.c.italy
        sched = self.c.italy_scheduling
        rule = sched.rule
        if not self._optional(game, sched):
            return _result(False, "Italy scheduling is an option this scenario does not use "
                                  f"(optional_rules.{sched.optional_rule})", rule)
        u = game.unit(str(action.get("unit")))
        st = self._st(game)
        turn = int(str(action.get("turn", 0)))
        lead = sched.lead
        if game.phase.side != self._german():
            return _result(False, "the German schedules his Italy transfers in his own player turn", rule, ADMIN_POLICY)
        if u.where != "box" or u.box != spec.from_box:
            return _result(False, f"{u.id} is not in the Italy box", rule)
        if not self._fifth(spec, turn) or turn - game.state.turn < lead:
            return _result(False, f"GT {turn} is not an Italy transfer turn at least {lead} turns ahead", rule)
        if u.id in st.scheduled.values() or turn in st.scheduled:
            return _result(False, f"GT {turn} or {u.id} is already scheduled", rule)
        st.scheduled[turn] = u.id
        game.emit("italy_scheduled", unit=u.id, for_turn=turn, rule=rule)
        return _result(True, f"{u.id} set aside for the GT {turn} Italy transfer", rule)

    # --- Riga-Odessa [7.6] --------------------------------------------------------------------

    def declare(self, game: "PlayContext", action: dict[str, Any]) -> "ActionResult":
        spec = self.c.riga_odessa
        rule = spec.rule
        st = self._st(game)
        if not self._optional(game, spec):
            return _result(False, "the Riga-Odessa option is not in use in this scenario "
                                  f"(optional_rules.{spec.optional_rule})", rule)
        if st.riga_odessa is not None:
            return _result(False, f"already declared on GT {st.riga_odessa} (it is never rescinded)", rule)
        if not self._admin(game) or not self._fifth(spec, game.state.turn):
            return _result(False, "the declaration is made in the German Administrative Phase of GT "
                                  f"{spec.first_turn} or of every fifth turn after it", rule, ADMIN_POLICY)
        st.riga_odessa = game.state.turn
        first = game.state.turn + spec.delay
        game.emit("riga_odessa", declared=game.state.turn, first_draw=first, rule=rule)
        return _result(True, f"Riga-Odessa Line declared; the first five units leave Russia on GT {first}", rule)

    def _draw(self, game: "PlayContext", st: TransfersState) -> None:
        spec = self.c.riga_odessa
        rule = spec.rule
        declared = st.riga_odessa
        if declared is None or not self._optional(game, spec):
            return
        turn = game.state.turn
        since = turn - declared - spec.delay
        if since < 0 or since % spec.every or turn in st.draws:
            return
        st.draws.append(turn)
        cup = sorted(u.id for u in game.state.units.values()
                     if u.where == "box" and u.box == spec.from_box)
        hq = self.c.hq
        drawn = []
        for _ in range(min(spec.draw, len(cup))):
            uid = cup.pop(game.dice.choice_index(len(cup)))  # "pulls, without looking" [7.6]
            u = game.state.units[uid]
            to = hq.box if has_tag(game, uid, hq.tag) else spec.to_box
            self._arrive(game, u, to, st)
            drawn.append(uid)
            game.emit("transfer", unit=uid, from_box=spec.from_box, box=to, cost=0, drawn=True,
                      rule=hq.rule if to != spec.to_box else rule)
        game.emit("riga_odessa_draw", units=drawn, left=len(cup), rule=rule, policy=ADMIN_POLICY)

    # --- army HQs and the CP box [6.6] ----------------------------------------------------------

    def hq_to_cp(self, game: "PlayContext", action: dict[str, Any]) -> "ActionResult":
        hq = self.c.hq
        rule = hq.rule
        u = game.unit(str(action.get("unit")))
        st = self._st(game)
        if not has_tag(game, u.id, hq.tag):
            return _result(False, f"{u.id} is not an army headquarters", rule)
        if game.phase.side != u.side:
            return _result(False, "only in the German player turn", rule)
        if u.where != "box" or u.box not in hq.from_boxes:
            return _result(False, f"{u.id} is not in the North or South box", rule)
        if st.arrived.get(u.id) == game.state.turn:
            return _result(False, f"{u.id} came from Italy or Russia this game turn: it moves on next turn",
                           self.c.same_turn.rule or "SFN 7.1")
        cost = hq.cost
        refusal = check_cp(game, [u.id], cost, rule)
        if refusal is not None:
            return refusal
        u.box = hq.box
        spend_cp(game, [u.id], cost, "move", rule)
        game.emit("hq_to_cp", unit=u.id, box=u.box, rule=rule)
        return _result(True, f"{u.id} in the CP box: one more German CP from next game turn", rule)

    def on_phase_start(self, game: "PlayContext") -> None:
        if not self.enabled:
            return
        st = self._st(game)
        german = self._german()
        first = next((i for i, p in enumerate(game.phases) if p.side == german), None)
        if game.phase.side != german or first != game.state.phase:
            return
        # HQs in the CP box at the start of the game turn give one CP each [6.6] (CP were just set).
        hq = self.c.hq
        cp = command_points(game)
        hqs = sorted(u.id for u in game.state.units.values() if u.where == "box" and u.box == hq.box
                     and has_tag(game, u.id, hq.tag) and st.arrived.get(u.id) != game.state.turn)
        if cp is not None and hqs:
            pts = cp.st(game).points
            top = hq.max_cp
            pts[german] = min(top, pts.get(german, 0) + len(hqs))
            game.emit("command_points", cp_side=german, points=pts[german], hqs=hqs, rule=hq.rule)
        if self._admin(game):
            self._draw(game, st)

    def before(self, game: "PlayContext", action: dict[str, Any]) -> "ActionResult | None":
        if action.get("do") not in ("move", "strategic_move") or str(action.get("to", "")).startswith("box:"):
            return None
        # Not self._st: that would also read the scenario's Riga-Odessa declaration.
        arrived = sfn_state(game).transfers.arrived
        ids = [str(x) for x in (action.get("units") or [action.get("unit")]) if x is not None]
        late = [i for i in ids if arrived.get(i) == game.state.turn
                and game.state.units.get(i) is not None and game.state.units[i].where == "box"]
        if late:
            return _result(False, f"{', '.join(late)} came from Italy or Russia this game turn: no entry onto the map "
                                  "until next turn", self.c.same_turn.rule or "SFN 7.1")
        return None
