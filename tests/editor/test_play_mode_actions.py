"""Play mode "Actions" dock: the buttons for procedures without a map gesture run the engine
action, and its result or refusal (with the rule case) reaches the status bar and the log."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt

from conftest import REPO
from editor.play import PlayMode
from helpers import action_button, no_modal_prompts, open_play, play_status, to_activation  # noqa: F401 (autouse fixture)
from play.gts.state import gts_state

UTAH = REPO / "scenarios" / "utah-beach"
SFN = REPO / "scenarios" / "second-front-now"


def play(qtbot: Any, path: Path, scenario: str) -> PlayMode:
    """Play mode on ``scenario`` with the Actions dock showing."""
    _, m = open_play(qtbot, path, scenario)
    assert m.actions_dock.isVisible()
    return m


def test_buttons_follow_the_system(qtbot: Any) -> None:
    m = play(qtbot, UTAH, "night-drop")
    enabled = {n for n, b in m.actions_panel.buttons.items() if b.isEnabled()}
    assert {"fire", "column", "land_craft", "recover_stragglers", "spend_srp"} <= enabled
    assert not {"strategic_move", "plot_drop"} & enabled
    m2 = play(qtbot, SFN, "calais-landing")
    enabled = {n for n, b in m2.actions_panel.buttons.items() if b.isEnabled()}
    assert "strategic_move" in enabled and "recover_stragglers" not in enabled


def test_recover_stragglers_button_refuses_then_rolls(qtbot: Any) -> None:
    m = play(qtbot, UTAH, "night-drop")
    ctl = m.ctl
    assert ctl is not None
    assert m.actions_panel.fields["division"].currentText() == "101st Airborne Division"
    qtbot.mouseClick(action_button(m, "recover_stragglers"), Qt.MouseButton.LeftButton)
    assert "not an action of GTS 4.0 A Weather" in play_status(m)  # after the Division's chit, in 4.0 H
    to_activation(m)
    qtbot.mouseClick(action_button(m, "recover_stragglers"), Qt.MouseButton.LeftButton)
    assert "refused" in play_status(m) and "[Excl 3.4.2]" in play_status(m)
    assert any("REFUSED recover_stragglers" in line for line in m.log_panel.event_lines())
    from play.gts.stragglers import state  # a battalion with points, and the chit drawn
    state(ctl.game).track["1/502"] = 3
    gts_state(ctl.game).chits.drawn.append("chit-divact-101")
    qtbot.mouseClick(action_button(m, "recover_stragglers"), Qt.MouseButton.LeftButton)
    assert play_status(m).startswith("ok: straggler recovery (101st Airborne Division, modifier +4)")
    assert any("straggler_roll" in line for line in m.log_panel.dice_lines())
    assert m.result_label.text() == play_status(m)


def test_column_button_toggles_and_refuses_with_rule(qtbot: Any) -> None:
    m = play(qtbot, UTAH, "night-drop")
    ctl = m.ctl
    assert ctl is not None
    qtbot.mouseClick(action_button(m, "column"), Qt.MouseButton.LeftButton)
    assert play_status(m) == "refused: select a unit first"
    ctl.select(["c5-ii-919"])
    qtbot.mouseClick(action_button(m, "column"), Qt.MouseButton.LeftButton)
    assert "column is not an action of GTS 4.0 A Weather" in play_status(m)  # part of a move [GTS 13.2]: in 4.0 H
    assert ctl.game.actions[-1] == {"do": "column", "units": ["c5-ii-919"], "enter": True}
    ctl.apply({"do": "marker", "unit": "c5-ii-919", "add": "column"})
    ctl.select(["c5-ii-919"])
    qtbot.mouseClick(action_button(m, "column"), Qt.MouseButton.LeftButton)
    assert ctl.game.actions[-1]["enter"] is False  # in Column: the button asks to leave it


def test_fire_and_land_craft_need_a_target(qtbot: Any) -> None:
    m = play(qtbot, UTAH, "night-drop")
    ctl = m.ctl
    assert ctl is not None
    ctl.select(["c5-ii-919"])
    qtbot.mouseClick(action_button(m, "fire"), Qt.MouseButton.LeftButton)
    assert play_status(m) == "refused: type a target hex first"
    m.actions_panel.target.setText("31.031")
    qtbot.mouseClick(action_button(m, "fire"), Qt.MouseButton.LeftButton)
    assert ctl.game.actions[-1] == {"do": "attack", "attackers": ["c5-ii-919"], "target": "31.031"}
    assert play_status(m).startswith(("ok:", "refused:"))
    qtbot.mouseClick(action_button(m, "land_craft"), Qt.MouseButton.LeftButton)
    assert ctl.game.actions[-1] == {"do": "land_craft", "unit": "c5-ii-919", "to": "31.031"}
    assert play_status(m).startswith("refused:")  # an infantry company is no landing craft


def test_strategic_move_button_moves_in_sfn(qtbot: Any) -> None:
    m = play(qtbot, SFN, "calais-landing")
    ctl = m.ctl
    assert ctl is not None
    assert ctl.apply({"do": "place", "unit": "cw-51-inf", "to": "1813"}).ok
    assert ctl.next_phase("allied_command").ok  # moves: the Command & Action Phase [SFN 5.2 II.B]
    ctl.select(["cw-51-inf"])
    m.actions_panel.target.setText("1718")
    qtbot.mouseClick(action_button(m, "strategic_move"), Qt.MouseButton.LeftButton)
    assert play_status(m).startswith("ok:"), play_status(m)
    assert ctl.game.label(ctl.game.unit("cw-51-inf").hex) == "1718"


def test_spend_srp_button(qtbot: Any) -> None:
    m = play(qtbot, UTAH, "night-drop")
    ctl = m.ctl
    assert ctl is not None
    from play.gts.stragglers import state
    while not ctl.game.unit("c-1-502").on_map:
        assert ctl.next_phase().ok
    to_activation(m)  # SRPs are spent in the Activation Phase [GTS 4.0 H, Excl 3.4.3]
    ctl.apply({"do": "place", "unit": "c-1-502", "to": "box:div-101-stragglers"})
    state(ctl.game).srp["1/502"] = 1
    ctl.select(["c-1-502"])
    qtbot.mouseClick(action_button(m, "spend_srp"), Qt.MouseButton.LeftButton)
    assert play_status(m).startswith("ok: c-1-502 returned to the Rally Point 33.031"), play_status(m)


def test_the_dock_follows_the_game_plug_in(qtbot: Any) -> None:
    """The dock holds the game's plug-in's buttons, fields and sections, in its order; a game
    of a system without a plug-in (the duel fixture) gets only the Target field."""
    from conftest import FIXTURES
    from play.plugins import dock_actions

    m = play(qtbot, UTAH, "night-drop")
    assert m.ctl is not None
    plugin = m.ctl.game.plugin
    assert list(m.actions_panel.buttons) == [s.name for s in dock_actions(plugin)]
    assert [b.toolTip() for b in m.actions_panel.buttons.values()] == [s.tip for s in dock_actions(plugin)]
    assert list(m.actions_panel.fields) == [f.name for f in plugin.play_ui.fields]
    # Another bundle in the same window: the dock drops the old plug-in's widgets.
    old = list(m.actions_panel.buttons.values())
    m.window.open_path(str(FIXTURES / "playtests" / "duel"))
    assert m.play("meeting") and m.ctl is not None and m.ctl.game.plugin is not plugin
    panel = m.actions_panel
    assert panel.buttons == {} and panel.fields == {} and panel.panels == {} and panel.options == {}
    assert panel.target.isVisible()
    qtbot.waitUntil(lambda: all(_deleted(b) for b in old))  # the old buttons are gone, not hidden


def _deleted(widget: Any) -> bool:
    from shiboken6 import isValid

    return not isValid(widget)
