"""SFN German transfers: Italy [7.4], Italy scheduling [7.5], Riga-Odessa [7.6], the same-turn
entry ban [7.1] and the army HQs' CP [6.6] on the sample bundle."""

from __future__ import annotations

import shutil

import pytest

from conftest import REPO
from model.bundle import load_bundle
from play.game import Game

SFN = REPO / "scenarios" / "second-front-now"


@pytest.fixture(scope="module")
def bundle():
    return load_bundle(SFN).bundle


def to_turn(g: Game, turn: int) -> None:
    while g.state.turn < turn:
        assert g.apply({"do": "end_turn"}).ok


def test_italy_transfer_on_fifth_turns_one_unit_no_cp(bundle):
    g = Game(bundle, "calais-landing-playtest", seed=1)
    r = g.apply({"do": "italy_transfer", "unit": "de-hg-pz"})
    assert not r.ok and r.rule == "SFN 7.4"
    to_turn(g, 5)
    cp_before = [e for e in g.log if e["type"] == "command_points"][-1]["points"]
    r = g.apply({"do": "italy_transfer", "unit": "de-hg-pz"})
    assert r.ok and g.unit("de-hg-pz").box == "south"
    assert not any(e["type"] == "cp_spent" for e in g.log if e["turn"] == 5)
    assert cp_before == 3
    r = g.apply({"do": "italy_transfer", "unit": "de-lssah-pz"})
    assert not r.ok and "one unit" in r.message
    assert not g.apply({"do": "italy_transfer", "unit": "de-9-ss-pz"}).ok  # not in Italy


def test_italy_transfer_only_in_the_german_admin_phase(bundle):
    g = Game(bundle, "calais-landing-playtest", seed=1)
    to_turn(g, 5)
    g.apply({"do": "next_phase"})
    r = g.apply({"do": "italy_transfer", "unit": "de-hg-pz"})
    assert not r.ok and r.policy is not None and r.policy.startswith("sfn-admin-is-reinforcement-phase")


def test_no_entry_onto_the_map_in_the_transfer_turn(bundle):
    g = Game(bundle, "calais-landing-playtest", seed=1)
    to_turn(g, 5)
    assert g.apply({"do": "italy_transfer", "unit": "de-hg-pz"}).ok
    g.apply({"do": "next_phase"})
    for do in ("move", "strategic_move"):
        r = g.apply({"do": do, "unit": "de-hg-pz", "to": "3421"})
        assert not r.ok and r.rule == "SFN 7.1", r
    # Units already in the South box at the start of the turn may still enter [7.1].
    r = g.apply({"do": "move", "unit": "de-1-para", "to": "3421"})
    assert r.rule != "SFN 7.1"


def test_italy_hq_to_the_cp_box_next_turn_then_one_more_cp(bundle):
    g = Game(bundle, "calais-landing-playtest", seed=1)
    to_turn(g, 5)
    assert g.apply({"do": "italy_transfer", "unit": "de-10-army-hq"}).ok
    r = g.apply({"do": "hq_to_cp", "unit": "de-10-army-hq"})
    assert not r.ok and r.rule == "SFN 7.1"
    to_turn(g, 6)
    r = g.apply({"do": "hq_to_cp", "unit": "de-10-army-hq"})
    assert r.ok and g.unit("de-10-army-hq").box == "german-cp"
    to_turn(g, 7)
    ev = [e for e in g.log if e["type"] == "command_points" and e["turn"] == 7 and e["cp_side"] == "german"]
    assert ev[-1]["points"] == 4 and ev[-1]["hqs"] == ["de-10-army-hq"]  # 6.6 example: from GT 7


def test_riga_odessa_needs_the_option_and_a_fifth_turn(bundle):
    g = Game(bundle, "calais-landing-playtest", seed=1)
    assert g.apply({"do": "declare_riga_odessa"}).rule == "SFN 7.6"
    assert not g.apply({"do": "declare_riga_odessa"}).ok


def test_riga_odessa_draws_five_every_fifth_turn_from_fifteen_after(bundle, tmp_path):
    dst = tmp_path / "sfn"
    shutil.copytree(SFN, dst)
    p = dst / "scenarios" / "calais-riga-odessa.yaml"
    p.write_text(p.read_text(encoding="utf-8").replace("  riga_odessa_declared: 5\n", ""), encoding="utf-8")
    g = Game(load_bundle(dst).bundle, "calais-riga-odessa", seed=4)
    r = g.apply({"do": "declare_riga_odessa"})
    assert not r.ok  # GT 1 is too early
    to_turn(g, 10)
    assert g.apply({"do": "declare_riga_odessa"}).ok
    assert not g.apply({"do": "declare_riga_odessa"}).ok  # never twice, never rescinded
    to_turn(g, 24)
    assert not any(e["type"] == "riga_odessa_draw" for e in g.log)
    to_turn(g, 25)
    draw = next(e for e in g.log if e["type"] == "riga_odessa_draw")
    assert draw["turn"] == 25 and len(draw["units"]) == 4  # the sample's Russia box holds four
    for uid in draw["units"]:
        u = g.unit(uid)
        assert u.box == ("german-cp" if "hq" in uid else "north") and u.steps == u.max_steps


def test_riga_odessa_declared_by_scenario_param(bundle):
    g = Game(bundle, "calais-riga-odessa", seed=2)
    to_turn(g, 20)
    draw = next(e for e in g.log if e["type"] == "riga_odessa_draw")
    assert draw["turn"] == 20


def test_italy_scheduling_option(bundle, tmp_path):
    dst = tmp_path / "sfn"
    shutil.copytree(SFN, dst)
    p = dst / "scenarios" / "calais-riga-odessa.yaml"
    p.write_text(p.read_text(encoding="utf-8").replace("optional_rules: {riga_odessa: true,",
                                                       "optional_rules: {italy_scheduling: true, riga_odessa: true,"),
                 encoding="utf-8")
    g = Game(load_bundle(dst).bundle, "calais-riga-odessa", seed=2)
    r = g.apply({"do": "schedule_italy", "unit": "de-lssah-pz", "turn": 5})
    assert r.ok, r
    assert not g.apply({"do": "schedule_italy", "unit": "de-hg-pz", "turn": 5}).ok  # turn taken
    to_turn(g, 2)
    r = g.apply({"do": "schedule_italy", "unit": "de-hg-pz", "turn": 5})
    assert not r.ok  # fewer than 4 turns ahead
    to_turn(g, 5)
    r = g.apply({"do": "italy_transfer", "unit": "de-hg-pz"})
    assert not r.ok and r.rule == "SFN 7.5"
    assert g.apply({"do": "italy_transfer", "unit": "de-lssah-pz"}).ok
