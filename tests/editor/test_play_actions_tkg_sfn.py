"""Play mode "Actions" dock: the TKG OMM/Transit move and the SFN replacement and transfer
buttons run their engine actions; results and refusals (with the rule case) reach the status bar."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from conftest import FIXTURES, REPO
from helpers import action_button, no_modal_prompts, open_play, play_status  # noqa: F401 (autouse fixture)

SFN = REPO / "scenarios" / "second-front-now"
TKG_TRANSIT = FIXTURES / "playtests" / "tkg_transit"


def test_omm_move_button_moves_out_of_a_transit_box(qtbot: Any) -> None:
    _, m = open_play(qtbot, TKG_TRANSIT, "transit")
    ctl = m.ctl
    assert ctl is not None
    assert action_button(m, "omm_move").isEnabled()
    assert "replace" not in m.actions_panel.buttons  # another plug-in's button is not in this game's dock
    assert ctl.next_phase("german_movement").ok  # TKG 4.0 4.4
    assert ctl.game.unit("de_r1").box == "T9"  # scheduled for E9, placed in Transit 9 [18.4.2]
    qtbot.mouseClick(action_button(m, "omm_move"), Qt.MouseButton.LeftButton)
    assert play_status(m) == "refused: select a unit first"
    ctl.select(["de_r1"])
    m.actions_panel.target.setText("box:E10")
    qtbot.mouseClick(action_button(m, "omm_move"), Qt.MouseButton.LeftButton)
    assert "refused" in play_status(m) and "[TKG [18.4.2]]" in play_status(m)
    ctl.select(["de_r1"])
    m.actions_panel.target.setText("E9")
    qtbot.mouseClick(action_button(m, "omm_move"), Qt.MouseButton.LeftButton)
    assert play_status(m).startswith("ok: moved to OMM box East 9"), play_status(m)
    assert ctl.game.actions[-1] == {"do": "omm_move", "units": ["de_r1"], "to": "E9"}


def test_sfn_replace_and_transfer_buttons(qtbot: Any) -> None:
    _, m = open_play(qtbot, SFN, "calais-landing-playtest")
    ctl = m.ctl
    assert ctl is not None
    enabled = {n for n, b in m.actions_panel.buttons.items() if b.isEnabled()}
    assert {"replace", "blood", "italy_transfer", "declare_riga_odessa", "hq_to_cp"} <= enabled
    assert "omm_move" not in enabled
    ctl.select(["de-348-inf"])
    qtbot.mouseClick(action_button(m, "replace"), Qt.MouseButton.LeftButton)
    assert "refused" in play_status(m) and "[SFN 8.1]" in play_status(m)  # GT 1: no RP on the Turn Record Sheet
    assert ctl.apply({"do": "set_rp", "pool": "german", "points": 1}).ok
    ctl.select(["de-348-inf"])
    qtbot.mouseClick(action_button(m, "replace"), Qt.MouseButton.LeftButton)
    assert play_status(m).startswith("ok: de-348-inf back to 2 step(s)"), play_status(m)
    ctl.select(["de-hg-pz"])
    qtbot.mouseClick(action_button(m, "italy_transfer"), Qt.MouseButton.LeftButton)
    assert "refused" in play_status(m) and "[SFN 7.4]" in play_status(m)  # GT 1 is no transfer turn
    qtbot.mouseClick(action_button(m, "declare_riga_odessa"), Qt.MouseButton.LeftButton)
    assert "[SFN 7.6]" in play_status(m)  # the option is off in this scenario
