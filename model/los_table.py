"""Precomputed LOS offset templates: the geometry of every line from Hex(0,0) to each offset
within :data:`TABLE_RANGE`, for both orientations, stored in ``resources/los/templates.npz``.

Why: a template depends only on the offset and the orientation (no map, no rules), and
computing the 546 templates of range 13 with :func:`model.los_template.template_reference` takes
0.3–1.2 s of pure Python — the whole cost of the first viewshed click of a session and most of
the first LOS query's. Loading the stored arrays takes about a millisecond; a viewshed's offset
batch is then gathered from them with numpy (:func:`batch_arrays`), and a single query rebuilds
one :class:`~model.los_template.Template` from its rows (:func:`template_from_table`).

The file is generated from the reference code (``python -m model.los_table --write``);
``tests/model/test_los_table.py`` checks that the stored table equals a fresh computation for
every offset and orientation, and that the batches gathered from it equal the reference batch
(:meth:`model.los_fast._Arrays._batch_reference`). Offsets beyond the table fall back to the
reference computation, lazily per offset.

Layout, per orientation ``o`` (``flat``/``pointy``), ragged rows in CSR form (``*_ptr`` has one
entry per offset plus one; offsets in ``Hex(0,0).range(TABLE_RANGE)`` order without the origin,
which is lexicographic in (q, r), so the offsets of any smaller range are a filtered prefix order):

* ``o/off`` (N, 2): offset q, r;
* ``o/hx`` (L, 2), ``o/hx_t``: hexes passed, with their t along the line, in template order;
* ``o/al`` and ``o/cr`` (L, 3): hexsides along / crossed as canonical (q, r, direction), with t;
* ``o/vx_t``, ``o/vx_trio`` (V, 3, 2): vertices passed (the canonical trio of hexes);
  ``o/vx_side`` (V, 3, 3) and ``o/vx_cls`` (V, 3): the left sides (class 1) then the right sides
  (class -1), padded with the first side (or the origin's side 0) at class 0, as the batch wants;
  ``o/vx_tch`` (V, 3, 2) with ``o/vx_ntch``: touched hexes.
"""

from __future__ import annotations

import math
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from model.base import HexsideKey
from model.hexes import DIRECTIONS, Hex
from model.los import LosGeometry, VertexPass
from model.los_template import Template
from model.shipped import RESOURCES

TABLE_RANGE = 16
TABLE_PATH = RESOURCES / "los" / "templates.npz"
ORIENTATIONS = ("flat", "pointy")
_DQ = np.array([d[0] for d in DIRECTIONS], np.int64)
_DR = np.array([d[1] for d in DIRECTIONS], np.int64)


