"""What a plug-in shows in Play mode (play/plugin_ui.py, play/<plug-in>/actions.yaml and ui.py),
without Qt: how a button's ``args`` build its engine action from the Actions dock, that every
plug-in's buttons read only inputs its dock has and run actions its procedures offer, and that a
malformed plug-in data file is a packaging error that names the file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conftest import REPO
from model.bundle import load_bundle
from play.game import Game
from play.plugin import ActionSpec, PluginDataError, SystemPlugin
from play.plugin_ui import DOCK_INPUTS, OVERLAY_STYLES, Choice, DockInput, PlayUI, TurnBox, arg_inputs, build_action
from play.plugins import DATA_ONLY, PLUGINS, dock_actions

# Sample scenarios whose procedures, together, offer every button of their plug-in.
SAMPLES = {"gts": ("utah-beach", ("night-drop", "beach-landing")),
           "sfn": ("second-front-now", ("calais-landing", "calais-optional-rules")),
           "tkg": ("killing-ground", ("operation-overlord",))}

UI = PlayUI(fields=(Choice("division", "Division:", "", lambda g: []), TurnBox("turn", "Turn:")))


def spec(args: dict[str, Any], refuse: str | None = None) -> ActionSpec:
    return ActionSpec("b", "B", "act", "", args=args, refuse=refuse)


def build(args: dict[str, Any], inp: DockInput, refuse: str | None = None) -> dict[str, Any] | str:
    return build_action(spec(args, refuse), UI, None, inp)  # type: ignore[arg-type]  # no builder: no game read


def test_args_read_the_dock() -> None:
    inp = DockInput(("u1", "u2"), "box:E9", {"division": "101", "turn": 4})
    assert build({"units": "$units", "to": "$target"}, inp) == {"do": "act", "units": ["u1", "u2"], "to": "box:E9"}
    assert build({"unit": "$unit", "to": "$box", "turn": "$turn"}, inp) == {"do": "act", "unit": "u1", "to": "E9",
                                                                            "turn": 4}
    assert build({"attackers": ["$unit"], "contest": True, "division": "$division"}, inp) == \
        {"do": "act", "attackers": ["u1"], "contest": True, "division": "101"}
    assert build({}, inp) == {"do": "act"}


def test_a_missing_input_refuses_in_argument_order() -> None:
    empty = DockInput()
    assert build({"units": "$units", "to": "$target"}, empty) == "select a unit first"
    assert build({"to": "$target", "units": "$units"}, empty) == "type a target hex first"
    assert build({"unit": "$unit", "to": "$box"}, DockInput(("u1",))) == "type a target box first"
    assert build({"division": "$division"}, DockInput(values={"division": None})) == "choose a division"
    assert build({"units": "$units", "to": "$target"}, DockInput(("u1",)), refuse="pick both") == "pick both"
    # Optional: left out when empty, kept when given.
    assert build({"unit": "$unit", "to": "$target?"}, DockInput(("u1",))) == {"do": "act", "unit": "u1"}
    assert build({"unit": "$unit", "to": "$target?"}, DockInput(("u1",), "0101")) == {"do": "act", "unit": "u1",
                                                                                     "to": "0101"}


def test_a_builder_takes_over_the_button() -> None:
    seen: list[DockInput] = []

    def builder(game: Any, inp: DockInput) -> dict[str, Any]:
        seen.append(inp)
        return {"do": "built"}

    ui = PlayUI(builders={"b": builder})
    inp = DockInput(("u1",), "x")
    assert build_action(spec({}), ui, None, inp) == {"do": "built"}  # type: ignore[arg-type]
    assert seen == [inp]


@pytest.mark.parametrize("plugin", PLUGINS, ids=lambda p: p.id)
def test_every_button_reads_its_dock_and_runs_an_offered_action(plugin: SystemPlugin) -> None:
    ui = plugin.play_ui
    specs = dock_actions(plugin)
    assert specs, plugin.id
    names = [s.name for s in specs]
    assert len(names) == len(set(names))  # objectNames play.action.<name> are unique in a dock
    for s in specs:
        assert s.tip, s.name  # every tooltip cites its rule case first
        assert arg_inputs(s) <= ui.input_names(), (s.name, arg_inputs(s) - ui.input_names())
        if s.name in ui.builders:
            assert not s.args, f"{s.name}: a built button has no args"
    assert set(ui.builders) <= set(names), "a builder for no button"
    # Each ``do`` is an action the plug-in's procedures handle in one of its sample scenarios.
    bundle_dir, scenarios = SAMPLES[plugin.id]
    bundle = load_bundle(REPO / "scenarios" / bundle_dir).bundle
    assert bundle is not None
    handled = {do for sid in scenarios for p in Game(bundle, sid, 1).procedures for do in p.actions}
    assert sorted(s.do for s in specs if s.do not in handled) == []


@pytest.mark.parametrize("plugin", PLUGINS, ids=lambda p: p.id)
def test_overlays_use_known_styles(plugin: SystemPlugin) -> None:
    bundle_dir, scenarios = SAMPLES[plugin.id]
    bundle = load_bundle(REPO / "scenarios" / bundle_dir).bundle
    assert bundle is not None
    g = Game(bundle, scenarios[-1], 1)
    before = g.state.to_dict(g.hmap)
    for overlay in plugin.play_ui.overlays(g):
        assert overlay.style in OVERLAY_STYLES
    assert g.state.to_dict(g.hmap) == before  # reading the overlays writes nothing (painting is no move)


def test_data_only_games_get_an_empty_dock() -> None:
    ui = DATA_ONLY.play_ui
    assert not (ui.fields or ui.panels or ui.attack_options or ui.builders)
    assert dock_actions(DATA_ONLY) == DATA_ONLY.actions
    assert set(DOCK_INPUTS) <= PlayUI().input_names()


def _plugin(tmp_path: Path, name: str, text: str) -> SystemPlugin:
    (tmp_path / name).write_text(text, encoding="utf-8")
    return SystemPlugin(id="t", title="t", folder=tmp_path, build=lambda game: [])


def test_events_yaml_forms(tmp_path: Path) -> None:
    p = _plugin(tmp_path, "events.yaml", "a: 'one {x}'\nb: {text: 'two', dice: true}\n")
    assert p.templates == {"a": "one {x}", "b": "two"} and p.dice_events == frozenset({"b"})


@pytest.mark.parametrize(("name", "text"), [
    ("events.yaml", "a: 3\n"),
    ("events.yaml", "a: {text: 'x', loud: true}\n"),
    ("events.yaml", "- a\n"),
    ("actions.yaml", "- {text: 'no name'}\n"),
    ("actions.yaml", "- {name: a, text: A, args: [1]}\n"),
    ("actions.yaml", "a: b\n"),
])
def test_a_malformed_data_file_names_itself(tmp_path: Path, name: str, text: str) -> None:
    p = _plugin(tmp_path, name, text)
    with pytest.raises(PluginDataError, match=name):
        p.templates if name == "events.yaml" else p.actions


@pytest.mark.parametrize(("name", "text", "where", "read"), [
    ("events.yaml", "a: 'x'\nb: 3\n", ":2:", "templates"),
    ("actions.yaml", "- {name: a, text: A}\n- {text: 'no name'}\n", ":2:", "actions"),
    ("action_kinds.yaml", "move: unit\nfire: [1]\n", ":2:", "action_kinds"),
])
def test_a_malformed_entry_is_located(tmp_path: Path, name: str, text: str, where: str, read: str) -> None:
    """The error names the file, line and column of the bad entry (file:line:col)."""
    p = _plugin(tmp_path, name, text)
    with pytest.raises(PluginDataError, match=f"{name}{where}"):
        getattr(p, read)
