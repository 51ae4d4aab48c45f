"""GTS overstacking [14.7], penalised, not refused (system data ``stacking.limits.overstack:
penalised``; ``play.rules.overstack_penalty``). 14.7: "Overstacking is permitted for Units not
in Column, but if you exceed 8 steps in a hex:

- You may only move one Unit at a time out of the stack — no moving "stacks" out of an
  overstacked hex.
- You may never Assault out of an overstacked hex.
- Any attempt to leave an overstacked hex by any method, successful or not, makes the leaving
  Unit suffer a Cohesion Hit. [...]
- Overstacked Units may not retreat out of, or choose to run away from, an Assault."

Applied here:

- a ``move`` of more than one unit out of an overstacked hex is refused;
- a unit that moves out takes a Cohesion Hit through 19.2.3 (play/gts/results.py) — policy
  **overstack-exit-hit-on-accepted-move**: an action the engine refuses is no attempt in the game
  (a move stopped by Opportunity Fire is an accepted move);
- the other method by which the engine moves a Unit out of its hex, the Assault (attackers
  advance, defenders run away), gets the same hit: :class:`ExitWatch` notes where the Units
  stood before the action and compares after it (policy **overstack-exit-hit-any-method**;
  Leaders are not Units for stacking [14.7] and take none). In the engine as it is that hit
  cannot fall: an Assault out of an overstacked hex is refused [18.1, 14.7] and a run-away
  from one is a surrender (below). Column changes leave no hex [14.6]; ``place`` is the
  players' correction; a drop result places the stick [Excl 3.3.1];
- a move, an arrival (schedule reinforcements, landings, drops, via ``after_arrival``) or any
  other action ending overstacked is accepted and logged (event ``overstack_penalty``, with
  the penalties);
- the Assault bans are in play/gts/assault.py (no Assault out of the hex [18.1]; "Overstacked
  Units may not retreat out of, or choose to run away from, an Assault": a declared run-away
  from an overstacked hex is a surrender, 18.7 5A).

When the steps are ``unknown`` (every Utah sample counter) the hex's count is unknown: warned
(``overstack_unknown``), no penalty applied — an unknown step is never counted as 1.
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
ANY_METHOD_POLICY = ("overstack-exit-hit-any-method: a Unit an accepted Assault takes from a hex overstacked "
                     "before it into another hex takes the 14.7 Cohesion Hit, as a move does; Leaders do not count "
                     "toward stacking and take none")
PENALTIES = ("penalised, not refused [14.7]: one Unit at a time may move out, no Assault out of the hex, a Cohesion "
             "Hit for each Unit that leaves by any method, no retreat or running away from an Assault")
UNKNOWN_PENALTY = "not applied: the step count is unknown"


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
            _exit_hit(game, u, origin, before, cfg, EXIT_HIT_POLICY)
    elif before is not None:
        _unknown(game, origin, before)
    report_end(game, dest, moved)


def after_arrival(game: "PlayContext", unit: "UnitState") -> None:
    """A unit placed on the map by an arrival (reinforcement, landing, drop): an overstack it
    makes is penalised, not refused [14.7] — logged ``overstack_penalty``, with ``arrival``."""
    if unit.on_map:
        report_end(game, unit.hex, [unit], arrival=True)


def report_end(game: "PlayContext", dest: Hex | None, units: list["UnitState"], **extra: Any) -> None:
    """Log the 14.7 state of ``dest`` after ``units`` came in: ``overstack_penalty`` (accepted,
    with the penalties) or ``overstack_unknown`` (steps unknown: nothing applied)."""
    after = problem(game, dest)
    if after is not None and after.code == "overstack":
        game.emit("overstack_penalty", units=[u.id for u in units], hex=game.label(dest), message=after.message,
                  rule=after.rule, policy=after.policy, penalty=PENALTIES, **extra)
    elif after is not None:
        _unknown(game, dest, after, **extra)


def _unknown(game: "PlayContext", h: Hex | None, p: "Problem", **extra: Any) -> None:
    game.emit("overstack_unknown", hex=game.label(h), message=p.message, rule=p.rule, policy=p.policy,
              penalty=UNKNOWN_PENALTY, **extra)


def _exit_hit(game: "PlayContext", u: "UnitState", origin: Hex, p: "Problem", cfg: "ResultsParams",
              policy: str, **extra: Any) -> None:
    from play.gts import results

    game.emit("overstack_exit", unit=u.id, hex=game.label(origin), message=p.message, rule=p.rule, policy=policy,
              **extra)
    results.cohesion_hit(game, u, cfg, "leaving an overstacked hex", p.rule or "GTS 14.7")


class ExitWatch:
    """14.7 for the actions other than ``move``: "Any attempt to leave an overstacked hex by any
    method, successful or not, makes the leaving Unit suffer a Cohesion Hit." :meth:`before`
    notes where every Unit is; :meth:`after` (an accepted action only) gives the hit to each
    non-Leader Unit that stood in a hex overstacked before the action and is now in another map
    hex, for the actions in :attr:`LEAVES` (policy **overstack-exit-hit-any-method**; a Unit a
    result sends to a box — Straggler box, back to a Landing Wave box — is removed, not leaving),
    and logs the overstack of
    each hex Units came into from another hex or a box. Arrivals from off the map are the
    game's (:func:`after_arrival`). Transient: only between the two calls of one action."""

    SKIP = frozenset({"move", "place"})  # a move has its own hooks; place is the players' correction
    # The other actions by which the engine takes a Unit out of its hex: an Assault (the attackers
    # advance, the defenders run away). Not a leaving: a drop result placing the stick (Rearguards
    # drift into place, Excl 3.3.1), Opportunity Fire stopping a move in the hex it left [17.7],
    # a straggler's stand-in going back to its Rally Point, a landing drift.
    LEAVES = frozenset({"assault"})

    def __init__(self) -> None:
        self._before: dict[str, "UnitState"] = {}

    def before(self, game: "PlayContext", action: dict[str, Any]) -> None:
        import dataclasses

        self._before = {} if action.get("do") in self.SKIP else \
            {uid: dataclasses.replace(u, markers=list(u.markers)) for uid, u in game.state.units.items()}

    def after(self, game: "PlayContext", action: dict[str, Any], result: "ActionResult", cfg: "ResultsParams") -> None:
        from play.gts import command

        was, self._before = self._before, {}
        do = action.get("do")
        if not result.ok or not was or do in self.SKIP:
            return
        left: list[tuple["UnitState", Hex]] = []
        came: dict[Hex, list["UnitState"]] = {}
        for uid, old in was.items():
            u = game.state.units.get(uid)
            if u is None or (u.where, u.hex, u.box) == (old.where, old.hex, old.box):
                continue
            if old.on_map and u.on_map and old.hex is not None and u.hex != old.hex and do in self.LEAVES:
                left.append((u, old.hex))
            if u.on_map and u.hex is not None and old.where in ("hex", "box"):
                came.setdefault(u.hex, []).append(u)
        verdicts: dict[Hex, "Problem | None"] = {}
        for u, origin in left:
            if command.is_leader(game, u.id):
                continue  # "Leaders and informational markers do not count toward stacking" [14.7]
            if origin not in verdicts:
                verdicts[origin] = problem(game, origin, [x for x in was.values() if x.on_map and x.hex == origin])
            p = verdicts[origin]
            if p is not None and p.code == "overstack":
                _exit_hit(game, u, origin, p, cfg, ANY_METHOD_POLICY, by=str(action.get("do")))
        for h in sorted(came, key=lambda x: str(game.label(x))):
            report_end(game, h, came[h])
