"""GTS chit pull [GTS 9.0–10.0]: ``params.mug`` of the scenario lists the chits per turn
(the latest entry at or before the turn applies); after the scenario's first turn each side's
"one Direct Command Chit" joins it [9.0] (counters flagged ``direct_command_chit``).
``{do: draw_chit}`` draws at random with the game's dice and puts the chit in play (who may
act: play/gts/gate.py); the last chit is not drawn, it is played first next turn [10.0.6], as that
turn's 4.0 H Activation Phase begins ("must play that chit now as the first chit" [10.0.1]).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from model.calendar import resolve_turn
from play.gts import gate
from play.gts.params import gts_params
from play.gts.state import ChitState, gts_state
from play.procedure import Procedure
from play.result import ActionResult

if TYPE_CHECKING:
    from play.context import PlayContext


MUG_STEP = "mug"  # GTS 4.0 G "Put the eligible chits into the coffee mug" (resources/systems/gts-utah.yaml)
ACTIVATION_STEP = gate.ACTIVATION_STEP  # GTS 4.0 H "Perform the Activation Phase" [10.0]
MUG_POLICY = ("mug-filled-at-turn-start: the chits go into the mug as the turn starts, not at Step G [GTS 4.0 G]; a "
              "chit bought in Step D for this turn goes straight into the mug, so the mug holds the same chits when "
              "the Activation Phase begins")
ACTIVATION_POLICY = ("activation-gated: the chit in play decides which Units act (Formation, DivAct with its "
                     "limits, Direct Command, Second Actions: play/gts/gate.py); with no chit in play no Unit acts; "
                     "not played: a DivAct's reinforcements entering when its chit is drawn [10.0.1, 8.0] (they "
                     "arrive in Step C), the Leaders' Attachment Ratings (unknown in the counter data) [13.1, 21.5], "
                     "Engineer Actions [13.2]")


class ChitPull(Procedure):
    plays = frozenset({MUG_STEP})
    partly = MappingProxyType({ACTIVATION_STEP: ACTIVATION_POLICY})

    def __init__(self, game: "PlayContext") -> None:
        p = gts_params(game)
        self.cfg, self.act = p.chits, p.activation
        self.actions = {"draw_chit": self.draw,
                        "second_action": lambda g, a: gate.second_action(g, a, self.act),
                        "end_activation": lambda g, a: gate.end_activation(g, a, self.act),
                        "pass": lambda g, a: gate.pass_action(g, a, self.act)}

    def _st(self, game: "PlayContext") -> ChitState:
        return gts_state(game).chits

    def _chits_for_turn(self, game: "PlayContext") -> tuple[list[str], str | None]:
        mug = game.scenario.params.get("mug") or []
        turns = game.system.calendar.all_turns
        best: tuple[int, list[str], str | None] | None = None
        for entry in mug if isinstance(mug, list) else []:
            t = resolve_turn(entry.get("turn"), turns) if isinstance(entry, dict) else None
            if t is not None and t <= game.state.turn and (best is None or t >= best[0]):
                best = (t, [str(c) for c in entry.get("chits", [])], entry.get("rule"))
        if best is None:
            return [], None
        chits = best[1]
        if game.state.turn > game.first_turn:
            chits = chits + [c for c in self._direct_chits(game) if c not in chits]  # [9.0]
        return chits, best[2]

    def _direct_chits(self, game: "PlayContext") -> list[str]:
        """Each side's Direct Command chit [9.0], for the sides with units in the scenario."""
        flag = next((f for f, k in self.act.chit_flags.value.items() if k == "direct"), None)
        sides = {u.side for u in game.state.units.values()}
        return sorted(c.id for c in game.counters.values() if flag in c.flags and c.side in sides)

    def before(self, game: "PlayContext", action: dict[str, Any]) -> "ActionResult | None":
        return gate.before(game, action, self.act)  # first of the procedures: who may act [10.0.1, 13.1]

    def after(self, game: "PlayContext", action: dict[str, Any], result: "ActionResult") -> None:
        if action.get("do") == "draw_chit" and result.ok and result.data.get("chit"):
            act = gate.current(game)
            if act is None or act.chit != result.data["chit"]:
                gate.start(game, str(result.data["chit"]), self.act)  # drawn by another procedure (Excl 4.1.8)
            return
        gate.after(game, action, result, self.act)

    def on_phase_start(self, game: "PlayContext") -> None:
        if game.state.phase != 0:
            if game.phase.id == ACTIVATION_STEP:
                self._play_carried(game)
            return  # the mug is filled in the turn's first step (policy mug-filled-at-turn-start)
        st = self._st(game)
        chits, rule = self._chits_for_turn(game)
        carry = st.carry
        st.mug = sorted(c for c in chits if c != carry)
        st.drawn = []
        if carry:
            st.drawn.append(carry)
            game.emit("chit", chit=carry, carried=True, rule=self.cfg.last_chit_rule)
        st.carry = None
        if gate.free_before_first_chit(game, self.act):
            spec = self.act.before_first_chit
            game.emit("activation_opt_out", param=spec.param, value="free", rule=spec.rule,
                      policy=self.act.policies.no_chit)  # every turn: the opt-out is never silent
        policy = MUG_POLICY if any(p.id == MUG_STEP for p in game.phases[1:]) else None
        game.emit("mug", chits=list(st.mug), rule=game.system.cite(str(rule)) if rule else self.cfg.mug_rule,
                  policy=policy)
        if carry and not any(p.id == ACTIVATION_STEP for p in game.phases[1:]):
            gate.start(game, carry, self.act, carried=True)  # no 4.0 H step in the data: at once

    def _play_carried(self, game: "PlayContext") -> None:
        """As the Activation Phase begins, the last chit of last turn is played "now as the first
        chit of this turn" [10.0.1, 10.0.6] (chits are drawn only in this step, so a drawn list of
        one chit with none in play is that carried chit)."""
        st = self._st(game)
        if len(st.drawn) == 1 and gate.current(game) is None and st.drawn[0] not in st.mug:
            gate.start(game, st.drawn[0], self.act, carried=True)

    def on_turn_end(self, game: "PlayContext") -> None:
        gts_state(game).activation.current = None  # the Activation Phase is over [10.0.6]
        st = self._st(game)
        if len(st.mug) == 1:
            st.carry = st.mug.pop()
            game.emit("chit_carried", chit=st.carry, rule=self.cfg.last_chit_rule)

    def draw(self, game: "PlayContext", action: dict[str, Any]) -> "ActionResult":
        st = self._st(game)
        if not st.mug:
            return ActionResult(False, "the mug is empty", self.cfg.mug_rule)
        if len(st.mug) == 1:
            return ActionResult(False, f"the last chit ({st.mug[0]}) is not drawn: it is played first next turn",
                                self.cfg.last_chit_rule)
        chit = st.mug.pop(game.dice.choice_index(len(st.mug)))
        st.drawn.append(chit)
        game.emit("chit", chit=chit, left=len(st.mug), rule=self.cfg.mug_rule)
        gate.start(game, chit, self.act)
        return ActionResult(True, f"drew {chit}", data={"chit": chit})
