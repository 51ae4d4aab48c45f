"""SFN replacements [8.1-8.6] on the sample's playtest variant (illustrative MAs)."""

from __future__ import annotations

import shutil

import pytest

from conftest import REPO
from model.bundle import load_bundle
from play.game import Game
from play.sfn import replacements as rp

SFN = REPO / "scenarios" / "second-front-now"
SCEN = "calais-landing-playtest"


@pytest.fixture(scope="module")
def bundle():
    return load_bundle(SFN).bundle


def allied_turn(g: Game) -> None:
    while g.phase.side != "allied":
        assert g.apply({"do": "next_phase"}).ok


def test_turn_record_sheet_gives_no_rp_on_gt1_and_unknown_later(bundle):
    g = Game(bundle, SCEN, seed=1)
    ev = next(e for e in g.log if e["type"] == "replacement_points")
    assert ev["points"] == {"german": 0, "us": 0, "commonwealth": 0} and ev["source"] == "Turn Record Sheet"
    r = g.apply({"do": "replace", "unit": "de-10-ss-pz"})
    assert not r.ok and r.rule == "SFN 8.1" and "0 RP" in r.message
    for _ in range(4):
        g.apply({"do": "end_turn"})
    assert g.state.turn == 5
    ev = [e for e in g.log if e["type"] == "replacement_points"][-1]
    assert ev["source"] == "unknown" and ev["policy"].startswith("sfn-rp-unknown-is-none")


def test_scenario_params_give_illustrative_rp(bundle, tmp_path):
    dst = tmp_path / "sfn"
    shutil.copytree(SFN, dst)
    p = dst / "scenarios" / f"{SCEN}.yaml"
    text = p.read_text(encoding="utf-8").replace("params:\n", "params:\n  replacement_points: {'5': {german: 2, us: 1}}\n", 1)
    p.write_text(text, encoding="utf-8")
    g = Game(load_bundle(dst).bundle, SCEN, seed=1)
    for _ in range(4):
        g.apply({"do": "end_turn"})
    ev = [e for e in g.log if e["type"] == "replacement_points"][-1]
    assert ev["points"] == {"german": 2, "us": 1, "commonwealth": 0}


def test_reduced_unit_regains_a_step_and_may_not_move_that_player_turn(bundle):
    g = Game(bundle, SCEN, seed=1)
    assert g.apply({"do": "set_rp", "pool": "german", "points": 2}).ok
    u = g.unit("de-348-inf")
    assert u.steps == 1
    r = g.apply({"do": "replace", "unit": "de-348-inf"})
    assert r.ok and u.steps == 2 and not u.reduced
    assert g.apply({"do": "replace", "unit": "de-348-inf"}).ok is False  # full strength now
    g.apply({"do": "next_phase"})
    r = g.apply({"do": "move", "unit": "de-348-inf", "to": "2109"})
    assert not r.ok and r.rule == "SFN 8.3"
    # Next German player turn the unit may move again.
    g.apply({"do": "end_turn"})
    assert "replaced" not in u.markers


def test_unit_in_a_holding_box_may_replace_and_artillery_costs_two(bundle):
    g = Game(bundle, SCEN, seed=1)
    g.apply({"do": "set_rp", "pool": "german", "points": 1})
    r = g.apply({"do": "replace", "unit": "de-10-ss-pz"})
    assert r.ok and r.policy == rp.BOX_POLICY
    allied_turn(g)
    g.apply({"do": "set_rp", "pool": "commonwealth", "points": 1})
    arty = g.unit("cw-i-corps-arty")
    g.apply({"do": "step_loss", "unit": arty.id})
    assert arty.where == "eliminated"
    r = g.apply({"do": "replace", "unit": arty.id, "to": "2006"})
    assert not r.ok and "costs 2" in r.message
    g.apply({"do": "set_rp", "pool": "commonwealth", "points": 2})
    assert g.apply({"do": "replace", "unit": arty.id, "to": "2006"}).ok


