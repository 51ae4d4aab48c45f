"""A map click's answer first (PlayMode.map_first, editor/play/after_paint.py): the click that
selects a stack builds its move overlay at once and the map view paints it in a frame of its
own; the turn bar, Unit, Log and Actions panels follow right after that paint (or 50 ms later
at the latest, when nothing repaints). Other changes (an action, a selection from a panel)
refresh the panels at once, as before."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt

from conftest import REPO
from editor.play.after_paint import PANELS_AFTER_MS
from helpers import activate, click, no_modal_prompts, open_play, scene_point  # noqa: F401 (autouse fixture)

UTAH = REPO / "scenarios" / "utah-beach"
VARIANT, UNIT = "night-drop-playtest", "b-1-502"


class _Paints(QObject):
    def __init__(self, widget: Any, order: list[str]) -> None:
        super().__init__(widget)
        self.order = order
        widget.installEventFilter(self)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if event.type() == QEvent.Type.Paint:
            self.order.append("map painted")
        return False


def _playing(qtbot: Any) -> tuple[Any, Any]:
    w, m = open_play(qtbot, UTAH, VARIANT)
    activate(m, UNIT)
    assert m.ctl is not None and w.view is not None
    qtbot.waitUntil(w.view.isVisible)  # a new view is shown by a posted event (QLayout)
    w.view.center_on_hex(m.ctl.game.unit(UNIT).hex)
    qtbot.waitUntil(lambda: not m._panels_after_paint.armed)
    return w, m


def test_a_click_paints_the_overlay_before_the_panels_refresh(qtbot: Any) -> None:
    w, m = _playing(qtbot)
    order: list[str] = []
    _Paints(w.view.viewport(), order)
    real = m._panels_after_paint._callback
    m._panels_after_paint._callback = lambda: (order.append("panels"), real())
    before = m.unit_panel.info.text()
    click(w.view, scene_point(w.view, m.ctl.game.unit(UNIT).hex))
    # handled: the selection and its overlay are there, the panels not yet
    assert m.ctl.selection == [UNIT] or UNIT in m.ctl.selection
    assert m.layer is not None and m.layer.move_overlay.current().hexes
    assert m.unit_panel.info.text() == before and order == []
    qtbot.waitUntil(lambda: "panels" in order)
    assert order.index("map painted") < order.index("panels")
    assert m.unit_panel.info.text() != before
    # the right click that clears it: the same order
    order.clear()
    click(w.view, scene_point(w.view, m.ctl.game.unit(UNIT).hex), Qt.MouseButton.RightButton)
    assert not m.ctl.selection and order == []
    qtbot.waitUntil(lambda: "panels" in order)
    assert order.index("map painted") < order.index("panels")


def test_panels_follow_within_the_fallback_when_the_map_does_not_paint(qtbot: Any) -> None:
    """Nothing on screen changes (the view's viewport is not repainted): the panels still follow,
    from the fallback timer."""
    w, m = _playing(qtbot)
    before = m.unit_panel.info.text()
    with m.map_first():
        m.ctl.select([UNIT])
    assert m._panels_after_paint.armed
    w.view.viewport().setUpdatesEnabled(False)  # no paint can come
    qtbot.waitUntil(lambda: m.unit_panel.info.text() != before, timeout=2000)
    w.view.viewport().setUpdatesEnabled(True)
    assert not m._panels_after_paint.armed
    assert m._panels_after_paint._fallback.interval() == PANELS_AFTER_MS  # the timer that ran it


def test_other_changes_refresh_the_panels_at_once_and_a_flush_runs_a_pending_one(qtbot: Any) -> None:
    w, m = _playing(qtbot)
    before = m.unit_panel.info.text()
    m.ctl.select([UNIT])  # not a map click (the Unit panel's list, a script): at once
    assert m.unit_panel.info.text() != before and not m._panels_after_paint.armed
    m.ctl.clear_selection()
    with m.map_first():
        m.ctl.select([UNIT])
    assert m._panels_after_paint.armed and m.unit_panel.info.text() == before
    m.refresh_panels()  # what code that reads the panels at once calls
    assert not m._panels_after_paint.armed and m.unit_panel.info.text() != before


def test_a_run_left_from_an_earlier_arming_waits_for_this_armings_paint(qtbot: Any) -> None:
    """A paint posts the run for the arming it saw; a flush and a new arming before that run
    came make it stale: it must not refresh for the new arming before the new paint (seen:
    the right click's panels before its paint, from a run the select click's second paint had
    posted)."""
    from PySide6.QtWidgets import QApplication, QWidget

    from editor.play.after_paint import AfterPaint

    widget = QWidget()
    qtbot.addWidget(widget)
    widget.resize(50, 50)
    widget.show()
    qtbot.waitExposed(widget)
    calls: list[int] = []
    after = AfterPaint(widget, lambda: widget, lambda: calls.append(1))
    after.arm()
    widget.repaint()  # posts the run of the first arming
    after.disarm()  # flushed by hand (PlayMode.refresh_panels)
    after.arm()  # a new click
    QApplication.processEvents()  # the stale run
    assert calls == [] and after.armed
    widget.repaint()
    qtbot.waitUntil(lambda: calls == [1])
    assert not after.armed
    widget.repaint()
    QApplication.processEvents()
    assert calls == [1]  # disarmed: a later paint runs nothing
