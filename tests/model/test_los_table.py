"""The stored LOS offset templates (resources/los/templates.npz, model/los_table.py) equal the
reference computation (model.los_template.template_reference) for every offset in the table, and
the viewshed batches gathered from them with numpy equal the reference batch."""

from __future__ import annotations

import numpy as np
import pytest
from geomkit import make_map, system

from model.hexes import Hex
from model.los import Conditions
from model.los_fast import FastLos, _Arrays, _Batch, template_reference
from model.los_table import ORIENTATIONS, TABLE_PATH, TABLE_RANGE, batch_arrays, build_table, table, unpack


@pytest.mark.parametrize("o", ORIENTATIONS)
def test_stored_table_is_the_reference_computation(o: str) -> None:
    """Every stored array equals a fresh build from the reference templates (regenerate with
    ``python -m model.los_table --write`` if the template code changes)."""
    tb = table(o)
    assert tb is not None and tb.radius == TABLE_RANGE
    fresh = build_table(TABLE_RANGE)
    with np.load(TABLE_PATH) as data:
        stored = unpack(data, o)
    keys = sorted(k[len(o) + 1:] for k in fresh if k.startswith(f"{o}/"))
    assert keys == sorted(stored)
    for k in keys:
        want = fresh[f"{o}/{k}"]
        assert stored[k].shape == want.shape and np.array_equal(stored[k], want), k


@pytest.mark.parametrize("o", ORIENTATIONS)
def test_every_stored_template_equals_the_reference(o: str) -> None:
    tb = table(o)
    assert tb is not None
    n = 0
    for off in Hex(0, 0).range(TABLE_RANGE):
        if off == Hex(0, 0):
            continue
        assert tb.template(off) == template_reference(off, o), off
        n += 1
    assert n == 3 * TABLE_RANGE * (TABLE_RANGE + 1)
    assert tb.template(Hex(TABLE_RANGE + 1, 0)) is None  # beyond the table: template_computed is used


def _fields(b: _Batch) -> dict[str, object]:
    return {k: getattr(b, k) for k in ("offsets", "dist", "t_rel", "hx", "al", "ap", "cr", "vx", "tc", "tx", "ty",
                                       "hxc", "apc", "tcc")}


def _same(a: object, b: object, where: str) -> None:
    if isinstance(a, tuple):
        assert isinstance(b, tuple) and len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b)):
            _same(x, y, f"{where}[{i}]")
    elif isinstance(a, np.ndarray):
        assert isinstance(b, np.ndarray) and a.dtype == b.dtype and a.shape == b.shape, \
            (where, a.dtype, b.dtype, a.shape, b.shape)
        assert np.array_equal(a, b), where
    else:
        assert a == b, where


@pytest.mark.parametrize("o", ORIENTATIONS)
@pytest.mark.parametrize("vertex", ["default", "strict"])
def test_table_batch_equals_reference_batch(o: str, vertex: str) -> None:
    fl = FastLos(make_map(12, 9), system(vertex_policy=vertex, ranges={"day": 12}))
    fl.o = o  # the batch reads only the orientation and the padded grid's shape
    arr = _Arrays(fl, Conditions(), "direct", frozenset())
    tb = table(o)
    assert tb is not None
    for R in (1, 2, 5, 8, 13, TABLE_RANGE):
        fast = _Batch(**batch_arrays(tb, R, arr.NR, arr.NN, arr.strict))
        ref = arr._batch_reference(R)
        a, b = _fields(fast), _fields(ref)
        for k in a:
            _same(a[k], b[k], f"R={R} {k}")
        # Graphic candidates: a set per offset in the reference, sorted in the table's.
        got = sorted(zip(fast.gr[1].tolist(), fast.gr[0].tolist()))
        want = sorted(set(zip(ref.gr[1].tolist(), ref.gr[0].tolist())))
        assert got == want and len(want) == len(ref.gr[0]), f"R={R} gr"


@pytest.mark.parametrize("o", ORIENTATIONS)
def test_batch_beyond_the_table_equals_the_reference_batch(o: str) -> None:
    """Past the table's range the batch is built from the fast templates (template_computed),
    not the reference ones, and equals the reference batch field for field."""
    R = TABLE_RANGE + 2
    fl = FastLos(make_map(40, 40), system(ranges={"day": R}))
    fl.o = o
    arr = _Arrays(fl, Conditions(), "direct", frozenset())
    fast, ref = _fields(arr.batch(R)), _fields(arr._batch_reference(R))
    for k in fast:
        _same(fast[k], ref[k], f"R={R} {k}")


def _sample_maps() -> list[tuple[str, object, object]]:
    from pathlib import Path

    from model.bundle import load_bundle

    root = Path(__file__).resolve().parents[2] / "scenarios"
    out = []
    for name in ("utah-beach", "killing-ground"):
        b = load_bundle(root / name).bundle
        assert b is not None
        for mid, m in b.maps.items():
            out.append((f"{name}/{mid}", m, b.system))
    return out


