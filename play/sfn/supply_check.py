"""SFN supply [SFN 9.0]: both sides trace supply when each player turn starts (:class:`SupplyCheck`).

SFN 9.2: "Check the supply status of all units of both sides during step A.5 of the German
player turn and step A.6 of the Allied. The supply status determined for each unit at those
times lasts until the next player turn's supply check step." So at each player turn's supply
step every side is checked, not only the phasing one (the 14.3 modifiers of the opponent's turn
read the status of that turn's check)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from play.procedure import Procedure
from play.result import ActionResult
from play.sfn.params import SupplyParams, sfn_params

if TYPE_CHECKING:
    from play.context import PlayContext


SUPPLY_POLICY = ("supply-check-both-sides-at-player-turn-start: the sequence has no supply step (A.5/A.6), "
                 "so the units of both sides are checked when each player turn starts (its administrative phase)")
# With the 5.2 sequence in the data the check is its step, run when the Administrative Phase begins.
SUPPLY_STEP_POLICY = ("supply-check-at-admin-phase-start: steps A.5 / A.6 are run as the Administrative Phase "
                      "begins, before the reinforcements and replacements of its earlier steps, which are the "
                      "player's actions in that phase")
SUPPLY_STEPS = frozenset({"I.A.5", "II.A.6"})  # the supply check steps of 5.2 (resources/systems/sfn.yaml)


class SupplyCheck(Procedure):
    """SFN supply [9.0]: at the start of each player turn the units of both sides trace supply
    (:mod:`play.supply`) [9.2]; unsupplied units get the OOS marker, supplied ones lose it, and
    an OOS unit's movement allowance is 1 [9.1]. ``{do: check_supply}`` re-checks the side to
    move (or ``side``) on demand."""

    def __init__(self, game: "PlayContext") -> None:
        self.params: SupplyParams | None = sfn_params(game).supply  # None: the system has no supply rules
        self.marker = sfn_params(game).oos_marker
        self.actions = {"check_supply": self.check_action}
        self.plays = SUPPLY_STEPS if self.params is not None else frozenset()

    def on_phase_start(self, game: "PlayContext") -> None:
        side = game.phase.side
        first = next((i for i, p in enumerate(game.phases) if p.side == side), None)
        if side is None or first != game.state.phase or self.params is None:
            return
        in_step = any(st.id in self.plays for st in game.phase.steps)
        policy = SUPPLY_STEP_POLICY if in_step else SUPPLY_POLICY
        for s in [side, *(x.id for x in game.system.sides if x.id != side)]:
            self.check(game, s, policy=policy)  # "all units of both sides" [9.2], the phasing side first

    @property
    def trace_config(self) -> dict[str, Any]:
        """What :func:`play.supply.trace` reads (empty: no supply rules)."""
        return self.params.trace_config if self.params is not None else {}

    def check(self, game: "PlayContext", side: str, policy: str | None = None) -> Any:
        from play.supply import trace

        res = trace(game, side, self.trace_config)
        for uid in sorted(res.supplied | res.unsupplied):
            u = game.state.units[uid]
            if uid in res.unsupplied and self.marker not in u.markers:
                u.markers.append(self.marker)
            elif uid in res.supplied and self.marker in u.markers:
                u.markers.remove(self.marker)
        game.emit("supply", supply_side=side, supplied=sorted(res.supplied), unsupplied=sorted(res.unsupplied),
                  sources=len(res.sources), rule=self._rule(check=True), policy=policy)
        return res

    def check_action(self, game: "PlayContext", action: dict[str, Any]) -> "ActionResult":
        if self.params is None:
            return ActionResult(False, "the system defines no supply rules")
        side = str(action.get("side") or game.phase.side or "")
        if side not in {s.id for s in game.system.sides}:
            return ActionResult(False, f"no side {side!r} to check")
        res = self.check(game, side)
        return ActionResult(True, f"{side}: {len(res.supplied)} supplied, {len(res.unsupplied)} out of supply",
                            self._rule(), data={"unsupplied": sorted(res.unsupplied)})

    def _rule(self, check: bool = False) -> str | None:
        p = self.params
        if p is None:
            return None
        return (p.check_rule or p.rule) if check else p.rule

    def ma_cap(self, game: "PlayContext", unit: Any) -> tuple[float, str | None] | None:
        cap = self.params.oos_movement if self.params is not None else None
        if self.marker in unit.markers and cap is not None:
            # A bare value carries no rule case: the section's [9.0] stands for it.
            return cap.value, cap.rule if cap.rule is not None else self._rule()
        return None
