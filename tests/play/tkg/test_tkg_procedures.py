"""TKG procedures: ZOC costs and limits [8.2], regiment stacking [6.1.2], OMM boxes [7.5],
landing boxes [18.1] — on the tkg_zoc fixture (illustrative map, MAs and costs)."""

from __future__ import annotations

import pytest

from conftest import FIXTURES
from model.bundle import load_bundle
from play.game import Game
from play.tkg import zoc

BUNDLE = FIXTURES / "playtests" / "tkg_zoc"


@pytest.fixture(scope="module")
def bundle():
    return load_bundle(BUNDLE).bundle


def game_at_allied_move(bundle, **places: str) -> Game:
    g = Game(bundle, "zoc", seed=5)
    for uid, where in places.items():
        assert g.apply({"do": "place", "unit": uid, "to": where}).ok
    assert g.apply({"do": "next_phase", "to": "allied_movement"}).ok  # TKG 4.0 3.3
    assert g.phase.permits("move") and g.phase.side == "allied"
    return g


def cost(g: Game, uid: str, label: str) -> float | None:
    reach, problem = g.legal_moves([g.unit(uid)])
    assert problem is None and reach is not None
    return reach.cost.get(g.hex_of(label))


def test_rzoc_entry_costs_one_more_for_non_mech_and_three_for_mech(bundle):
    g = game_at_allied_move(bundle, de_rgt="N0306", us_arm="N0503")
    # N0303 -> N0304 (1) -> N0405 in the German RZOC: 1 + 1 terrain + 1 RZOC [8.2.1]
    assert cost(g, "us_a", "N0405") == 3
    # Without the German regiment the same hex costs 2.
    g2 = game_at_allied_move(bundle)
    assert cost(g2, "us_a", "N0405") == 2
    # Mech: N0503 -> N0404 (1) -> N0405: 1 + 1 + 3
    assert cost(g, "us_arm", "N0405") == 5


def test_units_stop_on_entering_enemy_zoc(bundle):
    g = game_at_allied_move(bundle, de_rgt="N0306")
    reach, _ = g.legal_moves([g.unit("us_a")])
    zmap, _ = zoc.enemy_zoc(g, "allied", g.procedures[0].zoc)
    assert zmap, "the German regiment exerts a ZOC"
    for h, parent in reach.parent.items():
        assert parent == reach.start or parent not in zmap, f"moved on from ZOC hex {g.label(parent)}"


def test_leaving_rzoc_costs_one_more(bundle):
    g = game_at_allied_move(bundle, de_rgt="N0306", us_a="N0405")
    assert cost(g, "us_a", "N0404") == 2  # 1 terrain + 1 leaving the RZOC


def test_zoc_to_zoc_refused_with_the_rule_case(bundle):
    g = game_at_allied_move(bundle, de_rgt="N0306", us_a="N0405")
    # Both hexes are next to the German regiment: the legal way leaves the ZOC first.
    reach, _ = g.legal_moves([g.unit("us_a")])
    path = [g.label(h) for h in reach.path_to(g.hex_of("N0406"))]
    assert path[1] not in ("N0406",) and reach.cost[g.hex_of("N0406")] == 4
    g.unit("us_a").mp_spent = 1  # 3 MP left: only the direct ZOC-to-ZOC step would do
    r = g.apply({"do": "move", "unit": "us_a", "to": "N0406"})
    assert not r.ok and "L445" in str(r.rule) and "zones of control" in r.message
    assert g.log[-1]["type"] == "refused"


def test_no_zoc_into_a_city_and_none_from_a_cadre(bundle):
    g = game_at_allied_move(bundle, de_rgt="N0306", de_cadre="N0205")
    zmap, _ = zoc.enemy_zoc(g, "allied", g.procedures[0].zoc)
    assert g.hex_of("N0305") not in zmap          # city [8.3.1]
    assert g.hex_of("N0405") in zmap
    assert g.hex_of("N0204") not in zmap          # only the cadre is next to it [9.4.3]


def test_bzoc_is_free_and_regiments_may_go_bzoc_to_bzoc(bundle):
    g = game_at_allied_move(bundle, de_recon="N0306", us_a="N0405")
    zmap, _ = zoc.enemy_zoc(g, "allied", g.procedures[0].zoc)
    assert zmap[g.hex_of("N0405")] == "B"
    assert cost(g, "us_a", "N0404") == 1          # leaving a BZOC costs nothing extra
    r = g.apply({"do": "move", "unit": "us_a", "to": "N0406"})
    assert r.ok, r
    assert g.log[-1]["type"] == "zoc_stop" and g.log[-1]["zoc"] == "BZOC"


def test_never_between_two_zoc_exerting_enemies(bundle):
    # N0405 lies between N0306 and N0504?  Use opposite neighbours of N0405.
    g0 = game_at_allied_move(bundle)
    h = g0.hex_of("N0405")
    a, b = h.neighbor(1), h.neighbor(4)
    g = game_at_allied_move(bundle, de_recon=g0.label(a), de_rgt2=g0.label(b))
    zmap, by = zoc.enemy_zoc(g, "allied", g.procedures[0].zoc)
    assert zoc.between_two(h, by[h])


