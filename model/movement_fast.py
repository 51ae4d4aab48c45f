"""Cheapest legal paths and reachable sets, the fast path: dense step tables + index search.

The reference (:mod:`model.movement`) fills a dict of Step objects lazily, one ``step_cost``
call per edge the first time a search reaches a hex: a cold 100×70 map costs hundreds of
milliseconds of first queries. The dense table here is built once per (map state, system,
class, column, costs) with numpy over a dense hex index, so a search is plain list indexing. Its costs are the
reference's own numbers: an edge that touches a portion, a hexside feature or a path is
priced by ``step_cost`` itself; every other ("plain") edge costs what the reference gives for
its destination terrain, read from ``step_cost`` on one representative plain edge of that
terrain. tests/play/test_moves_fast*.py checks the two side by side on random maps.

:func:`reachable_dense` gives :func:`model.movement.reachable`'s answer (the same hexes,
costs and predecessors); :func:`hex_grid` is the map half of the tables, shared by every
movement class (``play/supply.py`` reads it too).
"""

from __future__ import annotations

import gc
import heapq
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import partial
from typing import Any, Literal

from model.base import hexside_between
from model.geometry import _state_token, map_state_changed, terrain_index
from model.hexes import Hex
from model.mapdata import HexMap
from model.movement import ALL_MA, CostUnknown, Step, combine_costs, reachable, step_cost
from model.system import GameSystem

# Hex(q, r) without NamedTuple's Python-level __new__ (as model.terrain_index does).
_make_hex = partial(tuple.__new__, Hex)

_INF = math.inf


