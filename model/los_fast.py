"""Line of sight, the fast implementation: integer templates + numpy over whole maps.

What a line from F to T meets depends only on the offset T − F, so the geometry of every
offset is computed once (:func:`template`) with exact integer arithmetic in the LOS frame
doubled (flat-top centre ``(3q, 2r + q)``, corners ``(±2, 0), (±1, ±1)``) — no shapely, so it
is an independent check on :func:`model.los.trace_reference`. A single query translates the
template and applies the same rule evaluator as the reference (:func:`model.los.evaluate`),
so it returns the same explanation. Viewsheds and the all-pairs matrix gather per-hex static
arrays (blocking terrain, crest/bridge counts per hexside) with numpy for many firers and
offsets at once; the few lines that meet a raised-road/bridge *graphic* fall back to the
exact per-line test (prepared shapely geometry via the map's STRtree cache).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Callable, Iterable

import numpy as np
from shapely.geometry import LineString

from model.base import HexsideKey, hexside_key
from model.geometry import MapShapes, shapes_for
from model.hexes import Hex
# Imported here, not on first use: the first LOS query of a session should not pay for them.
import model.terrain_index  # noqa: F401  (HexMap.terrain_index imports it lazily)
from model import los_table
from model.los import (Conditions, LosGeometry, LosResult, Spotter, _range_for, _with_reciprocal,
                       evaluate, los_static, observer_at, observer_for, spotters_of)
# The line geometry lives in model.los_template (the table imports it too); re-exported here.
from model.los_template import Template, _c2, template_computed, template_reference  # noqa: F401
from model.mapdata import HexMap
from model.system import GameSystem


@lru_cache(maxsize=8192)
def template(target: Hex, o: str = "flat") -> Template:
    """Exact geometry of the line from Hex(0,0) to ``target``: read from the precomputed table
    (:mod:`model.los_table`, tens of microseconds) within its range, else computed by
    :func:`template_computed`."""
    tb = los_table.table(o)
    if tb is not None:
        tp = tb.template(target)
        if tp is not None:
            return tp
    return template_computed(target, o)


class FastLos:
    """Fast LOS for one map and system: single queries, viewsheds and all-pairs matrices."""

    def __init__(self, hmap: HexMap, system: GameSystem) -> None:
        self.hmap = hmap
        self.system = system
        self.o = hmap.grid.orientation
        self.st = los_static(system)
        self._arrays: _Arrays | None = None

    @cached_property
    def shapes(self) -> MapShapes:
        """The map's shapely shapes (the LOS-blocking path graphics), built when a line first
        meets a hex with such a path, or for a viewshed: 1.5–4 ms that a first query along
        open ground need not pay."""
        return shapes_for(self.hmap, set(self.st.graphic_paths))

    @cached_property
    def _graphic_path_hexes(self) -> frozenset[Hex]:
        """Hexes of paths whose graphic blocks LOS: every hex that can hold a graphic piece
        (:func:`model.geometry.build_shapes` cuts each such path by its own hexes)."""
        gp = set(self.st.graphic_paths)
        if not gp:
            return frozenset()
        return frozenset(h for h, paths in self.hmap.paths_by_hex.items() if any(p.type in gp for p in paths))

    # --- single query -----------------------------------------------------------------------

    def geometry(self, f: Hex, t: Hex) -> LosGeometry:
        """The line's geometry: from the table's rows of the offset within its range (plain
        ints, translated once: :class:`model.los_table.OffsetRows`), else the template's.
        :meth:`geometry_reference` is the template path for every offset."""
        off = t - f
        tb = los_table.table(self.o)
        rows = tb.rows(off) if tb is not None else None
        if rows is None:
            return self.geometry_reference(f, t)
        geo = rows.translate(f)
        near = self._graphic_path_hexes
        if near:
            self._graphic_hits(geo, rows.graphic_hexes(f, self.system.los.vertex_policy == "strict"), near)
        return geo

    def geometry_reference(self, f: Hex, t: Hex) -> LosGeometry:
        """:meth:`geometry` through :func:`template` (Hex objects translated one by one)."""
        tp = template(t - f, self.o)
        geo = tp.translate(f)
        strict = self.system.los.vertex_policy == "strict"
        near = self._graphic_path_hexes
        if near:
            self._graphic_hits(geo, [h + f for h in tp.graphic_hexes(strict)], near)
        return geo

    def _graphic_hits(self, geo: LosGeometry, cand: Iterable[Hex], near: frozenset[Hex]) -> None:
        """Set ``geo.graphic_hits``: the candidate hexes whose path graphic the line meets."""
        f, t = geo.firer, geo.target
        cand = list(cand)
        if any(h in near for h in cand):
            hit = [h for h in cand if h in self.shapes.graphics]
            if hit:
                from model.geometry import los_center
                seg = LineString([los_center(f, self.o), los_center(t, self.o)])
                geo.graphic_hits = {h for h in hit if self.shapes.graphics[h].intersects(seg)}

    def query(self, f: Hex, t: Hex, *, night: bool = False, storm: bool = False, fog: bool = False,
              purpose: str = "direct", barrage: Iterable[Hex] = ()) -> LosResult:
        cond = Conditions(night, storm, fog)
        if not self.system.los.enabled:
            return evaluate(self.hmap, self.system, LosGeometry(f, t), conditions=cond, purpose=purpose)
        barr = frozenset(barrage)
        geo = self.geometry(f, t)
        res = evaluate(self.hmap, self.system, geo, conditions=cond, purpose=purpose, barrage=barr)
        return _with_reciprocal(self.hmap, self.system, geo, res, conditions=cond, purpose=purpose, barrage=barr)

    # --- many lines at once ------------------------------------------------------------------

    def arrays(self, cond: Conditions, purpose: str, barrage: frozenset[Hex]) -> "_Arrays":
        a = self._arrays
        if a is None or a.key != (cond, purpose, barrage):
            a = _Arrays(self, cond, purpose, barrage)
            self._arrays = a
        return a

    def viewshed(self, f: Hex, radius: int | None = None, *, night: bool = False, storm: bool = False,
                 fog: bool = False, purpose: str = "direct", barrage: Iterable[Hex] = ()) -> set[Hex]:
        """Hexes on the map that ``f`` sees (within its range, or ``radius``)."""
        if not self.system.los.enabled:
            return set()
        cond = Conditions(night, storm, fog)
        arr = self.arrays(cond, purpose, frozenset(barrage))
        R = radius if radius is not None else arr.max_range
        batch = arr.batch(min(R, arr.max_range))
        if not arr.on_map(f):
            return set()
        vis = arr.evaluate(np.array([arr.flat(f)]), batch)[0]
        out = {f + batch.offsets[k] for k in np.flatnonzero(vis)}
        return out

    def rows(self, origins: Iterable[Hex], radius: int | None = None, *, night: bool = False, storm: bool = False,
             fog: bool = False, purpose: str = "direct", barrage: Iterable[Hex] = ()
             ) -> tuple[list[Hex], list[Hex], np.ndarray]:
        """The all-pairs engine for some rows only: (origins on the map, offsets, bool matrix
        ``origins × offsets``), row ``i`` true at ``k`` when ``origins[i]`` sees
        ``origins[i] + offsets[k]`` (within range: its own hex is not an offset)."""
        cond = Conditions(night, storm, fog)
        if not self.system.los.enabled:
            return [], [], np.zeros((0, 0), dtype=bool)
        arr = self.arrays(cond, purpose, frozenset(barrage))
        R = min(radius if radius is not None else arr.max_range, arr.max_range)
        kept = [h for h in dict.fromkeys(origins) if h in arr.index]
        if not kept:
            return [], list(arr.batch(R).offsets), np.zeros((0, len(arr.batch(R).offsets)), dtype=bool)
        fidx = np.array([arr.index[h] for h in kept], dtype=np.int64)
        # Only the offsets some row can see: within an origin's own range, or reaching a hex
        # whose reciprocal observer sees back that far. Every other offset of the radius is
        # false in every row anyway, and its line template need not be built (most of a cold
        # call's time, issue #22). ``rows_reference`` is the same on the whole radius.
        batch = arr.batch_of(arr.needed_offsets(fidx, R), R)
        return kept, list(batch.offsets), arr.evaluate(fidx, batch)

    def rows_reference(self, origins: Iterable[Hex], radius: int | None = None, *, night: bool = False,
                       storm: bool = False, fog: bool = False, purpose: str = "direct", barrage: Iterable[Hex] = ()
                       ) -> tuple[list[Hex], list[Hex], np.ndarray]:
        """:meth:`rows` over every offset of the radius (the reference its pruning is tested on)."""
        cond = Conditions(night, storm, fog)
        if not self.system.los.enabled:
            return [], [], np.zeros((0, 0), dtype=bool)
        arr = self.arrays(cond, purpose, frozenset(barrage))
        R = min(radius if radius is not None else arr.max_range, arr.max_range)
        batch = arr.batch(R)
        kept = [h for h in dict.fromkeys(origins) if h in arr.index]
        if not kept:
            return [], list(batch.offsets), np.zeros((0, len(batch.offsets)), dtype=bool)
        return kept, list(batch.offsets), arr.evaluate(np.array([arr.index[h] for h in kept], dtype=np.int64), batch)

    def matrix(self, radius: int | None = None, *, night: bool = False, storm: bool = False, fog: bool = False,
               purpose: str = "direct", barrage: Iterable[Hex] = (), chunk: int = 256) -> "VisibilityMatrix":
        """All-pairs visibility within range: a packed bool matrix ``hexes × offsets``."""
        cond = Conditions(night, storm, fog)
        arr = self.arrays(cond, purpose, frozenset(barrage))
        R = min(radius if radius is not None else arr.max_range, arr.max_range)
        batch = arr.batch(R)
        hexes = arr.hexes
        fidx = np.array([arr.index[h] for h in hexes], dtype=np.int64)
        rows = []
        for i in range(0, len(fidx), chunk):
            rows.append(np.packbits(arr.evaluate(fidx[i:i + chunk], batch), axis=1))
        packed = np.concatenate(rows, axis=0) if rows else np.zeros((0, (len(batch.offsets) + 7) // 8), np.uint8)
        return VisibilityMatrix(hexes, batch.offsets, packed)


@dataclass
class VisibilityMatrix:
    hexes: list[Hex]
    offsets: list[Hex]
    packed: np.ndarray  # uint8, shape (len(hexes), ceil(len(offsets)/8))

    def __post_init__(self) -> None:
        self._row = {h: i for i, h in enumerate(self.hexes)}
        self._col = {o: j for j, o in enumerate(self.offsets)}

    def visible(self, a: Hex, b: Hex) -> bool:
        i = self._row.get(a)
        j = self._col.get(b - a)
        if i is None or j is None:
            return False
        return bool((self.packed[i, j >> 3] >> (7 - (j & 7))) & 1)

    def count(self) -> int:
        return int(np.unpackbits(self.packed, axis=1)[:, :len(self.offsets)].sum())

    @property
    def nbytes(self) -> int:
        return int(self.packed.nbytes)


@dataclass
class _Batch:
    offsets: list[Hex]
    dist: np.ndarray
    t_rel: np.ndarray
    hx: tuple[np.ndarray, np.ndarray]            # (rel index, segment id)
    al: tuple[np.ndarray, np.ndarray]            # along sides (side rel, seg)
    ap: tuple[np.ndarray, np.ndarray, np.ndarray]  # along pairs (p rel, q rel, seg)
    cr: tuple[np.ndarray, np.ndarray, np.ndarray]  # crossed sides (side rel, is_end, seg)
    vx: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]  # vertices: side rels (V,3), cls (V,3), end (V,3), seg
    tc: tuple[np.ndarray, np.ndarray]            # touched hexes (rel, seg)
    gr: tuple[np.ndarray, np.ndarray]            # graphic-candidate hexes (rel, seg)
    tx: np.ndarray = None  # type: ignore[assignment]  # target centre ×4 per offset
    ty: np.ndarray = None  # type: ignore[assignment]
    hxc: np.ndarray = None  # type: ignore[assignment]  # ×4 centre of each hx item (L, 2)
    apc: tuple[np.ndarray, np.ndarray] = None  # type: ignore[assignment]
    tcc: np.ndarray = None  # type: ignore[assignment]


def _orient(ax: np.ndarray, ay: np.ndarray, bx: np.ndarray, by: np.ndarray, cx: np.ndarray, cy: np.ndarray
            ) -> np.ndarray:
    return np.sign((bx - ax) * (cy - ay) - (by - ay) * (cx - ax))


def _meets(tx: np.ndarray, ty: np.ndarray, x1: np.ndarray, y1: np.ndarray, x2: np.ndarray, y2: np.ndarray
           ) -> np.ndarray:
    """Does the closed segment (0,0)–(tx,ty) meet the closed segment (x1,y1)–(x2,y2)?"""
    z = np.zeros_like(x1)
    o1 = _orient(z, z, tx + z, ty + z, x1, y1)
    o2 = _orient(z, z, tx + z, ty + z, x2, y2)
    o3 = _orient(x1, y1, x2, y2, z, z)
    o4 = _orient(x1, y1, x2, y2, tx + z, ty + z)
    general = (o1 * o2 <= 0) & (o3 * o4 <= 0)
    collinear = (o1 == 0) & (o2 == 0)
    lo_x, hi_x = np.minimum(x1, x2), np.maximum(x1, x2)
    lo_y, hi_y = np.minimum(y1, y2), np.maximum(y1, y2)
    overlap = (np.maximum(lo_x, np.minimum(0, tx)) <= np.minimum(hi_x, np.maximum(0, tx))) & \
              (np.maximum(lo_y, np.minimum(0, ty)) <= np.minimum(hi_y, np.maximum(0, ty)))
    return np.where(collinear, overlap, general)


def _hex_arrays(hmap: HexMap) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[str]]:
    """(q, r, terrain code, terrain id per code) of every hex of ``hmap``, in ``hmap.hexes()``
    order, read from the map's numpy terrain index (no per-hex Python loop)."""
    index = hmap.terrain_index
    q, r = index.axial()
    if index.codes is None:  # ragged index: through the reference mapping (small maps only)
        from model.geometry import terrain_index

        terr = terrain_index(hmap)
        ids = sorted(set(terr.values())) or [""]
        code = {t: i for i, t in enumerate(ids)}
        return q, r, np.array([code[terr[h]] for h in hmap.hexes()], np.int64), ids
    # The dense codes' nonzero cells are axial()'s hexes in the same (row-major) order.
    chars = index.codes[index.codes != 0].astype(np.int64)
    uniq = np.flatnonzero(np.bincount(chars)) if len(chars) else np.zeros(0, np.int64)
    lut = np.zeros(int(uniq.max()) + 1 if len(uniq) else 1, np.int64)
    lut[uniq] = np.arange(len(uniq))
    legend = hmap.terrain.legend
    return q, r, lut[chars], [legend.get(chr(int(c)), "") for c in uniq.tolist()] or [""]


