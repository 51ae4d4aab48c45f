"""Each sample's playtest variant (ILLUSTRATIVE costs and MAs, see the variant files) is playable
in the editor's Play mode: clicking a counter selects its stack, the reach overlay is non-empty,
a click on a reachable hex moves it, and End Turn advances the turn."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from conftest import REPO
from editor.main_window import MainWindow
from editor.play import PlayMode
from helpers import click, scene_point

# sample folder, playtest variant, a unit that starts on the map
SAMPLES = [
    ("utah-beach", "night-drop-playtest", "b-1-502"),
    ("second-front-now", "calais-landing-playtest", "de-348-inf"),
    ("killing-ground", "operation-overlord-playtest", "us_8_inf"),
]


@pytest.fixture(autouse=True)
def no_modal_prompts(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(MainWindow, "ask_save", lambda self: QMessageBox.StandardButton.Discard)
    monkeypatch.setattr(MainWindow, "ask_recover", lambda self, path: False)
    monkeypatch.setenv("HEXPROOF_RECOVERY_DIR", str(tmp_path / "recovery"))


@pytest.mark.parametrize(("sample", "variant", "unit"), SAMPLES, ids=[s[0] for s in SAMPLES])
def test_playtest_variant_moves_in_play_mode(qtbot: Any, sample: str, variant: str, unit: str) -> None:
    w = MainWindow(autosave_seconds=3600)
    qtbot.addWidget(w)
    w.resize(1200, 800)
    w.show()
    assert w.open_path(REPO / "scenarios" / sample)
    assert w.view is not None and w.doc is not None
    m: PlayMode = w.play_mode  # type: ignore[attr-defined]
    assert m.enter(variant)
    ctl = m.ctl
    assert ctl is not None and ctl.scenario_id == variant
    game = ctl.game
    side = game.unit(unit).side
    while not (game.phase.kind == "movement" and game.phase.side == side):
        assert ctl.next_phase().ok
    start = game.unit(unit).hex
    assert start is not None
    w.view.set_zoom(2.0)
    w.view.center_on_hex(start)
    click(w.view, scene_point(w.view, start))
    assert unit in ctl.selection
    costs = ctl.reachable_costs()
    assert costs, ctl.reach_problem
    # The nearest reachable hex keeps the click inside the zoomed view.
    dest = min(costs, key=lambda h: (costs[h], h.q, h.r))
    click(w.view, scene_point(w.view, dest))
    assert ctl.last is not None and ctl.last.ok, ctl.last
    assert game.unit(unit).hex == dest
    turn = game.state.turn
    qtbot.mouseClick(m.bar.end_turn, Qt.MouseButton.LeftButton)
    assert game.state.turn == turn + 1
    assert game.unit(unit).hex == dest
