"""Cheapest legal paths and reachable sets for one movement class: the reference path.

:func:`step_cost` prices one step and says why; :func:`reachable` and :func:`cheapest_path`
search a lazy per-edge table of those steps. :mod:`model.movement_fast` answers the same
questions from dense numpy-built tables, priced by this module's :func:`step_cost`; the two
are tested side by side (tests/play/test_moves_fast.py), as :mod:`model.los` and
:mod:`model.los_fast` are.

Costs come from the game system, never from code: a terrain's ``move[class]`` (a number,
``prohibited``, ``road_only``, ``column_only``, ``all`` or ``unknown``), each hexside
feature's ``move[class]`` (an extra cost or one of the same words), and each path type's
``move[class]`` (the cost per hex along it, usable when ``requires`` is met — in GTS a road
is used only in Column [GTS 14.6; Utah Excl 2.3.1]). Impassable portions are checked with
:mod:`model.portions` [Utah Excl 2.1.14].

Policies (see docs/los.md, "Movement policies"):

* **Unknown costs are never invented.** A terrain (or hexside) cost that is ``unknown``,
  or a terrain with no entry for the movement class, makes a step's cost unknown. By
  default :func:`reachable` and :func:`cheapest_path` raise :class:`CostUnknown` naming the
  terrain and class; pass ``costs={"clear": 1, ...}`` to supply numbers (for example from a
  printed TEC the rules file lacks) or ``on_unknown="skip"`` to treat such steps as
  impassable. A hexside type without an entry for the class has no movement effect.
* ``road_only`` terrain may be entered only along a usable path; ``column_only`` only by a
  unit in Column (its cost still comes from ``move`` or ``costs``).
* Moving along a usable path costs the path's rate and ignores the hexside crossed (the
  road's own bridge or ford) and the grey impassable portion [Excl 2.1.14].
* ``all`` (e.g. a Ridge for Leg units [Utah Excl 2.2.2]) costs the whole MA and is legal
  only as the first step of the move.
* Hooks: ``blocked(hex) -> bool`` forbids entering a hex (occupancy, enemy units);
  ``extra_cost(a, b) -> float | None`` adds a cost (ZOC, barrage) or forbids the step (None).
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from model.base import hexside_between
from model.geometry import map_state_changed, _state_token, terrain_index
from model.hexes import Hex
from model.mapdata import HexMap
from model.portions import IMPASSABLE_TAG, crossing_allowed, wholly_impassable
from model.system import GameSystem

ALL_MA = -1.0          # sentinel cost: the whole movement allowance
_UNKNOWN = math.nan    # sentinel cost: the rules give no number


class CostUnknown(ValueError):
    """A step's cost is ``unknown`` in the system definition and no cost was supplied."""


@dataclass(frozen=True)
class Step:
    """The cost of one step and why; ``cost`` None = illegal."""

    cost: float | None
    reason: str = ""
    path: str | None = None
    unknown: bool = False
    whole_ma: bool = False


_TAGS: dict[int, tuple[GameSystem, dict[str, list[str]]]] = {}


def _tags(system: GameSystem) -> dict[str, list[str]]:
    hit = _TAGS.get(id(system))
    if hit is None or hit[0] is not system:
        hit = (system, {t.id: list(t.tags) for t in system.terrain})
        _TAGS[id(system)] = hit
    return hit[1]


def _impassable_case(system: GameSystem) -> str:
    """What a refusal over impassable terrain or a grey portion cites: the system's
    ``citations.cases.impassable``, or no case."""
    return system.cited(system.citations.cases.impassable)


def impassable_refusal(hmap: HexMap, system: GameSystem, a: Hex, b: Hex, movement_class: str,
                       column: bool = False) -> tuple[str, str] | None:
    """(reason, case) when a step from ``a`` into adjacent ``b`` is refused by impassable
    terrain or a grey impassable portion that no usable road or ferry crosses [Utah Excl
    2.1.14: "no Unit can enter and/or leave the hex by passing over the Impassable portion"],
    else None. The same tests as :func:`step_cost`; the case is the system's
    ``citations.cases.impassable``. Play mode's refusal words (play/moves.py) ask this first, so
    a portion is never explained as a terrain cost."""
    portions = hmap.portion_by_hex
    if (a not in portions and b not in portions) or hexside_between(a, b) is None or hmap.terrain_at(b) is None:
        return None  # away from portions the terrain's own words and case stand
    tags = _tags(system)
    case = _impassable_case(system)
    if b in portions and wholly_impassable(hmap, b, tags):
        return f"{hmap.label(b)} is wholly impassable", case
    rate, _name, path_unknown = _usable_path(hmap, system, a, b, movement_class, column)
    if rate is None and not path_unknown:
        check = crossing_allowed(hmap, a, b, terrain_tags=tags, rule=case)
        if not check:
            return check.reason, check.rule
    return None


