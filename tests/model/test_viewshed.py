"""Viewsheds and the all-pairs matrix against the reference LOS."""

from __future__ import annotations

from geomkit import H, make_map, system

from model.viewshed import viewshed, viewshed_reference, visibility_matrix


def _map():  # type: ignore[no-untyped-def]
    return make_map(30, 30, terrain={"12.012": "W", "13.014": "T", "10.015": "H", "15.011": "W"},
                    hexsides={"crest": ["12.016/S", "14.013/NE"], "ridge": ["09.011/SW"]},
                    paths=[("raised_road", ["11.016", "12.016", "13.017"])], features=[("op", "12.014")])


def test_viewshed_matches_reference() -> None:
    m, s = _map(), system()
    for origin, reach in (("12.014", 8), ("10.015", 13), ("13.014", 8), ("08.008", 8)):   # 10.015: a Hill
        h = H(m, origin)
        assert viewshed(m, s, h) == viewshed_reference(m, s, h, reach), origin
    op = H(m, "12.014")
    assert viewshed(m, s, op, purpose="spot") == viewshed_reference(m, s, op, 13, purpose="spot")
    assert viewshed(m, s, op, night=True) == viewshed_reference(m, s, op, 3, night=True)


def test_viewshed_respects_radius_and_range() -> None:
    m, s = make_map(30, 30), system()
    h = H(m, "15.015")
    assert len(viewshed(m, s, h)) == 3 * 8 * 9            # open ground: every hex within 8
    assert len(viewshed(m, s, h, radius=2)) == 18
    assert len(viewshed(m, s, h, night=True)) == 3 * 3 * 4


def test_matrix_matches_viewsheds() -> None:
    m, s = _map(), system()
    mat = visibility_matrix(m, s)
    assert mat.nbytes <= len(m.hexes()) * ((len(mat.offsets) + 7) // 8)
    for origin in ("12.014", "10.015", "03.003"):
        h = H(m, origin)
        seen = viewshed(m, s, h)
        assert {x for x in h.range(13) if x != h and mat.visible(h, x)} == seen


def test_los_disabled_has_empty_viewshed() -> None:
    m = make_map(10, 10)
    assert viewshed(m, system(enabled=False), H(m, "05.005")) == set()
