"""TKG's typed state (play/tkg/state.py): JSON round trip, copies, saves (and saves from
before the state was typed), and no TKG module reading ``GameState.extra``."""

from __future__ import annotations

import ast
import copy
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import FIXTURES, REPO
from model.bundle import load_bundle
from play.errors import GameError
from play.game import Game, load_game
from play.tkg.plugin import PLUGIN
from play.tkg.state import TkgState, tkg_state


@settings(max_examples=60, deadline=None)
@given(st.from_type(TkgState))
def test_tkg_state_round_trips_through_json(state: TkgState) -> None:
    assert TkgState.from_dict(json.loads(json.dumps(state.to_dict()))) == state


def test_empty_dict_is_the_empty_state_and_a_bad_value_names_its_key() -> None:
    assert TkgState.from_dict({}) == TkgState()
    with pytest.raises(GameError, match=r"saved TKG state: landed\.x"):
        TkgState.from_dict({"landed": {"x": {}}})


def test_copies_share_nothing() -> None:
    t = TkgState()
    u = copy.deepcopy(t)
    u.landed.setdefault(1, {})["omaha"] = 2
    assert t.landed == {} and TkgState().landed == {}


def test_a_save_from_before_typed_state_resumes_from_extra() -> None:
    assert TkgState.from_extra({"tkg": {"landed": {"3:strip_beach": 2}}}).landed == {3: {"strip_beach": 2}}
    assert TkgState.from_extra({}) == TkgState()


def test_tkg_landings_are_counted_in_the_typed_state(tmp_path: Path) -> None:
    bundle = load_bundle(FIXTURES / "playtests" / "tkg_zoc").bundle
    g = Game(bundle, "zoc", seed=5)
    assert g.apply({"do": "next_phase", "to": "allied_support"}).ok  # TKG 4.0 3.2: reinforcements arrive
    assert g.apply({"do": "land", "unit": "us_c", "to": "N0302"}).ok
    assert tkg_state(g).landed == {g.state.turn: {"strip_beach": 1}}
    path = tmp_path / "tkg.json"
    g.save(path)
    assert tkg_state(load_game(path, bundle)) == tkg_state(g)


def test_the_plugin_declares_its_state() -> None:
    assert PLUGIN.state is TkgState


def test_no_tkg_module_reads_state_extra() -> None:
    modules = sorted((REPO / "play" / "tkg").rglob("*.py"))
    bad = [f"{path.relative_to(REPO)}:{node.lineno}" for path in modules
           for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
           if isinstance(node, ast.Attribute) and node.attr == "extra"]
    assert not bad, "TKG state belongs in GameState.system (tkg_state): " + ", ".join(bad)
    assert len(modules) > 5  # the scan found the plug-in
