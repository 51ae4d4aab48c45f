"""TKG single-map Off-map Movement Transit Display [18.4.2] and the lone-HQ stacking
exemption [6.1.3] — on the tkg_transit fixture (map, MAs, display layout illustrative)."""

from __future__ import annotations

import pytest

from conftest import FIXTURES, REPO
from model.bundle import load_bundle
from play.game import Game
from play.rules import stacking_problem
from play.smoke import smoke
from play.tkg import transit

BUNDLE = FIXTURES / "playtests" / "tkg_transit"


@pytest.fixture(scope="module")
def bundle():
    return load_bundle(BUNDLE).bundle


def german_movement(bundle, scenario: str = "transit") -> Game:
    g = Game(bundle, scenario, seed=2)
    assert g.apply({"do": "next_phase", "to": "german_movement"}).ok  # TKG 4.0 4.4
    return g


# --- lone HQ [6.1.3] -------------------------------------------------------------------------

def test_a_lone_hq_is_free_and_a_second_hq_makes_both_count(bundle):
    g = Game(bundle, "transit", seed=1)
    h = g.hex_of("N0303")  # clear: limit 3
    units = [g.unit(u) for u in ("us_a", "us_bn", "us_bn2")]
    assert stacking_problem(g.hmap, g.system, h, units, g.counters) is None
    assert stacking_problem(g.hmap, g.system, h, units + [g.unit("us_hq1")], g.counters) is None
    p = stacking_problem(g.hmap, g.system, h, units + [g.unit("us_hq1"), g.unit("us_hq2")], g.counters)
    assert p is not None and "5 units" in p.message and "2 HQs" in p.message
    assert p.rule is not None and "[6.1.3]" in p.rule
    assert p.policy is not None and p.policy.startswith("hq-stacking-all-count-when-several")
    # Two HQs alone still fit: both count, 2 <= 3.
    assert stacking_problem(g.hmap, g.system, h, [g.unit("us_hq1"), g.unit("us_hq2")], g.counters) is None


def test_stacking_counted_mask_follows_the_system_data(bundle):
    sysm = bundle.system
    assert sysm.stacking_counted(["hq", "regiment"]) == [False, True]
    assert sysm.stacking_counted(["hq", "hq", "regiment"]) == [True, True, True]
    assert sysm.stacking_counted(["truck", "hq"]) == [False, False]  # trucks never count [7.1.5]


def test_engine_refuses_a_move_that_makes_two_hqs_overstack(bundle):
    g = Game(bundle, "transit", seed=1)
    assert g.apply({"do": "next_phase", "to": "allied_movement"}).ok
    assert g.apply({"do": "move", "unit": "us_hq1", "to": "N0303"}).ok
    assert g.apply({"do": "move", "unit": "us_bn2", "to": "N0303"}).ok  # 3 + lone HQ
    assert g.apply({"do": "place", "unit": "us_hq2", "to": "N0403"}).ok
    r = g.apply({"do": "move", "unit": "us_hq2", "to": "N0303"})
    assert not r.ok and "overstacked" in r.message and r.rule == "TKG L305, TKG [6.1.3]"


# --- Transit Display [18.4.2] ----------------------------------------------------------------

def test_german_omm_arrival_goes_to_the_same_numbered_transit_box(bundle):
    g = german_movement(bundle)
    assert g.unit("de_r1").box == "T9"
    ev = next(e for e in g.log if e["type"] == "arrive" and e["unit"] == "de_r1")
    assert ev["scheduled_box"] == "E9"
    assert g.unit("de_r2").box == "T12"  # a named Transit box is kept


def test_no_redirect_when_more_than_one_sheet_is_played(bundle, tmp_path):
    import shutil

    dst = tmp_path / "b"
    shutil.copytree(BUNDLE, dst)
    p = dst / "scenarios" / "transit.yaml"
    p.write_text(p.read_text(encoding="utf-8").replace("playable: {sheets: [N],", "playable: {sheets: [],"),
                 encoding="utf-8")
    g = german_movement(load_bundle(dst).bundle)
    assert g.unit("de_r1").box == "E9"


def test_transit_to_connected_transit_box_costs_the_whole_ma_one_box_per_phase(bundle):
    g = german_movement(bundle)
    r = g.apply({"do": "omm_move", "unit": "de_r2", "to": "T9"})
    assert not r.ok and r.rule == "TKG [18.4.2]" and r.policy == transit.ONE_BOX_POLICY
    r = g.apply({"do": "omm_move", "unit": "de_r2", "to": "T10"})
    assert r.ok and g.unit("de_r2").box == "T10"
    assert g.unit("de_r2").mp_spent == 8  # its whole MA
    r = g.apply({"do": "omm_move", "unit": "de_r2", "to": "T9"})
    assert not r.ok and "whole movement allowance" in r.message


