"""Reference (shapely) and fast (integer templates + numpy) LOS agree on random maps."""

from __future__ import annotations

from geomkit import make_map, system
from hypothesis import given, settings
from hypothesis import strategies as st

from model.base import hexside_key
from model.hexes import Hex
from model.los import line_of_sight, trace_reference
from model.los_fast import FastLos

COLS, ROWS = 14, 14
DIRS = ("N", "NE", "SE", "S", "SW", "NW")


def _label(x: int, y: int) -> str:
    return f"{x:02d}.{y:03d}"


cells = st.tuples(st.integers(0, COLS - 1), st.integers(0, ROWS - 1))


@st.composite
def random_map(draw):  # type: ignore[no-untyped-def]
    terrain = {_label(x, y): draw(st.sampled_from("WTH")) for x, y in draw(st.lists(cells, max_size=30))}
    sides: dict[str, list[str]] = {}
    for kind in ("crest", "ridge", "bridge"):
        picks = draw(st.lists(st.tuples(cells, st.sampled_from(DIRS)), max_size=12 if kind != "bridge" else 4))
        if picks:
            sides[kind] = sorted({f"{_label(x, y)}/{d}" for (x, y), d in picks})
    feats = [(draw(st.sampled_from(["op", "strongpoint"])), _label(x, y)) for x, y in draw(st.lists(cells, max_size=6))]
    paths = []
    if draw(st.booleans()):
        x, y = draw(cells)
        paths.append(("raised_road", [_label(x, y), _label(min(x + 1, COLS - 1), y), _label(min(x + 2, COLS - 1), y)]))
    m = make_map(COLS, ROWS, terrain=terrain, hexsides=sides, paths=paths, features=feats)
    return m


@settings(max_examples=40, deadline=None)
@given(random_map(), st.lists(st.tuples(cells, cells), min_size=1, max_size=12),
       st.sampled_from(["default", "strict"]), st.sampled_from(["direct", "spot"]),
       st.sampled_from(["blocked", "open"]), st.sampled_from(["utah_errata", "series"]),
       st.lists(cells, max_size=3))
def test_reference_and_fast_agree(m, pairs, vertex, purpose, both_blocking, crest_rule, barrage) -> None:  # type: ignore[no-untyped-def]
    s = system(vertex_policy=vertex, hexside_both_blocking=both_blocking, crest_rule=crest_rule,
               ranges={"day": 12})
    spec = m.spec
    fast = FastLos(m, s)
    barr = {spec.hex_at_offset(x, y) for x, y in barrage}
    for (ax, ay), (bx, by) in pairs:
        a, b = spec.hex_at_offset(ax, ay), spec.hex_at_offset(bx, by)
        ref = line_of_sight(m, s, a, b, purpose=purpose, barrage=barr)
        got = fast.query(a, b, purpose=purpose, barrage=barr)
        assert trace_reference(m, a, b, fast.shapes).signature() == fast.geometry(a, b).signature()
        assert (ref.visible, ref.used, ref.observer) == (got.visible, got.used, got.observer), ref.explain()
        assert [(c.where, c.effect) for c in ref.crossings] == [(c.where, c.effect) for c in got.crossings]
        seen = fast.viewshed(a, purpose=purpose, barrage=barr)
        assert (b in seen) == ref.visible or a == b, ref.explain()


@settings(max_examples=15, deadline=None)
@given(random_map(), st.sampled_from(["default", "strict"]))
def test_matrix_matches_single_queries(m, vertex) -> None:  # type: ignore[no-untyped-def]
    s = system(vertex_policy=vertex)
    fast = FastLos(m, s)
    mat = fast.matrix(radius=6)
    hexes = m.hexes()
    for a in hexes[::17]:
        for b in hexes[::5]:
            if a == b or a.distance(b) > 6:
                continue
            assert mat.visible(a, b) == line_of_sight(m, s, a, b).visible


def test_hexspine_and_vertex_lines_trace_identically() -> None:
    m = make_map(30, 30)
    fast = FastLos(m, system())
    origin = Hex(12, 4)
    for off in Hex(0, 0).range(9):
        t = origin + off
        assert trace_reference(m, origin, t).signature() == fast.geometry(origin, t).signature(), off
    assert hexside_key(origin, 0) == hexside_key(origin.neighbor(0), 3)


def test_pointy_top_geometry_agrees() -> None:
    from model.labels import GridModel, Sheet
    from model.mapdata import HexMap

    g = GridModel(orientation="pointy", stagger="odd", sheets=[Sheet(id="p", cols=20, rows=20)])
    m = HexMap.model_validate({"id": "p", "name": "pointy", "grid": g.model_dump(),
                               "terrain": {"legend": {".": "clear"}, "rows": "\n".join(["." * 20] * 20)}},
                              context={"grid": g.spec()})
    fast = FastLos(m, system())
    origin = g.spec().hex_at_offset(10, 10)
    spines = 0
    for off in Hex(0, 0).range(7):
        t = origin + off
        ref = trace_reference(m, origin, t, fast.shapes)
        assert ref.signature() == fast.geometry(origin, t).signature(), off
        spines += bool(ref.along)
    assert spines > 0          # hexspine lines exist in pointy-top too


def _seen(origins: list[Hex], offsets: list[Hex], vis) -> set[tuple[Hex, Hex]]:  # type: ignore[no-untyped-def]
    return {(o, o + offsets[int(k)]) for i, o in enumerate(origins) for k in vis[i].nonzero()[0]}


@settings(max_examples=25, deadline=None)
@given(random_map(), st.lists(cells, min_size=1, max_size=6), st.booleans(), st.sampled_from(["direct", "spot"]))
def test_rows_on_the_needed_offsets_agree_with_the_whole_radius(m, observers, night, purpose) -> None:  # type: ignore[no-untyped-def]
    """FastLos.rows builds only the offsets a row can see (its own range, or back to a hill,
    whose visibility is reciprocal [Utah Excl 2.1.10], within the hill's range): the pairs seen
    are those of the whole radius (rows_reference)."""
    fast = FastLos(m, system())
    obs = [m.spec.hex_at_offset(x, y) for x, y in observers]
    got = fast.rows(obs, night=night, purpose=purpose)
    ref = fast.rows_reference(obs, night=night, purpose=purpose)
    assert got[0] == ref[0]
    assert _seen(*got) == _seen(*ref)
    assert len(got[1]) <= len(ref[1])


def test_line_templates_equal_the_reference_form() -> None:
    """model.los_fast.template_computed (corners and sides computed once per hex, only touching
    hexes' sides tested; what template() falls back to beyond the precomputed table) gives
    exactly template_reference's geometry, floats included."""
    from model.los_fast import template_computed, template_reference

    for o in ("flat", "pointy"):
        for off in Hex(0, 0).range(11):
            assert template_computed(off, o) == template_reference(off, o), (o, off)
