"""Play mode Actions dock: the Utah naval buttons (Naval Step, Move Assault Force, Move Ship,
Resolve Event) on the beach-landing playtest path [Excl 4.4, 4.6, 6.0]."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from conftest import REPO
from editor.play import PlayMode
from helpers import action_button, no_modal_prompts, open_play, play_status, to_activation  # noqa: F401 (autouse fixture)

UTAH = REPO / "scenarios" / "utah-beach"
NAVAL = ("naval_step", "move_assault_force", "move_ship", "resolve_event")


def click(qtbot: Any, m: PlayMode, name: str) -> None:
    b = action_button(m, name)
    assert b.isEnabled()
    qtbot.mouseClick(b, Qt.MouseButton.LeftButton)


def test_naval_buttons_only_where_the_scenario_has_a_naval_display(qtbot: Any) -> None:
    _, m = open_play(qtbot, UTAH, "night-drop")
    assert not any(m.actions_panel.buttons[n].isEnabled() for n in NAVAL)
    _, m2 = open_play(qtbot, UTAH, "beach-landing")
    assert all(m2.actions_panel.buttons[n].isEnabled() for n in NAVAL)


def test_naval_step_and_assault_force_move_on_the_beach_landing(qtbot: Any) -> None:
    from play.gts import naval

    _, m = open_play(qtbot, UTAH, "beach-landing")
    ctl = m.ctl
    assert ctl is not None
    click(qtbot, m, "naval_step")
    assert "not an action of GTS 4.0 A Weather" in play_status(m)              # the NSoP runs in 4.0 H
    to_activation(m)
    click(qtbot, m, "naval_step")
    assert "refused" in play_status(m) and "[Excl 4.6]" in play_status(m)       # no Naval chit yet
    ctl.apply({"do": "draw_chit"})                                      # the Naval chit comes first [4.1.8]
    click(qtbot, m, "naval_step")
    assert play_status(m).startswith("ok: NSoP step 3")
    ctl.apply({"do": "naval_step", "step": 7})
    m.actions_panel.target.setText("30.016")                            # the UtN sector: UtN's marker moves
    click(qtbot, m, "move_assault_force")
    assert ctl.game.actions[-1] == {"do": "move_assault_force", "force": "UtN", "hex": "30.016"}
    m.actions_panel.target.setText("25.025")                            # inland: refused with its case
    click(qtbot, m, "move_assault_force")
    assert "refused" in play_status(m) and "[Excl 4.4.3]" in play_status(m)
    m.actions_panel.target.setText("17.029")
    click(qtbot, m, "move_assault_force")
    assert play_status(m).startswith("ok: UtS marker 18.027 → 17.029")
    assert naval.markers(ctl.game)["UtS"] == "17.029"
    click(qtbot, m, "naval_step")                                       # step 8
    ctl.select(["dd-uts-1"])
    m.actions_panel.target.setText("box:range-utn-short")
    click(qtbot, m, "move_ship")
    assert "refused" in play_status(m) and "[Excl 4.4.2]" in play_status(m)
    click(qtbot, m, "resolve_event")
    assert "no Random Event is waiting" in play_status(m)
