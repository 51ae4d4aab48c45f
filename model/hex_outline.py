"""The outline of a set of hexes: the boundary of their union as closed loops of corner points.

Why: filling a region as one polygon per hex (a winding-rule path of 59 overlapping hexagons,
354 edges) makes the rasteriser walk every interior side; the union's boundary is a few loops
(62 edges for the same 59 hexes), and an odd-even fill of the loops covers exactly the same
pixels (holes are loops of their own). Measured 2.3 → 0.5 ms for the Play-mode reach at 200 %
(docs/benchmarks.md); tests/model/test_hex_outline.py checks the loops against shapely's union.

A side is on the boundary when its neighbour across it is not in the set. Each hex's sides run
corner ``a`` → ``a + 1`` (Layout.edge_corners), so all boundary sides share one orientation and
every corner has at most one boundary side leaving it: the loops chain without ambiguity.
Corners are matched by integer lattice keys (corner coordinates are whole multiples of half the
hex size along one axis and of √3/2 of it along the other), never by rounded floats.
"""

from __future__ import annotations

from collections.abc import Iterable

from model.hexes import Hex
from model.layout import SQRT3, Layout

Point = tuple[float, float]


def _lattice(layout: Layout) -> tuple[float, float]:
    """The corner lattice's spacing (x, y) in map units for this orientation."""
    half, tall = layout.size / 2, layout.size * SQRT3 / 2
    return (half, tall) if layout.orientation.name == "flat" else (tall, half)


def outline_loops(layout: Layout, hexes: Iterable[Hex]) -> list[list[Point]]:
    """The boundary of the union of ``hexes`` as closed loops (the last point joins the first).
    Outer boundaries and holes alike; fill them with the odd-even rule. Empty for no hexes.
    The order of ``hexes`` only decides where each loop starts."""
    order = list(dict.fromkeys(hexes))
    inside = set(order)
    offsets = [layout.corner_offset(i) for i in range(6)]
    sides = [layout.edge_corners(d) for d in range(6)]
    ux, uy = _lattice(layout)
    ox, oy = layout.origin_x, layout.origin_y
    # corner key → (next corner key along the boundary, this corner's point)
    after: dict[tuple[int, int], tuple[tuple[int, int], Point]] = {}
    for h in order:
        cx, cy = layout.center(h)
        for d, (a, b) in enumerate(sides):
            if h.neighbor(d) in inside:
                continue
            ax, ay = cx + offsets[a][0], cy + offsets[a][1]
            bx, by = cx + offsets[b][0], cy + offsets[b][1]
            ka = (round((ax - ox) / ux), round((ay - oy) / uy))
            kb = (round((bx - ox) / ux), round((by - oy) / uy))
            after[ka] = (kb, (ax, ay))
    loops: list[list[Point]] = []
    while after:
        start = next(iter(after))  # insertion order: deterministic for a given ``hexes``
        k, p = after.pop(start)
        loop = [p]
        while k != start:
            k, p = after.pop(k)
            loop.append(p)
        loops.append(loop)
    return loops
