"""The GTS plug-in's typed state (play/gts/state.py): its saved form round-trips, copies are
independent (undo snapshots), old saves with the untyped ``extra`` layout still load, and no
GTS module reads ``state.extra`` any more."""

from __future__ import annotations

import ast
import copy
import dataclasses
import json
import types
import typing
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import REPO
from gts_helpers import game
from play.errors import GameError
from play.game import load_game
from play.gts.plugin import PLUGIN
from play.gts.state import (BeachOverlayState, DivisionPoints, GtsState, Opportunity, Park, PendingEvent, Rearguard,
                            gts_state)
from play.state import GameState

TEXT = st.text(max_size=6)
FLOATS = st.floats(allow_nan=False, allow_infinity=False, width=32)


def strategy(tp: Any) -> st.SearchStrategy[Any]:
    """Values of ``tp`` (a GtsState field type), built from the dataclasses' own annotations so a
    field added later is covered without touching this test."""
    origin, args = get_origin(tp), get_args(tp)
    if dataclasses.is_dataclass(tp):
        hints = get_type_hints(tp)
        return st.builds(tp, **{f.name: strategy(hints[f.name]) for f in dataclasses.fields(tp)})
    if origin in (Union, types.UnionType):
        return st.one_of(*(strategy(a) for a in args))
    if origin is Literal:
        return st.sampled_from(args)
    if origin is list:
        return st.lists(strategy(args[0]), max_size=3)
    if origin is dict:
        return st.dictionaries(TEXT, strategy(args[1]), max_size=3)
    if tp is Any:  # PendingEvent.result2: whatever the system data's row gives
        return st.one_of(st.none(), TEXT, st.integers())
    return {str: TEXT, int: st.integers(-10**6, 10**6), bool: st.booleans(), float: FLOATS,
            type(None): st.none()}[tp]


@settings(max_examples=60, deadline=None)
@given(strategy(GtsState))
def test_saved_form_round_trips_as_json(s: GtsState) -> None:
    d = s.to_dict()
    assert json.loads(json.dumps(d)) == d                       # JSON-plain
    assert GtsState.from_dict(json.loads(json.dumps(d))) == s


@settings(max_examples=30, deadline=None)
@given(strategy(GtsState))
def test_a_deep_copy_shares_nothing(s: GtsState) -> None:
    before = s.to_dict()
    c = copy.deepcopy(s)
    assert c == s
    # Change every mutable container of the copy: the original (an undo snapshot) must not move.
    c.chits.mug.append("x")
    c.activation.points.setdefault("d", DivisionPoints()).command += 1
    c.beach.setdefault("ov", BeachOverlayState()).drifted["u"] = 1
    c.barrages["1.1"] = "heavy"
    c.naval.nsop.fired.append("x")
    c.indirect.parks.setdefault("p", Park(hex="1.1", division="d", units=[], fired=False, side="s")).units.append("u")
    c.stragglers.rearguards.append(Rearguard(unit="u", hex=None, eliminated=False))
    for o in c.opportunities:
        o.targets.append("x")
    c.command.leaders_removed.append("x")
    c.roaming.failed["u"] = 3
    assert s.to_dict() == before


def test_the_plugin_starts_an_empty_state() -> None:
    g = game()
    assert PLUGIN.state is GtsState and isinstance(g.state.system, GtsState)
    assert gts_state(g) is g.state.system and gts_state(g).chits.mug   # the chit pull has filled the mug


def test_a_played_game_saves_and_loads_its_state(tmp_path: Path) -> None:
    g = game()
    g.apply({"do": "set_points", "division": "4th Infantry Division", "command": 3, "dispatch": 2})
    assert g.apply({"do": "draw_chit"}).ok
    path = tmp_path / "g.json"
    g.save(path)
    assert json.loads(path.read_text())["state"]["system"]["version"] == 1
    h = load_game(path, g.bundle)
    assert h.state.system == g.state.system and h.log_json() == g.log_json()


OLD_EXTRA: dict[str, Any] = {
    "chits": {"mug": ["chit-8ir"], "carry": None, "drawn": ["chit-naval"]},
    "stragglers": {"track": {"1/502": 3}, "srp": {"1/502": 1}, "received": {}, "lost": [],
                   "rearguards": [{"for": "a-1-502", "hex": "33.031", "eliminated": False}], "recoveries": {},
                   "box": {"a-1-502": "div-101-stragglers"}},
    "opportunities": [{"trigger": "move", "group": 4, "step": 0, "firer": "c5-ii-919", "targets": ["a-1-8"],
                       "hex": "24.025", "to": "23.025", "modifier": -1, "modifier_rule": "GTS 17.6 #2",
                       "rule": "GTS 17.2", "id": 5}],
    "gts": {"activation": {"points": {"709.ID": {"command": 2, "dispatch": 1}}, "next_chits": [],
                           "direct": {"turn": None, "units": []}},
            "barrages": {"20.025": "heavy"},
            "beach": {"utah": {"tracks": {"obstacles": 3, "nests": None, "gaps": 3, "sea_state": 2}, "open_gaps": [],
                               "all_gaps_open": False, "cleared": False, "drifted": {}, "pending_gap": []}},
            "naval": {"markers": {"UtS": "17.029"}, "plays": {"3": 1},
                      "nsop": {"active": True, "step": 2, "turn": 3, "fired": [], "first_play": True}},
            "indirect": {"parks": {"park-1": {"hex": "30.030", "division": "4th Infantry Division", "units": ["a-1-8"],
                                              "fired": True, "side": "allied"}},
                         "contacts": {}, "tried": {}, "blocked": {}, "next_park": 2},
            "events": {"pending": {"die": 4, "result": "naval", "kind": "naval_support", "needs": "ships",
                                   "turn": 3, "rule": "Excl 6.0"}, "blocked": {"chit-8ir": 6}, "minefields": []},
            "leaders_removed": ["ldr-x"], "airborne_leader_losses": {"3:101st Airborne Division": 7},
            "roaming_units": {}, "cp_conversion": {"turn": 3, "used": {"allied": 2}}},
}