def _usable_path(hmap: HexMap, system: GameSystem, a: Hex, b: Hex, mc: str, column: bool,
                 ) -> tuple[float | None, str | None, bool]:
    """Cheapest path rate from a to b if they are consecutive on a usable path."""
    best: float | None = None
    name: str | None = None
    unknown = False
    for p in hmap.paths_by_hex.get(a, ()):
        hexes = p.hexes
        linked = any((hexes[i] == a and hexes[i + 1] == b) or (hexes[i] == b and hexes[i + 1] == a)
                     for i in range(len(hexes) - 1))
        if not linked:
            continue
        ptype = system.path_by_id.get(p.type)
        if ptype is None:
            continue
        if ptype.requires == "column" and not column:
            continue
        rate = ptype.move.get(mc, "unknown")
        if isinstance(rate, (int, float)):
            if best is None or rate < best:
                best, name = float(rate), p.type
        elif rate == "unknown":
            unknown = True
            name = name or p.type
    return best, name, unknown


def step_cost(hmap: HexMap, system: GameSystem, a: Hex, b: Hex, movement_class: str, *,
              column: bool = False, costs: Mapping[str, float] | None = None,
              terrain: Mapping[Hex, str] | None = None) -> Step:
    """Cost of moving from ``a`` into adjacent ``b`` (hooks not applied). ``terrain``: the
    map's ``hex → terrain id`` when the caller holds it (the same as
    ``model.geometry.terrain_index``), to skip the cache lookup."""
    key = hexside_between(a, b)
    if key is None:
        return Step(None, "not adjacent")
    if terrain is None:
        terrain = terrain_index(hmap)
    tid = terrain.get(b)
    if tid is None:
        return Step(None, f"{hmap.label(b)} is off the map")
    ttype = system.terrain_by_id.get(tid)
    tags = _tags(system)
    portions = hmap.portion_by_hex
    if IMPASSABLE_TAG == tid or IMPASSABLE_TAG in tags.get(tid, ()) or \
            (b in portions and wholly_impassable(hmap, b, tags)):
        return Step(None, f"{hmap.label(b)} is wholly impassable [{_impassable_case(system)}]")
    rate, path_name, path_unknown = _usable_path(hmap, system, a, b, movement_class, column)
    on_path = rate is not None or path_unknown
    if not on_path and (a in portions or b in portions):
        check = crossing_allowed(hmap, a, b, terrain_tags=tags, rule=_impassable_case(system))
        if not check:
            return Step(None, check.reason + f" [{check.rule}]")
    word = ttype.move.get(movement_class, "unknown") if ttype else "unknown"
    if word == "prohibited":
        return Step(None, f"{tid} is prohibited to {movement_class}")
    if word == "road_only" and not on_path:
        return Step(None, f"{tid} may be entered by {movement_class} only along a road")
    if word == "column_only" and not column:
        return Step(None, f"{tid} may be entered by {movement_class} only in Column")
    if on_path:
        if rate is None:
            return Step(_UNKNOWN, f"cost of {path_name} for {movement_class} is unknown", path_name, unknown=True)
        return Step(rate, f"along {path_name}", path_name)
    whole = word == "all"
    if costs is not None and tid in costs:
        base: float = float(costs[tid])
    elif isinstance(word, (int, float)):
        base = float(word)
    elif whole:
        base = 0.0
    else:
        return Step(_UNKNOWN, f"cost of {tid} for {movement_class} is unknown (the rules give no number; "
                              f"pass costs)", unknown=True)
    extra = 0.0
    for kind in hmap.hexside_features(key):
        htype = system.hexside_by_id.get(kind)
        if htype is None:
            continue
        hw = htype.move.get(movement_class)
        if hw is None:
            continue
        if hw == "prohibited":
            return Step(None, f"{kind} hexside is prohibited to {movement_class}")
        if hw == "road_only":
            return Step(None, f"{kind} hexside may be crossed by {movement_class} only along a road")
        if hw == "column_only" and not column:
            return Step(None, f"{kind} hexside may be crossed by {movement_class} only in Column")
        if hw == "all":
            whole = True
        elif hw == "unknown":
            if costs is not None and kind in costs:
                extra += float(costs[kind])
            else:
                return Step(_UNKNOWN, f"cost of crossing {kind} for {movement_class} is unknown", unknown=True)
        elif isinstance(hw, (int, float)):
            extra += float(hw)
    if whole:
        return Step(ALL_MA, "costs the whole movement allowance", whole_ma=True)
    return Step(base + extra, f"{tid}" + (f" +{extra:g} hexside" if extra else ""))


# --- cached step tables ------------------------------------------------------------------

_TABLES: dict[tuple[int, str, str, bool, tuple[tuple[str, float], ...]],
              tuple[tuple[object, ...], dict[Hex, list[tuple[Hex, float, str]]], HexMap]] = {}


