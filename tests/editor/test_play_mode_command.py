"""Play mode: the Rally [GTS 20.0], Command? [21.4] and Transfer Leader [21.2] buttons
(play/gts/rally.py, play/gts/command.py)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from conftest import REPO
from helpers import activate, action_button, no_modal_prompts, open_play, play_status  # noqa: F401 (autouse fixture)

UTAH = REPO / "scenarios" / "utah-beach"


def test_rally_and_command_buttons(qtbot: Any) -> None:
    _, m = open_play(qtbot, UTAH, "night-drop", seed=3)
    ctl = m.ctl
    assert ctl is not None
    activate(m, "a-1-502")  # 4.0 H, the 502nd PIR chit in play [GTS 10.0.1]
    rally, cmd = action_button(m, "rally"), action_button(m, "command")
    assert rally.isEnabled() and rally.isVisible() and cmd.isVisible()
    qtbot.mouseClick(rally, Qt.MouseButton.LeftButton)
    assert "select a unit first" in play_status(m)
    assert ctl.apply({"do": "place", "unit": "a-1-502", "to": "49.020"}).ok
    assert ctl.apply({"do": "marker", "unit": "a-1-502", "add": "suppressed"}).ok
    ctl.select(["a-1-502"])
    qtbot.mouseClick(cmd, Qt.MouseButton.LeftButton)
    assert "In Command by policy" in play_status(m) and ctl.game.log[-1]["type"] == "command_check"
    qtbot.mouseClick(rally, Qt.MouseButton.LeftButton)
    assert "suppressed removed" in play_status(m), play_status(m)
    assert "suppressed" not in ctl.game.unit("a-1-502").markers


def test_transfer_leader_button_refuses_with_the_case_then_transfers(qtbot: Any) -> None:
    _, m = open_play(qtbot, UTAH, "night-drop", seed=3)
    ctl = m.ctl
    assert ctl is not None
    activate(m, "a-1-502")  # 4.0 H, the 502nd PIR chit in play [GTS 10.0.1]
    assert ctl.apply({"do": "place", "unit": "a-1-502", "to": "49.020"}).ok
    assert ctl.apply({"do": "place", "unit": "ldr-moseley", "to": "49.023"}).ok
    b = action_button(m, "transfer_leader")
    ctl.select(["ldr-moseley"])
    m.actions_panel.target.setText("49.021")
    qtbot.mouseClick(b, Qt.MouseButton.LeftButton)
    assert "GTS 21.2" in play_status(m) and ctl.game.log[-1]["type"] == "refused"
    m.actions_panel.target.setText("49.020")
    qtbot.mouseClick(b, Qt.MouseButton.LeftButton)
    assert ctl.game.label(ctl.game.unit("ldr-moseley").hex) == "49.020", play_status(m)