def test_unit_without_a_supply_path_gets_no_replacements(bundle):
    g = Game(bundle, SCEN, seed=1)
    g.apply({"do": "set_rp", "pool": "german", "points": 2})
    u = g.unit("de-348-inf")
    # Surround the unit's hex with Allied units: no path out to the board-edge source.
    for i, n in enumerate(u.hex.neighbors()):
        g.apply({"do": "place", "unit": ["us-45-inf", "us-3-inf", "cw-5-inf", "cw-56-inf", "cw-46-inf", "cw-7-armd"][i],
                 "to": g.label(n)})
    r = g.apply({"do": "replace", "unit": "de-348-inf"})
    assert not r.ok and r.rule == "SFN 8.3" and "supply path" in r.message


def test_german_rebuilt_to_north_box_allied_to_a_beachhead(bundle):
    g = Game(bundle, SCEN, seed=1)
    g.apply({"do": "set_rp", "pool": "german", "points": 2})
    g.apply({"do": "step_loss", "unit": "de-276-inf", "steps": 2})
    assert g.unit("de-276-inf").where == "eliminated"
    r = g.apply({"do": "replace", "unit": "de-276-inf", "steps": 1})
    assert r.ok and g.unit("de-276-inf").box == "north" and g.unit("de-276-inf").reduced
    allied_turn(g)
    g.apply({"do": "set_rp", "pool": "us", "points": 2})
    g.apply({"do": "step_loss", "unit": "us-36-inf", "steps": 2})
    r = g.apply({"do": "replace", "unit": "us-36-inf", "to": "2106"})
    assert not r.ok and r.rule == "SFN 8.2"
    r = g.apply({"do": "replace", "unit": "us-36-inf", "to": "2009"})
    assert r.ok and g.label(g.unit("us-36-inf").hex) == "2009" and g.unit("us-36-inf").steps == 2


def test_us_and_commonwealth_rp_do_not_mix(bundle):
    g = Game(bundle, SCEN, seed=1)
    allied_turn(g)
    g.apply({"do": "set_rp", "pool": "us", "points": 2})
    g.apply({"do": "step_loss", "unit": "cw-5-inf"})
    r = g.apply({"do": "replace", "unit": "cw-5-inf"})
    assert not r.ok and "commonwealth has 0 RP" in r.message


def test_replacements_only_in_the_owners_player_turn(bundle):
    g = Game(bundle, SCEN, seed=1)
    g.apply({"do": "set_rp", "pool": "us", "points": 2})
    g.apply({"do": "step_loss", "unit": "us-36-inf"})
    r = g.apply({"do": "replace", "unit": "us-36-inf"})
    assert not r.ok and r.policy == rp.PHASE_POLICY


def test_oos_and_fortress_eliminations_go_to_the_oos_dead_pile(bundle):
    g = Game(bundle, SCEN, seed=1)
    g.apply({"do": "set_rp", "pool": "german", "points": 2})
    g.apply({"do": "step_loss", "unit": "de-lh-garrison"})  # in the Le Havre fortress: fortress supply
    ev = next(e for e in g.log if e["type"] == "oos_dead")
    assert ev["unit"] == "de-lh-garrison" and ev["box"] == "oos-dead-german" and "fortress" in ev["reason"]
    r = g.apply({"do": "replace", "unit": "de-lh-garrison"})
    assert not r.ok and r.rule == "SFN 8.4"
    # An OOS-marked unit eliminated: also never recreated.
    g.apply({"do": "marker", "unit": "de-276-inf", "add": "OOS"})
    g.apply({"do": "step_loss", "unit": "de-276-inf", "steps": 2})
    assert not g.apply({"do": "replace", "unit": "de-276-inf"}).ok
    # A supplied unit eliminated in the open is not in the OOS pile.
    g.apply({"do": "step_loss", "unit": "de-348-inf"})
    assert g.apply({"do": "replace", "unit": "de-348-inf", "steps": 1}).ok