def test_three_regiments_overstack_by_regiment_count(bundle):
    g = game_at_allied_move(bundle, us_a="N0403", us_b="N0404", us_c="N0504")
    assert g.apply({"do": "move", "unit": "us_b", "to": "N0403"}).ok
    r = g.apply({"do": "move", "unit": "us_c", "to": "N0403"})
    assert not r.ok and r.rule == "TKG [6.1.2]" and "3 regiments" in r.message


def test_omm_edge_to_box_box_to_box_and_back_to_the_map(bundle):
    g = game_at_allied_move(bundle, us_a="N0107", br_bde="N0207")
    r = g.apply({"do": "omm_move", "unit": "us_a", "to": "E9"})
    assert not r.ok and "not an entry hex" in r.message
    for uid, entry in (("us_a", "N0108"), ("br_bde", "N0208")):
        assert g.apply({"do": "move", "unit": uid, "to": entry}).ok
        r = g.apply({"do": "omm_move", "unit": uid, "to": "E9"})
        assert r.ok and r.rule == "TKG [7.5.2]"
    u = g.unit("us_a")
    assert u.where == "box" and u.box == "E9" and u.mp_spent == 2  # 1 to the edge hex + 1 into the box
    # box -> box needs the whole MA: br_bde has moved this phase
    r = g.apply({"do": "omm_move", "unit": "br_bde", "to": "E10"})
    assert not r.ok and "whole movement allowance" in r.message
    # no combat in boxes [7.5.3]
    r = g.apply({"do": "attack", "attackers": ["us_a"], "target": "N0306"})
    assert not r.ok and r.rule == "TKG [7.5.3]"
    # next turn: E10 is British-flagged: US refused, British allowed for its whole MA
    assert g.apply({"do": "end_turn"}).ok and g.state.turn == 2
    assert g.apply({"do": "next_phase", "to": "allied_movement"}).ok
    r = g.apply({"do": "omm_move", "unit": "us_a", "to": "E10"})
    assert not r.ok and r.rule == "TKG L404"
    assert g.apply({"do": "omm_move", "unit": "br_bde", "to": "E10"}).ok
    assert g.unit("br_bde").mp_spent == 4
    # back onto the map through an entry hex (box-entry-costs-entry-hex)
    assert g.apply({"do": "move", "unit": "us_a", "to": "N0207"}).ok
    assert g.unit("us_a").on_map


def test_german_units_may_not_enter_an_allied_controlled_omm_box(bundle):
    g = Game(bundle, "zoc", seed=5)
    for uid in ("us_a", "us_b", "br_bde"):
        g.apply({"do": "place", "unit": uid, "to": "box:E9"})
    g.apply({"do": "place", "unit": "de_rgt", "to": "N0208"})
    assert g.apply({"do": "next_phase", "to": "german_movement"}).ok  # TKG 4.0 4.4
    r = g.apply({"do": "omm_move", "unit": "de_rgt", "to": "E9"})
    assert not r.ok and r.rule == "TKG [7.5.1]"
    g.apply({"do": "place", "unit": "br_bde", "to": "N0101"})  # garrison down to 2: German control
    assert g.apply({"do": "omm_move", "unit": "de_rgt", "to": "E9"}).ok


def test_landing_from_the_landing_boxes(bundle):
    g = Game(bundle, "zoc", seed=5)
    assert g.apply({"do": "next_phase", "to": "allied_support"}).ok  # TKG 4.0 3.2: reinforcements arrive
    assert g.unit("us_c").box == "strip_lb1"       # arrived through the schedule
    g.apply({"do": "place", "unit": "us_arm", "to": "box:strip_lb2"})
    g.apply({"do": "place", "unit": "br_bde", "to": "box:strip_lb2"})
    r = g.apply({"do": "land", "unit": "us_c", "to": "N0303"})
    assert not r.ok and "not a hex of strip_beach" in r.message
    r = g.apply({"do": "land", "unit": "us_c", "to": "N0302"})
    assert r.ok and "tkg-landing-no-table" in str(r.policy)
    assert g.unit("us_c").hex == g.hex_of("N0302")
    assert g.apply({"do": "land", "unit": "us_arm", "to": "N0402"}).ok
    r = g.apply({"do": "land", "unit": "br_bde", "to": "N0402"})
    assert not r.ok and r.rule == "TKG [18.1.1]"   # two per beach per turn
    g.apply({"do": "next_phase"})
    r = g.apply({"do": "land", "unit": "br_bde", "to": "N0402"})
    assert not r.ok and "Army Support and Replacement Phase" in r.message


def test_landing_box_over_capacity_is_logged(bundle):
    g = Game(bundle, "zoc", seed=5)
    g.apply({"do": "place", "unit": "us_arm", "to": "box:strip_lb1"})
    while g.state.turn == 1:
        g.apply({"do": "next_phase"})
    ev = [e for e in g.log if e["type"] == "box_over_capacity"]
    assert ev and ev[0]["box"] == "strip_lb1" and ev[0]["rule"] == "TKG [18.1.2]"


def test_combat_stays_not_available(bundle):
    g = game_at_allied_move(bundle, de_rgt="N0306", us_a="N0405")
    assert g.apply({"do": "next_phase", "to": "allied_combat"}).ok  # TKG 4.0 3.4
    r = g.apply({"do": "attack", "attackers": ["us_a"], "target": "N0306"})
    assert not r.ok and "combat not available" in r.message
