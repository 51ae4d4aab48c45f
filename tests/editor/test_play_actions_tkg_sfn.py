"""Play mode "Actions" dock: the TKG OMM/Transit move and the SFN replacement and transfer
buttons run their engine actions; results and refusals (with the rule case) reach the status bar."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QPushButton

from conftest import FIXTURES, REPO
from editor.main_window import MainWindow
from editor.play import PlayMode

SFN = REPO / "scenarios" / "second-front-now"
TKG_TRANSIT = FIXTURES / "playtests" / "tkg_transit"


@pytest.fixture(autouse=True)
def no_modal_prompts(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(MainWindow, "ask_save", lambda self: QMessageBox.StandardButton.Discard)
    monkeypatch.setattr(MainWindow, "ask_recover", lambda self, path: False)
    monkeypatch.setenv("HEXPROOF_RECOVERY_DIR", str(tmp_path / "recovery"))


def play(qtbot: Any, path: Path, scenario: str) -> PlayMode:
    w = MainWindow(autosave_seconds=3600)
    qtbot.addWidget(w)
    w.resize(1200, 800)
    w.show()
    assert w.open_path(path)
    m: PlayMode = w.play_mode  # type: ignore[attr-defined]
    assert m.enter(scenario) and m.ctl is not None
    return m


def button(m: PlayMode, name: str) -> QPushButton:
    b = m.actions_panel.buttons[name]
    assert b.objectName() == f"play.action.{name}"
    return b


def status(m: PlayMode) -> str:
    return m.window.statusBar().currentMessage()


def test_omm_move_button_moves_out_of_a_transit_box(qtbot: Any) -> None:
    m = play(qtbot, TKG_TRANSIT, "transit")
    ctl = m.ctl
    assert ctl is not None
    assert button(m, "omm_move").isEnabled() and not button(m, "replace").isEnabled()
    while not (ctl.game.phase.kind == "movement" and ctl.game.side_to_move == "german"):
        assert ctl.next_phase().ok
    assert ctl.game.unit("de_r1").box == "T9"  # scheduled for E9, placed in Transit 9 [18.4.2]
    qtbot.mouseClick(button(m, "omm_move"), Qt.MouseButton.LeftButton)
    assert status(m) == "refused: select a unit first"
    ctl.select(["de_r1"])
    m.actions_panel.target.setText("box:E10")
    qtbot.mouseClick(button(m, "omm_move"), Qt.MouseButton.LeftButton)
    assert "refused" in status(m) and "[TKG [18.4.2]]" in status(m)
    ctl.select(["de_r1"])
    m.actions_panel.target.setText("E9")
    qtbot.mouseClick(button(m, "omm_move"), Qt.MouseButton.LeftButton)
    assert status(m).startswith("ok: moved to OMM box East 9"), status(m)
    assert ctl.game.actions[-1] == {"do": "omm_move", "units": ["de_r1"], "to": "E9"}


def test_sfn_replace_and_transfer_buttons(qtbot: Any) -> None:
    m = play(qtbot, SFN, "calais-landing-playtest")
    ctl = m.ctl
    assert ctl is not None
    enabled = {n for n, b in m.actions_panel.buttons.items() if b.isEnabled()}
    assert {"replace", "blood", "italy_transfer", "declare_riga_odessa", "hq_to_cp"} <= enabled
    assert "omm_move" not in enabled
    ctl.select(["de-348-inf"])
    qtbot.mouseClick(button(m, "replace"), Qt.MouseButton.LeftButton)
    assert "refused" in status(m) and "[SFN 8.1]" in status(m)  # GT 1: no RP on the Turn Record Sheet
    assert ctl.apply({"do": "set_rp", "pool": "german", "points": 1}).ok
    ctl.select(["de-348-inf"])
    qtbot.mouseClick(button(m, "replace"), Qt.MouseButton.LeftButton)
    assert status(m).startswith("ok: de-348-inf back to 2 step(s)"), status(m)
    ctl.select(["de-hg-pz"])
    qtbot.mouseClick(button(m, "italy_transfer"), Qt.MouseButton.LeftButton)
    assert "refused" in status(m) and "[SFN 7.4]" in status(m)  # GT 1 is no transfer turn
    qtbot.mouseClick(button(m, "declare_riga_odessa"), Qt.MouseButton.LeftButton)
    assert "[SFN 7.6]" in status(m)  # the option is off in this scenario
