"""File ▸ Close (Ctrl+W) with the unsaved-changes prompt, and Play ▸ Restart Scenario… that asks
before a game in progress is lost (issue #21)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QLabel, QMessageBox

from conftest import FIXTURES
from editor.commands import PaintTerrain
from editor.main_window import MainWindow
from helpers import MINI, no_modal_prompts, show_window  # noqa: F401 (autouse fixture)

DUEL = FIXTURES / "playtests" / "duel"


@pytest.fixture
def mini_copy(tmp_path: Path) -> Path:
    dest = tmp_path / "mini"
    shutil.copytree(MINI, dest)
    return dest


def _paint(w: MainWindow) -> None:
    assert w.doc is not None
    w.doc.push(PaintTerrain(w.doc, {w.doc.hmap.parse("0502"): "woods"}))


def test_close_is_ctrl_w_in_the_file_menu(qtbot: Any, mini_copy: Path) -> None:
    w = show_window(qtbot, mini_copy)
    act = w.actions_by_id["file.close"]
    assert act.shortcut().toString() == "Ctrl+W"
    assert act in w.menuBar().actions()[0].menu().actions()


def test_close_asks_about_unsaved_changes_and_cancel_keeps_the_bundle(qtbot: Any, mini_copy: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    w = show_window(qtbot, mini_copy)
    _paint(w)
    asked: list[int] = []
    monkeypatch.setattr(w, "ask_save", lambda: asked.append(1) or QMessageBox.StandardButton.Cancel)
    doc = w.doc
    assert not w.close_document()
    assert asked == [1] and w.doc is doc and doc is not None and doc.is_modified


def test_close_with_save_writes_then_closes_everything_of_the_bundle(qtbot: Any, mini_copy: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    w = show_window(qtbot, mini_copy)
    runner = w.diagnostics.runner
    assert runner is not None
    qtbot.waitUntil(lambda: not runner.busy and runner.completed == runner.generation, timeout=20000)
    _paint(w)
    monkeypatch.setattr(w, "ask_save", lambda: QMessageBox.StandardButton.Save)
    w.actions_by_id["file.close"].trigger()
    assert w.doc is None and w.view is None and w.scene is None
    assert isinstance(w.centralWidget(), QLabel) and "No bundle open" in w.centralWidget().text()
    assert w.windowTitle() == "Hexproof"
    assert w.diagnostics.diagnostics == [] and w.diagnostics.label.text() == ""
    assert w.props.map_id.text() == "" and w.props.name.text() == ""
    assert "edit.undo" not in w.actions_by_id and w.zoom_label.text() == ""
    assert not w.set_mode("scenario") and not w.play_mode.play()
    # Saved before closing: the bundle opens again with the painted hex.
    assert w.open_path(mini_copy)
    assert w.doc is not None and w.doc.hmap.terrain_at(w.doc.hmap.parse("0502")) == "woods"
    assert not w.doc.is_modified


def test_restart_asks_first_once_a_game_has_actions(qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    w = show_window(qtbot, DUEL)
    m = w.play_mode
    assert m.play() and m.ctl is not None
    asked: list[tuple[str, int]] = []
    answer = [False]

    def ask(scenario: str, actions: int) -> bool:
        asked.append((scenario, actions))
        return answer[0]

    monkeypatch.setattr(w, "ask_restart", ask)
    assert m.restart()  # nothing played yet: nothing to lose, no question
    assert asked == []
    assert m.ctl.apply({"do": "place", "unit": "b1", "to": "0602"}).ok
    played = m.ctl.game.state.to_dict(m.ctl.game.hmap)
    m.restart_action.trigger()  # Cancel: the game stays as played
    assert len(asked) == 1 and asked[0][1] == 1
    assert m.ctl.game.state.to_dict(m.ctl.game.hmap) == played and m.ctl.game.can_undo
    # Another scenario picked in the Play toolbar's chooser asks too, and Cancel puts it back.
    combo = m.bar.scenario
    other = next(i for i in range(combo.count()) if combo.itemData(i) != m.ctl.scenario_id)
    combo.setCurrentIndex(other)
    combo.activated.emit(other)
    assert len(asked) == 2 and combo.currentData() == m.ctl.scenario_id
    answer[0] = True
    m.restart_action.trigger()
    assert len(asked) == 3 and not m.ctl.game.can_undo


def test_restart_is_in_the_play_menu_shown_in_play_mode_only(qtbot: Any) -> None:
    w = show_window(qtbot, DUEL)
    m = w.play_mode
    assert m.restart_action not in w.edit_menu.actions()
    assert m.restart_action in m.menu.actions() and m.undo_action in m.menu.actions()
    assert not m.menu.menuAction().isVisible()
    assert m.play()
    assert m.menu.menuAction().isVisible() and m.restart_action.isVisible()
    assert w.set_mode("map")
    assert not m.menu.menuAction().isVisible()
    assert m.restart_action.text().endswith("…")  # it asks before it acts
    assert m.menu.title().replace("&", "") == "Play"
