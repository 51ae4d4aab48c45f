"""Shapes: canonical hexside and vertex keys, exact LOS frame, portions, STRtree cache."""

from __future__ import annotations

import math

from geomkit import H, make_map

from model.base import hexside_key
from model.geometry import (hex_polygon, hexside_line, layout_for, los_center, los_corners, portion_polygon,
                            shapes_for, vertex_key, vertex_sides)
from model.hexes import Hex


def test_hexside_line_is_the_same_from_both_hexes() -> None:
    a = Hex(3, 2)
    for d in range(6):
        b = a.neighbor(d)
        k1, k2 = hexside_key(a, d), hexside_key(b, (d + 3) % 6)
        assert k1 == k2
        assert hexside_line(k1).equals(hexside_line(k2))


def test_hexside_line_is_shared_by_both_polygons() -> None:
    lay = layout_for(make_map(4, 4))
    a = Hex(1, 1)
    for d in range(6):
        line = hexside_line(hexside_key(a, d), frame="map", layout=lay)
        assert math.isclose(line.length, 1.0, abs_tol=1e-9)
        for poly in (hex_polygon(a, lay), hex_polygon(a.neighbor(d), lay)):
            corners = list(poly.exterior.coords)
            for x, y in line.coords:
                assert min(math.hypot(x - cx, y - cy) for cx, cy in corners) < 1e-9


def test_vertex_key_is_canonical_and_has_three_sides() -> None:
    a = Hex(0, 0)
    keys = {vertex_key(a, i) for i in range(6)}
    assert len(keys) == 6
    # The same vertex named from each of its three hexes gives one key.
    for vk in keys:
        named = set()
        for h in vk:
            for i, c in enumerate(los_corners(h)):
                if vertex_key(h, i) == vk:
                    named.add(c)
        assert len(named) == 1
        assert len(set(vertex_sides(vk))) == 3


def test_los_frame_is_exact_halves() -> None:
    for q in range(-5, 6):
        for r in range(-5, 6):
            for x, y in [los_center(Hex(q, r))] + los_corners(Hex(q, r)):
                assert (2 * x).is_integer() and (2 * y).is_integer()


def test_preset_portion_lies_against_its_side() -> None:
    m = make_map(portions=[{"hex": "28.049", "preset": "S", "depth": 0.5}])
    lay = layout_for(m)
    h = H(m, "28.049")
    grey = portion_polygon(m.portions[0], lay)
    cx, cy = lay.center(h)
    assert grey.bounds[1] > cy            # wholly south of the centre dot (y down)
    assert 0 < grey.area < hex_polygon(h, lay).area / 2


def test_shapes_cache_rebuilds_only_after_invalidate() -> None:
    m = make_map(paths=[("raised_road", ["05.005", "06.005", "07.006"])])
    s1 = shapes_for(m, {"raised_road"})
    assert shapes_for(m, {"raised_road"}) is s1
    assert set(s1.graphics) == {H(m, "05.005"), H(m, "06.005"), H(m, "07.006")}
    m.paths.pop()
    m.invalidate()
    s2 = shapes_for(m, {"raised_road"})
    assert s2 is not s1 and not s2.graphics
