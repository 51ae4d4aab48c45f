"""Printed labels for all three systems, against the relations the rules themselves give."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import REPO
from model.hexes import Hex
from model.labels import GridModel, LabelError, LabelScheme, Sheet
from model.layout import Layout

SFN = GridModel(sheets=[Sheet(id="map", cols=45, rows=30, labels=LabelScheme(first_col=0, first_row=0))]).spec()
GTS = GridModel(sheets=[Sheet(id="utah", cols=110, rows=70,
                              labels=LabelScheme(separator=".", col_digits=2, row_digits=3, first_col=0, first_row=0))]).spec()
# Three TKG-style sheets, each with its own prefix and numbering direction.
TKG = GridModel(sheets=[
    Sheet(id="N", x0=0, y0=0, cols=40, rows=60, labels=LabelScheme(prefix="N", axis_order="row_col", first_col=1, first_row=1)),
    Sheet(id="W", x0=0, y0=60, cols=40, rows=62,
          labels=LabelScheme(prefix="W", axis_order="row_col", first_col=1, first_row=62, row_step=-1)),
    Sheet(id="E", x0=40, y0=60, cols=40, rows=62,
          labels=LabelScheme(prefix="E", axis_order="row_col", first_col=1, first_row=62, row_step=-1)),
]).spec()


def test_sfn_neighbours_of_1414_are_the_rule_3_4_list() -> None:
    # SFN 3.4: LXXXI Corps sets up in 1414 "or 1313, 1314, 1413, 1415, 1513 or 1514".
    h = SFN.parse("1414")
    assert sorted(SFN.label(n) for n in h.neighbors()) == ["1313", "1314", "1413", "1415", "1513", "1514"]


def test_sfn_adjacent_pairs_from_rules() -> None:
    assert SFN.parse("1012").distance(SFN.parse("1013")) == 1  # SFN 12.3
    assert SFN.parse("2009").distance(SFN.parse("1909")) == 1  # SFN 11.2


def test_gts_worked_example_distance() -> None:
    # Utah Excl 4.4.7: 30.027 -> 20.025 is 10 hexes.
    assert GTS.parse("30.027").distance(GTS.parse("20.025")) == 10


def test_gts_three_digit_columns_and_column_order() -> None:
    h = GTS.parse("105.031")
    assert GTS.label(h) == "105.031"
    a, b, c = (GTS.parse(x) for x in ("28.048", "28.049", "28.050"))
    assert a.distance(b) == b.distance(c) == 1 and a.distance(c) == 2  # one column [Excl 2.1]


def test_gts_drop_zone_flowers() -> None:
    # Utah Excl 3.2: DZ B is a centre-plus-six flower (plus two) under odd-q.
    zone = ["38.038", "39.037", "39.038", "40.037", "40.038", "40.039", "41.037", "41.038", "42.038"]
    centre = GTS.parse("40.038")
    dists = sorted(centre.distance(GTS.parse(z)) for z in zone)
    assert dists[:7] == [0, 1, 1, 1, 1, 1, 1]


def test_tkg_prefixes_and_directions() -> None:
    for label in ("N1410", "N1511", "N2828", "W6021", "W2433", "E1422", "E0332"):
        assert TKG.label(TKG.parse(label)) == label
    # On W the first two digits shrink southward: W4731 is north of W3826's row.
    w47, w38 = TKG.parse("W4731"), TKG.parse("W3826")
    assert TKG.offset(w47)[1] < TKG.offset(w38)[1]


def test_bad_labels_are_clear_errors() -> None:
    with pytest.raises(LabelError, match="not a hex label"):
        GTS.parse("28-048")
    with pytest.raises(LabelError, match="N0101"):
        TKG.parse("X1511")


@given(st.integers(0, 109), st.integers(0, 69))
def test_gts_label_hex_pixel_round_trip(x: int, y: int) -> None:
    h = GTS.hex_at_offset(x, y)
    label = GTS.label(h)
    assert GTS.parse(label) == h
    layout = Layout.for_orientation("flat", 17.0)
    assert layout.hex_at(*layout.center(h)) == h


@given(st.sampled_from(["N", "W", "E"]), st.integers(0, 39), st.integers(0, 59))
def test_tkg_round_trip(sheet_id: str, i: int, j: int) -> None:
    sheet = next(s for s in TKG.sheets if s.id == sheet_id)
    h = TKG.hex_at_offset(sheet.x0 + i, sheet.y0 + j)
    assert TKG.sheet_of(h) == sheet
    assert TKG.parse(TKG.label(h)) == h


@given(st.sampled_from(["odd", "even"]), st.sampled_from(["flat", "pointy"]), st.integers(-50, 50), st.integers(-50, 50))
def test_offset_round_trip(stagger: str, orientation: str, x: int, y: int) -> None:
    from model.labels import hex_to_offset, offset_to_hex

    assert hex_to_offset(offset_to_hex(x, y, orientation, stagger), orientation, stagger) == (x, y)


def test_off_sheet_labels_still_parse() -> None:
    # GTS prints labels for hexes just off the map (Excl 4.4.3: 17.029, 18.027).
    small = GridModel(sheets=[Sheet(id="s", x0=20, y0=0, cols=10, rows=10,
                                    labels=LabelScheme(separator=".", row_digits=3, first_col=20, first_row=0))]).spec()
    h = small.parse("17.029")
    assert not small.in_sheets(h)
    assert isinstance(h, Hex)


def test_a_hex_just_off_the_sheet_is_labelled_as_the_printed_numbering_continues() -> None:
    """Issue #19: "Off-grid hexes are printed as internal axial pairs, `(30,56)`, instead of
    `30.071`". A label in the nearest sheet's scheme is used when it reads back as the hex;
    only a hex no scheme can name keeps the axial stand-in."""
    from model.bundle import load_bundle

    bundle = load_bundle(REPO / "scenarios" / "utah-beach").bundle
    assert bundle is not None
    hmap = next(iter(bundle.maps.values()))
    edge = hmap.parse("30.070")
    x, y = hmap.spec.offset(edge)
    below = hmap.spec.hex_at_offset(x, y + 1)
    assert not hmap.contains(below)
    assert hmap.label(below) == "30.071" and hmap.parse("30.071") == below
    far_left = hmap.spec.hex_at_offset(x - 40, y)  # printed column -10: no label can name it
    assert hmap.label(far_left).startswith("(") and hmap.parse(hmap.label(far_left)) == far_left


@given(st.sampled_from([SFN, GTS, TKG]), st.integers(-20, 200), st.integers(-20, 200))
def test_written_label_reads_back_to_its_hex(spec, x: int, y: int) -> None:
    # Law: whatever written_label names (the printed label on a sheet, the scheme carried past
    # the edge, or the (q,r) stand-in), parsing it gives the same hex back.
    h = spec.hex_at_offset(x, y)
    assert spec.parse(spec.written_label(h)) == h


def test_written_label_names_an_off_map_hex_as_typed() -> None:
    # A VP hex typed 4612 on the 45x30 SFN map (columns 00-44) is named 4612, not "(q,r)".
    h = SFN.parse("4612")
    assert not SFN.in_sheets(h)
    assert SFN.written_label(h) == "4612"
    assert GTS.written_label(GTS.parse("150.027")) == "150.027"
    assert SFN.written_label(GTS.parse("30.027")) == SFN.label(GTS.parse("30.027"))  # on a sheet: the printed label


@given(st.text("AB{}x-", max_size=3), st.sampled_from(["col_row", "row_col"]), st.integers(1, 4), st.integers(1, 4),
       st.text(".{}/", max_size=2), st.integers(-12000, 12000), st.integers(-12000, 12000))
def test_label_format_equals_the_spelled_out_form(prefix: str, order: str, cd: int, rd: int, sep: str, col: int,
                                                  row: int) -> None:
    """The one-template format (LabelScheme.format_template) writes exactly what the two
    f-strings did, braces in the prefix or separator and negative numbers included."""
    s = LabelScheme(prefix=prefix, axis_order=order, col_digits=cd, row_digits=rd, separator=sep)  # type: ignore[arg-type]
    assert s.format(col, row) == s.format_reference(col, row)


def test_a_copy_with_another_prefix_prints_and_reads_it() -> None:
    """model_copy copies the instance dict, where a cached_property keeps its value: a copy
    with another prefix must not print (or parse) with the original's cached template."""
    from model.labels import LabelScheme

    plain = LabelScheme()
    assert plain.format(3, 4) == "0304" and plain.parse("0304") is not None  # both caches filled
    prefixed = plain.model_copy(update={"prefix": "U"})
    assert prefixed.format(3, 4) == "U0304" == prefixed.format_reference(3, 4)
    assert prefixed.parse("U0304") is not None and prefixed.parse("0304") is None
    assert plain.format(3, 4) == "0304"
