"""Play mode: the Indirect Fire button [GTS 16.5] (play/gts/indirect.py)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from conftest import REPO
from helpers import activate, action_button, no_modal_prompts, open_play, play_status  # noqa: F401 (autouse fixture)

UTAH = REPO / "scenarios" / "utah-beach"


def test_indirect_fire_button_needs_a_selection_then_fires_a_spotted_mission(qtbot: Any) -> None:
    _, m = open_play(qtbot, UTAH, "night-drop", seed=5)
    ctl = m.ctl
    assert ctl is not None
    activate(m, "a-1-8")  # 4.0 H, the 8th IR chit in play [GTS 10.0.1]
    b = action_button(m, "indirect_fire")
    assert b.isEnabled() and b.isVisible()
    qtbot.mouseClick(b, Qt.MouseButton.LeftButton)
    assert "select the firing unit" in play_status(m)
    # ILLUSTRATIVE values in memory: the sample prints no mortar.
    ctl.game.counters["a-1-8"].front.values.update({"fr": 5, "fr_colour": "green", "fire_range": 12})
    for uid, h in (("a-1-8", "40.026"), ("b-1-8", "40.019"), ("c5-ii-919", "40.020")):
        assert ctl.apply({"do": "place", "unit": uid, "to": h}).ok
    m.actions_panel.target.setText("40.020")
    ctl.select(["a-1-8"])
    qtbot.mouseClick(b, Qt.MouseButton.LeftButton)
    assert "name a 'spotter'" in play_status(m) and "GTS 16.5" in play_status(m), play_status(m)
    ctl.select(["a-1-8", "b-1-8"])
    qtbot.mouseClick(b, Qt.MouseButton.LeftButton)
    fired = [e for e in ctl.game.log if e["type"] == "indirect_fire"]
    assert fired and fired[-1]["target"] == "c5-ii-919" and fired[-1]["spotter"] == "b-1-8"
    assert "Indirect Fire at c5-ii-919" in play_status(m), play_status(m)
