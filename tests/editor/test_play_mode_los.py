"""Play mode: Check LOS by click. Ctrl+click (or a click with Check LOS on, Ctrl+L) draws the
engine's sight line — its endpoints, the split at the first blocker and the marked blocker hex
are the engine's answer — and explains the verdict (blocker, rule case, distance, range) in the
status bar; SFN says why LOS is off. Entering Play mode warms the step tables off the UI thread."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QImage

from conftest import REPO
from editor.main_window import MainWindow
from editor.play import PlayMode
from editor.play.layer import LOS_BLOCKED, LOS_CLEAR
from helpers import firer_at, mouse, no_modal_prompts, open_play, scene_point  # noqa: F401 (autouse fixture)
from model.los import line_of_sight
from play.game import Game
from play.gts.fire import conditions

UTAH = REPO / "scenarios" / "utah-beach"
SFN = REPO / "scenarios" / "second-front-now"
PLAYTEST = "night-drop-playtest"
CTRL = Qt.KeyboardModifier.ControlModifier


def click_hex(w: MainWindow, label: str, modifiers: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
    assert w.view is not None and w.doc is not None
    w.view.set_zoom(2.0)
    h = w.doc.hmap.parse(label)
    w.view.center_on_hex(h)
    pt = scene_point(w.view, h)
    mouse(w.view, "press", pt, modifiers=modifiers)
    mouse(w.view, "release", pt, modifiers=modifiers)


def test_ctrl_click_draws_the_engines_blocked_line_and_blocker(qtbot: Any) -> None:
    w, m = open_play(qtbot, UTAH, PLAYTEST, wait_warm=True)
    ctl = m.ctl
    assert ctl is not None and m.layer is not None
    uid = firer_at(m, "29.020")
    g = ctl.game
    log_len, can_undo = len(g.log), g.can_undo
    with qtbot.waitSignal(ctl.los_line_checked, timeout=5000) as sig:
        click_hex(w, "29.018", CTRL)
    chk = sig.args[0]
    # The engine's answer, from an independent game of the same scenario and seed.
    ref_game = Game(ctl.bundle, PLAYTEST, ctl.seed)
    assert ref_game.apply({"do": "place", "unit": uid, "to": "29.020"}).ok
    q = ref_game.apply({"do": "los", "from": "29.020", "to": "29.018"})
    assert q.ok and q.data["visible"] is False
    hm = ref_game.hmap
    ref = line_of_sight(hm, ref_game.system, hm.parse("29.020"), hm.parse("29.018"), **conditions(ref_game))
    fb = ref.first_blocker
    assert fb is not None and fb.kind == "hex"
    # Model → widget: the line the layer draws runs firer centre → target centre and turns red
    # exactly at the engine's first blocker; the blocker hex is the engine's.
    lay = m.layer.layout
    a, b = QPointF(*lay.center(hm.parse("29.020"))), QPointF(*lay.center(hm.parse("29.018")))
    segs = m.layer.los_segments()
    assert [blocked for _, blocked in segs] == [False, True]
    assert segs[0][0].p1() == a and segs[1][0].p2() == b
    split = a + (b - a) * fb.t
    assert segs[0][0].p2() == split == segs[1][0].p1() == m.layer.los_blocker_point()
    assert chk.blocker_hex == hm.parse(fb.where) == hm.parse("29.019")
    assert (chk.blocker_rule, chk.distance, chk.range_limit) == (fb.rule, ref.distance, ref.range_limit)
    # The explanation: verdict, blocker, rule case, distance and range, in the status bar.
    text = m.los_label.text()
    assert text == w.statusBar().currentMessage() == chk.message
    for part in ("LOS 29.020 → 29.018: blocked", "29.019", "fortified", "[Excl 2.1.6]",
                 f"distance {ref.distance}", f"range {ref.range_limit}"):
        assert part in text, part
    assert "BLOCKED" in m.los_label.toolTip()  # the full crossing-by-crossing explanation
    # A query, not a move: the unit stays, no log line, no undo step.
    assert g.unit(uid).hex == hm.parse("29.020")
    assert len(g.log) == log_len and g.can_undo == can_undo
    # Painted: blue from the firer to the blocker, red after it (points inside the firer's and
    # the target's hexes, away from the blocker hex's red outline).
    w.view.center_on_hex(hm.parse("29.019"))
    qtbot.waitUntil(lambda: _near(w, m, QPointF(split + (b - split) * 0.8), LOS_BLOCKED), timeout=5000)
    assert _near(w, m, QPointF(a + (split - a) * 0.3), LOS_CLEAR)
    assert not _near(w, m, QPointF(split + (b - split) * 0.8), LOS_CLEAR)


def _near(w: MainWindow, m: PlayMode, scene_pt: QPointF, colour: QColor) -> bool:
    """Some pixel within 2 px of ``scene_pt`` has about ``colour``'s hue (the line is 3 px wide)."""
    assert w.view is not None
    img: QImage = w.view.viewport().grab().toImage()
    p = w.view.mapFromScene(scene_pt)
    for dx in range(-2, 3):
        for dy in range(-2, 3):
            c = img.pixelColor(p.x() + dx, p.y() + dy)
            if abs(c.red() - colour.red()) < 60 and abs(c.green() - colour.green()) < 60 and \
                    abs(c.blue() - colour.blue()) < 60:
                return True
    return False


