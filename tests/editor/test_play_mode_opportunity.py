"""Play mode: the Opportunity Fire button [GTS 17.8] (play/gts/opportunity.py)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from conftest import REPO
from helpers import activate, action_button, no_modal_prompts, open_play, play_status  # noqa: F401 (autouse fixture)
from play.gts.state import gts_state

UTAH = REPO / "scenarios" / "utah-beach"


def test_opportunity_fire_button_refuses_without_a_trigger_then_fires(qtbot: Any) -> None:
    _, m = open_play(qtbot, UTAH, "night-drop-playtest", seed=5)
    ctl = m.ctl
    assert ctl is not None
    b = action_button(m, "opportunity_fire")
    assert b.isEnabled() and b.isVisible()
    assert ctl.next_phase("activation").ok  # units act in the Activation Phase [GTS 4.0 H]
    activate(m, "a-1-502")  # the mover's chit in play; c5-ii-919 (709.ID) is Non-Active [17.8]
    assert ctl.apply({"do": "place", "unit": "c5-ii-919", "to": "49.021"}).ok
    assert ctl.apply({"do": "place", "unit": "a-1-502", "to": "49.020"}).ok
    ctl.select(["c5-ii-919"])
    qtbot.mouseClick(b, Qt.MouseButton.LeftButton)
    assert "no pending Opportunity Fire for c5-ii-919" in play_status(m) and "GTS 17.2" in play_status(m)
    assert ctl.apply({"do": "move", "unit": "a-1-502", "to": "49.018"}).ok
    ctl.select(["c5-ii-919"])
    m.actions_panel.target.setText("49.018")
    qtbot.mouseClick(b, Qt.MouseButton.LeftButton)
    # The sample prints no TQ: the engine refuses with the case and asks for a declared one.
    assert "Troop Quality is unknown" in play_status(m) and "GTS 17.4" in play_status(m), play_status(m)
    assert gts_state(ctl.game).opportunities                       # a refusal keeps the opportunity
