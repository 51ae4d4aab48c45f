"""GTS chit pull [GTS 9.0–10.0]: ``params.mug`` of the scenario lists the chits per turn
(the latest entry at or before the turn applies); ``{do: draw_chit}`` draws at random with
the game's dice; the last chit is not drawn, it is played first next turn [10.0.6].
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from model.calendar import resolve_turn
from play.gts.params import gts_params
from play.gts.state import ChitState, gts_state
from play.procedure import Procedure
from play.result import ActionResult

if TYPE_CHECKING:
    from play.context import PlayContext


MUG_STEP = "mug"  # GTS 4.0 G "Put the eligible chits into the coffee mug" (resources/systems/gts-utah.yaml)
ACTIVATION_STEP = "activation"  # GTS 4.0 H "Perform the Activation Phase" [10.0]
MUG_POLICY = ("mug-filled-at-turn-start: the chits go into the mug as the turn starts, not at Step G [GTS 4.0 G]; a "
              "chit bought in Step D for this turn goes straight into the mug, so the mug holds the same chits when "
              "the Activation Phase begins")
UNGATED_POLICY = ("activation-ungated-interim: chits are drawn (draw_chit) but the drawn chit does not yet decide "
                  "which Units may act; both sides may move and fire throughout the Activation Phase")


class ChitPull(Procedure):
    plays = frozenset({MUG_STEP})
    partly = MappingProxyType({ACTIVATION_STEP: UNGATED_POLICY})

    def __init__(self, game: "PlayContext") -> None:
        self.cfg = gts_params(game).chits
        self.actions = {"draw_chit": self.draw}

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
        return (best[1], best[2]) if best else ([], None)

    def on_phase_start(self, game: "PlayContext") -> None:
        if game.state.phase != 0:
            return  # the turn's first step (policy mug-filled-at-turn-start)
        st = self._st(game)
        chits, rule = self._chits_for_turn(game)
        carry = st.carry
        st.mug = sorted(c for c in chits if c != carry)
        st.drawn = []
        if carry:
            st.drawn.append(carry)
            game.emit("chit", chit=carry, carried=True, rule=self.cfg.last_chit_rule)
        st.carry = None
        policy = MUG_POLICY if any(p.id == MUG_STEP for p in game.phases[1:]) else None
        game.emit("mug", chits=list(st.mug), rule=game.system.cite(str(rule)) if rule else self.cfg.mug_rule,
                  policy=policy)

    def on_turn_end(self, game: "PlayContext") -> None:
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
        return ActionResult(True, f"drew {chit}", data={"chit": chit})
