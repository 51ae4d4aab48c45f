"""SFN 15.7 Operation Blue Point (optional rule ``blue_point``).

- ``{do: blue_point, launch: true|false}``: the German announces it at the very start of Game
  Turn 1 — in the German administrative phase of turn 1 (policy ``sfn-admin-phase``), once [15.7].
- Launched: the two parachute divisions (data ``units``) leave the South box for the German OOS
  dead pile for good (``where: eliminated``, ``box: oos-dead-german``); a d10 is halved, rounded
  down [15.7]:
  - 0: fiasco, no effect on the Allies;
  - 1 or more: **Blue Point chaos day** on Game Turn 1: Allied units may not move (regular or
    strategic), land at a beachhead (leave the England box) or attack; they defend normally;
  - 2 or more: also the Allied CP allowance is reduced by one on the following game turns.
    The text says "their exact number equalling the rounded result", its example (9 → 4 → CP
    reduced on GT 2, 3 and 4) gives one fewer: policy **blue-point-example-count**: the example
    is followed, CP reduced on Game Turns 2 … N (N = the halved roll).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from play.sfn.optional.base import OptionalRule, first_phase_of
from play.sfn.params import BluePointParams
from play.sfn.state import BluePointState, sfn_state

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.result import ActionResult

COUNT_POLICY = ("blue-point-example-count: the text gives N turns of reduced Allied CP after the chaos day, its "
                "example (9 -> 4 -> GT 2, 3, 4) N-1; the example is followed: CP -1 on GT 2..N")
CHAOS_ACTIONS = ("move", "strategic_move", "attack")


class BluePoint(OptionalRule):
    key = "blue_point"
    c: BluePointParams

    def __init__(self, game: "PlayContext") -> None:
        super().__init__(game)
        self.actions = {"blue_point": self.launch}

    def st(self, game: "PlayContext") -> BluePointState:
        return sfn_state(game).optional.blue_point

    def launch(self, game: "PlayContext", action: dict[str, Any]) -> "ActionResult":
        from play.result import ActionResult

        if not self.on(game):
            return self.off()
        st = self.st(game)
        turn = self.c.turn.value
        if st.launched is not None:
            return ActionResult(False, "Blue Point is a once-and-done decision, already made", self.rule)
        if game.state.turn != turn:
            return ActionResult(False, f"Blue Point is announced at the very start of Game Turn {turn}",
                                self.c.turn.rule or self.rule)
        refusal = self.admin_refusal(game, self.side, "the Blue Point announcement")
        if refusal is not None:
            return refusal
        if not str(action.get("launch", "true")).lower() in ("1", "true", "yes"):
            st.launched = False
            game.emit("blue_point", launch=False, rule=self.rule)
            return ActionResult(True, "Blue Point not launched", self.rule)
        units = self.c.units.value
        src = self.c.from_box.value
        missing = [u for u in units if not (game.unit(u).where == "box" and game.unit(u).box == src)]
        if missing:
            return ActionResult(False, f"Blue Point needs {', '.join(missing)} in the {src} box",
                                self.c.units.rule or self.rule)
        dead = self.c.to_box.value
        for uid in units:
            u = game.unit(uid)
            u.where, u.hex, u.box = "eliminated", None, dead
            self._never_rebuilt(game, uid)
            game.emit("eliminated", unit=uid, box=dead, reason="Blue Point", rule=self.rule)
        roll = game.dice.roll(1, self.c.die.value)[0]
        n = roll // 2
        st.launched, st.roll, st.result = True, roll, n
        st.chaos_turn = turn if n >= 1 else None
        st.cp_turns = list(range(turn + 1, n + 1)) if n >= 2 else []
        outcome = ("fiasco: no effect on the Allies" if n == 0 else
                   f"chaos day on turn {turn}" + (f", Allied CP -1 on turns {st.cp_turns}" if st.cp_turns else ""))
        game.emit("blue_point", launch=True, roll=roll, result=n, chaos_turn=st.chaos_turn,
                  cp_turns=st.cp_turns or None, rule=self.rule, policy=COUNT_POLICY if n >= 2 else None)
        return ActionResult(True, f"Blue Point launched: rolled {roll}, halved {n}: {outcome}", self.rule,
                            COUNT_POLICY if n >= 2 else None, data={"roll": roll, "result": n})

    def _never_rebuilt(self, game: "PlayContext", uid: str) -> None:
        """"Permanently in the OOS deadpile" [15.7]: the replacement procedure (8.4) keeps the
        list of units that may never be recreated; Blue Point's paratroopers join it."""
        from play.sfn.replacements import Replacements

        proc = next((p for p in game.procedures if isinstance(p, Replacements)), None)
        if proc is not None:
            proc.st(game).oos_dead[uid] = "in Operation Blue Point (SFN 15.7)"

    def before(self, game: "PlayContext", action: dict[str, Any]) -> "ActionResult | None":
        from play.result import ActionResult

        st = self.st(game)
        if not self.on(game) or st.chaos_turn != game.state.turn or action.get("do") not in CHAOS_ACTIONS:
            return None
        ids = [str(a) for a in action.get("attackers") or []] if action.get("do") == "attack" else \
            [str(u) for u in (action.get("units") or [action.get("unit")]) if u is not None]
        if any(game.state.units.get(u) is not None and game.state.units[u].side == "allied" for u in ids):
            return ActionResult(False, "Blue Point chaos day: Allied units may not move, land at a beachhead or "
                                       "attack this game turn (they defend normally)", self.rule)
        return None

    def on_phase_start(self, game: "PlayContext") -> None:
        st = self.st(game)
        if not self.on(game) or game.state.turn not in st.cp_turns or game.phase.side != "allied":
            return
        if not first_phase_of(game, "allied"):
            return
        from play.sfn.common import command_points

        cp = command_points(game)
        if cp is None:
            return
        points = cp.st(game).points
        cut = self.c.cp_reduction.value
        points["allied"] = max(0, points.get("allied", 0) - cut)
        game.emit("command_points", cp_side="allied", points=points["allied"], delta=-cut, reason="Blue Point",
                  rule=self.c.cp_reduction.rule or self.rule, policy=COUNT_POLICY)
