"""The dense terrain index (model.terrain_index) answers exactly what the row text says.

The reference below is the per-hex code HexMap used before the index: the grid spec finds
the sheet, then the character is read from the row text. Random maps cover both
orientations and parities, one to three sheets (overlapping, with gaps between them, at
negative offsets), ``-`` cells, rows shorter and longer than the sheets, rows missing,
characters outside the legend, and non-ASCII characters.
"""

from __future__ import annotations

import copy
from unittest import mock

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from model.edits import set_chars
from model.hexes import Hex
from model.labels import GridModel, LabelScheme, Sheet
from model.mapdata import VOID, HexMap

CHARS = ".Wm~T-é"
LEGEND = {".": "clear", "W": "woods", "m": "marsh", "~": "sea", "é": "town"}  # "T" deliberately absent


def ref_char(hmap: HexMap, h: Hex) -> str:
    spec = hmap.spec
    if spec.sheet_of(h) is None:
        return VOID
    x, y = spec.offset(h)
    x0, y0, _, _ = spec.bounds()
    row, col = y - y0, x - x0
    lines = hmap.terrain.rows.split("\n") if hmap.terrain.rows else []
    if 0 <= row < len(lines) and 0 <= col < len(lines[row]):
        return lines[row][col]
    return VOID


def ref_hexes(hmap: HexMap) -> list[Hex]:
    spec = hmap.spec
    x0, y0, _, _ = spec.bounds()
    out = []
    for j, line in enumerate(hmap.terrain.rows.split("\n") if hmap.terrain.rows else []):
        for i, ch in enumerate(line):
            x, y = x0 + i, y0 + j
            if ch != VOID and any(s.contains_offset(x, y) for s in spec.sheets):
                out.append(spec.hex_at_offset(x, y))
    return out


@st.composite
def maps(draw: st.DrawFn) -> HexMap:
    orientation = draw(st.sampled_from(["flat", "pointy"]))
    stagger = draw(st.sampled_from(["odd", "even"]))
    n = draw(st.integers(1, 3))
    sheets = []
    for k in range(n):
        sheets.append(Sheet(id=f"s{k}", x0=draw(st.integers(-7, 12)), y0=draw(st.integers(-7, 12)),
                            cols=draw(st.integers(1, 9)), rows=draw(st.integers(1, 9)),
                            labels=LabelScheme(prefix=f"S{k}")))
    grid = GridModel(orientation=orientation, stagger=stagger, sheets=sheets)
    x0, y0, x1, y1 = grid.spec().bounds()
    height = y1 - y0
    n_rows = draw(st.integers(0, height + 2))
    rows = [draw(st.text(alphabet=CHARS, max_size=(x1 - x0) + 3)) for _ in range(n_rows)]
    return HexMap.model_validate({"id": "m", "name": "random", "grid": grid.model_dump(),
                                  "terrain": {"legend": LEGEND, "rows": "\n".join(rows)}},
                                 context={"grid": grid.spec()})


def probe(hmap: HexMap) -> list[Hex]:
    """Every hex of the bounding box plus a margin of 3 cells (so off-map hexes are asked too)."""
    spec = hmap.spec
    x0, y0, x1, y1 = spec.bounds()
    return [spec.hex_at_offset(x, y) for y in range(y0 - 3, y1 + 3) for x in range(x0 - 3, x1 + 3)]


def assert_agrees(hmap: HexMap) -> None:
    hexes = probe(hmap)
    for h in hexes:
        ch = ref_char(hmap, h)
        assert hmap.terrain_char(h) == ch, h
        assert hmap.contains(h) == (ch != VOID), h
        assert hmap.terrain_at(h) == (None if ch == VOID else LEGEND.get(ch)), h
    assert hmap.hexes() == ref_hexes(hmap)
    idx = hmap.terrain_index
    assert idx.count() == len(ref_hexes(hmap))
    q = np.array([h.q for h in hexes], dtype=np.int64)
    r = np.array([h.r for h in hexes], dtype=np.int64)
    codes = idx.chars_of(q, r)
    sheets = idx.sheets_of(q, r)
    for h, code, sheet in zip(hexes, codes.tolist(), sheets.tolist()):
        ch = ref_char(hmap, h)
        assert code == (0 if ch == VOID else ord(ch)), h
        s = hmap.spec.sheet_of(h)
        assert sheet == (-1 if s is None else hmap.grid.sheets.index(s)), h


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(maps())
def test_index_matches_row_text(hmap: HexMap) -> None:
    assert_agrees(hmap)
    assert hmap.terrain_index.dense


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(maps())
def test_ragged_index_matches_row_text(hmap: HexMap) -> None:
    # The form used when a dense box would dwarf the text (see _dense_is_sane), forced here.
    with mock.patch("model.terrain_index._dense_is_sane", lambda cells, chars: False):
        hmap.invalidate()
        assert not hmap.terrain_index.dense
        assert_agrees(hmap)
    hmap.invalidate()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(maps(), st.booleans())
