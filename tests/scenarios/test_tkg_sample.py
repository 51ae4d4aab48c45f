"""The Killing Ground sample bundle: loads clean, key hexes round-trip, sheets, GT arithmetic."""

from __future__ import annotations

import datetime as dt

import pytest

from conftest import REPO
from model.bundle import Bundle, load_bundle
from model.diagnostics import Severity

BUNDLE = REPO / "scenarios" / "killing-ground"
KEY_HEXES = ["N1410", "N1511", "N2828", "N3139", "N3551", "N3648", "N3749",
             "W6021", "W5735", "W4731", "W3826", "W2433", "E1422", "E2409", "E0332"]


@pytest.fixture(scope="module")
def bundle() -> Bundle:
    result = load_bundle(BUNDLE)
    errors = [d for d in result.diagnostics if d.severity >= Severity.ERROR]
    assert result.bundle is not None and not errors, errors
    return result.bundle


def test_loads_structurally_clean(bundle: Bundle) -> None:
    assert bundle.system.id == "tkg"
    assert bundle.system.los.enabled is False and bundle.system.los.disabled_reason
    assert len(bundle.scenarios) == 10  # the nine of [25] + operation-overlord-playtest (illustrative)
    for sid in bundle.scenarios:
        bundle.resolved(sid)  # variants resolve


@pytest.mark.parametrize("label", KEY_HEXES)
def test_key_hexes_round_trip(bundle: Bundle, label: str) -> None:
    hmap = bundle.default_map
    h = hmap.parse(label)
    assert hmap.label(h) == label
    assert hmap.contains(h)
    assert hmap.spec.sheet_of(h).id == label[0]
    assert any(h in loc.all_hexes() for loc in hmap.locations), f"{label} is not a named location"


def test_sheet_numbering_directions(bundle: Bundle) -> None:
    hmap = bundle.default_map
    spec = hmap.spec
    assert [s.id for s in spec.sheets] == ["N", "W", "E"]
    # N: first two digits (row) increase southward; W/E: decrease southward.
    n_north, n_south = spec.offset(hmap.parse("N1410")), spec.offset(hmap.parse("N3551"))
    assert n_north[1] < n_south[1]
    w_north, w_south = spec.offset(hmap.parse("W6021")), spec.offset(hmap.parse("W2433"))
    assert w_north[1] < w_south[1]
    # The last two digits are constant along a N-S line ([22.2.1]).
    assert spec.offset(hmap.parse("E2409"))[0] == spec.offset(hmap.parse("E1409"))[0]
    # Sheets do not overlap in the global grid.
    cells = [(x, y) for s in spec.sheets for x in range(s.x0, s.x0 + s.cols) for y in range(s.y0, s.y0 + s.rows)]
    assert len(cells) == len(set(cells))


def test_orne_bridge_hexes_adjacent(bundle: Bundle) -> None:
    hmap = bundle.default_map
    assert hmap.parse("N3648").distance(hmap.parse("N3749")) == 1


@pytest.mark.parametrize("date,gt", [(dt.date(1944, 6, 7), 1), (dt.date(1944, 7, 6), 30),
                                     (dt.date(1944, 8, 22), 77), (dt.date(1944, 6, 25), 19),
                                     (dt.date(1944, 7, 29), 53)])
def test_gt_arithmetic(bundle: Bundle, date: dt.date, gt: int) -> None:
    turns = {t.n: t.date for t in bundle.system.calendar.all_turns}
    assert turns[gt] == date
    assert (date - dt.date(1944, 6, 6)).days == gt


def test_into_the_cauldron_data(bundle: Bundle) -> None:
    s = bundle.resolved("into-the-cauldron")
    assert (s.turns.first, s.turns.last) == (30, 53)
    assert s.vp == {"allied": 0, "german": 60}
    assert s.playable.sheets == ["W", "E"]
    assert s.params["german"]["support_points"]["de_v_pz"] == 18 or s.params["german"]["support_points"]["de_v_pz"] == "18"
    assert len(s.special_rules) == 5
    west, east = bundle.resolved("into-the-cauldron-west"), bundle.resolved("into-the-cauldron-east")
    assert west.playable.sheets == ["W"] and east.playable.sheets == ["E"]
    assert west.vp == s.vp and west.params == s.params
    assert "variant_adjustments" in west.missing


def test_mulberry_b_is_n3139(bundle: Bundle) -> None:
    assert bundle.box("mulberry_b").entry_hexes == ["N3139"]
    assert bundle.game.rulebook is not None and "25.1.1" in bundle.game.rulebook.cases
