"""Play mode: the GTS Activation section [10.0] — the chit drawn, the units it activates and each
Division's Command / Dispatch Points [10.0.3] — and the Draw Chit / Roll CP/DP / End Activation
buttons (play/gts/activation_ui.py, play/gts/actions.yaml)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from conftest import REPO
from helpers import action_button, no_modal_prompts, open_play, play_status, to_activation  # noqa: F401 (autouse fixture)

UTAH = REPO / "scenarios" / "utah-beach"


def _panel(m: Any) -> str:
    label = m.actions_panel.findChild(QLabel, "play-activation-display")
    assert label is not None
    return str(label.text()) if label.isVisible() else ""


def test_activation_section_shows_the_chit_its_units_and_the_points(qtbot: Any) -> None:
    _, m = open_play(qtbot, UTAH, "night-drop-playtest", seed=3)
    ctl = m.ctl
    assert ctl is not None
    qtbot.waitUntil(lambda: "Chit in play: none" in _panel(m))
    assert "101st Airborne Division: no points recorded (ratings unknown/unknown)" in _panel(m)
    to_activation(m)  # chits are drawn in the Activation Phase [GTS 4.0 H, 10.0.1]
    roll = action_button(m, "roll_points")
    qtbot.mouseClick(roll, Qt.MouseButton.LeftButton)
    assert "Division Activation Chit is drawn" in play_status(m)
    qtbot.mouseClick(action_button(m, "draw_chit"), Qt.MouseButton.LeftButton)
    chit = ctl.game.state.system.activation.current.chit
    qtbot.waitUntil(lambda: f"Chit in play: {chit}" in _panel(m))
    count = [e for e in ctl.game.log if e["type"] == "activation"][-1]["count"]
    assert count > 0 and f"Activates {count} unit(s)" in _panel(m)
    division = ctl.game.state.system.activation.current.division
    assert ctl.apply({"do": "set_points", "division": division, "command": 4, "dispatch": 2}).ok
    qtbot.waitUntil(lambda: f"{division}: 4 CP / 2 DP" in _panel(m))
    qtbot.mouseClick(roll, Qt.MouseButton.LeftButton)
    assert "unknown" in play_status(m) and "GTS 10.0.3" in play_status(m)
    qtbot.mouseClick(action_button(m, "end_activation"), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "Chit in play: none (draw the next chit)" in _panel(m))