@contextmanager
def _gc_paused() -> Iterator[None]:
    """Pause the cyclic GC while a table is built: it allocates tens of thousands of acyclic
    tuples and lists, which would otherwise trigger full passes over the loaded bundle (as in
    model.terrain_index)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


class _Rows(dict):  # type: ignore[type-arg]
    """Rows of a 2-D numpy array as Python lists, converted the first time a search reads
    them (a whole-map ``tolist`` is most of a cold build; a query reads a few hundred rows).
    :meth:`fill` converts every row at once (the warm-up does)."""

    def __init__(self, array: Any) -> None:
        super().__init__()
        self.array = array

    def __missing__(self, i: int) -> list[Any]:
        row: list[Any] = self.array[i].tolist()
        self[i] = row
        return row

    def fill(self) -> None:
        if len(self) < len(self.array):
            with _gc_paused():
                self.update(enumerate(self.array.tolist()))


class _CostRows(_Rows):
    """Cost rows whose special edges (portions, hexside features, paths) the reference
    prices when the row is first read — a search reads a few hundred rows of the map."""

    def __init__(self, array: Any, table: "DenseSteps") -> None:
        super().__init__(array)
        self.table = table

    def __missing__(self, i: int) -> list[Any]:
        row: list[Any] = self.array[i].tolist()
        for d in self.table.grid.special_by_row.get(i, ()):
            row[d] = self.table._price(i, d)
        self[i] = row
        return row

    def fill(self) -> None:
        if len(self) < len(self.array):
            with _gc_paused():
                rows = self.array.tolist()
                for i, dirs in self.table.grid.special_by_row.items():
                    for d in dirs:
                        rows[i][d] = self.table._price(i, d)
                self.update(enumerate(rows))


class _TerrainView(Mapping[Hex, str]):
    """``hex → terrain id`` read through the dense index (no 7 000-entry dict to build);
    equal to ``model.geometry.terrain_index(hmap)`` as a mapping."""

    def __init__(self, index: Mapping[Hex, int], codes: list[int], ids: list[str]) -> None:
        self._index, self._codes, self._ids = index, codes, ids

    def __getitem__(self, h: Hex) -> str:
        return self._ids[self._codes[self._index[h]]]

    def get(self, h: Hex, default: object = None) -> str | None:  # type: ignore[override]
        i = self._index.get(h)
        return default if i is None else self._ids[self._codes[i]]  # type: ignore[return-value]

    def __contains__(self, h: object) -> bool:
        return h in self._index

    def __iter__(self) -> Iterator[Hex]:
        return iter(self._index)

    def __len__(self) -> int:
        return len(self._index)


def _terrain_arrays(hmap: HexMap) -> tuple["_HexSeq", Any, Any, list[str]]:
    """``(hexes, (n, 2) axial array, per-hex terrain code array, terrain id per code)`` from the
    map's numpy terrain index (``HexMap.terrain_index``: axial coordinates and character codes
    of every hex, row-major), else from ``model.geometry.terrain_index``. Either way the
    hexes and ids are the reference's (``legend.get(char, "")`` per hex). ``hexes`` is a
    :class:`_HexSeq`: no ``Hex`` object is made until one is read."""
    import numpy as np

    index = getattr(hmap, "terrain_index", None)
    if index is None or not hasattr(index, "axial") or not hasattr(index, "chars_of"):
        terrain = terrain_index(hmap)
        listed = list(terrain)
        qr = np.array(listed, dtype=np.int64).reshape(len(listed), 2)
        ids, inv = np.unique(np.array(list(terrain.values()) or [""], dtype=object).astype(str), return_inverse=True)
        return (_HexSeq(qr[:, 0].tolist(), qr[:, 1].tolist()), qr,
                inv.reshape(-1)[:len(listed)].astype(np.int64), [str(x) for x in ids.tolist()])
    q, r = index.axial()
    codes = getattr(index, "codes", None)
    # The dense form's nonzero codes are axial()'s hexes in the same (row-major) order.
    chars = (codes[codes != 0] if codes is not None else index.chars_of(q, r)).astype(np.int64)
    # Dense codes through a lookup table over the code points (no sort).
    present = np.zeros(int(chars.max()) + 1 if len(chars) else 1, dtype=bool)
    present[chars] = True
    uniq = np.flatnonzero(present)
    lut = np.zeros(len(present), dtype=np.int64)
    lut[uniq] = np.arange(len(uniq))
    legend = hmap.terrain.legend
    ids = [legend.get(chr(int(c)), "") for c in uniq.tolist()]
    return _HexSeq(q.tolist(), r.tolist()), np.stack([q, r], axis=1).astype(np.int64).reshape(len(q), 2), lut[chars], ids


class _HexSeq(Sequence[Hex]):
    """The hexes of a dense index, made when first read: ``seq[i]`` is ``Hex(q[i], r[i])``,
    kept once made. A cold table build made all of them up front (7 000 tuples, about 1.3 ms
    on 100×70) though a query reads a few hundred; :meth:`as_list` makes the whole list once,
    for searches that pass every step's hexes to hooks."""

    __slots__ = ("_q", "_r", "_made", "_list")

    def __init__(self, q: list[int], r: list[int]) -> None:
        self._q, self._r = q, r
        self._made: list[Hex | None] = [None] * len(q)
        self._list: list[Hex] | None = None

    def __len__(self) -> int:
        return len(self._q)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self._q)))]
        h = self._made[i]
        if h is None:
            h = self._made[i] = _make_hex((self._q[i], self._r[i]))
        return h

    def __iter__(self) -> Iterator[Hex]:
        return iter(self.as_list())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and len(self) == len(other) and all(a == b for a, b in zip(self, other))

    __hash__ = None  # type: ignore[assignment]

    def as_list(self) -> list[Hex]:
        """Every hex as one list (built once, reusing the hexes already made; acyclic tuples,
        so the GC is paused)."""
        if self._list is None:
            with _gc_paused():
                made, q, r = self._made, self._q, self._r
                if not any(made):
                    made = self._made = list(map(_make_hex, zip(q, r)))
                else:
                    for i in range(len(q)):
                        if made[i] is None:
                            made[i] = _make_hex((q[i], r[i]))
                self._list = made  # type: ignore[assignment]
        return self._list  # type: ignore[return-value]


