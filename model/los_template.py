"""The geometry of one line of sight from Hex(0,0) to an offset, in exact integer arithmetic.

What a line from F to T meets depends only on the offset T − F. :func:`template_reference` is the
straightforward computation; :func:`template_computed` the same arranged for speed (tested
bit-equal); :mod:`model.los_table` stores the reference's templates within range 16, and
:func:`model.los_fast.template` reads that table first. Kept apart from :mod:`model.los_fast` so
the table and the fast engine both import it without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from model.base import HexsideKey, hexside_key
from model.geometry import vertex_key, vertex_sides
from model.hexes import Hex
from model.layout import Layout
from model.los import LosGeometry, VertexPass

_K2 = {
    "flat": ((2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1), (1, -1)),
    "pointy": ((1, 1), (0, 2), (-1, 1), (-1, -1), (0, -2), (1, -1)),
}
# Weights turning the doubled LOS frame's dot product into the map frame's (up to a factor).
_W = {"flat": (1, 3), "pointy": (3, 1)}
# The two corners bounding the side toward each direction (Layout.edge_corners), per orientation.
_EDGES = {o: tuple(Layout.for_orientation(o).edge_corners(d) for d in range(6)) for o in ("flat", "pointy")}


def _c2(h: Hex, o: str) -> tuple[int, int]:
    return (3 * h.q, 2 * h.r + h.q) if o == "flat" else (2 * h.q + h.r, 3 * h.r)


@dataclass(frozen=True)
class Template:
    """Geometry of the line from (0,0) to ``target``, relative to the firer."""

    target: Hex
    hexes: tuple[tuple[float, Hex], ...]
    along: tuple[tuple[float, HexsideKey], ...]
    crossed: tuple[tuple[float, HexsideKey], ...]
    vertices: tuple[tuple[float, tuple[Hex, Hex, Hex], tuple[HexsideKey, ...], tuple[HexsideKey, ...],
                          tuple[Hex, ...]], ...]

    def translate(self, f: Hex) -> LosGeometry:
        def mv(k: HexsideKey) -> HexsideKey:
            return HexsideKey(k.hex + f, k.direction)
        geo = LosGeometry(f, self.target + f)
        geo.hexes = [(t, h + f) for t, h in self.hexes]
        geo.along = [(t, mv(k)) for t, k in self.along]
        geo.crossed = [(t, mv(k)) for t, k in self.crossed]
        geo.vertices = [VertexPass(t, (a + f, b + f, c + f), [mv(k) for k in lt], [mv(k) for k in rt],
                                   [x + f for x in tch]) for t, (a, b, c), lt, rt, tch in self.vertices]
        return geo

    def graphic_hexes(self, strict: bool) -> set[Hex]:
        """Hexes whose graphic would count (relative): passed, along pairs, touched if strict."""
        out = {h for _, h in self.hexes}
        for _, k in self.along:
            out.update(k.hexes())
        if strict:
            for v in self.vertices:
                out.update(v[4])
        return out


@lru_cache(maxsize=8192)
def template_computed(target: Hex, o: str = "flat") -> Template:
    """Exact geometry of the line from Hex(0,0) to ``target`` (integer arithmetic).

    The same computation as :func:`template_reference`, arranged for a cold all-pairs call
    (issue #22: building the templates was most of a first coverage's time): each candidate
    hex's corners and their sides of the line are computed once, and only the hexsides of hexes
    the line touches are tested (a side along or across the line has its ends on or on both
    sides of it, so both its hexes touch the line). Every figure is the reference's formula on
    the same operands, so the floats are the same bits.
    """
    origin = Hex(0, 0)
    if target == origin:
        return Template(target, (), (), (), ())
    edge = _EDGES[o]
    K = _K2[o]
    wx, wy = _W[o]
    DX, DY = _c2(target, o)
    DD = DX * DX + DY * DY
    WDD = wx * DX * DX + wy * DY * DY

    def tpar(px: float, py: float) -> float:
        return (px * DX + py * DY) / DD

    cands: set[Hex] = set()
    for h in origin.line_to(target):
        cands.add(h)
        cands.update(h.neighbors())
    pts_of: dict[Hex, list[tuple[int, int]]] = {}
    side_of: dict[Hex, list[int]] = {}

    def geom(h: Hex) -> tuple[list[tuple[int, int]], list[int]]:
        got = pts_of.get(h)
        if got is None:
            cx, cy = _c2(h, o)
            got = pts_of[h] = [(cx + kx, cy + ky) for kx, ky in K]
            side_of[h] = [DX * y - DY * x for x, y in got]
        return got, side_of[h]

    hexes: list[tuple[float, Hex]] = []
    touching: list[Hex] = []
    for h in cands:
        pts, a = geom(h)
        hi, lo = max(a), min(a)
        if hi >= 0 and lo <= 0:
            touching.append(h)
        if h == origin or h == target or not (hi > 0 and lo < 0):
            continue
        cx, cy = _c2(h, o)
        w = wx * cx * DX + wy * cy * DY
        if not (0 < w < WDD):
            continue
        ts = []
        for i in range(6):
            j = (i + 1) % 6
            if a[i] == 0:
                ts.append(tpar(*pts[i]))
            elif (a[i] > 0) != (a[j] > 0) and a[j] != 0:
                u = a[i] / (a[i] - a[j])
                ts.append(tpar(pts[i][0] + u * (pts[j][0] - pts[i][0]), pts[i][1] + u * (pts[j][1] - pts[i][1])))
        hexes.append(((min(ts) + max(ts)) / 2, h))
    hexes.sort()
    S = {h for _, h in hexes} | {origin, target}

    along: list[tuple[float, HexsideKey]] = []
    crossed: list[tuple[float, HexsideKey]] = []
    keys = {hexside_key(h, d) for h in touching for d in range(6)}
    pairs: set[Hex] = set()
    for k in keys:
        pts, a = geom(k.hex)
        ia, ib = edge[k.direction]
        p, q = pts[ia], pts[ib]
        ap, aq = a[ia], a[ib]
        if ap == 0 and aq == 0:
            tp, tq = tpar(*p), tpar(*q)
            if 0 <= tp <= 1 and 0 <= tq <= 1:
                along.append(((tp + tq) / 2, k))
                pairs.update(k.hexes())
        elif ap != 0 and aq != 0 and (ap > 0) != (aq > 0):
            h1, h2 = k.hexes()
            if h1 in S and h2 in S:
                u = ap / (ap - aq)
                crossed.append((tpar(p[0] + u * (q[0] - p[0]), p[1] + u * (q[1] - p[1])), k))
    along.sort()
    crossed.sort()
    verts = []
    seen = set()
    for h in S | pairs:
        pts, a = geom(h)
        for i, (vx, vy) in enumerate(pts):
            if a[i] != 0:
                continue
            d = vx * DX + vy * DY
            if not (0 < d < DD):
                continue
            vk = vertex_key(h, i, o)
            if vk in seen:
                continue
            seen.add(vk)
            left, right = [], []
            for sk in vertex_sides(vk):
                spts, _ = geom(sk.hex)
                ia, ib = edge[sk.direction]
                p, q = spts[ia], spts[ib]
                w_ = q if p == (vx, vy) else p
                c = DX * (w_[1] - vy) - DY * (w_[0] - vx)
                if c > 0:
                    left.append(sk)
                elif c < 0:
                    right.append(sk)
            touched = tuple(x for x in vk if x not in S and x not in pairs)
            verts.append((d / DD, vk, tuple(left), tuple(right), touched))
    verts.sort(key=lambda v: v[0])
    return Template(target, tuple(hexes), tuple(along), tuple(crossed), tuple(verts))


@lru_cache(maxsize=8192)
def template_reference(target: Hex, o: str = "flat") -> Template:
    """Exact geometry of the line from Hex(0,0) to ``target`` (integer arithmetic): the
    straightforward form, which :func:`template_computed` and the table :mod:`model.los_table`
    is generated from must equal (tests/model/test_los_agreement.py, test_los_table.py)."""
    origin = Hex(0, 0)
    if target == origin:
        return Template(target, (), (), (), ())
    lay = Layout.for_orientation(o)
    K = _K2[o]
    wx, wy = _W[o]
    DX, DY = _c2(target, o)
    DD = DX * DX + DY * DY
    WDD = wx * DX * DX + wy * DY * DY

    def side(px: int, py: int) -> int:
        return DX * py - DY * px

    def tpar(px: float, py: float) -> float:
        return (px * DX + py * DY) / DD

    cands: set[Hex] = set()
    for h in origin.line_to(target):
        cands.add(h)
        cands.update(h.neighbors())

    def corners(h: Hex) -> list[tuple[int, int]]:
        cx, cy = _c2(h, o)
        return [(cx + kx, cy + ky) for kx, ky in K]

    hexes: list[tuple[float, Hex]] = []
    for h in cands - {origin, target}:
        pts = corners(h)
        a = [side(x, y) for x, y in pts]
        if not (max(a) > 0 and min(a) < 0):
            continue
        cx, cy = _c2(h, o)
        w = wx * cx * DX + wy * cy * DY
        if not (0 < w < WDD):
            continue
        ts = []
        for i in range(6):
            j = (i + 1) % 6
            if a[i] == 0:
                ts.append(tpar(*pts[i]))
            elif (a[i] > 0) != (a[j] > 0) and a[j] != 0:
                u = a[i] / (a[i] - a[j])
                ts.append(tpar(pts[i][0] + u * (pts[j][0] - pts[i][0]), pts[i][1] + u * (pts[j][1] - pts[i][1])))
        hexes.append(((min(ts) + max(ts)) / 2, h))
    hexes.sort()
    S = {h for _, h in hexes} | {origin, target}

    def side_pts(k: HexsideKey) -> tuple[tuple[int, int], tuple[int, int]]:
        a, b = lay.edge_corners(k.direction)
        cs = corners(k.hex)
        return cs[a], cs[b]

    along: list[tuple[float, HexsideKey]] = []
    crossed: list[tuple[float, HexsideKey]] = []
    keys = {hexside_key(h, d) for h in cands for d in range(6)}
    pairs: set[Hex] = set()
    for k in keys:
        p, q = side_pts(k)
        ap, aq = side(*p), side(*q)
        if ap == 0 and aq == 0:
            tp, tq = tpar(*p), tpar(*q)
            if 0 <= tp <= 1 and 0 <= tq <= 1:
                along.append(((tp + tq) / 2, k))
                pairs.update(k.hexes())
        elif ap != 0 and aq != 0 and (ap > 0) != (aq > 0):
            h1, h2 = k.hexes()
            if h1 in S and h2 in S:
                u = ap / (ap - aq)
                crossed.append((tpar(p[0] + u * (q[0] - p[0]), p[1] + u * (q[1] - p[1])), k))
    along.sort()
    crossed.sort()
    verts = []
    seen = set()
    for h in S | pairs:
        for i, (vx, vy) in enumerate(corners(h)):
            if side(vx, vy) != 0:
                continue
            d = vx * DX + vy * DY
            if not (0 < d < DD):
                continue
            vk = vertex_key(h, i, o)
            if vk in seen:
                continue
            seen.add(vk)
            left, right = [], []
            for sk in vertex_sides(vk):
                p, q = side_pts(sk)
                w_ = q if p == (vx, vy) else p
                c = DX * (w_[1] - vy) - DY * (w_[0] - vx)
                if c > 0:
                    left.append(sk)
                elif c < 0:
                    right.append(sk)
            touched = tuple(x for x in vk if x not in S and x not in pairs)
            verts.append((d / DD, vk, tuple(left), tuple(right), touched))
    verts.sort(key=lambda v: v[0])
    return Template(target, tuple(hexes), tuple(along), tuple(crossed), tuple(verts))
