"""Shared helpers for editor tests: open documents and send mouse events in scene coords, the
``no_modal_prompts`` fixture, ``show_window``/``open_play`` (a shown window on a bundle, in Play
mode) and the Play-mode probes (Actions dock buttons, status bar, a selected firer).

``no_modal_prompts`` is autouse but lives outside a conftest (tests/conftest.py is imported as
``conftest``, so a second one here would clash): a test module opts in by importing it by name,
``from helpers import no_modal_prompts  # noqa: F401``; pytest collects fixtures from the module's
namespace, so the import alone makes it run for every test in that module."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QEvent, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QApplication, QMessageBox, QPushButton

from conftest import FIXTURES
from editor.document import MapDocument
from editor.main_window import MainWindow
from editor.map_view.view import MapView
from editor.play import PlayMode
from model.hexes import Hex

MINI = FIXTURES / "bundles" / "mini"


def open_doc(path: object = MINI) -> MapDocument:
    doc, diags = MapDocument.open(path)  # type: ignore[arg-type]
    assert doc is not None, diags
    return doc


def scene_point(view: MapView, h: Hex, dx: float = 0.0, dy: float = 0.0) -> QPointF:
    x, y = view.map_scene.layout.center(h)
    return QPointF(x + dx, y + dy)


def mouse(view: MapView, kind: str, scene_pt: QPointF, button: Qt.MouseButton = Qt.MouseButton.LeftButton,
          modifiers: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
    """Deliver a press/move/release at a scene point (QTest.mouseMove cannot hold buttons)."""
    types = {"press": QEvent.Type.MouseButtonPress, "move": QEvent.Type.MouseMove,
             "release": QEvent.Type.MouseButtonRelease}
    local = QPointF(view.mapFromScene(scene_pt))
    glob = QPointF(view.viewport().mapToGlobal(local.toPoint()))
    held = Qt.MouseButton.NoButton if kind == "release" else button
    ev = QMouseEvent(types[kind], local, glob, Qt.MouseButton.NoButton if kind == "move" else button, held, modifiers)
    QApplication.sendEvent(view.viewport(), ev)


def click(view: MapView, scene_pt: QPointF, button: Qt.MouseButton = Qt.MouseButton.LeftButton) -> None:
    mouse(view, "press", scene_pt, button)
    mouse(view, "release", scene_pt, button)


@pytest.fixture(autouse=True)
def no_modal_prompts(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No save/recover dialog may block a test, and crash-recovery files go to the test's tmp dir."""
    monkeypatch.setattr(MainWindow, "ask_save", lambda self: QMessageBox.StandardButton.Discard)
    monkeypatch.setattr(MainWindow, "ask_recover", lambda self, path: False)
    monkeypatch.setattr(MainWindow, "ask_restart", lambda self, scenario, actions: True)
    monkeypatch.setenv("HEXPROOF_RECOVERY_DIR", str(tmp_path / "recovery"))


def show_window(qtbot: Any, path: Path, size: tuple[int, int] = (1200, 800)) -> MainWindow:
    """A shown window of ``size`` with the bundle at ``path`` open (no autosave during the test)."""
    w = MainWindow(autosave_seconds=3600)
    qtbot.addWidget(w)
    w.resize(*size)
    w.show()
    assert w.open_path(path)
    return w


def open_play(qtbot: Any, path: Path, scenario: str, seed: int | None = None,
              wait_warm: bool = False) -> tuple[MainWindow, PlayMode]:
    """A shown 1200x800 window with ``path`` open and Play mode entered on ``scenario``.

    ``wait_warm`` waits for the step-table warm-up, which runs on a pool thread, so the test does
    not end (and tear the window down) with it still running."""
    w = show_window(qtbot, path)
    m: PlayMode = w.play_mode
    assert m.play(scenario, seed) and m.ctl is not None
    if wait_warm:
        qtbot.waitUntil(lambda: m.ctl is not None and m.ctl.warm_seconds is not None, timeout=20000)
    return w, m


def action_button(m: PlayMode, name: str) -> QPushButton:
    """The Actions dock button for engine action ``name`` (its object name is the test's handle)."""
    b = m.actions_panel.buttons[name]
    assert b.objectName() == f"play.action.{name}"
    return b


def play_status(m: PlayMode) -> str:
    return m.window.statusBar().currentMessage()


def firer_at(m: PlayMode, label: str) -> str:
    """Place the first on-map unit (by id) at ``label`` and select it; returns its id."""
    ctl = m.ctl
    assert ctl is not None
    uid = sorted(u.id for u in ctl.game.state.units.values() if u.on_map and u.hex is not None)[0]
    assert ctl.apply({"do": "place", "unit": uid, "to": label}).ok
    ctl.select([uid])
    return uid


def to_activation(m: PlayMode) -> None:
    """On to the GTS 4.0 H Activation Phase, the one step in which units act ("During the
    Activation Phase you perform Actions with your Active Units" [GTS 13.1])."""
    ctl = m.ctl
    assert ctl is not None
    if ctl.game.phase.id != "activation":
        r = ctl.apply({"do": "next_phase", "to": "activation"})
        assert r.ok, r


def activate(m: PlayMode, unit: str) -> str:
    """In the Activation Phase, the Formation chit of ``unit`` in play as if drawn: "If a
    Formation Activation Chit is drawn: All Units belonging to that Formation become Active and
    may perform Actions" [GTS 10.0.1]. Returns the chit's id."""
    from play.gts import gate
    from play.gts.params import gts_params
    from play.gts.state import gts_state

    to_activation(m)
    ctl = m.ctl
    assert ctl is not None
    g = ctl.game
    formation = g.counters[unit].formation
    chit = next(c.id for c in g.counters.values() if "formation_chit" in c.flags and c.formation == formation)
    chits = gts_state(g).chits
    if chit in chits.mug:
        chits.mug.remove(chit)
    chits.drawn.append(chit)
    gate.start(g, chit, gts_params(g).activation)
    return chit