def test_index_pickles_as_what_builds_it(hmap: HexMap, ragged: bool) -> None:
    """A bundle goes to a spawned analysis worker by pickle (issue #22): the index, whose
    lookup is a closure, is rebuilt from its lines and gives the same answers."""
    import pickle

    with mock.patch("model.terrain_index._dense_is_sane", (lambda cells, chars: False) if ragged
                    else (lambda cells, chars: True)):
        hmap.invalidate()
        idx = hmap.terrain_index
        back = pickle.loads(pickle.dumps(idx))
    assert back.dense == idx.dense and back.lines == idx.lines
    if idx.dense:
        assert back.codes is not None and idx.codes is not None
        assert np.array_equal(back.codes, idx.codes) and np.array_equal(back.sheet_of_cell, idx.sheet_of_cell)
    for h in idx.hexes()[:50] + [Hex(-99, -99)]:
        assert back.char(h) == idx.char(h)
    hmap.invalidate()


def test_far_apart_and_oversized_sheets_cost_only_their_text() -> None:
    # A 5000×5000 sheet with 3 short rows, and a sheet 10^8 cells away: the old per-hex code
    # handled these cheaply, so the index must not allocate their bounding box.
    grid = GridModel(sheets=[Sheet(id="a", cols=5000, rows=5000),
                             Sheet(id="b", x0=10**8, y0=10**8, cols=5000, rows=5000)])
    hmap = HexMap.model_validate({"id": "m", "name": "m", "grid": grid.model_dump(),
                                  "terrain": {"legend": {".": "clear"}, "rows": "...\n..\n" + "." * 4000}},
                                 context={"grid": grid.spec()})
    idx = hmap.terrain_index
    assert idx.dense and idx.codes is not None and idx.codes.size <= 3 * 4000
    assert_agrees_on(hmap, [hmap.spec.hex_at_offset(x, y) for y in range(-1, 5) for x in range(-1, 4002)])
    assert len(hmap.hexes()) == 3 + 2 + 4000
    # One very long row among many short ones: the dense box would be 2000 × 200 000 cells.
    rows = ["."] * 2000 + ["." * 200_000]
    grid = GridModel(sheets=[Sheet(id="a", cols=5000, rows=5000), Sheet(id="b", x0=5000, cols=5000, rows=5000)])
    grid2 = GridModel(sheets=[*grid.sheets, Sheet(id="c", x0=10000, cols=5000, rows=5000),
                              Sheet(id="d", x0=195_000, cols=5000, rows=5000)])
    hmap = HexMap.model_validate({"id": "m", "name": "m", "grid": grid2.model_dump(),
                                  "terrain": {"legend": {".": "clear"}, "rows": "\n".join(rows)}},
                                 context={"grid": grid2.spec()})
    assert not hmap.terrain_index.dense
    assert len(hmap.hexes()) == ref_count(hmap)
    probe_hexes = [hmap.spec.hex_at_offset(x, y) for y in (0, 1, 1999, 2000, 2001) for x in
                   (0, 1, 4999, 5000, 9999, 10000, 15000, 194_999, 195_000, 199_999, 200_000)]
    assert_agrees_on(hmap, probe_hexes)


def ref_count(hmap: HexMap) -> int:
    spec = hmap.spec
    x0, y0, _, _ = spec.bounds()
    return sum(1 for j, line in enumerate(hmap.terrain.rows.split("\n")) for i, ch in enumerate(line)
               if ch != VOID and spec.sheet_of(spec.hex_at_offset(x0 + i, y0 + j)) is not None)


