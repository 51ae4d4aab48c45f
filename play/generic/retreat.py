"""Retreat after combat for the generic CRT results (``{retreat: N}`` in ``combat.crt.results``).

Where the system data says no more, the engine applies these named policies:

- **retreat-away-from-combat**: each retreat step ends one hex farther from the defenders' hex
  (a retreating defender ends N hexes from it, an attacker N + 1);
- a step may not leave the map, enter terrain or cross a hexside the unit's movement class may
  not (``prohibited``), or enter an enemy-occupied hex; it may not enter an enemy ZOC when the
  system's ``zoc.retreat`` is ``prohibited`` (the default; friendly units do not negate it);
- the last hex may not overstack (:func:`play.rules.stacking_problem`);
- **retreat-first-legal-path**: without a ``retreat_to`` hex for the unit, it takes the first
  legal path in direction order; a ``retreat_to`` hex must be the end of a legal path;
- **retreat-blocked-eliminated**: a unit with no legal retreat is eliminated.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from model.base import hexside_between
from model.hexes import Hex

from play import rules

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.state import UnitState

AWAY_POLICY = "retreat-away-from-combat: each retreat step ends one hex farther from the defenders' hex"
FIRST_PATH_POLICY = "retreat-first-legal-path: the first legal retreat path in direction order"
BLOCKED_POLICY = "retreat-blocked-eliminated: a unit with no legal retreat is eliminated"
MAX_PATHS = 5000  # retreat paths searched per unit (N ≤ 10 hexes, so a hard bound on the search)


def step_problem(game: "PlayContext", u: "UnitState", a: Hex, b: Hex, ezoc: set[Hex]) -> str | None:
    """Why ``u`` may not retreat from ``a`` into ``b``, or None."""
    mclass = rules.movement_class(game.system, game.counters.get(u.id))
    p = rules.terrain_entry_problem(game.hmap, game.system, b, mclass)
    if p is not None:
        return p.message
    key = hexside_between(a, b)
    for sid in game.hmap.hexside_features(key) if key is not None else ():
        st = game.system.hexside_by_id.get(sid)
        if st is not None and st.move.get(mclass) == "prohibited":
            return f"across {st.name}"
    if any(x.side != u.side for x in game.state.at(b)):
        return "enemy-occupied"
    if b in ezoc:
        return "into an enemy ZOC"
    return None


def paths(game: "PlayContext", u: "UnitState", start: Hex, target: Hex, n: int, ezoc: set[Hex]) -> list[list[Hex]]:
    """Legal retreat paths of exactly ``n`` steps, each step farther from ``target``, in
    direction order (depth first), at most :data:`MAX_PATHS`."""
    out: list[list[Hex]] = []

    def walk(path: list[Hex]) -> None:
        if len(out) >= MAX_PATHS:
            return
        here = path[-1]
        if len(path) - 1 == n:
            if rules.stacking_problem(game.hmap, game.system, here, [x for x in game.state.at(here) if x is not u] + [u],
                                      game.counters) is None:
                out.append(path[1:])
            return
        for d in range(6):
            nxt = here.neighbor(d)
            if nxt.distance(target) <= here.distance(target) or nxt in path:
                continue
            if step_problem(game, u, here, nxt, ezoc) is None:
                walk(path + [nxt])

    walk([start])
    return out


def retreat(game: "PlayContext", u: "UnitState", target: Hex, n: int, wanted: str | None, ezoc: set[Hex],
            policies: set[str], rule: str | None) -> str:
    """Retreat ``u`` ``n`` hexes away from ``target``; returns the hex label reached or "eliminated"."""
    start = u.hex
    assert start is not None
    policies.add(AWAY_POLICY)
    found = paths(game, u, start, target, n, ezoc)
    choice: list[Hex] | None = None
    if wanted is not None:
        h = game.hex_of(wanted)
        choice = next((p for p in found if p[-1] == h), None)
        if choice is None:
            game.emit("retreat_refused", unit=u.id, to=wanted, message="not the end of a legal retreat path",
                      rule=rule, policy=AWAY_POLICY)
    used = [AWAY_POLICY]
    if choice is None and found:
        choice = found[0]
        policies.add(FIRST_PATH_POLICY)
        used.append(FIRST_PATH_POLICY)
    if choice is None:
        policies.add(BLOCKED_POLICY)
        game.lose_step(u.id, max(1, u.steps))
        game.emit("retreat", unit=u.id, hexes=n, eliminated=True, rule=rule, policy="; ".join([AWAY_POLICY, BLOCKED_POLICY]))
        return "eliminated"
    u.hex = choice[-1]
    to = str(game.label(choice[-1]))
    game.emit("retreat", unit=u.id, hexes=n, to=to, path=[game.label(h) for h in choice], rule=rule,
              policy="; ".join(used))
    return to