class _LazyTable(dict):  # type: ignore[type-arg]
    """Legal steps per hex, computed the first time a search reaches the hex."""

    def __init__(self, hmap: HexMap, system: GameSystem, mc: str, column: bool,
                 costs: Mapping[str, float] | None) -> None:
        super().__init__()
        self.args = (hmap, system, mc, column, costs)

    def __missing__(self, h: Hex) -> list[tuple[Hex, float, str]]:
        hmap, system, mc, column, costs = self.args
        out = []
        for n in h.neighbors():
            st = step_cost(hmap, system, h, n, mc, column=column, costs=costs)
            if st.cost is not None:
                out.append((n, st.cost, st.reason))
        self[h] = out
        return out


def step_table(hmap: HexMap, system: GameSystem, movement_class: str, column: bool,
               costs: Mapping[str, float] | None) -> dict[Hex, list[tuple[Hex, float, str]]]:
    """Every hex's legal steps ``(neighbour, cost, reason)``, filled lazily and kept until
    the map is edited (keyed on the map's cached indexes, replaced by ``invalidate()``)."""
    ckey = (id(hmap), system.id, movement_class, column, tuple(sorted((costs or {}).items())))
    hit = _TABLES.get(ckey)
    if hit is not None and hit[2] is hmap and not map_state_changed(hmap, hit[0]):
        return hit[1]
    table = _LazyTable(hmap, system, movement_class, column, costs)
    if len(_TABLES) > 32:
        _TABLES.clear()
    _TABLES[ckey] = (_state_token(hmap), table, hmap)
    return table


def reachable(hmap: HexMap, system: GameSystem, start: Hex, mp: float, movement_class: str, *,
              column: bool = False, blocked: Callable[[Hex], bool] | None = None,
              extra_cost: Callable[[Hex, Hex], float | None] | None = None,
              costs: Mapping[str, float] | None = None,
              on_unknown: Literal["raise", "skip"] = "raise") -> dict[Hex, tuple[float, Hex | None]]:
    """Every hex reachable from ``start`` with ``mp`` movement points: ``hex → (cost, prev)``."""
    table = step_table(hmap, system, movement_class, column, costs)
    best: dict[Hex, tuple[float, Hex | None]] = {start: (0.0, None)}
    heap: list[tuple[float, int, Hex]] = [(0.0, 0, start)]
    tick = 0
    while heap:
        spent, _, h = heapq.heappop(heap)
        if spent > best[h][0]:
            continue
        for n, cost, reason in table[h]:
            if cost != cost:  # NaN: unknown
                if on_unknown == "raise":
                    raise CostUnknown(f"{hmap.label(h)} → {hmap.label(n)}: {reason}")
                continue
            if cost == ALL_MA:
                # Whole-MA steps exist only as the first step of a move with a finite MA.
                if h != start or spent or math.isinf(mp):
                    continue
                cost = mp
            if blocked is not None and blocked(n):
                continue
            if extra_cost is not None:
                extra = extra_cost(h, n)
                if extra is None:
                    continue
                cost += extra
            total = spent + cost
            if total > mp + 1e-9:
                continue
            old = best.get(n)
            if old is None or total < old[0] - 1e-12:
                best[n] = (total, h)
                tick += 1
                heapq.heappush(heap, (total, tick, n))
    return best


@dataclass(frozen=True)
class PathResult:
    hexes: list[Hex]
    cost: float


def cheapest_path(hmap: HexMap, system: GameSystem, start: Hex, goal: Hex, movement_class: str, *,
                  mp: float | None = None, column: bool = False, blocked: Callable[[Hex], bool] | None = None,
                  extra_cost: Callable[[Hex, Hex], float | None] | None = None,
                  costs: Mapping[str, float] | None = None,
                  on_unknown: Literal["raise", "skip"] = "raise") -> PathResult | None:
    """The cheapest legal path from ``start`` to ``goal`` (within ``mp`` if given), or None."""
    limit = mp if mp is not None else math.inf
    seen = reachable(hmap, system, start, limit, movement_class, column=column, blocked=blocked,
                     extra_cost=extra_cost, costs=costs, on_unknown=on_unknown)
    if goal not in seen:
        return None
    out = [goal]
    while (prev := seen[out[-1]][1]) is not None:
        out.append(prev)
    out.reverse()
    return PathResult(out, seen[goal][0])


def combine_costs(hooks: Sequence[Callable[[Hex, Hex], float | None]]) -> Callable[[Hex, Hex], float | None]:
    """One ``extra_cost`` hook from several: the sum of their costs for a step, or None (the
    step is refused) as soon as one of them refuses it."""
    def extra_cost(a: Hex, b: Hex) -> float | None:
        total = 0.0
        for f in hooks:
            v = f(a, b)
            if v is None:
                return None
            total += v
        return total
    return extra_cost
