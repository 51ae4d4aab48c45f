"""Reachable hexes and their costs for test play, with the reason each refused neighbour
could not be entered.

Two implementations give the same answer (tests/play/test_moves_fast*.py checks them side by
side on random maps):

- the **fast path**, :func:`reachable`: a Dijkstra over the dense step table of
  ``model.movement_fast.DenseSteps`` (numpy-built once per map, movement class, Column state and
  ``costs``; cached on the game in a :class:`MoveTables`, rebuilt after a map edit);
- the **reference**, :func:`reachable_reference`: ``model.movement.reachable`` with its lazy
  per-edge ``step_cost`` table.

A step's cost and the words for a refused one (:func:`enter_cost`) follow the system data:

- entering a hex costs the terrain's ``move[class]``; along a path (road) between two
  consecutive path hexes the path's cost is used instead, and a path crossing a hexside
  ignores the hexside (a road bridge);
- a hexside adds its ``move[class]`` number; ``prohibited`` (or ``road_only`` off a road)
  blocks the crossing;
- ``prohibited`` / ``road_only`` / ``column_only`` terrain cannot be entered off a road
  (``column_only`` can when ``column=True``);
- ``unknown`` costs are never invented (as in ``model.movement``): such a step is refused
  with "movement cost unknown" unless the system or scenario supplies numbers in
  ``params.play_costs`` (terrain/hexside id → MP, which must be marked illustrative);
- ``stop``: hexes the unit may enter but not leave (enemy ZOC).

Each refused hex keeps the reason and rule case so the engine can explain a refused move.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Sequence

from model.base import hexside_between
from model.hexes import Hex
from model.movement import impassable_refusal
from model.mapdata import HexMap
from model.system import GameSystem

if TYPE_CHECKING:
    from play.context import PlayContext

UNKNOWN_COST_POLICY = "unknown-cost-not-invented: supply params.play_costs (illustrative) to play it"


@dataclass
class Reach:
    """Cheapest cost to every reachable hex, the predecessor for the path, and the reason
    each refused neighbour could not be entered (reason, rule case)."""

    start: Hex
    cost: dict[Hex, float] = field(default_factory=dict)
    parent: dict[Hex, Hex] = field(default_factory=dict)
    refused: dict[Hex, tuple[str, str | None]] = field(default_factory=dict)
    policies: set[str] = field(default_factory=set)

    def path_to(self, goal: Hex) -> list[Hex]:
        if goal not in self.cost:
            return []
        out = [goal]
        while out[-1] in self.parent and out[-1] != self.start:
            out.append(self.parent[out[-1]])
        return out[::-1]


def enter_cost(hmap: HexMap, system: GameSystem, a: Hex, b: Hex, mclass: str,
               column: bool = False) -> tuple[float | None, str, str | None, set[str]]:
    """Cost to step from ``a`` into adjacent ``b``: (MP or None, reason, rule case, policies)."""
    policies: set[str] = set()
    tid = hmap.terrain_at(b)
    if tid is None:
        return None, "off the map", None, policies
    blocked = impassable_refusal(hmap, system, a, b, mclass, column)
    if blocked is not None:  # before any cost: a grey portion is not a terrain cost [Excl 2.1.14]
        return None, blocked[0], blocked[1], policies
    terrain = system.terrain_by_id.get(tid)
    on_path = None
    for p in hmap.paths_by_hex.get(a, ()):
        idx = [i for i, h in enumerate(p.hexes) if h == a]
        if any((i + 1 < len(p.hexes) and p.hexes[i + 1] == b) or (i > 0 and p.hexes[i - 1] == b) for i in idx):
            ptype = system.path_by_id.get(p.type)
            if ptype is not None and (ptype.requires != "column" or column):
                cost = ptype.move.get(mclass)
                if isinstance(cost, (int, float)):
                    on_path = (float(cost), ptype)
                    break
    # Hexside between a and b (a road crossing it acts as a bridge).
    extra = 0.0
    key = hexside_between(a, b)
    if key is not None and on_path is None:
        for sid in hmap.hexside_features(key):
            st = system.hexside_by_id.get(sid)
            if st is None:
                continue
            c = st.move.get(mclass, 0.0)
            if c in ("prohibited", "road_only", "column_only"):
                return None, f"crossing {st.name} is {str(c).replace('_', ' ')}", st.rule, policies
            if c == "unknown":
                policies.add(UNKNOWN_COST_POLICY)
                return None, f"cost of crossing {st.name} is unknown", st.rule, policies
            if isinstance(c, (int, float)):
                extra += float(c)
    if on_path is not None:
        return on_path[0], "", None, policies
    if terrain is None:
        return None, f"terrain {tid!r} is not in the system", None, policies
    c = terrain.move.get(mclass, "unknown")
    if c == "prohibited":
        return None, f"prohibited terrain ({terrain.name})", terrain.rule, policies
    if c == "road_only":
        return None, f"{terrain.name} may be entered by road only", terrain.rule, policies
    if c == "column_only" and not column:
        return None, f"{terrain.name} may be entered in column only", terrain.rule, policies
    if c == "unknown":
        policies.add(UNKNOWN_COST_POLICY)
        return None, f"movement cost of {terrain.name} is unknown", terrain.rule, policies
    if c == "column_only" or c == "all":
        c = 1.0
    return float(c) + extra, "", None, policies


def _explain(hmap: HexMap, system: GameSystem, reach: Reach, mclass: str, column: bool,
             costs: dict[str, float] | None, step_cost: Any) -> None:
    """Fill ``reach.refused`` for the hexes next to the reachable set, from the model's step
    reasons, with the rule case from the system data (:func:`enter_cost`)."""
    for h in list(reach.cost):
        for n in h.neighbors():
            if n in reach.cost or n in reach.refused:
                continue
            step = step_cost(hmap, system, h, n, mclass, column=column, costs=costs)
            _, reason, rule, _ = enter_cost(hmap, system, h, n, mclass, column)
            if step.cost is None:
                reach.refused[n] = (reason or step.reason, rule)
            elif step.unknown:
                reach.refused[n] = (f"movement cost unknown: {step.reason}", None)
                reach.policies.add(UNKNOWN_COST_POLICY)
            elif n not in reach.refused:
                reach.refused[n] = (f"not enough MP ({step.reason})", None)


class MoveTables:
    """The dense step tables of one game (:class:`model.movement_fast.DenseSteps`), one per
    (map, movement class, column, costs), built on first use or by :meth:`warm` and rebuilt
    when the map is edited. A lock lets a worker thread warm them while the UI thread asks:
    the asker waits for the build in progress instead of building a second copy."""

    def __init__(self) -> None:
        import threading

        self._store: dict[Any, Any] = {}
        self._lock = threading.Lock()

    def get(self, hmap: HexMap, system: GameSystem, mclass: str, column: bool,
            costs: dict[str, float] | None) -> Any:
        from model.movement_fast import dense_steps

        with self._lock:
            return dense_steps(hmap, system, mclass, column, costs, cache=self._store)

    def warm(self, hmap: HexMap, system: GameSystem, classes: Sequence[str],
             costs: dict[str, float] | None, columns: Sequence[bool] = (False, True)) -> int:
        """Build the tables for every class (and Column state) a game will ask for; returns
        how many exist afterwards."""
        for mc in classes:
            for col in columns:
                self.get(hmap, system, mc, col, costs).fill()  # every row as lists, too
        return len(self._store)

    def __len__(self) -> int:
        return len(self._store)

    def __deepcopy__(self, memo: dict[int, Any]) -> "MoveTables":
        return MoveTables()  # a cache (and a lock): a copy starts empty


_DEFAULT_TABLES = MoveTables()


def _explain_dense(hmap: HexMap, system: GameSystem, reach: Reach, table: Any, mclass: str, column: bool,
                   order: Sequence[int] | None = None) -> None:
    """:func:`_explain` on the dense table: the same refusals in the same order, reading the
    step costs from the table and asking the reference only for refused edges' words (cached
    per edge on the table). ``order``: the dense indices of ``reach.cost`` in its order (the
    search's own), so that neighbours are tested by index and no ``Hex`` is made for them
    until one is refused."""
    index, nbr, cost_rows, hexes = table.index, table.nbr, table.cost, table.hexes
    # Per edge (i, d), and per signature (a longer tuple) when the words do not name hexes.
    words: dict[tuple[Any, ...], tuple[str, str | None]] = table.refusals
    inf = float("inf")
    rows = list(order) if order is not None else [index.get(h) for h in reach.cost]
    # Indices already in reach.cost or reach.refused (off-map neighbours are checked by hex).
    done = {i for i in rows if i is not None}
    done.update(i for i in (index.get(h) for h in reach.refused) if i is not None)
    cost_map, refused = reach.cost, reach.refused
    for i in rows:
        if i is None:
            continue
        row_n, row_c = nbr[i], cost_rows[i]
        for d in range(6):
            j = row_n[d]
            if j >= 0:
                if j in done:
                    continue
                done.add(j)
                n = hexes[j]
            else:
                n = hexes[i].neighbor(d)
                if n in cost_map or n in refused:
                    continue
            c = row_c[d]
            if c == inf:
                why = words.get((i, d))
                if why is None:
                    # enter_cost's words depend on the edge's signature only (the terrain
                    # entered, joining paths, hexside features): asked once per signature.
                    # When it gives none, the reference step's reason (it may name hexes).
                    sig = table.grid.signature(i, d)
                    why = words.get(sig) if sig is not None else None  # type: ignore[call-overload]
                    if why is None:
                        _, reason, rule, _ = enter_cost(hmap, system, hexes[i], n, mclass, column)
                        if reason:
                            why = (reason, rule)
                            if sig is not None:
                                words[sig] = why  # type: ignore[index]
                        else:
                            why = (table.step(i, d).reason, rule)
                    words[(i, d)] = why
                refused[n] = why
            elif c != c:
                refused[n] = (f"movement cost unknown: {table.step(i, d).reason}", None)
                reach.policies.add(UNKNOWN_COST_POLICY)
            else:
                refused[n] = (f"not enough MP ({table.step(i, d).reason})", None)


def reachable(hmap: HexMap, system: GameSystem, start: Hex, mp: float, mclass: str, *,
              column: bool = False, blocked: set[Hex] | frozenset[Hex] = frozenset(),
              stop: set[Hex] | frozenset[Hex] = frozenset(),
              costs: dict[str, float] | None = None,
              extra: Sequence[Callable[[Hex, Hex], float | None]] = (),
              tables: MoveTables | None = None, reference: bool = False) -> Reach:
    """Reachable hexes and the reasons next to them. The fast path searches the dense step
    table of ``tables`` (a game's :class:`MoveTables`; a module-wide one when None);
    ``reference=True`` runs :func:`reachable_reference` instead (the same answer, slower)."""
    if reference:
        return reachable_reference(hmap, system, start, mp, mclass, column=column, blocked=blocked,
                                   stop=stop, costs=costs, extra=extra)
    from model import movement, movement_fast

    # `is None`, not `or`: an empty MoveTables is falsy (it has a length).
    table = (tables if tables is not None else _DEFAULT_TABLES).get(hmap, system, mclass, column, costs)
    hooks = list(extra)
    extra_cost = movement.combine_costs(hooks)

    s = table.index.get(start)
    if s is None:  # a start off the indexed map: the reference search and explanation
        best = movement_fast.reachable_dense(hmap, system, start, mp, mclass, column=column, costs=costs,
                                             on_unknown="skip", stop=stop, blocked_hexes=blocked,
                                             extra_cost=extra_cost if hooks else None, table=table)
        reach = _to_reach(start, best, blocked)
        _explain(hmap, system, reach, mclass, column, costs, movement.step_cost)
        return reach
    # In indices (no Hex made for a hex the answer does not name), then the Reach.
    cost_i, prev_i = movement_fast.dense_search(table, s, mp, on_unknown="skip", stop=stop, blocked_hexes=blocked,
                                                extra_cost=extra_cost if hooks else None)
    hexes = table.hexes
    reach = Reach(start=start)
    for i, c in cost_i.items():
        reach.cost[hexes[i]] = float(c)
    for i, p in prev_i.items():
        reach.parent[hexes[i]] = hexes[p]
    _refuse_blocked(reach, blocked)
    _explain_dense(hmap, system, reach, table, mclass, column, order=list(cost_i))
    return reach


def _to_reach(start: Hex, best: dict[Hex, tuple[float, Hex | None]], blocked: set[Hex] | frozenset[Hex]) -> Reach:
    reach = Reach(start=start)
    for h, (cost, prev) in best.items():
        reach.cost[h] = float(cost)
        if prev is not None:
            reach.parent[h] = prev
    _refuse_blocked(reach, blocked)
    return reach


def _refuse_blocked(reach: Reach, blocked: set[Hex] | frozenset[Hex]) -> None:
    for n in blocked:
        if any(x in reach.cost for x in n.neighbors()):
            reach.refused[n] = ("occupied by the enemy", None)


def reachable_reference(hmap: HexMap, system: GameSystem, start: Hex, mp: float, mclass: str, *,
                        column: bool = False, blocked: set[Hex] | frozenset[Hex] = frozenset(),
                        stop: set[Hex] | frozenset[Hex] = frozenset(),
                        costs: dict[str, float] | None = None,
                        extra: Sequence[Callable[[Hex, Hex], float | None]] = ()) -> Reach:
    """The reference: ``model.movement.reachable`` (lazy per-edge ``step_cost`` table; it also
    honours impassable portions) with hooks. ``stop`` hexes (enemy ZOC) may be entered but not left; ``costs`` supplies
    numbers for ``unknown`` costs."""
    from model import movement

    hooks = list(extra)
    if stop:
        hooks.insert(0, lambda a, b: None if a in stop and a != start else 0.0)
    extra_cost = movement.combine_costs(hooks)

    best = movement.reachable(hmap, system, start, mp, mclass, column=column,
                              blocked=(lambda h: h in blocked) if blocked else None,
                              extra_cost=extra_cost if hooks else None, costs=costs, on_unknown="skip")
    reach = _to_reach(start, best, blocked)
    _explain(hmap, system, reach, mclass, column, costs, movement.step_cost)
    return reach


def column_matters(system: GameSystem) -> bool:
    """Whether a unit in Column can get different steps (a Column-only path or terrain)."""
    if any(p.requires == "column" for p in system.paths):
        return True
    words = [w for t in system.terrain for w in t.move.values()] + \
        [w for s in system.hexsides for w in s.move.values()]
    return "column_only" in words


def warm_game(game: "PlayContext") -> int:
    """Build a game's step tables ahead of the first legal-moves query: every movement class
    of the scenario's units, out of Column (and in Column where the system has Column-only
    steps). Safe on a worker thread (:class:`MoveTables` locks). Returns the table count."""
    from play import rules

    classes = sorted({rules.movement_class(game.system, game.counters.get(uid)) for uid in game.state.units})
    columns = (False, True) if column_matters(game.system) else (False,)
    return game.move_tables.warm(game.hmap, game.system, classes, game.play_costs(), columns)