def test_exit_only_to_the_connected_or_same_numbered_omm_box(bundle):
    g = german_movement(bundle)
    r = g.apply({"do": "omm_move", "unit": "de_r1", "to": "E10"})
    assert not r.ok and r.policy == transit.EXIT_POLICY and "exits: E9" in r.message
    assert g.apply({"do": "omm_move", "unit": "de_r1", "to": "E9"}).ok
    assert g.unit("de_r1").box == "E9"
    # Next turn it enters the map through E9's entry hexes (the generic box move).
    assert g.apply({"do": "end_turn"}).ok
    assert g.apply({"do": "next_phase", "to": "german_movement"}).ok
    assert g.apply({"do": "move", "unit": "de_r1", "to": "N0208"}).ok


def test_same_number_exit_when_the_box_lists_no_omm_exit(bundle):
    g = german_movement(bundle)
    # T10 connects only to Transit boxes: its exit is the OMM box numbered 10.
    g.apply({"do": "place", "unit": "de_r3", "to": "box:T10"})
    r = g.apply({"do": "omm_move", "unit": "de_r3", "to": "E10"})
    assert r.ok, r.message


def test_nothing_moves_onto_the_display(bundle):
    g = german_movement(bundle)
    g.apply({"do": "place", "unit": "de_r3", "to": "N0108"})
    r = g.apply({"do": "omm_move", "unit": "de_r3", "to": "T9"})
    assert not r.ok and r.policy == transit.ONE_WAY_POLICY
    g.apply({"do": "place", "unit": "de_r3", "to": "box:E9"})
    r = g.apply({"do": "omm_move", "unit": "de_r3", "to": "T9"})
    assert not r.ok and r.policy == transit.ONE_WAY_POLICY


def test_smoke_reports_a_reinforcement_without_a_transit_box(bundle):
    rep = smoke(bundle, "transit-broken")
    codes = [d.code for d in rep.diagnostics]
    assert codes == ["PLAY-SMOKE-011"]
    d = rep.diagnostics[0]
    assert "de_r3" in d.message and "11" in d.message and d.rule_case == "TKG [18.4.2]"
    assert str(d.location.file).endswith("transit-broken.yaml") and d.location.path == "$.schedule[1].entry"
    assert smoke(bundle, "transit").diagnostics == []


def test_sample_overlord_playtest_places_german_omm_arrivals_in_transit_boxes():
    b = load_bundle(REPO / "scenarios" / "killing-ground").bundle
    g = Game(b, "operation-overlord-playtest", seed=1)
    u = g.unit("de_2ss_df")
    assert transit.single_map(g)
    box, problem = transit.arrival_box(g, u, "W7", g.procedures[0].transit)
    assert problem is None and box == "T7"


def test_german_reinforcement_not_placed_in_an_allied_controlled_box(bundle, tmp_path):
    import shutil

    dst = tmp_path / "b"
    shutil.copytree(BUNDLE, dst)
    p = dst / "scenarios" / "transit.yaml"
    text = p.read_text(encoding="utf-8").replace("playable: {sheets: [N],", "playable: {sheets: [],")
    # Three non-artillery Allied units, one a regiment, hold E9 (L404) [18.4.1].
    text = text.replace("- {unit: us_a, hex: N0303}\n- {unit: us_bn, hex: N0303}\n",
                        "- {unit: us_a, box: E9}\n- {unit: us_bn, box: E9}\n")
    text = text.replace("- {unit: us_bn2, hex: N0503}\n", "- {unit: us_bn2, box: E9}\n")
    p.write_text(text, encoding="utf-8")
    b = load_bundle(dst).bundle
    g = german_movement(b)
    assert g.unit("de_r1").where == "offmap"
    ev = next(e for e in g.log if e["type"] == "arrival_refused" and e["unit"] == "de_r1")
    assert ev["problem"] == "blocked" and ev["rule"] == "TKG [18.4.1]"
    rep = smoke(b, "transit")
    assert [d.code for d in rep.diagnostics] == ["PLAY-SMOKE-003"]


def test_rail_removals_go_to_a_transit_box_below_13(bundle):
    g = german_movement(bundle)
    g.apply({"do": "place", "unit": "de_r3", "to": "box:german_rail"})
    r = g.apply({"do": "rail_to_transit", "unit": "de_r3", "to": "T14"})
    assert not r.ok and r.rule == "TKG [17.4.3]" and "below 13" in r.message
    r = g.apply({"do": "rail_to_transit", "unit": "de_r1", "to": "T12"})
    assert not r.ok and "Rail" in r.message  # de_r1 is in Transit 9, not in the rail box
    r = g.apply({"do": "rail_to_transit", "unit": "de_r3", "to": "T12"})
    assert r.ok and g.unit("de_r3").box == "T12" and r.policy == transit.RAIL_POLICY
    assert g.apply({"do": "omm_move", "unit": "de_r3", "to": "T10"}).ok  # then it moves on the display
