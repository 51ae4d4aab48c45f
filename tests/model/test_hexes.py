"""Hex math laws (Red Blob Games) and layout round trips."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from model.hexes import DIRECTIONS, Hex, direction_index
from model.layout import Layout

coords = st.integers(-300, 300)
hexes = st.builds(Hex, coords, coords)


@given(hexes, hexes)
def test_distance_is_a_metric(a: Hex, b: Hex) -> None:
    assert a.distance(b) == b.distance(a) >= 0
    assert (a.distance(b) == 0) == (a == b)


@given(hexes, hexes, hexes)
def test_triangle_inequality(a: Hex, b: Hex, c: Hex) -> None:
    assert a.distance(c) <= a.distance(b) + b.distance(c)


@given(hexes, st.integers(0, 5))
def test_neighbour_symmetry(h: Hex, d: int) -> None:
    n = h.neighbor(d)
    assert h.distance(n) == 1
    assert n.neighbor((d + 3) % 6) == h
    assert h.direction_to(n) == d


@given(hexes, hexes)
def test_line_is_contiguous_and_shortest(a: Hex, b: Hex) -> None:
    line = a.line_to(b)
    assert line[0] == a and line[-1] == b
    assert len(line) == a.distance(b) + 1
    assert all(p.distance(q) == 1 for p, q in zip(line, line[1:]))


@given(hexes, st.integers(0, 12))
def test_ring_and_range(h: Hex, radius: int) -> None:
    ring = h.ring(radius)
    assert len(ring) == (6 * radius if radius else 1)
    assert all(h.distance(x) == radius for x in ring)
    area = list(h.range(radius))
    assert len(area) == 1 + 3 * radius * (radius + 1)
    assert len(set(area)) == len(area)


@given(hexes, st.sampled_from(["flat", "pointy"]), st.floats(0.5, 80))
def test_layout_round_trip(h: Hex, orientation: str, size: float) -> None:
    layout = Layout.for_orientation(orientation, size, (13.0, -7.0))
    assert layout.hex_at(*layout.center(h)) == h
    # every corner is one size away from the centre
    cx, cy = layout.center(h)
    for x, y in layout.corners(h):
        assert abs(((x - cx) ** 2 + (y - cy) ** 2) ** 0.5 - size) < 1e-6 * size


def test_edge_corners_lie_between_neighbours() -> None:
    for orientation in ("flat", "pointy"):
        layout = Layout.for_orientation(orientation)
        h = Hex(0, 0)
        for d in range(6):
            a, b = layout.edge_corners(d)
            (ax, ay), (bx, by) = layout.corners(h)[a], layout.corners(h)[b]
            nx, ny = layout.center(h.neighbor(d))
            mx, my = (ax + bx) / 2, (ay + by) / 2
            # the side's midpoint is half-way to the neighbour's centre
            assert abs(mx - nx / 2) < 1e-9 and abs(my - ny / 2) < 1e-9


def test_direction_names() -> None:
    assert DIRECTIONS[direction_index("flat", "S")] == (0, 1)
    assert DIRECTIONS[direction_index("pointy", "E")] == (1, 0)