class _AxialIndex(Mapping[Hex, int]):
    """``hex → dense index`` by arithmetic over the axial grid of :class:`HexGrid` (a flat
    list, ``-1`` for no hex) instead of a dict of every hex (0.45 ms to build on 100×70)."""

    __slots__ = ("_flat", "_q0", "_r0", "_w", "_h", "_hexes")

    def __init__(self, grid: Any, q0: int, r0: int, hexes: _HexSeq) -> None:
        self._flat: list[int] = grid.reshape(-1).tolist()
        self._q0, self._r0 = q0, r0
        self._w, self._h = (int(grid.shape[0]), int(grid.shape[1])) if grid.ndim == 2 else (0, 0)
        self._hexes = hexes

    def get(self, h: object, default: Any = None) -> Any:
        try:
            q, r = h  # type: ignore[misc]
            a, b = q - self._q0, r - self._r0
        except (TypeError, ValueError):
            return default
        if 0 <= a < self._w and 0 <= b < self._h:
            k = self._flat[a * self._h + b]
            if k >= 0:
                return k
        return default

    def __getitem__(self, h: Hex) -> int:
        k = self.get(h)
        if k is None:
            raise KeyError(h)
        return k  # type: ignore[no-any-return]

    def __contains__(self, h: object) -> bool:
        return self.get(h) is not None

    def __iter__(self) -> Iterator[Hex]:
        return iter(self._hexes)

    def __len__(self) -> int:
        return len(self._hexes)


class HexGrid:
    """The map half of the dense tables, shared by every movement class: the hexes in a dense
    index, their neighbours ``nbr[i][d]`` (-1 off the map), their terrain codes, and the edges
    the reference prices one by one (portions, hexside features, paths)."""

    def __init__(self, hmap: HexMap) -> None:
        import numpy as np

        from model.hexes import DIRECTIONS

        self.hexes, qr, tcode, ids = _terrain_arrays(hmap)
        n = len(self.hexes)
        nbr = np.full((n, 6), -1, dtype=np.int64)
        q0 = r0 = 0
        grid = np.full((0, 0), -1, dtype=np.int64)
        if n:
            q0, r0 = (int(x) for x in qr.min(axis=0) - 1)
            grid = np.full((int(qr[:, 0].max() - q0) + 2, int(qr[:, 1].max() - r0) + 2), -1, dtype=np.int64)
            # Flat cell numbers: one 1-D gather per direction (the grid has a one-cell margin).
            height = grid.shape[1]
            cell = (qr[:, 0] - q0) * height + (qr[:, 1] - r0)
            flat = grid.reshape(-1)
            flat[cell] = np.arange(n)
            for d, (dq, dr) in enumerate(DIRECTIONS):
                nbr[:, d] = flat[cell + (dq * height + dr)]
        # hex -> dense index by arithmetic over that grid (no dict of every hex).
        self.index: Mapping[Hex, int] = _AxialIndex(grid, q0, r0, self.hexes)
        self.tcode_list: list[int] = tcode.tolist()
        self.terrain: Mapping[Hex, str] = _TerrainView(self.index, self.tcode_list, ids)
        # Terrain codes: one per distinct character (or terrain id), dense from 0.
        self.tids: list[str] = ids
        self.tcode = tcode
        self.nbr_array = nbr
        self.nbr: _Rows = _Rows(nbr)
        self.special = self._special_edges(hmap)
        self.special_by_row: dict[int, list[int]] = {}
        for i, d in self.special:
            self.special_by_row.setdefault(i, []).append(d)
        plain = nbr >= 0
        if self.special:
            si, sd = zip(*self.special)
            plain[list(si), list(sd)] = False
        self.plain = plain
        # Destination terrain code of every edge; len(tids) for off the map (one gather: the
        # extra last entry is what nbr's -1 picks).
        self.dest = np.append(self.tcode, len(self.tids))[nbr]
        # One plain edge (i, d) into each terrain code that has any: the reference prices it
        # for every class, and every other plain edge into that code costs the same.
        self.representative: dict[int, tuple[int, int]] = {}
        plain_dest = np.where(plain, self.dest, -1).reshape(-1)
        for c in range(len(self.tids)):
            hit = plain_dest == c
            k = int(hit.argmax())  # the first True (argmax stops there); 0 when there is none
            if hit[k]:
                self.representative[c] = divmod(k, 6)

    def _special_edges(self, hmap: HexMap) -> list[tuple[int, int]]:
        """Edges (hex index, direction) whose cost is not a function of the destination
        terrain alone: those touching an impassable portion, crossing a hexside feature, or
        joining two consecutive hexes of a path. Records on the way what :meth:`signature`
        reads: the edges touching a portion, the path types joining each edge's two hexes
        (in map order) and the hexside features it crosses."""
        index = self.index
        out: set[tuple[int, int]] = set()
        get = index.get
        self.portion_edges: set[tuple[int, int]] = set()
        self.links: dict[tuple[int, int], tuple[str, ...]] = {}
        self.sides: dict[tuple[int, int], tuple[str, ...]] = {}

        def both(a: Hex, b: Hex) -> tuple[tuple[int, int], tuple[int, int]] | None:
            d = a.direction_to(b)
            if d is None:
                return None
            ia, ib = get(a), get(b)
            if ia is None or ib is None:
                return None
            e1, e2 = (ia, d), (ib, (d + 3) % 6)
            out.add(e1)
            out.add(e2)
            return e1, e2

        for h in hmap.portion_by_hex:
            for n in h.neighbors():
                pair = both(h, n)
                if pair is not None:
                    self.portion_edges.update(pair)
        sides = self.sides
        hexside_index = hmap.hexside_index
        for key in hexside_index:
            a, d = key[0], key[1]  # key.hexes() is (a, a.neighbor(d)): no direction_to needed
            b = a.neighbor(d)
            ia, ib = get(a), get(b)
            if ia is None or ib is None:
                continue
            e1, e2 = (ia, d), (ib, (d + 3) % 6)
            out.add(e1)
            out.add(e2)
            # What step_cost reads: the features under the canonical key of a|b.
            canon = hexside_between(a, b)
            sides[e1] = sides[e2] = tuple(hexside_index.get(canon, ())) if canon is not None else ()
        links = self.links
        for p in hmap.paths:
            hx = list(p.hexes)
            for a, b in zip(hx, hx[1:]):
                pair = both(a, b)
                if pair is not None:
                    for e in pair:
                        got = links.get(e, ())
                        if p.type not in got:
                            links[e] = got + (p.type,)
        return sorted(out)

    def signature(self, i: int, d: int) -> tuple[Any, ...] | None:
        """A key shared by edges whose reference step (``step_cost``'s cost) and refusal
        words (``play.moves.enter_cost``) are the same, or None for an edge that must be
        priced alone (it touches an impassable portion). Those functions read, for an edge
        a→b away from portions, only b's terrain, the path types joining a and b (the first
        usable one wins, so their order is kept) and the hexside features between them."""
        j = self.nbr[i][d]
        if j < 0:
            return ("off",)
        e = (i, d)
        if e in self.portion_edges:
            return None
        return (self.tcode_list[j], self.links.get(e, ()), self.sides.get(e, ()))