class _Arrays:
    """Per-hex static arrays of one map/system/conditions, on a padded axial grid."""

    def __init__(self, fl: FastLos, cond: Conditions, purpose: str, barrage: frozenset[Hex]) -> None:
        self.key = (cond, purpose, barrage)
        self.fl = fl
        hmap, system, st = fl.hmap, fl.system, fl.st
        self.hexes = hmap.hexes()
        los = system.los
        normal = _range_for(los.ranges, cond.key())
        big = 10 ** 6
        ranges = [normal or 0]
        for sp in spotters_of(system):
            r = _range_for(sp.range, cond.key()) if sp.range is not None else None
            ranges.append(r or normal or 0)
        self.max_range = max(ranges) if normal is not None else 30
        pad = self.max_range + 2
        q, r, codes, ids = _hex_arrays(hmap)
        self.q0 = (int(q.min()) if len(q) else 0) - pad
        self.r0 = (int(r.min()) if len(r) else 0) - pad
        self.NQ = (int(q.max() - q.min()) if len(q) else 0) + 1 + 2 * pad
        self.NR = (int(r.max() - r.min()) if len(r) else 0) + 1 + 2 * pad
        NN = self.NQ * self.NR
        self.NN = NN
        self._flat_all = (q - self.q0) * self.NR + (r - self.r0)  # flat index of each of self.hexes
        self.graphic = np.zeros(NN, bool)
        self._cond, self._purpose, self._barrage = cond, purpose, barrage
        self._normal, self._big = normal, big
        self._per_hex(codes, ids)
        for h in barrage:
            if self.inside(h):
                self.block[self.flat(h)] = 1
        # Graphic pieces per hex as segments relative to the hex centre, LOS frame ×4.
        segs: dict[int, list[tuple[float, float, float, float]]] = {}
        for h, g in fl.shapes.graphics.items():
            if not self.inside(h):
                continue
            i = self.flat(h)
            self.graphic[i] = True
            cx, cy = _c2(h, fl.o)
            for part in getattr(g, "geoms", [g]):
                cs = list(part.coords)
                for (x1, y1), (x2, y2) in zip(cs, cs[1:] or cs):
                    segs.setdefault(i, []).append((4 * x1 - 2 * cx, 4 * y1 - 2 * cy, 4 * x2 - 2 * cx, 4 * y2 - 2 * cy))
        S = max((len(v) for v in segs.values()), default=1)
        self.gseg = np.zeros((len(segs) + 1, S, 4), np.float64)
        self.gvalid = np.zeros((len(segs) + 1, S), bool)
        self.gslot = np.zeros(NN, np.int64)           # row in gseg (0 = none)
        for n, (i, lst) in enumerate(segs.items(), start=1):
            self.gslot[i] = n
            self.gseg[n, :len(lst)] = lst
            self.gvalid[n, :len(lst)] = True
        # Side counts: plane d holds the side keyed (hex, d), d in 0..2.
        self.crest = np.zeros(3 * NN, np.int16)
        self.bridge = np.zeros(3 * NN, np.int16)
        self.bside = np.zeros(3 * NN, np.int16)
        for key, kinds in hmap.hexside_index.items():
            if not self.inside(key.hex):
                continue
            j = key.direction * NN + self.flat(key.hex)
            for k in kinds:
                if k in st.crest_types:
                    self.crest[j] += 1
                elif k in st.bridge_types:
                    self.bridge[j] += 1
                elif k in st.blocking_sides:
                    self.bside[j] += 1
        self.strict = los.vertex_policy == "strict"
        self.both_blocked = los.hexside_both_blocking == "blocked"
        self.one_crossing = los.crest_rule == "one_crossing"
        self._batches: dict[int, _Batch] = {}
        self._subsets: dict[tuple[Hex, ...], _Batch] = {}

    def _per_hex(self, codes: np.ndarray, ids: list[str]) -> None:
        """onmap, block, budget, rng, rbudget, rrng with numpy: terrain-only hexes by their
        terrain id (the observer of a hex without features depends on its terrain alone), the
        few hexes with features one by one with :func:`observer_for`. Equal to
        :meth:`_per_hex_reference` (tests/model/test_los_table.py)."""
        fl, NN, i = self.fl, self.NN, self._flat_all
        hmap, system, st, purpose = fl.hmap, fl.system, fl.st, self._purpose
        self.onmap = np.zeros(NN, bool)
        self.onmap[i] = True
        blocking = np.array([tid in st.blocking_terrain for tid in ids] or [False], bool)
        self.block = np.zeros(NN, np.int16)
        self.block[i] = blocking[codes] if len(codes) else 0
        per_id = np.array([self._observer_values(observer_at(system, tid, frozenset(), purpose)) for tid in ids]
                          or [self._observer_values(None)], np.int64)
        cols = per_id[codes] if len(codes) else np.zeros((0, 4), np.int64)
        self.budget = np.zeros(NN, np.int16)
        self.rng = np.zeros(NN, np.int32)
        self.rbudget = np.full(NN, -1, np.int16)   # reciprocal observer budget (-1 = none)
        self.rrng = np.zeros(NN, np.int32)
        self.budget[i], self.rng[i], self.rbudget[i], self.rrng[i] = cols[:, 0], cols[:, 1], cols[:, 2], cols[:, 3]
        for h, feats in hmap.features_by_hex.items():
            if not feats or not self.inside(h) or not self.onmap[self.flat(h)]:
                continue
            j = self.flat(h)
            self.budget[j], self.rng[j], self.rbudget[j], self.rrng[j] = \
                self._observer_values(observer_for(hmap, system, h, purpose))

    def _observer_values(self, sp: Spotter | None) -> tuple[int, int, int, int]:
        """(budget, range, reciprocal budget or -1, reciprocal range) of a hex's observer."""
        normal, big = self._normal, self._big
        default = normal if normal is not None else big
        if sp is None:
            return 0, default, -1, 0
        own = _range_for(sp.range, self._cond.key()) if sp.range is not None else None
        rng = own if own is not None else default
        return (sp.budget, rng, sp.budget, rng) if sp.reciprocal else (sp.budget, rng, -1, 0)

    def _per_hex_reference(self) -> dict[str, np.ndarray]:
        """The per-hex arrays hex by hex (the code :meth:`_per_hex` replaced), for tests."""
        fl, NN = self.fl, self.NN
        hmap, system, st, purpose, barrage = fl.hmap, fl.system, fl.st, self._purpose, self._barrage
        normal, big = self._normal, self._big
        out = {"onmap": np.zeros(NN, bool), "block": np.zeros(NN, np.int16), "budget": np.zeros(NN, np.int16),
               "rng": np.zeros(NN, np.int32), "rbudget": np.full(NN, -1, np.int16), "rrng": np.zeros(NN, np.int32)}
        from model.geometry import terrain_index
        terr = terrain_index(hmap)
        for h in self.hexes:
            i = self.flat(h)
            out["onmap"][i] = True
            out["block"][i] = (terr.get(h) in st.blocking_terrain) or (h in barrage)
            sp = observer_for(hmap, system, h, purpose)
            if sp is not None:
                out["budget"][i] = sp.budget
                own = _range_for(sp.range, self._cond.key()) if sp.range is not None else None
                out["rng"][i] = own if own is not None else (normal if normal is not None else big)
                if sp.reciprocal:
                    out["rbudget"][i] = sp.budget
                    out["rrng"][i] = out["rng"][i]
            else:
                out["rng"][i] = normal if normal is not None else big
        for h in barrage:
            if self.inside(h):
                out["block"][self.flat(h)] = 1
        return out

    @cached_property
    def index(self) -> dict[Hex, int]:
        """``hex → flat index`` of every hex on the map (built when first asked for)."""
        return dict(zip(self.hexes, self._flat_all.tolist()))

    def on_map(self, h: Hex) -> bool:
        return self.inside(h) and bool(self.onmap[self.flat(h)])

    def inside(self, h: Hex) -> bool:
        return 0 <= h.q - self.q0 < self.NQ and 0 <= h.r - self.r0 < self.NR

    def flat(self, h: Hex) -> int:
        return (h.q - self.q0) * self.NR + (h.r - self.r0)

    def rel(self, h: Hex) -> int:
        return h.q * self.NR + h.r

    def srel(self, k: HexsideKey) -> int:
        return k.direction * self.NN + self.rel(k.hex)

    def needed_offsets(self, f: np.ndarray, R: int) -> list[Hex]:
        """The offsets within ``R`` that firers ``f`` (flat indices) may see: within a firer's
        own range, or to a hex whose reciprocal observer's range reaches back (``evaluate``'s
        ``fwd | rec``: any other offset is false for every firer). In ``range`` order."""
        own = int(self.rng[f].max()) if len(f) else 0
        wanted: set[Hex] = set()
        rec = np.flatnonzero((self.rbudget >= 0) & self.onmap)
        if rec.size:
            tq, tr = rec // self.NR + self.q0, rec % self.NR + self.r0
            fq, fr = f // self.NR + self.q0, f % self.NR + self.r0
            dq, dr = tq[None, :] - fq[:, None], tr[None, :] - fr[:, None]
            dist = (np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2
            ok = (dist > own) & (dist <= R) & (dist <= self.rrng[rec][None, :])
            wanted = {Hex(int(a), int(b)) for a, b in zip(dq[ok], dr[ok])}
        return [h for h in Hex(0, 0).range(R) if h != Hex(0, 0) and (h.length() <= own or h in wanted)]

    def batch(self, R: int) -> _Batch:
        """The offsets within ``R`` and their template items as flat arrays, gathered from the
        precomputed table when ``R`` is within it (a millisecond), else built from each offset's
        :func:`template` (the table's rows, then :func:`template_computed` beyond it)."""
        b = self._batches.get(R)
        if b is not None:
            return b
        tb = los_table.table(self.fl.o)
        if tb is not None and R <= tb.radius:
            b = _Batch(**los_table.batch_arrays(tb, R, self.NR, self.NN, self.strict))
        else:
            b = self._build([h for h in Hex(0, 0).range(R) if h != Hex(0, 0)])
        self._batches[R] = b
        return b

    def _batch_reference(self, R: int) -> _Batch:
        """:meth:`batch` from :func:`template_reference` one offset at a time (the reference)."""
        return self._build([h for h in Hex(0, 0).range(R) if h != Hex(0, 0)], template_reference)

    def batch_of(self, offsets: list[Hex], R: int) -> _Batch:
        """The batch of some offsets (within ``R``): the whole radius's when it is all of it."""
        if len(offsets) == 3 * R * (R + 1):  # every offset within R: the full batch
            return self.batch(R)
        key = tuple(offsets)
        b = self._subsets.get(key)
        if b is None:
            if len(self._subsets) >= 8:  # a few observer sets at a time: the oldest goes
                self._subsets.pop(next(iter(self._subsets)))
            b = self._subsets[key] = self._build(offsets)
        return b

    def _build(self, offsets: list[Hex], geometry: Callable[[Hex, str], Template] | None = None) -> _Batch:
        """The batch of ``offsets`` from each one's template (``geometry``: :func:`template`, or
        the reference form for :meth:`_batch_reference`)."""
        o = self.fl.o
        geometry = geometry or template
        hx, hs, al, als, pp, pq, ps, cr, ce, cs = [], [], [], [], [], [], [], [], [], []
        vr, vc, ve, vs, tr, ts, gr, gs = [], [], [], [], [], [], [], []
        hxh: list[Hex] = []
        aph: list[Hex] = []
        aqh: list[Hex] = []
        tch_h: list[Hex] = []
        for s, off in enumerate(offsets):
            tp = geometry(off, o)
            ends = {hexside_key(Hex(0, 0), d) for d in range(6)} | {hexside_key(off, d) for d in range(6)}
            for _, h in tp.hexes:
                hx.append(self.rel(h)); hs.append(s); hxh.append(h)
            for _, k in tp.along:
                al.append(self.srel(k)); als.append(s)
                p, q = k.hexes()
                pp.append(self.rel(p)); pq.append(self.rel(q)); ps.append(s); aph.append(p); aqh.append(q)
            for _, k in tp.crossed:
                cr.append(self.srel(k)); ce.append(k in ends); cs.append(s)
            for _, _, lt, rt, tch in tp.vertices:
                sides = [(k, 1) for k in lt] + [(k, -1) for k in rt]
                sides += [(sides[0][0] if sides else hexside_key(Hex(0, 0), 0), 0)] * (3 - len(sides))
                vr.append([self.srel(k) for k, _ in sides]); vc.append([c for _, c in sides])
                ve.append([k in ends for k, _ in sides]); vs.append(s)
                for x in tch:
                    tr.append(self.rel(x)); ts.append(s); tch_h.append(x)
            for h in tp.graphic_hexes(self.strict):
                gr.append(self.rel(h)); gs.append(s)
        I = lambda v: np.asarray(v, dtype=np.int64)  # noqa: E731
        b = _Batch(offsets, I([off.length() for off in offsets]), I([self.rel(off) for off in offsets]),
                   (I(hx), I(hs)), (I(al), I(als)), (I(pp), I(pq), I(ps)), (I(cr), np.asarray(ce, bool), I(cs)),
                   (I(vr).reshape(-1, 3), np.asarray(vc, np.int8).reshape(-1, 3), np.asarray(ve, bool).reshape(-1, 3),
                    I(vs)), (I(tr), I(ts)), (I(gr), I(gs)))
        def c4(rels: list[Hex]) -> np.ndarray:
            return np.asarray([[2 * v for v in _c2(h, o)] for h in rels], np.float64).reshape(-1, 2)
        b.tx = c4(offsets)[:, 0]
        b.ty = c4(offsets)[:, 1]
        b.hxc = c4(hxh)
        b.apc = (c4(aph), c4(aqh))
        b.tcc = c4(tch_h)
        return b

    def evaluate(self, f: np.ndarray, b: _Batch) -> np.ndarray:
        """Visibility (len(f) × len(offsets)) for firers at flat indices ``f``."""
        M, K = len(f), len(b.offsets)
        F = f[:, None]

        def segsum(vals: np.ndarray, seg: np.ndarray) -> np.ndarray:
            out = np.zeros((M, K), np.int32)
            if seg.size:
                # Sum by segment: vals (M, L) sorted by seg → cumulative sums at boundaries.
                cs = np.concatenate([np.zeros((M, 1), np.int32), np.cumsum(vals, axis=1, dtype=np.int32)], axis=1)
                bounds = np.searchsorted(seg, np.arange(K + 1))
                out = cs[:, bounds[1:]] - cs[:, bounds[:-1]]
            return out

        def eff(rel: np.ndarray, centres: np.ndarray, seg: np.ndarray) -> np.ndarray:
            """Blocking per item: terrain/barrage, or the line meets a graphic there."""
            idx = F + rel
            vals = self.block[idx] > 0
            if self.gseg.shape[0] > 1:
                mi, li = np.nonzero(self.graphic[idx])
                if mi.size:
                    g = self.gseg[self.gslot[f[mi] + rel[li]]]               # (n, S, 4)
                    ok = self.gvalid[self.gslot[f[mi] + rel[li]]]
                    cx, cy = centres[li, 0][:, None], centres[li, 1][:, None]
                    hit = _meets(b.tx[seg[li]][:, None], b.ty[seg[li]][:, None],
                                 g[..., 0] + cx, g[..., 1] + cy, g[..., 2] + cx, g[..., 3] + cy) & ok
                    vals[mi, li] |= hit.any(axis=1)
            return vals

        used = segsum(eff(b.hx[0], b.hxc, b.hx[1]).astype(np.int16), b.hx[1])
        # Along hexsides: crest/ridge, bridge or blocking side on it; both hexes blocking.
        sj = F + b.al[0]
        used += segsum(self.crest[sj] + self.bridge[sj] + self.bside[sj], b.al[1])
        if self.both_blocked and b.ap[2].size:
            used += segsum((eff(b.ap[0], b.apc[0], b.ap[2]) & eff(b.ap[1], b.apc[1], b.ap[2])).astype(np.int16),
                           b.ap[2])
        # Crossed hexsides.
        cj = F + b.cr[0]
        cc = self.crest[cj]
        nX = segsum(cc, b.cr[2])
        nE = segsum(cc * b.cr[1], b.cr[2])
        used += segsum(self.bridge[cj] * ~b.cr[1] + self.bside[cj], b.cr[2])
        # Vertices.
        if b.vx[3].size:
            vj = F[:, :, None] + b.vx[0][None]
            has = (self.crest[vj] > 0) & (b.vx[1][None] != 0)
            if self.strict:
                nX += segsum(has.sum(axis=2, dtype=np.int16), b.vx[3])
                nE += segsum((has & b.vx[2][None]).sum(axis=2, dtype=np.int16), b.vx[3])
            else:
                left = (has & (b.vx[1][None] == 1)).any(axis=2)
                right = (has & (b.vx[1][None] == -1)).any(axis=2)
                sep = left & right
                ex = sep & (has & b.vx[2][None]).any(axis=2)
                nX += segsum(sep.astype(np.int16), b.vx[3])
                nE += segsum(ex.astype(np.int16), b.vx[3])
        if self.strict and b.tc[1].size:
            used += segsum(eff(b.tc[0], b.tcc, b.tc[1]).astype(np.int16), b.tc[1])
        used += nX - ((nE > 0).astype(np.int32) if self.one_crossing else nE)
        tgt = F + b.t_rel[None]
        fwd = (used <= self.budget[f][:, None]) & (b.dist[None] <= self.rng[f][:, None])
        rb = self.rbudget[tgt]
        rec = (rb >= 0) & (used <= rb) & (b.dist[None] <= self.rrng[tgt])
        vis = (fwd | rec) & self.onmap[tgt] & self.onmap[f][:, None]
        return vis
