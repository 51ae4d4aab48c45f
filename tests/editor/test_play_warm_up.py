"""editor/play/warm_up.py: Play mode pays its first-use paint costs when it opens and after a
zoom settles, one step per event-loop turn, without changing anything on screen or in the game."""

from __future__ import annotations

from typing import Any

import numpy as np
from PySide6.QtCore import QRectF
from PySide6.QtGui import QFont, QTransform

from conftest import REPO
from editor.play.warm_up import COST_CHARS, PaintWarmUp, paint_sample, sample_overlay
from helpers import no_modal_prompts, open_play  # noqa: F401 (autouse fixture)
from model.layout import Layout

UTAH = REPO / "scenarios" / "utah-beach"


def test_the_sample_overlay_draws_every_cost_character_and_pen(qtbot: Any) -> None:  # qtbot: a QApplication
    lay = Layout.for_orientation("flat", 30.0)
    b = sample_overlay(lay)
    assert "".join(t for _box, t in b.texts) == COST_CHARS
    assert b.selected is not None and b.refused and b.fire_edges and b.reach_edges and not b.rect.isNull()
    font = QFont()
    font.setPixelSize(8)
    img = paint_sample(lay, QTransform().scale(2, 2), font)
    a = np.frombuffer(img.constBits(), dtype=np.uint8, count=img.sizeInBytes()).reshape(img.height(), -1, 4)
    assert (a[:, : img.width(), :3] < 200).any()  # something was painted (not a no-op warm-up)


def test_steps_run_one_per_event_loop_turn_and_a_failure_is_kept_not_raised(qtbot: Any) -> None:
    ran: list[str] = []

    def boom() -> None:
        raise RuntimeError("x")

    warm = PaintWarmUp([("a", lambda: ran.append("a")), ("b", boom), ("c", lambda: ran.append("c"))])
    warm.start()
    assert ran == [] and not warm.done  # nothing runs inside start(): the caller is not blocked
    qtbot.waitUntil(lambda: warm.done, timeout=5000)
    assert ran == ["a", "c"] and warm.failed == ["b"] and set(warm.steps) == {"a", "b", "c"}
    assert warm.longest >= 0 and warm.total >= warm.longest


def test_play_mode_warms_up_on_entering_and_after_a_zoom_without_changing_the_window(qtbot: Any) -> None:
    w, m = open_play(qtbot, UTAH, "night-drop-playtest", wait_warm=True)
    assert m.warm_up is not None
    qtbot.waitUntil(lambda: m.warm_up is not None and m.warm_up.done, timeout=5000)
    assert not m.warm_up.failed and set(m.warm_up.steps) == {"overlay glyphs and pens", "panel text and list"}
    assert w.view is not None and m.ctl is not None and m.layer is not None
    info, log_len, sel = m.unit_panel.info.text(), len(m.ctl.game.log), list(m.ctl.selection)
    assert w.view.zoom in m.warmed_scales
    w.view.set_zoom(2.0)
    qtbot.waitUntil(lambda: 2.0 in m.warmed_scales, timeout=5000)
    # Nothing of the warm-up shows: the Unit panel, the game and the overlay are as they were.
    assert m.unit_panel.info.text() == info and len(m.ctl.game.log) == log_len and m.ctl.selection == sel
    assert m.layer.move_overlay.current().rect == QRectF()  # no selection, no overlay drawn
