"""GTS overstacking [14.7], penalised, not refused (system data ``stacking.limits.overstack:
penalised``; ``play.rules.overstack_penalty``). 14.7: "Overstacking is permitted for Units not
in Column, but if you exceed 8 steps in a hex:

- You may only move one Unit at a time out of the stack — no moving "stacks" out of an
  overstacked hex.
- You may never Assault out of an overstacked hex.
- Any attempt to leave an overstacked hex by any method, successful or not, makes the leaving
  Unit suffer a Cohesion Hit. [...]
- Overstacked Units may not retreat out of, or choose to run away from, an Assault."

Applied here: a ``move`` of more than one unit out of an overstacked hex is refused; a unit that
moves out takes a Cohesion Hit through 19.2.3 (play/gts/results.py) — policy
**overstack-exit-hit-on-accepted-move**: an action the engine refuses is no attempt in the game
(a move stopped by Opportunity Fire is an accepted move); a move that ends overstacked is
accepted and logged (event ``overstack_penalty``, with the penalties). The Assault ban is in
play/gts/assault.py. Not applied: leaving by other methods than ``move`` and the retreat/run-away
ban (logged with the warning). When the steps are ``unknown`` (every Utah sample counter) the
hex's count is unknown: warned (``overstack_unknown``), no penalty applied.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from model.hexes import Hex
from play import rules

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.gts.params import ResultsParams
    from play.result import ActionResult
    from play.rules import Problem
    from play.state import UnitState

EXIT_HIT_POLICY = ("overstack-exit-hit-on-accepted-move: the 14.7 Cohesion Hit for leaving an overstacked hex "
                   "is taken by a unit whose move is accepted; a refused action is no attempt")
NOT_APPLIED = ("not applied by the engine [14.7]: leaving by other methods than a move; Overstacked Units may not "
               "retreat out of, or choose to run away from, an Assault")
PENALTIES = ("penalised, not refused [14.7]: one Unit at a time may move out, no Assault out of the hex, a Cohesion "
             "Hit for each Unit that leaves")


def problem(game: "PlayContext", h: Hex | None, units: list["UnitState"] | None = None) -> "Problem | None":
    """The 14.7 overstack of ``h`` (code ``overstack`` or ``overstack_unknown``), or None."""
    if h is None:
        return None
    import dataclasses

    there = game.state.at(h) if units is None else units
    p = rules.overstack_penalty(game.hmap, game.system, h, there, game.counters)
    return None if p is None else dataclasses.replace(p, rule=game.system.cited(p.rule))


def overstacked(game: "PlayContext", h: Hex | None) -> bool:
    """Known to exceed the limit (an unknown count is not)."""
    p = problem(game, h)
    return p is not None and p.code == "overstack"


def before_move(game: "PlayContext", action: dict[str, Any]) -> "ActionResult | None":
    from play.result import ActionResult

    units = game.stack(action)
    if len(units) < 2 or units[0].hex is None or str(action.get("to", "")).startswith("box:"):
        return None
    p = problem(game, units[0].hex)
    if p is not None and p.code == "overstack":
        return ActionResult(False, f"{game.label(units[0].hex)} is overstacked ({p.message}): "
                                   f"\"You may only move one Unit at a time out of the stack\"", p.rule or "GTS 14.7")
    return None


def after_move(game: "PlayContext", action: dict[str, Any], result: "ActionResult", cfg: "ResultsParams") -> None:
    from play.gts import results

    if not result.ok or action.get("do") != "move":
        return
    path = result.data.get("path") or []
    if not path:
        return
    origin, dest = game.hex_of(path[0]), game.hex_of(path[-1])
    moved = [u for u in game.stack(action) if u.on_map and u.hex == dest]
    if not moved:
        return
    before = problem(game, origin, game.state.at(origin) + moved)
    if before is not None and before.code == "overstack":
        for u in moved:
            game.emit("overstack_exit", unit=u.id, hex=game.label(origin), message=before.message,
                      rule=before.rule, policy=EXIT_HIT_POLICY)
            results.cohesion_hit(game, u, cfg, "leaving an overstacked hex", before.rule or "GTS 14.7")
    elif before is not None:
        game.emit("overstack_unknown", hex=game.label(origin), message=before.message, rule=before.rule,
                  policy=before.policy, penalty="not applied: the step count is unknown")
    after = problem(game, dest)
    if after is not None and after.code == "overstack":
        game.emit("overstack_penalty", units=[u.id for u in moved], hex=game.label(dest), message=after.message,
                  rule=after.rule, policy=after.policy, penalty=PENALTIES, not_applied=NOT_APPLIED)
    elif after is not None:
        game.emit("overstack_unknown", hex=game.label(dest), message=after.message, rule=after.rule,
                  policy=after.policy, penalty="not applied: the step count is unknown")