def build_table(radius: int = TABLE_RANGE) -> dict[str, np.ndarray]:
    """The table's arrays, computed from the reference templates (slow: seconds)."""
    from model.base import hexside_key
    from model.los_template import template_reference

    out: dict[str, np.ndarray] = {"range": np.array([radius], np.int64)}
    for o in ORIENTATIONS:
        offs = [h for h in Hex(0, 0).range(radius) if h != Hex(0, 0)]
        hx: list[tuple[int, int]] = []
        hx_t: list[float] = []
        al: list[tuple[int, int, int]] = []
        al_t: list[float] = []
        cr: list[tuple[int, int, int]] = []
        cr_t: list[float] = []
        vx_t: list[float] = []
        trio: list[list[tuple[int, int]]] = []
        side: list[list[tuple[int, int, int]]] = []
        cls: list[list[int]] = []
        tch: list[list[tuple[int, int]]] = []
        ntch: list[int] = []
        ptr: dict[str, list[int]] = {"hx": [0], "al": [0], "cr": [0], "vx": [0]}
        for off in offs:
            tp = template_reference(off, o)
            for t, h in tp.hexes:
                hx.append((h.q, h.r))
                hx_t.append(t)
            for t, k in tp.along:
                al.append((k.hex.q, k.hex.r, k.direction))
                al_t.append(t)
            for t, k in tp.crossed:
                cr.append((k.hex.q, k.hex.r, k.direction))
                cr_t.append(t)
            for t, vk, lt, rt, touched in tp.vertices:
                vx_t.append(t)
                trio.append([(h.q, h.r) for h in vk])
                sides = [(k, 1) for k in lt] + [(k, -1) for k in rt]
                sides += [(sides[0][0] if sides else hexside_key(Hex(0, 0), 0), 0)] * (3 - len(sides))
                side.append([(k.hex.q, k.hex.r, k.direction) for k, _ in sides])
                cls.append([c for _, c in sides])
                tch.append([(h.q, h.r) for h in touched] + [(0, 0)] * (3 - len(touched)))
                ntch.append(len(touched))
            for name, items in (("hx", hx), ("al", al), ("cr", cr), ("vx", vx_t)):
                ptr[name].append(len(items))
        i8 = np.int8 if radius < 120 else np.int16  # coordinates stay within ±(radius + 2)
        out[f"{o}/off"] = np.array([(h.q, h.r) for h in offs], i8).reshape(-1, 2)
        for name in ptr:
            out[f"{o}/{name}_ptr"] = np.array(ptr[name], np.int32)
        out[f"{o}/hx"] = np.array(hx, i8).reshape(-1, 2)
        out[f"{o}/hx_t"] = np.array(hx_t, np.float64)
        out[f"{o}/al"] = np.array(al, i8).reshape(-1, 3)
        out[f"{o}/al_t"] = np.array(al_t, np.float64)
        out[f"{o}/cr"] = np.array(cr, i8).reshape(-1, 3)
        out[f"{o}/cr_t"] = np.array(cr_t, np.float64)
        out[f"{o}/vx_t"] = np.array(vx_t, np.float64)
        out[f"{o}/vx_trio"] = np.array(trio, i8).reshape(-1, 3, 2)
        out[f"{o}/vx_side"] = np.array(side, i8).reshape(-1, 3, 3)
        out[f"{o}/vx_cls"] = np.array(cls, np.int8).reshape(-1, 3)
        out[f"{o}/vx_tch"] = np.array(tch, i8).reshape(-1, 3, 2)
        out[f"{o}/vx_ntch"] = np.array(ntch, np.int8)
    return out


_INTS = ("off", "hx_ptr", "al_ptr", "cr_ptr", "vx_ptr", "hx", "al", "cr", "vx_trio", "vx_side", "vx_cls", "vx_tch",
         "vx_ntch")
_FLOATS = ("hx_t", "al_t", "cr_t", "vx_t")


