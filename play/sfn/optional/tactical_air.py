"""SFN 15.3 Tactical Air Power (optional rule ``tactical_air``).

- ``{do: declare_air, contest: true|false}``: on Game Turn 5 and every fifth turn after, in the
  German administrative phase (policy ``sfn-admin-phase``), once per declaration turn. Contesting
  costs the German one VP at once and opens a contested period of that and the next four game
  turns [15.3]. Policy **air-undeclared-is-no-contest**: a declaration turn that passes without
  ``declare_air`` is a "no contest" (no Luftwaffe effect until the next declaration turn).
- In a contested period, at the start of every battle (either side attacking), the German rolls
  a d10: 1-3 is Local German Air Superiority (LGAS): every firing German unit +1, every firing
  Allied unit -1 in that battle [15.3]. No check while a great storm rages [15.2, 15.3], nor in a
  battle with plotted SAF participation [15.3, 15.4].
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from play.sfn.optional.base import OptionalRule, d10, storm_raging
from play.sfn.params import TacticalAirParams
from play.sfn.state import TacticalAirState, sfn_state

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.result import ActionResult
    from play.sfn.combat import Battle, Fighter

UNDECLARED_POLICY = ("air-undeclared-is-no-contest: a declaration turn without declare_air counts as "
                     "no contest [15.3]")


class TacticalAir(OptionalRule):
    key = "tactical_air"
    steps_played = frozenset({"I.A.2"})  # 5.2 I.A.2
    c: TacticalAirParams

    def __init__(self, game: "PlayContext") -> None:
        super().__init__(game)
        self.actions = {"declare_air": self.declare}

    def st(self, game: "PlayContext") -> TacticalAirState:
        return sfn_state(game).optional.tactical_air

    def declaration_turn(self, t: int) -> bool:
        first, every = self.c.first_declaration_turn.value, self.c.every.value
        return t >= first and (t - first) % every == 0

    def contested(self, game: "PlayContext") -> bool:
        st = self.st(game)
        return st.contested_until is not None and (st.contested_from or 0) <= game.state.turn <= st.contested_until

    def on_turn_end(self, game: "PlayContext") -> None:
        st = self.st(game)
        t = game.state.turn
        if self.on(game) and self.declaration_turn(t) and st.declared_turn != t:
            st.declared_turn = t
            game.emit("air_declaration", contest=False, undeclared=True, rule=self.rule, policy=UNDECLARED_POLICY)

    def declare(self, game: "PlayContext", action: dict[str, Any]) -> "ActionResult":
        from play.result import ActionResult

        if not self.on(game):
            return self.off()
        t = game.state.turn
        if not self.declaration_turn(t):
            return ActionResult(False, f"turn {t} is not an 'Air' declaration turn (Game Turn "
                                       f"{self.c.first_declaration_turn.value} and every fifth after)", self.rule)
        refusal = self.admin_refusal(game, self.side, "the air declaration")
        if refusal is not None:
            return refusal
        st = self.st(game)
        if st.declared_turn == t:
            return ActionResult(False, f"the German already declared for turn {t}", self.rule)
        contest = str(action.get("contest", "false")).lower() in ("1", "true", "yes")
        st.declared_turn = t
        if contest:
            period = self.c.period.value
            st.contested_from, st.contested_until = t, t + period - 1
            vp = self.c.contest_vp.value
            game.state.vp[self.side] = game.state.vp.get(self.side, 0) + vp
            game.emit("vp", vp_side=self.side, delta=vp, total=game.state.vp[self.side], reason="contest air superiority",
                      rule=self.c.contest_vp.rule or self.rule)
        else:
            st.contested_until = None
        game.emit("air_declaration", contest=contest, until=st.contested_until, rule=self.rule)
        what = f"contested through turn {st.contested_until} (German VP {vp:+d})" if contest else "not contested"
        return ActionResult(True, f"Allied air superiority {what}", self.rule)

    def battle_start(self, game: "PlayContext", action: dict[str, Any], attackers: list[str],
                     target_label: str) -> "ActionResult | None":
        if not self.on(game) or not self.contested(game):
            return None
        if storm_raging(game):
            game.emit("lgas_check", target=target_label, skipped="a great storm is raging", rule="SFN 15.2")
            return None
        if self.battle(game).saf_plotted:
            game.emit("lgas_check", target=target_label, skipped="SAF participation plotted", rule=self.rule)
            return None
        roll = d10(game)
        lgas = roll <= self.c.lgas_max.value
        self.battle(game).lgas = lgas
        game.emit("lgas_check", target=target_label, roll=roll, lgas=lgas, rule=self.rule)
        return None

    def adjust_fire(self, game: "PlayContext", b: "Battle", f: "Fighter", target: "Fighter", attacking: bool,
                    mods: dict[str, int]) -> None:
        if not self.battle(game).lgas:
            return
        m = (self.c.german_modifier if f.side == "german" else self.c.allied_modifier).value
        if m:
            mods["lgas"] = m
