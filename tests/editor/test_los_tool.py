"""LOS tool: a drag traces the line (coloured by the engine's verdict, explained with rule
cases), conditions change the answer's range, right-click shows the viewshed with rings,
and a system with LOS off says why."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QMessageBox

from conftest import REPO
from editor.main_window import MainWindow
from helpers import mouse, scene_point
from model.los_fast import FastLos
from PySide6.QtCore import Qt


@pytest.fixture(autouse=True)
def no_modal_prompts(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(MainWindow, "ask_save", lambda self: QMessageBox.StandardButton.Discard)
    monkeypatch.setenv("HEXPROOF_RECOVERY_DIR", str(tmp_path / "recovery"))


def open_mode(qtbot: Any, path: Path) -> MainWindow:
    w = MainWindow(autosave_seconds=3600)
    qtbot.addWidget(w)
    w.resize(1300, 850)
    w.show()
    assert w.open_path(path)
    assert w.scenario_mode.open_scenario()
    return w


def test_drag_traces_line_with_explanation(qtbot: Any) -> None:
    w = open_mode(qtbot, REPO / "scenarios" / "utah-beach")
    mode, view, hmap = w.scenario_mode, w.view, w.doc.hmap  # type: ignore[union-attr]
    panel = mode.panels.los
    assert panel.active.isEnabled()
    panel.active.setChecked(True)
    assert view.tool is panel.tool  # type: ignore[union-attr]
    a, b = hmap.parse("40.040"), hmap.parse("46.040")
    view.set_zoom(1.0)  # type: ignore[union-attr]
    view.center_on_hex(hmap.parse("43.040"))  # type: ignore[union-attr]
    mouse(view, "press", scene_point(view, a))  # type: ignore[arg-type]
    mouse(view, "move", scene_point(view, b))  # type: ignore[arg-type]
    mouse(view, "release", scene_point(view, b))  # type: ignore[arg-type]
    expected = FastLos(hmap, w.doc.system).query(a, b)  # type: ignore[union-attr]
    assert mode.layer is not None  # it draws the selection's line
    assert mode.selection.los == (a, b, expected.visible)  # type: ignore[union-attr]
    text = panel.text.toPlainText()
    assert text.startswith("LOS 40.040 → 46.040") and ("VISIBLE" in text or "BLOCKED" in text)
    assert f"decided by {expected.decided_by.kind} [{expected.decided_by.rule}]" in text  # type: ignore[union-attr]
    panel.night.setChecked(True)  # conditions retrace the same line
    assert panel.last is not None and panel.last.condition == "night"
    # Out of night range (6 > 3) the panel names what decided, with its case: the night row
    # [Utah Excl 1.1: "The maximum Line of Sight distance at Night is 3 hexes"] unless a blocker
    # within 3 hexes decides first.
    night = panel.last.decided_by
    assert night is not None and night.kind in ("range", "blocker", "crest")
    assert night.kind != "range" or night.rule == "Excl 1.1"
    assert f"decided by {night.kind} [{night.rule}]" in panel.text.toPlainText()
    panel.active.setChecked(False)
    assert view.tool is mode.panels.tools["setup"]  # type: ignore[union-attr]


def test_right_click_viewshed_and_rings(qtbot: Any) -> None:
    w = open_mode(qtbot, REPO / "scenarios" / "utah-beach")
    mode, view, hmap = w.scenario_mode, w.view, w.doc.hmap  # type: ignore[union-attr]
    mode.panels.los.active.setChecked(True)
    h = hmap.parse("43.040")
    view.center_on_hex(h)  # type: ignore[union-attr]
    mouse(view, "press", scene_point(view, h), Qt.MouseButton.RightButton)  # type: ignore[arg-type]
    mouse(view, "release", scene_point(view, h), Qt.MouseButton.RightButton)  # type: ignore[arg-type]
    sel = mode.selection  # what the scenario layer draws
    assert mode.layer is not None and sel is not None and sel.viewshed_origin == h
    assert sel.viewshed == FastLos(hmap, w.doc.system).viewshed(h)  # type: ignore[union-attr]
    assert sel.rings and all(r % 5 == 0 for r in sel.rings)
    mode.panels.los.clear()  # type: ignore[union-attr]
    assert not sel.viewshed and sel.los is None


def test_system_without_los_says_why(qtbot: Any) -> None:
    w = open_mode(qtbot, REPO / "scenarios" / "second-front-now")
    panel = w.scenario_mode.panels.los
    if w.doc.system.los.enabled:  # type: ignore[union-attr]
        pytest.skip("this sample's system uses LOS")
    assert not panel.active.isEnabled()
    assert "not used" in panel.status.text()
