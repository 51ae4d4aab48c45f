"""Play mode says once, when a game starts (and on restart), which selected optional rules the
engine does not play: the status bar shows the game's ``optional_rules_not_applied`` event."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from conftest import REPO
from editor.main_window import MainWindow
from helpers import no_modal_prompts  # noqa: F401 (autouse fixture)

VARIANT = ("schema_version: 1\nid: night-drop-decoys\nname: decoys\nextends: night-drop\n"
           "optional_rules: {Excl 18.5: true}\n")


def test_status_bar_notice_once_per_game(qtbot: Any, tmp_path: Path) -> None:
    root = tmp_path / "utah"
    shutil.copytree(REPO / "scenarios" / "utah-beach", root)
    (root / "scenarios" / "night-drop-decoys.yaml").write_text(VARIANT, encoding="utf-8")
    game = root / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace(
        "scenarios/night-drop-playtest.yaml]", "scenarios/night-drop-playtest.yaml, scenarios/night-drop-decoys.yaml]"),
        encoding="utf-8")
    w = MainWindow(autosave_seconds=3600)
    qtbot.addWidget(w)
    w.show()
    assert w.open_path(root)
    m = w.play_mode
    assert m.play("night-drop-decoys")
    msg = w.statusBar().currentMessage()
    assert "Optional rules not played" in msg and "Excl 18.5" in msg and "German Decoy Mines" in msg
    assert w.set_mode("map")
    assert w.set_mode(m)  # the paused game resumes: no second notice
    assert "Optional rules not played" not in w.statusBar().currentMessage()
    m.restart()
    msg = w.statusBar().currentMessage()
    assert msg.startswith("Restarted night-drop-decoys") and "Excl 18.5" in msg
    m.restart("night-drop")  # a scenario that selects nothing unplayed
    assert "Optional rules not played" not in w.statusBar().currentMessage()