_GRIDS: dict[int, tuple[tuple[object, ...], HexMap, HexGrid]] = {}


def hex_grid(hmap: HexMap) -> HexGrid:
    """The map's :class:`HexGrid`, built once per map state."""
    hit = _GRIDS.get(id(hmap))
    if hit is not None and hit[1] is hmap and not map_state_changed(hmap, hit[0]):
        return hit[2]
    token = _state_token(hmap)
    with _gc_paused():
        grid = HexGrid(hmap)
    if len(_GRIDS) > 16:
        _GRIDS.clear()
    _GRIDS[id(hmap)] = (token, hmap, grid)
    return grid


class DenseSteps:
    """Every map hex's six steps, as rows of Python lists read by index: ``nbr[i][d]``
    (neighbour index, -1 off the map) and ``cost[i][d]`` (MP; ``inf`` illegal, NaN unknown,
    :data:`ALL_MA` whole MA). Plain edges are priced for the whole map at once (numpy, one
    reference step per terrain); special edges when their row is first read.

    Reasons are looked up on demand: :meth:`step` gives the reference :class:`Step` of an edge
    (cached per terrain for plain legal edges, per edge otherwise)."""

    def __init__(self, hmap: HexMap, system: GameSystem, movement_class: str, column: bool,
                 costs: Mapping[str, float] | None) -> None:
        import numpy as np

        self.args = (hmap, system, movement_class, column, costs)
        g = hex_grid(hmap)
        self.grid = g
        self.hexes, self.index, self.nbr, self.tcode = g.hexes, g.index, g.nbr, g.tcode
        nbr = g.nbr_array
        # One reference step per destination terrain, on a plain edge into that terrain.
        self._plain: dict[int, Step] = {}
        cost_by_code = np.full(len(g.tids) + 1, _INF)
        for c, (i, d) in g.representative.items():
            st = step_cost(hmap, system, self.hexes[i], self.hexes[int(nbr[i, d])], movement_class,
                           column=column, costs=costs, terrain=g.terrain)
            self._plain[c] = st
            cost_by_code[c] = _INF if st.cost is None else st.cost
        # Special edges hold inf here until _price replaces them in their row's list.
        self._edge: dict[tuple[int, int], Step] = {}
        self._by_sig: dict[tuple[Any, ...], float] = {}  # special edges' costs per signature
        # Refused edges' (reason, rule case) for play.moves' explanations, filled on demand.
        # (per edge (i, d), or per HexGrid.signature when the words name no hex).
        self.refusals: dict[tuple[Any, ...], tuple[str, str | None]] = {}
        self.cost: _Rows = _CostRows(np.where(g.plain, cost_by_code[g.dest], _INF), self)

    def _price(self, i: int, d: int) -> float:
        """A special edge's cost, from the reference ``step_cost``: once per
        :meth:`HexGrid.signature` (a road or river crossing costs the same all along it), or
        per edge when it touches a portion (kept for its reason)."""
        sig = self.grid.signature(i, d)
        if sig is not None:
            c = self._by_sig.get(sig)
            if c is not None:
                return c
        st = self._edge.get((i, d))
        if st is None:
            hmap, system, mc, column, costs = self.args
            st = step_cost(hmap, system, self.hexes[i], self.hexes[self.grid.nbr[i][d]], mc, column=column,
                           costs=costs, terrain=self.grid.terrain)
            self._edge[(i, d)] = st
        c = _INF if st.cost is None else st.cost
        if sig is not None:
            self._by_sig[sig] = c
        return c

    def fill(self) -> None:
        """Convert every row to Python lists now (off the UI thread, when warming)."""
        self.grid.nbr.fill()
        self.cost.fill()

    def step(self, i: int, d: int) -> Step:
        """The reference :class:`Step` of edge (i, d), with its reason."""
        row = self.cost[i]
        st = self._edge.get((i, d))
        if st is not None:
            return st
        j = self.nbr[i][d]
        if j >= 0 and row[d] != _INF and d not in self.grid.special_by_row.get(i, ()):
            return self._plain[self.grid.tcode_list[j]]
        # A refused edge or a special one priced by signature: its own step (its reason may
        # name its hexes).
        hmap, system, mc, column, costs = self.args
        h = self.hexes[i]
        st = step_cost(hmap, system, h, h.neighbor(d), mc, column=column, costs=costs, terrain=self.grid.terrain)
        self._edge[(i, d)] = st
        return st


