"""The plug-in table and action dispatch (issue #16): every system file names a plug-in the
table has (or none), each plug-in's data reads, and every action has exactly one handler."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conftest import REPO
from model.bundle import load_bundle, load_system as _load_system
from model.system import GameSystem, available_systems
from play.dispatch import GENERIC_ACTIONS, ActionClash, dispatch_table
from play.errors import GameError
from play.game import Game
from play.plugins import DATA_ONLY, PLUGINS, plugin_for
from play.procedure import Procedure
from play.result import ActionResult
from validators.registry import PACKS

def load_system(sid: str) -> GameSystem:
    diags: list[Any] = []
    system = _load_system(sid, None, diags, {})
    assert system is not None, [d.render() for d in diags]
    return system


SAMPLES = sorted(p.parent.name for p in (REPO / "scenarios").glob("*/game.yaml"))


def test_plugin_ids_are_unique_and_folders_exist() -> None:
    assert len({p.id for p in PLUGINS}) == len(PLUGINS)
    for p in PLUGINS:
        assert (p.folder / "plugin.py").is_file(), p.folder
        assert p.validator_pack in PACKS, (p.id, p.validator_pack)


@pytest.mark.parametrize("sid", available_systems())
def test_every_system_file_names_a_known_plugin(sid: str) -> None:
    system = load_system(sid)
    plugin = plugin_for(system)
    assert plugin is DATA_ONLY or plugin.id == system.plugin


@pytest.mark.parametrize("plugin", PLUGINS, ids=lambda p: p.id)
def test_plugin_data_reads(plugin: Any) -> None:
    assert isinstance(plugin.defaults, dict) and plugin.defaults, "params.yaml is empty"
    assert all(c.status for c in plugin.coverage.values())
    assert isinstance(plugin.actions, tuple) and isinstance(plugin.templates, dict)


def test_unknown_plugin_is_a_clear_error() -> None:
    system = load_system("sfn").model_copy(update={"plugin": "no-such-plugin"})
    with pytest.raises(GameError, match="names play plug-in 'no-such-plugin'.*it has: gts, sfn, tkg"):
        plugin_for(system)


def test_a_system_without_plugin_plays_with_shared_procedures(tmp_path: Path) -> None:
    """A copy of the SFN system under a new id and without ``plugin:`` still sets up and
    moves: the engine's own actions need no plug-in, and only shared procedures run (the
    generic ones its data declares, e.g. SFN's ``zoc:``)."""
    bundle = load_bundle(REPO / "scenarios" / "second-front-now").bundle
    assert bundle is not None
    bundle.system = bundle.system.model_copy(update={"id": "sfn-copy", "plugin": None})
    game = Game(bundle, bundle.scenario_ids()[0])
    assert game.plugin is DATA_ONLY
    assert all(type(p).__module__.startswith("play.generic.") for p in game.procedures), game.procedures
    assert set(GENERIC_ACTIONS) <= set(game.action_names())


@pytest.mark.parametrize("sample", SAMPLES)
def test_sample_games_dispatch_each_action_once(sample: str) -> None:
    bundle = load_bundle(REPO / "scenarios" / sample).bundle
    assert bundle is not None
    for sid in bundle.scenario_ids():
        game = Game(bundle, sid)
        offered = [do for p in game.procedures for do in p.actions]
        assert len(offered) == len(set(offered)), sid
        assert set(game.action_names()) == set(GENERIC_ACTIONS) | set(offered)


# --- dispatch_table on its own ---------------------------------------------------------------


class _Engine:
    def _do_move(self, action: dict[str, Any]) -> ActionResult:
        return ActionResult(True, "engine move")

    def _do_attack(self, action: dict[str, Any]) -> ActionResult:
        return ActionResult(True, "engine attack")


def _proc(actions: dict[str, Any], replaces: frozenset[str] = frozenset()) -> Procedure:
    p = Procedure()
    p.actions = actions
    p.replaces = replaces
    return p


def _ok(message: str) -> Any:
    return lambda game, action: ActionResult(True, message)


def test_two_procedures_offering_one_action_clash() -> None:
    with pytest.raises(ActionClash, match="'dig' is offered by both"):
        dispatch_table(_Engine(), ("move",), [_proc({"dig": _ok("a")}), _proc({"dig": _ok("b")})])


def test_shadowing_an_engine_action_needs_replaces() -> None:
    with pytest.raises(ActionClash, match="without declaring it in 'replaces'"):
        dispatch_table(_Engine(), ("move", "attack"), [_proc({"attack": _ok("system attack")})])
    table = dispatch_table(_Engine(), ("move", "attack"),
                           [_proc({"attack": _ok("system attack")}, frozenset({"attack"}))])
    assert table["attack"]({}).message == "system attack"
    assert table["move"]({}).message == "engine move"


def test_an_action_is_replaced_once() -> None:
    with pytest.raises(ActionClash):
        dispatch_table(_Engine(), ("attack",), [_proc({"attack": _ok("a")}, frozenset({"attack"})),
                                                _proc({"attack": _ok("b")}, frozenset({"attack"}))])