def test_free_french_only_armor_receives_replacements(bundle, tmp_path):
    dst = tmp_path / "sfn"
    shutil.copytree(SFN, dst)
    p = dst / "counters.yaml"
    text = p.read_text(encoding="utf-8")
    line = next(x for x in text.splitlines() if x.startswith("- {id: ff-2-armd"))
    p.write_text(text.replace(line, line.replace("category: armor", "category: infantry")), encoding="utf-8")
    for path, armor in ((SFN, True), (dst, False)):
        g = Game(load_bundle(path).bundle, SCEN, seed=1)
        allied_turn(g)
        g.apply({"do": "set_rp", "pool": "us", "points": 2})
        g.apply({"do": "step_loss", "unit": "ff-2-armd"})  # in the England box, reduced
        r = g.apply({"do": "replace", "unit": "ff-2-armd"})
        assert r.ok is armor, r
        if not armor:
            assert r.rule == "SFN 8.6"


@pytest.mark.parametrize("seed,converted", [(1, False), (5, True)])
def test_untried_us_unit_converts_on_6_or_more(bundle, seed, converted):
    g = Game(bundle, SCEN, seed=seed)
    g.apply({"do": "place", "unit": "us-4-armd-untried", "to": "2009"})
    r = g.apply({"do": "blood", "unit": "us-4-armd-untried", "advanced": True})
    assert r.ok and r.data["converted"] is converted and r.data["total"] == r.data["die"] + 1
    blooded = g.unit("us-4-armd")
    if converted:
        assert g.label(blooded.hex) == "2009" and blooded.steps == 2
        assert g.unit("us-4-armd-untried").box == "us-blooded"
    else:
        assert blooded.box == "us-blooded" and g.label(g.unit("us-4-armd-untried").hex) == "2009"


def test_blooding_refusals(bundle):
    g = Game(bundle, SCEN, seed=1)
    assert not g.apply({"do": "blood", "unit": "us-36-inf"}).ok           # not untried
    assert not g.apply({"do": "blood", "unit": "us-4-armd-untried"}).ok   # in England, not in a battle
    g.apply({"do": "place", "unit": "us-4-armd-untried", "to": "2009"})
    g.apply({"do": "marker", "unit": "us-4-armd-untried", "add": "OOS"})
    r = g.apply({"do": "blood", "unit": "us-4-armd-untried"})
    assert not r.ok and r.rule == "SFN 8.5" and "out of supply" in r.message


def test_commonwealth_rp_give_the_german_one_vp_each_but_us_rp_none(bundle):
    # SFN 4.4: each Commonwealth RP committed to a unit gives the German one VP.
    g = Game(bundle, SCEN, seed=1)
    allied_turn(g)
    g.apply({"do": "set_rp", "pool": "commonwealth", "points": 2})
    g.apply({"do": "set_rp", "pool": "us", "points": 2})
    g.apply({"do": "step_loss", "unit": "cw-5-inf"})
    before = g.state.vp.get("german", 0)
    assert g.apply({"do": "replace", "unit": "cw-5-inf"}).ok
    assert g.state.vp.get("german", 0) == before + 1
    vp = [e for e in g.log if e["type"] == "vp" and e.get("unit") == "cw-5-inf"]
    assert vp and vp[-1]["rule"] == "SFN 4.4" and vp[-1]["delta"] == 1
    us = next(uid for uid, u in g.state.units.items()
              if uid.startswith("us-") and u.where == "hex" and u.steps == u.max_steps and u.max_steps > 1)
    g.apply({"do": "step_loss", "unit": us})
    after_cw = g.state.vp.get("german", 0)
    assert g.apply({"do": "replace", "unit": us}).ok
    assert g.state.vp.get("german", 0) == after_cw