_DENSE: dict[tuple[int, int, str, bool, tuple[tuple[str, float], ...]],
             tuple[tuple[object, ...], DenseSteps, HexMap, GameSystem]] = {}


def dense_key(hmap: HexMap, system: GameSystem, movement_class: str, column: bool,
              costs: Mapping[str, float] | None) -> tuple[int, int, str, bool, tuple[tuple[str, float], ...]]:
    return (id(hmap), id(system), movement_class, column, tuple(sorted((costs or {}).items())))


def dense_steps(hmap: HexMap, system: GameSystem, movement_class: str, column: bool = False,
                costs: Mapping[str, float] | None = None,
                cache: dict[Any, Any] | None = None) -> DenseSteps:
    """The :class:`DenseSteps` of a map for one class, built once and kept in ``cache`` (a
    module-wide one by default; a game passes its own) until the map is edited."""
    store: dict[Any, Any] = _DENSE if cache is None else cache
    ckey = dense_key(hmap, system, movement_class, column, costs)
    hit = store.get(ckey)
    if hit is not None and hit[2] is hmap and hit[3] is system and not map_state_changed(hmap, hit[0]):
        return hit[1]  # type: ignore[no-any-return]
    token = _state_token(hmap)
    with _gc_paused():
        table = DenseSteps(hmap, system, movement_class, column, costs)
    if len(store) > 32:
        store.clear()
    store[ckey] = (token, table, hmap, system)
    return table