def pack(tables: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The table as three arrays per orientation (every integer array in one int16/int32 run,
    every t in one float64 run, and their layout): loading 18 small npz members took 3 ms, most
    of a first LOS query; three take about half a millisecond."""
    out = {"range": tables["range"]}
    for o in ORIENTATIONS:
        layout, ints, floats = [], [], []
        for names, runs, at in ((_INTS, ints, 0), (_FLOATS, floats, 1)):
            start = 0
            for name in names:
                a = tables[f"{o}/{name}"]
                layout.append([at, start] + list(a.shape) + [-1] * (3 - a.ndim))
                runs.append(a.reshape(-1))
                start += a.size
        run = np.concatenate(ints)
        # int16 while it fits (half the bytes to read at load), else int32.
        out[f"{o}/ints"] = run.astype(np.int16 if np.abs(run).max() < 2 ** 15 else np.int32)
        out[f"{o}/floats"] = np.concatenate(floats).astype(np.float64)
        out[f"{o}/layout"] = np.array(layout, np.int64)
    return out


def unpack(data: Any, o: str) -> dict[str, np.ndarray]:
    """The named arrays of orientation ``o`` (views into two runs; integers as int64)."""
    runs = (np.asarray(data[f"{o}/ints"]).astype(np.int64), np.asarray(data[f"{o}/floats"]))
    out = {}
    for name, (at, start, *shape) in zip(_INTS + _FLOATS, np.asarray(data[f"{o}/layout"]).tolist()):
        dims = [d for d in shape if d >= 0]
        n = math.prod(dims)  # not np.prod: its first call costs ~0.1 ms (ufunc reduce set-up)
        out[name] = runs[at][start:start + n].reshape(dims)
    return out


def write_table(path: Path = TABLE_PATH, radius: int = TABLE_RANGE) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    # Uncompressed: inflating it took 1-2 ms of a first LOS query; git stores blobs compressed.
    np.savez(path, **pack(build_table(radius)))  # type: ignore[arg-type]
    return path


class OffsetRows:
    """The stored rows of one offset as flat lists of Python ints and floats, as the table
    holds them (no Hex or HexsideKey per item): what a single query needs, decoded once per
    offset (:meth:`OffsetTable.rows`).

    Why: building a :class:`~model.los_template.Template` from the table made a Hex or
    HexsideKey per item only for :meth:`Template.translate` to make another one for each, and
    sliced a dozen numpy arrays: about 40 µs of the first query to each offset (issue #21
    item 5). Here decoding is one memoryview slice and ``tolist`` per array with items, and
    :meth:`translate` makes each translated object once, from ints. ``tests/model/
    test_los_table.py`` checks it equals the reference template translated.
    """

    __slots__ = ("target", "hx_t", "hx", "al_t", "al", "cr_t", "cr", "vx_t", "trio", "side", "cls", "tch", "ntch")

    def __init__(self, target: tuple[int, int], hx_t: list[float], hx: list[int], al_t: list[float], al: list[int],
                 cr_t: list[float], cr: list[int], vx_t: list[float], trio: list[int], side: list[int],
                 cls: list[int], tch: list[int], ntch: list[int]) -> None:
        self.target = target
        self.hx_t, self.hx = hx_t, hx            # t; q, r per hex
        self.al_t, self.al = al_t, al            # t; q, r, direction per side along
        self.cr_t, self.cr = cr_t, cr            # t; q, r, direction per side crossed
        self.vx_t, self.trio = vx_t, trio        # t; 3 × (q, r) per vertex
        self.side, self.cls = side, cls          # 3 × (q, r, d); 3 classes (1 left, -1 right, 0 pad)
        self.tch, self.ntch = tch, ntch          # 3 × (q, r) slots; how many are touched

    def translate(self, f: Hex) -> LosGeometry:
        """The geometry of the line from ``f`` (equal to ``Template.translate``)."""
        fq, fr = f
        tq, tr = self.target
        geo = LosGeometry(f, Hex(tq + fq, tr + fr))
        it = iter(self.hx)
        geo.hexes = [(t, Hex(q + fq, r + fr)) for t, q, r in zip(self.hx_t, it, it)]
        if self.al_t:
            it = iter(self.al)
            geo.along = [(t, HexsideKey(Hex(q + fq, r + fr), d)) for t, q, r, d in zip(self.al_t, it, it, it)]
        if self.cr_t:
            it = iter(self.cr)
            geo.crossed = [(t, HexsideKey(Hex(q + fq, r + fr), d)) for t, q, r, d in zip(self.cr_t, it, it, it)]
        if self.vx_t:
            trio, side, cls, tch = self.trio, self.side, self.cls, self.tch
            verts = []
            for k, (t, nt) in enumerate(zip(self.vx_t, self.ntch)):
                a, c3, s9 = 6 * k, 3 * k, 9 * k
                left, right = [], []
                for j in range(3):
                    c = cls[c3 + j]
                    if c:
                        x = s9 + 3 * j
                        (left if c == 1 else right).append(HexsideKey(Hex(side[x] + fq, side[x + 1] + fr), side[x + 2]))
                verts.append(VertexPass(t, (Hex(trio[a] + fq, trio[a + 1] + fr), Hex(trio[a + 2] + fq, trio[a + 3] + fr),
                                            Hex(trio[a + 4] + fq, trio[a + 5] + fr)), left, right,
                                        [Hex(tch[a + 2 * j] + fq, tch[a + 2 * j + 1] + fr) for j in range(nt)]))
            geo.vertices = verts
        return geo

    def graphic_hexes(self, f: Hex, strict: bool) -> set[Hex]:
        """``Template.graphic_hexes(strict)`` translated by ``f``: the hexes passed, both hexes
        of each side along the line, and the touched hexes if ``strict``."""
        fq, fr = f
        it = iter(self.hx)
        out = {Hex(q + fq, r + fr) for q, r in zip(it, it)}
        it = iter(self.al)
        for q, r, d in zip(it, it, it):
            out.add(Hex(q + fq, r + fr))
            out.add(Hex(q + _DQL[d] + fq, r + _DRL[d] + fr))
        if strict:
            tch = self.tch
            for k, nt in enumerate(self.ntch):
                out.update(Hex(tch[6 * k + 2 * j] + fq, tch[6 * k + 2 * j + 1] + fr) for j in range(nt))
        return out

    def template(self) -> Template:
        """The :class:`~model.los_template.Template` these rows hold (Hex and HexsideKey objects)."""
        geo = self.translate(Hex(0, 0))
        return Template(geo.target, tuple(geo.hexes), tuple(geo.along), tuple(geo.crossed),
                        tuple((v.t, v.key, tuple(v.left), tuple(v.right), tuple(v.touched)) for v in geo.vertices))


_DQL = [d[0] for d in DIRECTIONS]
_DRL = [d[1] for d in DIRECTIONS]


class OffsetTable:
    """The stored templates of one orientation (integers as int64, converted once at load)."""

    def __init__(self, arrays: dict[str, np.ndarray], o: str, radius: int) -> None:
        self.o, self.radius = o, radius
        g = arrays.__getitem__
        self.off = g("off")
        self.length = (np.abs(self.off[:, 0]) + np.abs(self.off[:, 1]) + np.abs(self.off.sum(axis=1))) // 2
        self.ptr = {k: g(f"{k}_ptr") for k in ("hx", "al", "cr", "vx")}
        self.hx, self.hx_t = g("hx"), g("hx_t")
        self.al, self.al_t = g("al"), g("al_t")
        self.cr, self.cr_t = g("cr"), g("cr_t")
        self.vx_t, self.vx_trio = g("vx_t"), g("vx_trio")
        self.vx_side, self.vx_cls = g("vx_side"), g("vx_cls").astype(np.int8)
        self.vx_tch, self.vx_ntch = g("vx_tch"), g("vx_ntch")
        # Row of offset (q, r) by arithmetic: the offsets are Hex(0, 0).range(radius) without
        # the origin, column by column (q, then r). A dict of the 816 offsets took 0.18 ms to
        # build on the first query.
        self._col0, n = [], 0
        for q in range(-radius, radius + 1):
            self._col0.append(n)
            n += 2 * radius + 1 - abs(q)
        if n - 1 != len(self.off):
            raise ValueError(f"LOS table: {len(self.off)} offsets, not the {n - 1} of range {radius}")
        # Flat memoryviews for :meth:`rows`: slicing one and ``tolist()`` costs a fraction of a
        # numpy slice's dispatch (about 1 µs each on a first query, a dozen per offset).
        mv = {name: memoryview(np.ascontiguousarray(a).reshape(-1)) for name, a in (
            ("hx", self.hx), ("hx_t", self.hx_t), ("al", self.al), ("al_t", self.al_t), ("cr", self.cr),
            ("cr_t", self.cr_t), ("vx_t", self.vx_t), ("vx_trio", self.vx_trio), ("vx_side", self.vx_side),
            ("vx_cls", self.vx_cls), ("vx_tch", self.vx_tch), ("vx_ntch", self.vx_ntch),
            ("hx_ptr", self.ptr["hx"]), ("al_ptr", self.ptr["al"]), ("cr_ptr", self.ptr["cr"]),
            ("vx_ptr", self.ptr["vx"]))}
        self._mv = mv
        self._rows: dict[int, OffsetRows] = {}

    def index(self, q: int, r: int) -> int | None:
        """The row of offset (q, r), or None if the table does not hold it (the origin, or
        beyond its range)."""
        R = self.radius
        if not (-R <= q <= R and -R <= r <= R and -R <= q + r <= R) or (q == 0 and r == 0):
            return None
        i = self._col0[q + R] + r - max(-R, -q - R)
        return i - 1 if (q, r) > (0, 0) else i

    def rows(self, target: Hex) -> OffsetRows | None:
        """The stored rows of one offset as plain ints (None if beyond the table), decoded on
        first use and kept: one memoryview slice per array that has items for it."""
        q, r = target
        i = self.index(q, r)
        if i is None:
            return None
        got = self._rows.get(i)
        if got is not None:
            return got
        mv = self._mv
        h0, h1 = mv["hx_ptr"][i:i + 2].tolist()
        a0, a1 = mv["al_ptr"][i:i + 2].tolist()
        c0, c1 = mv["cr_ptr"][i:i + 2].tolist()
        v0, v1 = mv["vx_ptr"][i:i + 2].tolist()
        none: list[Any] = []
        al = (mv["al_t"][a0:a1].tolist(), mv["al"][3 * a0:3 * a1].tolist()) if a1 > a0 else (none, none)
        cr = (mv["cr_t"][c0:c1].tolist(), mv["cr"][3 * c0:3 * c1].tolist()) if c1 > c0 else (none, none)
        vx = (mv["vx_t"][v0:v1].tolist(), mv["vx_trio"][6 * v0:6 * v1].tolist(), mv["vx_side"][9 * v0:9 * v1].tolist(),
              mv["vx_cls"][3 * v0:3 * v1].tolist(), mv["vx_tch"][6 * v0:6 * v1].tolist(),
              mv["vx_ntch"][v0:v1].tolist()) if v1 > v0 else (none,) * 6
        got = self._rows[i] = OffsetRows((q, r), mv["hx_t"][h0:h1].tolist(), mv["hx"][2 * h0:2 * h1].tolist(),
                                         *al, *cr, *vx)
        return got

    def template(self, target: Hex) -> "Template | None":
        """The stored template of one offset (None if beyond the table)."""
        rows = self.rows(target)
        return rows.template() if rows is not None else None

    def template_reference(self, target: Hex) -> "Template | None":
        """:meth:`template` item by item from the arrays (the code :class:`OffsetRows` replaced),
        for the agreement tests."""
        i = self.index(target.q, target.r)
        if i is None:
            return None
        p = self.ptr

        def rows(name: str) -> slice:
            return slice(int(p[name][i]), int(p[name][i + 1]))

        s = rows("hx")
        hexes = tuple((t, Hex(q, r)) for t, (q, r) in zip(self.hx_t[s].tolist(), self.hx[s].tolist()))
        s = rows("al")
        along = tuple((t, HexsideKey(Hex(q, r), d)) for t, (q, r, d) in zip(self.al_t[s].tolist(), self.al[s].tolist()))
        s = rows("cr")
        crossed = tuple((t, HexsideKey(Hex(q, r), d))
                        for t, (q, r, d) in zip(self.cr_t[s].tolist(), self.cr[s].tolist()))
        s = rows("vx")
        verts = []
        for t, trio, sides, cls, tch, n in zip(self.vx_t[s].tolist(), self.vx_trio[s].tolist(),
                                               self.vx_side[s].tolist(), self.vx_cls[s].tolist(),
                                               self.vx_tch[s].tolist(), self.vx_ntch[s].tolist()):
            keys = [HexsideKey(Hex(q, r), d) for q, r, d in sides]
            verts.append((t, (Hex(*trio[0]), Hex(*trio[1]), Hex(*trio[2])),
                          tuple(k for k, c in zip(keys, cls) if c == 1), tuple(k for k, c in zip(keys, cls) if c == -1),
                          tuple(Hex(*x) for x in tch[:n])))
        return Template(target, hexes, along, crossed, tuple(verts))


@lru_cache(maxsize=4)
def _load(o: str, path: Path = TABLE_PATH) -> OffsetTable | None:
    try:
        with np.load(path) as data:  # an npz reads only the arrays asked for
            return OffsetTable(unpack(data, o), o, int(data["range"][0]))
    except (OSError, KeyError, ValueError):
        return None  # no table (or a damaged one): the reference computation still works


def table(o: str) -> OffsetTable | None:
    """The stored templates of orientation ``o``, loaded on first use (None if absent)."""
    return _load(o)


def _gather(ptr: np.ndarray, sel: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Row indices of the ragged rows ``sel`` (in that order) and the position in ``sel`` of each."""
    starts = ptr[sel]
    counts = ptr[sel + 1] - starts
    seg = np.repeat(np.arange(len(sel), dtype=np.int64), counts)
    first = np.cumsum(counts) - counts
    idx = np.arange(int(counts.sum()), dtype=np.int64) - np.repeat(first, counts) + np.repeat(starts, counts)
    return idx, seg


def _c4(q: np.ndarray, r: np.ndarray, o: str) -> np.ndarray:
    """Centres in the LOS frame ×4 (twice :func:`model.los_template._c2`), shape (n, 2)."""
    if o == "flat":
        return np.stack([6 * q, 2 * (2 * r + q)], axis=1).astype(np.float64).reshape(-1, 2)
    return np.stack([2 * (2 * q + r), 6 * r], axis=1).astype(np.float64).reshape(-1, 2)


def batch_arrays(tb: OffsetTable, R: int, NR: int, NN: int, strict: bool) -> dict[str, Any]:
    """The fields of :class:`model.los_fast._Batch` for range ``R`` (≤ the table's range) on a
    padded grid with ``NR`` rows per column and ``NN`` cells, gathered with numpy."""
    sel = np.flatnonzero((tb.length >= 1) & (tb.length <= R))
    off = tb.off[sel]
    oq, or_ = off[:, 0], off[:, 1]

    def rel(q: np.ndarray, r: np.ndarray) -> np.ndarray:
        return q * NR + r

    def ends(q: np.ndarray, r: np.ndarray, d: np.ndarray, seg: np.ndarray) -> np.ndarray:
        # A side of the firer's or the target's hex: its key hex or the neighbour across it is one.
        nq, nr = q + _DQ[d], r + _DR[d]
        tq, tr = oq[seg], or_[seg]
        return ((q == 0) & (r == 0)) | ((nq == 0) & (nr == 0)) | ((q == tq) & (r == tr)) | ((nq == tq) & (nr == tr))

    hi, hs = _gather(tb.ptr["hx"], sel)
    hq, hr = tb.hx[hi, 0], tb.hx[hi, 1]
    ai, as_ = _gather(tb.ptr["al"], sel)
    aq, ar, ad = tb.al[ai, 0], tb.al[ai, 1], tb.al[ai, 2]
    pq, pr = aq + _DQ[ad], ar + _DR[ad]
    ci, cs = _gather(tb.ptr["cr"], sel)
    cq, cr, cd = tb.cr[ci, 0], tb.cr[ci, 1], tb.cr[ci, 2]
    vi, vs = _gather(tb.ptr["vx"], sel)
    vside = tb.vx_side[vi]                                   # (V, 3, 3)
    sq, sr, sd = vside[..., 0], vside[..., 1], vside[..., 2]
    vseg3 = np.repeat(vs, 3).reshape(-1, 3)
    ve = ends(sq.reshape(-1), sr.reshape(-1), sd.reshape(-1), vseg3.reshape(-1)).reshape(-1, 3)
    keep = np.arange(3)[None, :] < tb.vx_ntch[vi][:, None]
    tch = tb.vx_tch[vi][keep]                                 # row-major: vertex order, then slot
    tq, tr = tch[:, 0], tch[:, 1]
    ts = np.repeat(vs, keep.sum(axis=1))
    # Graphic-candidate hexes (model.los_template.Template.graphic_hexes): a set per offset.
    gq = [hq, aq, pq] + ([tq] if strict else [])
    gr_ = [hr, ar, pr] + ([tr] if strict else [])
    gseg = np.concatenate([hs, as_, as_] + ([ts] if strict else []))
    grel = rel(np.concatenate(gq), np.concatenate(gr_))
    # One int64 key per (offset, hex), made unique by sorting (np.unique imports numpy.ma: 12 ms cold).
    span = int(np.abs(grel).max()) + 1 if len(grel) else 1
    key = np.sort(gseg * (2 * span) + (grel + span))
    key = key[np.concatenate([[True], key[1:] != key[:-1]])] if len(key) else key
    g_seg, g_rel = key // (2 * span), key % (2 * span) - span
    c4 = _c4(oq, or_, tb.o)
    return {
        "offsets": [Hex(q, r) for q, r in off.tolist()],
        "dist": tb.length[sel].astype(np.int64),
        "t_rel": rel(oq, or_),
        "hx": (rel(hq, hr), hs),
        "al": (ad * NN + rel(aq, ar), as_),
        "ap": (rel(aq, ar), rel(pq, pr), as_),
        "cr": (cd * NN + rel(cq, cr), ends(cq, cr, cd, cs), cs),
        "vx": (sd * NN + rel(sq, sr), tb.vx_cls[vi].reshape(-1, 3), ve, vs),
        "tc": (rel(tq, tr), ts),
        "gr": (g_rel, g_seg),
        "tx": c4[:, 0].copy(), "ty": c4[:, 1].copy(),
        "hxc": _c4(hq, hr, tb.o), "apc": (_c4(aq, ar, tb.o), _c4(pq, pr, tb.o)), "tcc": _c4(tq, tr, tb.o),
    }


def main(argv: list[str]) -> int:
    if "--write" in argv:
        print(f"wrote {write_table()}")
        return 0
    print("usage: python -m model.los_table --write   (regenerates resources/los/templates.npz)")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