def test_check_los_mode_click_is_a_query_and_clear_line_is_one_segment(qtbot: Any) -> None:
    w, m = open_play(qtbot, UTAH, PLAYTEST, wait_warm=True)
    ctl = m.ctl
    assert ctl is not None and m.layer is not None
    view_menu = next(a.menu() for a in w.menuBar().actions() if a.text().replace("&", "") == "View")
    assert m.los_action in view_menu.actions() and m.los_action in m.bar.actions()
    assert m.los_action.shortcut().toString() == "Ctrl+L" and m.los_action.isEnabled()
    uid = firer_at(m, "29.020")
    m.bar.widgetForAction(m.los_action).click()  # the Play toolbar button
    assert m.los_action.isChecked() and ctl.los_mode
    with qtbot.waitSignal(ctl.los_line_checked, timeout=5000) as sig:
        click_hex(w, "29.021")  # a plain click: a LOS check, not a move
    chk = sig.args[0]
    assert chk.visible is True and chk.blocker_hex is None
    assert ctl.game.unit(uid).hex == ctl.game.hmap.parse("29.020")
    segs = m.layer.los_segments()
    lay = m.layer.layout
    hm = ctl.game.hmap
    assert segs == [(segs[0][0], False)] and segs[0][0].p1() == QPointF(*lay.center(hm.parse("29.020")))
    assert segs[0][0].p2() == QPointF(*lay.center(hm.parse("29.021")))
    assert "clear" in m.los_label.text() and LOS_CLEAR != LOS_BLOCKED
    # Out of night range with no blocker on the way: the whole line is blocked, the reason given.
    far = next(h for h in hm.parse("29.020").ring(5)
               if hm.contains(h) and line_of_sight(hm, ctl.game.system, hm.parse("29.020"), h,
                                                   **conditions(ctl.game)).first_blocker is None)
    chk = ctl.check_los_line(far)
    assert chk.visible is False and "out of range" in chk.message and chk.blocker_t is None
    assert [blocked for _, blocked in m.layer.los_segments()] == [True]
    m.los_action.trigger()  # off again: the line goes, clicks move again
    assert not ctl.los_mode and m.layer.los_segments() == []


def test_sfn_check_los_says_why_it_is_off(qtbot: Any) -> None:
    w, m = open_play(qtbot, SFN, "calais-landing", wait_warm=True)
    ctl = m.ctl
    assert ctl is not None and m.layer is not None
    uid = sorted(u.id for u in ctl.game.state.units.values() if u.on_map and u.hex is not None)[0]
    ctl.select([uid])
    m.los_action.trigger()
    msg = w.statusBar().currentMessage()
    assert "LOS is off" in msg and "SFN has no line-of-sight rules" in msg and "[SFN 13.1]" in msg
    assert not m.los_action.isChecked() and m.layer.los_segments() == []
    here = ctl.game.unit(uid).hex
    assert here is not None
    target = next(n for n in here.neighbors() if ctl.game.hmap.contains(n))
    chk = ctl.check_los_line(target)
    assert chk.visible is None and chk.off_reason is not None and "LOS is off" in chk.message
    assert m.layer.los_segments() == [] and m.los_label.text() == chk.message


def test_tkg_check_gives_the_systems_reason_without_a_window() -> None:
    from editor.play.los_check import check
    from model.bundle import load_bundle

    res = load_bundle(REPO / "scenarios" / "killing-ground")
    assert res.bundle is not None
    g = Game(res.bundle, "operation-overlord-playtest", 1)
    unit = next(u for u in sorted(g.state.units.values(), key=lambda u: u.id) if u.on_map and u.hex is not None)
    assert unit.hex is not None
    chk = check(g, unit, next(n for n in unit.hex.neighbors() if g.hmap.contains(n)), g.apply)
    assert chk.visible is None and not chk.ok and chk.firer is None
    assert chk.message.startswith("LOS is off: The Killing Ground draft has no line-of-sight")
    assert chk.off_reason == g.system.los.disabled_reason


def test_a_hexside_blocker_is_the_engines_hexside() -> None:
    # 32.049 → 34.051 on Utah: the first blocker is the bridge hexside 33.050/N [Excl 2.4].
    from editor.play.los_check import check
    from model.base import hexside_key
    from model.bundle import load_bundle
    from model.hexes import DIRECTION_NAMES

    res = load_bundle(UTAH)
    assert res.bundle is not None
    g = Game(res.bundle, PLAYTEST, 1)
    uid = sorted(u.id for u in g.state.units.values() if u.on_map and u.hex is not None)[0]
    assert g.apply({"do": "place", "unit": uid, "to": "32.049"}).ok
    hm = g.hmap
    ref = line_of_sight(hm, g.system, hm.parse("32.049"), hm.parse("34.051"), **conditions(g))
    fb = ref.first_blocker
    assert not ref.visible and fb is not None and fb.kind == "hexside"
    chk = check(g, g.unit(uid), hm.parse("34.051"), g.apply)
    label, _, name = fb.where.partition("/")
    assert chk.blocker_side == hexside_key(hm.parse(label), DIRECTION_NAMES[hm.grid.orientation].index(name))
    assert chk.blocker_hex is None and chk.blocker_t == fb.t and f"[{fb.rule}]" in chk.message


def test_entering_play_warms_the_step_tables_off_the_ui_thread(qtbot: Any) -> None:
    w, m = open_play(qtbot, UTAH, PLAYTEST, wait_warm=True)
    ctl = m.ctl
    assert ctl is not None
    built = len(ctl.game.move_tables)
    assert built >= 1  # by the worker, before any unit was selected
    uid = sorted(u.id for u in ctl.game.state.units.values() if u.on_map and u.hex is not None)[0]
    ctl.select([uid])
    assert ctl.reach is not None and len(ctl.game.move_tables) == built  # the first query used them
    with qtbot.waitSignal(ctl.warmed, timeout=20000):
        m.restart()  # a new game: warmed again
    assert len(ctl.game.move_tables) >= 1