def test_an_old_save_without_a_system_part_reads_the_extra_layout() -> None:
    g = game()
    d = g.state.to_dict(g.hmap)
    del d["system"]
    d["extra"] = copy.deepcopy(OLD_EXTRA)
    s = GameState.from_dict(d, g.hmap, PLUGIN.state).system
    assert isinstance(s, GtsState)
    assert s.chits.drawn == ["chit-naval"] and s.activation.points["709.ID"] == DivisionPoints(2, 1)
    assert s.stragglers.rearguards == [Rearguard(unit="a-1-502", hex="33.031", eliminated=False)]
    assert s.opportunities[0] == Opportunity(id=5, trigger="move", group=4, step=0, firer="c5-ii-919",
                                             targets=["a-1-8"], hex="24.025", to="23.025", modifier=-1,
                                             modifier_rule="GTS 17.6 #2", rule="GTS 17.2")
    assert s.barrages == {"20.025": "heavy"} and s.beach["utah"].tracks["nests"] is None
    assert s.naval.markers == {"UtS": "17.029"} and s.naval.nsop.step == 2 and s.naval.craft is None
    assert s.indirect.parks["park-1"].fired and s.indirect.next_park == 2
    assert s.events.pending == PendingEvent(die=4, result="naval", kind="naval_support", needs="ships", turn=3,
                                            rule="Excl 6.0")
    assert s.command.leaders_removed == ["ldr-x"] and s.leader_losses == {"3:101st Airborne Division": 7}
    assert s.cp_conversion.used == {"allied": 2} and s.roaming.activation is None
    assert GtsState.from_dict(s.to_dict()) == s
    assert GtsState.from_dict({}) == GtsState()                 # an old save of a game that kept nothing yet


def test_a_bad_saved_state_names_the_field() -> None:
    d = GtsState().to_dict()
    d["indirect"]["next_park"] = "many"
    with pytest.raises(GameError, match=r"saved GTS state: indirect\.next_park"):
        GtsState.from_dict(d)
    with pytest.raises(GameError, match="saved GTS state: wat"):
        GtsState.from_dict({**GtsState().to_dict(), "wat": 1})  # unknown keys are not dropped silently
    with pytest.raises(GameError, match="version 7"):
        GtsState.from_dict({**GtsState().to_dict(), "version": 7})


def test_no_gts_module_reads_state_extra() -> None:
    """GTS keeps its state in ``game.state.system`` (GtsState): no ``.extra`` attribute is read
    anywhere in play/gts/ (play/gts/state.py only names the old layout in its docstring)."""
    hits = []
    for path in sorted((REPO / "play" / "gts").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr == "extra":
                hits.append(f"{path.relative_to(REPO)}:{node.lineno}")
    assert hits == []


def test_editor_and_bench_read_gts_state_typed() -> None:
    """The GTS state the editor and the benchmark read comes through play/gts, not ``extra``."""
    for rel in ("editor/play/layer.py", "play/gts/naval_ui.py", "play/gts/ui.py", "editor/play/actions.py",
                "bench/bench_opportunity.py"):
        text = (REPO / rel).read_text(encoding="utf-8")
        assert 'extra.get("gts"' not in text and 'extra["opportunities"' not in text and \
            'extra.get("opportunities"' not in text, rel


def test_state_fields_hold_no_untyped_bags() -> None:
    """Every field of GtsState and its parts is typed: no ``Any`` (except a data table's free
    ``result2``) and no ``dict[str, Any]``."""
    seen: set[type] = set()

    def walk(cls: type) -> None:
        if cls in seen:
            return
        seen.add(cls)
        for name, tp in get_type_hints(cls).items():
            if tp is Any:
                assert (cls, name) == (PendingEvent, "result2"), (cls, name)
            for arg in typing.get_args(tp) + (tp,):
                assert not (get_origin(arg) is dict and get_args(arg)[1] is Any), (cls, name)
                for inner in (arg, *get_args(arg)):
                    if dataclasses.is_dataclass(inner):
                        walk(inner)  # type: ignore[arg-type]

    walk(GtsState)
    assert len(seen) >= 15


@pytest.mark.parametrize("name", ["gts_beach_landing", "gts_stragglers"])
def test_a_game_saved_before_typed_state_loads_the_same_state(name: str) -> None:
    """tests/fixtures/saves/<playtest>-extra-layout.json: the playtest saved by the engine before
    GTS had typed state (its state in ``extra``, no ``system`` part). Loaded now, its GtsState is
    the one the engine with typed state saved for the same play (``-typed-layout.json``, saved
    before the sequence of play became data: the playtests now take the GTS 4.0 steps, so their
    logs differ from both saves), and its log is unchanged."""
    saves = REPO / "tests" / "fixtures" / "saves"
    typed = load_game(saves / f"{name}-typed-layout.json")
    old = load_game(saves / f"{name}-extra-layout.json", typed.bundle)
    assert "system" not in json.loads((saves / f"{name}-extra-layout.json").read_text())["state"]
    assert "system" in json.loads((saves / f"{name}-typed-layout.json").read_text())["state"]
    assert old.state.system == typed.state.system and old.log_json() == typed.log_json()