def assert_agrees_on(hmap: HexMap, hexes: list[Hex]) -> None:
    for h in hexes:
        ch = ref_char(hmap, h)
        assert hmap.terrain_char(h) == ch, h
        assert hmap.contains(h) == (ch != VOID), h


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(maps(), st.data())
def test_index_follows_edits_after_invalidate(hmap: HexMap, data: st.DataObject) -> None:
    before = hmap.hexes()
    on_grid = [h for h in probe(hmap) if hmap.spec.sheet_of(h) is not None]
    picks = data.draw(st.lists(st.sampled_from(on_grid), max_size=6))
    new = {h: data.draw(st.sampled_from(CHARS)) for h in picks}
    set_chars(hmap, new)  # rewrites the rows and calls invalidate()
    assert_agrees(hmap)
    for h, ch in new.items():
        assert hmap.terrain_char(h) == ch
    if not new:
        assert hmap.hexes() == before


def test_hexes_returns_a_fresh_list() -> None:
    grid = GridModel(sheets=[Sheet(id="a", cols=3, rows=2)])
    hmap = HexMap.model_validate({"id": "m", "name": "m", "grid": grid.model_dump(),
                                  "terrain": {"legend": {".": "clear"}, "rows": "...\n.-."}},
                                 context={"grid": grid.spec()})
    first = hmap.hexes()
    first.clear()
    assert len(hmap.hexes()) == 5


def test_legend_change_needs_no_rebuild() -> None:
    # model.edits.char_for assigns a new legend without invalidate(); answers must follow it.
    grid = GridModel(sheets=[Sheet(id="a", cols=2, rows=1)])
    hmap = HexMap.model_validate({"id": "m", "name": "m", "grid": grid.model_dump(),
                                  "terrain": {"legend": {".": "clear"}, "rows": ".x"}},
                                 context={"grid": grid.spec()})
    h = hmap.spec.hex_at_offset(1, 0)
    assert hmap.terrain_at(h) is None
    hmap.terrain.legend = {".": "clear", "x": "woods"}
    assert hmap.terrain_at(h) == "woods"


def test_deep_copy_shares_index_but_not_edits() -> None:
    grid = GridModel(sheets=[Sheet(id="a", cols=3, rows=1)])
    hmap = HexMap.model_validate({"id": "m", "name": "m", "grid": grid.model_dump(),
                                  "terrain": {"legend": {".": "clear", "W": "woods"}, "rows": "..."}},
                                 context={"grid": grid.spec()})
    h = hmap.spec.hex_at_offset(0, 0)
    assert hmap.terrain_at(h) == "clear"  # builds the index
    twin = hmap.model_copy(deep=True)
    assert twin.terrain_index is hmap.terrain_index  # immutable, shared, not copied
    assert twin == hmap  # pydantic equality still compares fields only
    set_chars(twin, {h: "W"})
    assert twin.terrain_at(h) == "woods"
    assert hmap.terrain_at(h) == "clear"
    assert copy.deepcopy(hmap).terrain_at(h) == "clear"


def test_index_arrays_are_read_only() -> None:
    grid = GridModel(sheets=[Sheet(id="a", cols=2, rows=2)])
    hmap = HexMap.model_validate({"id": "m", "name": "m", "grid": grid.model_dump(),
                                  "terrain": {"legend": {".": "clear"}, "rows": "..\n.."}},
                                 context={"grid": grid.spec()})
    idx = hmap.terrain_index
    for arr in (idx.codes, idx.sheet_of_cell, *idx.axial()):
        assert not arr.flags.writeable


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=CHARS + "\x00", max_size=30), st.integers(-8, 8), st.integers(-8, 8), st.integers(0, 25),
       st.lists(st.tuples(st.integers(-10, 10), st.integers(-10, 10), st.integers(1, 12), st.integers(1, 12)),
                min_size=1, max_size=3))
def test_dense_lines_cut_with_slices_equal_the_numpy_reference(line: str, y: int, x0: int, width: int,
                                                               boxes: list[tuple[int, int, int, int]]) -> None:
    # The index cuts its dense lines with string slices (no numpy at load); the numpy
    # construction it replaced is the reference: same characters, '-' where no sheet holds
    # the cell, past the row's end, and for NUL (code 0 means "no hex" in the arrays).
    from model.terrain_index import _dense_line, dense_line_reference

    sheets = [Sheet(id=f"s{k}", x0=a, y0=b, cols=c, rows=r) for k, (a, b, c, r) in enumerate(boxes)]
    assert _dense_line(line, y, x0, width, sheets) == dense_line_reference(line, y, x0, width, sheets)