def reachable_dense(hmap: HexMap, system: GameSystem, start: Hex, mp: float, movement_class: str, *,
                    column: bool = False, blocked: Callable[[Hex], bool] | None = None,
                    extra_cost: Callable[[Hex, Hex], float | None] | None = None,
                    costs: Mapping[str, float] | None = None,
                    on_unknown: Literal["raise", "skip"] = "raise",
                    stop: set[Hex] | frozenset[Hex] = frozenset(),
                    blocked_hexes: set[Hex] | frozenset[Hex] = frozenset(),
                    table: DenseSteps | None = None) -> dict[Hex, tuple[float, Hex | None]]:
    """:func:`reachable` on a :class:`DenseSteps` table: the same hexes, costs and
    predecessors (the same search, step order and tie-breaks). Two native shortcuts for hooks:
    ``blocked_hexes`` (as ``blocked=lambda h: h in blocked_hexes``) and ``stop`` — hexes that
    may be entered but not left, the start excepted (as an ``extra_cost`` that refuses every
    step out of them, checked before ``extra_cost``)."""
    t = table if table is not None else dense_steps(hmap, system, movement_class, column, costs)
    s = t.index.get(start)
    if s is None:  # a start off the indexed map: the reference handles it
        hooks = [(lambda a, b: None if a in stop and a != start else 0.0)] if stop else []
        if extra_cost is not None:
            hooks.append(extra_cost)

        ex = combine_costs(hooks)
        blk = blocked
        if blocked_hexes:
            blk = (lambda h: h in blocked_hexes or (blocked is not None and blocked(h)))
        return reachable(hmap, system, start, mp, movement_class, column=column, blocked=blk,
                         extra_cost=ex if hooks else None, costs=costs, on_unknown=on_unknown)
    best, prev = dense_search(t, s, mp, blocked=blocked, extra_cost=extra_cost, on_unknown=on_unknown,
                              stop=stop, blocked_hexes=blocked_hexes)
    hexes = t.hexes
    return {hexes[i]: (c, hexes[prev[i]] if i in prev else None) for i, c in best.items()}


def dense_search(t: DenseSteps, s: int, mp: float, *, blocked: Callable[[Hex], bool] | None = None,
                 extra_cost: Callable[[Hex, Hex], float | None] | None = None,
                 on_unknown: Literal["raise", "skip"] = "raise",
                 stop: set[Hex] | frozenset[Hex] = frozenset(),
                 blocked_hexes: set[Hex] | frozenset[Hex] = frozenset()) -> tuple[dict[int, float], dict[int, int]]:
    """The search of :func:`reachable_dense` from hex index ``s`` of table ``t``, in indices:
    ``(best cost per reached index, predecessor index)``, ``best`` in the order hexes were
    first reached. No ``Hex`` is made unless a hook asks for one."""
    hmap = t.args[0]
    nbr, cost_rows = t.nbr, t.cost
    hexes: Any = t.hexes
    if blocked is not None or extra_cost is not None:
        hexes = t.hexes.as_list()  # hooks read two hexes a step: make them all once
    index = t.index
    blocked_idx = {index[h] for h in blocked_hexes if h in index}
    stop_idx = {index[h] for h in stop if h in index}
    stop_idx.discard(s)
    raise_unknown = on_unknown == "raise"
    whole_ok = not math.isinf(mp)
    limit = mp + 1e-9
    best: dict[int, float] = {s: 0.0}
    prev: dict[int, int] = {}
    heap: list[tuple[float, int, int]] = [(0.0, 0, s)]
    tick = 0
    heappop, heappush = heapq.heappop, heapq.heappush
    while heap:
        spent, _, i = heappop(heap)
        if spent > best[i]:
            continue
        leaving_stop = i in stop_idx
        row_n, row_c = nbr[i], cost_rows[i]
        for d in range(6):
            cost = row_c[d]
            if cost == _INF:
                continue
            j = row_n[d]
            if cost != cost:  # NaN: unknown
                if raise_unknown:
                    raise CostUnknown(f"{hmap.label(hexes[i])} → {hmap.label(hexes[j])}: {t.step(i, d).reason}")
                continue
            if cost == ALL_MA:
                if i != s or spent or not whole_ok:
                    continue
                cost = mp
            if j in blocked_idx or (blocked is not None and blocked(hexes[j])):
                continue
            if leaving_stop:
                continue
            if extra_cost is not None:
                extra = extra_cost(hexes[i], hexes[j])
                if extra is None:
                    continue
                cost += extra
            total = spent + cost
            if total > limit:
                continue
            old = best.get(j)
            if old is None or total < old - 1e-12:
                best[j] = total
                prev[j] = i
                tick += 1
                heappush(heap, (total, tick, j))
    return best, prev
