"""Play mode: the Assault button [GTS 18.7] (play/gts/assault.py)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from conftest import REPO
from helpers import activate, action_button, no_modal_prompts, open_play, play_status  # noqa: F401 (autouse fixture)

UTAH = REPO / "scenarios" / "utah-beach"


def test_assault_button_asks_for_the_target_then_refuses_with_the_case(qtbot: Any) -> None:
    _, m = open_play(qtbot, UTAH, "beach-landing", seed=5)
    ctl = m.ctl
    assert ctl is not None
    activate(m, "a-1-8")  # 4.0 H, the 8th IR chit in play [GTS 10.0.1]
    b = action_button(m, "assault")
    assert b.isEnabled() and b.isVisible()
    assert ctl.apply({"do": "place", "unit": "a-1-8", "to": "24.025"}).ok
    ctl.select(["a-1-8"])
    qtbot.mouseClick(b, Qt.MouseButton.LeftButton)
    assert "type the target hex" in play_status(m)
    m.actions_panel.target.setText("24.026")
    qtbot.mouseClick(b, Qt.MouseButton.LeftButton)
    # The sample prints no movement allowance or Assault Rating: refused with the case [18.1].
    assert "may not Assault" in play_status(m) and "GTS 18.1" in play_status(m), play_status(m)
    assert ctl.game.log[-1]["type"] == "refused" and ctl.game.log[-1]["action"] == "assault"


def test_assault_button_runs_an_assault_with_values_in_the_counters(qtbot: Any) -> None:
    _, m = open_play(qtbot, UTAH, "beach-landing", seed=5)
    ctl = m.ctl
    assert ctl is not None
    activate(m, "a-1-8")  # 4.0 H, the 8th IR chit in play [GTS 10.0.1]
    values = {"a-1-8": {"ma": 4, "ar": 3, "tq": 6, "dr": 0, "fr": 4, "fr_colour": "yellow"},
              "c5-ii-919": {"ma": 3, "ar": 2, "tq": 5, "dr": -1, "fr": 3, "fr_colour": "yellow"}}
    for uid, vals in values.items():
        ctl.game.counters[uid].front.values.update(vals)   # ILLUSTRATIVE values, in memory only
    assert ctl.apply({"do": "place", "unit": "a-1-8", "to": "24.025"}).ok
    ctl.select(["a-1-8"])
    m.actions_panel.target.setText("24.026")
    qtbot.mouseClick(action_button(m, "assault"), Qt.MouseButton.LeftButton)
    assert "Assault on 24.026" in play_status(m), play_status(m)
    assert any(e["type"] == "assault_end" for e in ctl.game.log)