@pytest.mark.parametrize("purpose", ["direct", "spot"])
@pytest.mark.parametrize("cond", [Conditions(), Conditions(night=True), Conditions(fog=True)])
def test_per_hex_arrays_equal_reference(purpose: str, cond: Conditions) -> None:
    """The numpy per-hex arrays (terrain blocking, observer budget and range, reciprocal
    observers) equal the hex-by-hex loop, on the samples (OPs, strongpoints, hills) and on a
    small map with features and a barrage."""
    from model.system import GameSystem, system_path
    import yaml

    utah = GameSystem.model_validate(yaml.safe_load(system_path("gts-utah").read_text()))
    small = make_map(14, 12, terrain={"03.004": "H", "05.006": "W", "07.002": "T"},
                     features=[("op", "02.002"), ("strongpoint", "03.004"), ("op", "03.004")])
    cases = [(n, m, s) for n, m, s in _sample_maps()] + [("small", small, utah), ("small-geomkit", small, system())]
    barrage = frozenset({small.spec.hex_at_offset(4, 4), Hex(-40, -40)})
    for name, m, s in cases:
        fl = FastLos(m, s)  # type: ignore[arg-type]
        if not s.los.enabled:  # type: ignore[attr-defined]
            continue
        for barr in (frozenset(), barrage if name.startswith("small") else frozenset()):
            arr = _Arrays(fl, cond, purpose, barr)
            ref = arr._per_hex_reference()
            for k, v in ref.items():
                got = getattr(arr, k)
                assert got.dtype == v.dtype and np.array_equal(got, v), (name, k)
            assert arr.index == {h: arr.flat(h) for h in m.hexes()}  # type: ignore[attr-defined]


def test_terrain_view_equals_terrain_index() -> None:
    """The LOS rules read terrain through the dense index (model.geometry.TerrainView); as a
    mapping it equals the reference dict, on and off the map."""
    from model.geometry import terrain_index, terrain_view

    ragged = make_map(6, 5, terrain={"01.001": "W"})
    for name, m, _ in _sample_maps() + [("small", ragged, None)]:
        view, ref = terrain_view(m), terrain_index(m)  # type: ignore[arg-type]
        assert dict(view) == ref and len(view) == len(ref), name
        for h in list(ref)[:50] + [Hex(-99, -99), Hex(500, 3)]:
            assert view.get(h) == ref.get(h) and (h in view) == (h in ref), (name, h)


# --- a single query's rows (model.los_table.OffsetRows) -------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from model.los_template import template_reference as _template_ref  # noqa: E402

_coord = st.integers(-TABLE_RANGE - 2, TABLE_RANGE + 2)


@settings(max_examples=300, deadline=None)
@given(st.tuples(_coord, _coord), st.sampled_from(ORIENTATIONS), st.tuples(st.integers(-60, 60), st.integers(-60, 60)),
       st.booleans())
def test_offset_rows_translate_to_the_reference_geometry(off: tuple[int, int], o: str, f: tuple[int, int],
                                                         strict: bool) -> None:
    """An offset's decoded rows, translated to a firer, are the reference template translated
    (every item, its order and its float t), and the graphic-candidate hexes are the
    reference's translated; beyond the table (or at the origin) there are no rows."""
    tb = table(o)
    assert tb is not None
    target, firer = Hex(*off), Hex(*f)
    rows = tb.rows(target)
    if target == Hex(0, 0) or target.length() > TABLE_RANGE:
        assert rows is None and tb.index(*off) is None
        return
    assert rows is not None
    ref = _template_ref(target, o)
    assert rows.translate(firer) == ref.translate(firer)
    assert rows.graphic_hexes(firer, strict) == {h + firer for h in ref.graphic_hexes(strict)}
    assert rows.template() == ref == tb.template_reference(target)
    assert tb.rows(target) is rows  # decoded once


@pytest.mark.parametrize("o", ORIENTATIONS)
def test_offset_index_is_the_row_of_the_offset(o: str) -> None:
    """The arithmetic row index equals the offset's position in the stored ``off`` array."""
    tb = table(o)
    assert tb is not None
    stored = [tuple(x) for x in tb.off.tolist()]
    assert [tb.index(q, r) for q, r in stored] == list(range(len(stored)))
    assert tb.index(0, 0) is None and tb.index(TABLE_RANGE, 1) is None and tb.index(-TABLE_RANGE - 1, 0) is None


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 13), st.integers(0, 13), st.integers(0, 13), st.integers(0, 13)),
                min_size=1, max_size=10), st.sampled_from(["default", "strict"]), st.booleans())
def test_query_geometry_equals_the_template_path(pairs: list[tuple[int, int, int, int]], vertex: str,
                                                 raised: bool) -> None:
    """FastLos.geometry (the table's rows) equals geometry_reference (the template translated),
    graphic hits included, on a map with and without a raised road."""
    paths = [("raised_road", ["03.004", "04.004", "05.005", "06.005"])] if raised else []
    m = make_map(14, 14, paths=paths)
    fl = FastLos(m, system(vertex_policy=vertex))
    for x1, y1, x2, y2 in pairs:
        f, t = m.spec.hex_at_offset(x1, y1), m.spec.hex_at_offset(x2, y2)
        assert fl.geometry(f, t) == fl.geometry_reference(f, t), (f, t)
