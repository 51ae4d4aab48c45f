"""The hover prefetch (PlayMode.prefetch_hovered, PlayController.prefetch, MoveOverlay.prefetch):
while the pointer rests on a stack with nothing selected, its reach and move overlay are computed
before the click; the click that selects it shows them. A prefetch is used only in the state
it was computed for: any action, undo, restart, or a change made to the game directly, makes
the click compute the reach again. What the click shows is always the engine's reach for the
game as it stands (``Game.legal_moves``), prefetched or not.

The reach is the engine's on Utah's ``night-drop-playtest`` variant (ILLUSTRATIVE MAs, docs/play.md)
with the unit's Formation chit in play: "If a Formation Activation Chit is drawn: All Units
belonging to that Formation become Active and may perform Actions" [GTS 10.0.1]."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QEvent, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QApplication

from conftest import REPO
from editor.play.move_overlay import build
from helpers import activate, click, no_modal_prompts, open_play, scene_point  # noqa: F401 (autouse fixture)

UTAH = REPO / "scenarios" / "utah-beach"
VARIANT, UNIT, OTHER = "night-drop-playtest", "b-1-502", "c-1-502"


def _playing(qtbot: Any) -> tuple[Any, Any]:
    # the step-table warm-up finished: no prefetch runs while it builds (PlayMode.prefetch_hovered)
    w, m = open_play(qtbot, UTAH, VARIANT, wait_warm=True)
    activate(m, UNIT)
    assert m.ctl is not None and w.view is not None
    qtbot.waitUntil(w.view.isVisible)
    w.view.center_on_hex(m.ctl.game.unit(UNIT).hex)
    return w, m


def _hover(w: Any, h: Any) -> None:
    local = QPointF(w.view.mapFromScene(scene_point(w.view, h)))
    glob = QPointF(w.view.viewport().mapToGlobal(local.toPoint()))
    QApplication.sendEvent(w.view.viewport(), QMouseEvent(QEvent.Type.MouseMove, local, glob, Qt.MouseButton.NoButton,
                                                          Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier))


def _shows_a_fresh_build(w: Any, m: Any) -> None:
    """The overlay on show is what a build from nothing gives for the state now: hexes, cost
    texts, outline, refused hexes, selected hex, rectangle."""
    got, made = m.layer.move_overlay.current(), build(m.ctl, w.scene.layout)
    assert (got.key, got.hexes, got.texts, got.rect, len(got.reach_edges), len(got.refused)) == \
        (made.key, made.hexes, made.texts, made.rect, len(made.reach_edges), len(made.refused))
    assert [tuple((p.x(), p.y()) for p in poly) for poly in got.refused] == \
        [tuple((p.x(), p.y()) for p in poly) for poly in made.refused]
    assert (got.selected is None) == (made.selected is None)
    if got.selected is not None:
        assert got.selected.boundingRect() == made.selected.boundingRect()
    assert got.hexes == _fresh(m)


def _fresh(m: Any) -> frozenset[Any]:
    """The engine's reach for the selection now, computed from nothing."""
    g = m.ctl.game
    reach, _problem = g.legal_moves([g.unit(u) for u in m.ctl.selection])
    return frozenset(h for h in reach.cost if h != reach.start) if reach is not None else frozenset()


def test_a_rested_pointer_prefetches_and_the_click_shows_it(qtbot: Any) -> None:
    w, m = _playing(qtbot)
    ov = m.layer.move_overlay
    h = m.ctl.game.unit(UNIT).hex
    _hover(w, h)
    qtbot.waitUntil(lambda: m.ctl.prefetches == 1)  # after PREFETCH_AFTER_MS, on an idle turn
    hits, builds = ov.prefetch_hits, ov.builds
    click(w.view, scene_point(w.view, h))
    assert UNIT in m.ctl.selection
    assert ov.current().hexes == _fresh(m) != frozenset()
    assert ov.prefetch_hits == hits + 1 and ov.builds == builds + 1
    _shows_a_fresh_build(w, m)  # the prefetched overlay is the one a build makes now


def test_a_state_change_after_the_prefetch_makes_the_click_compute_again(qtbot: Any) -> None:
    """Hover B/1/502, then move C/1/502 (a unit of the same stack side: the hexes B can reach
    may change): the click computes B's reach in the new state, and shows the engine's."""
    w, m = _playing(qtbot)
    ctl, ov = m.ctl, m.layer.move_overlay
    h = ctl.game.unit(UNIT).hex
    _hover(w, h)
    qtbot.waitUntil(lambda: ctl.prefetches == 1)
    other = ctl.game.unit(OTHER)
    reach, _ = ctl.game.legal_moves([other])
    dest = min((x for x in reach.cost if x != reach.start), key=lambda x: (reach.cost[x], x.q, x.r))
    assert ctl.apply({"do": "move", "units": [OTHER], "to": ctl.game.label(dest)}).ok
    hits = ov.prefetch_hits
    ctl.clear_selection()
    click(w.view, scene_point(w.view, h))
    assert ov.prefetch_hits == hits and ov.current().hexes == _fresh(m)


def test_a_change_made_to_the_game_directly_makes_a_prefetch_stale(qtbot: Any) -> None:
    w, m = _playing(qtbot)
    ctl = m.ctl
    units = ctl.prefetch(ctl.game.unit(UNIT).hex)
    assert units and ctl.prefetched_reach(units) is not None
    ctl.game.log.append({"type": "note", "text": "a script's own event"})  # past the controller
    assert ctl.prefetched_reach(units) is None


def test_no_prefetch_while_the_step_tables_are_built(qtbot: Any) -> None:
    """The warm-up builds the step tables on a pool thread as Play mode opens: a prefetch then
    would wait for them on the UI thread, so there is none (the click computes its reach)."""
    w, m = open_play(qtbot, UTAH, VARIANT)
    activate(m, UNIT)
    m.ctl.warm_seconds = None  # as while the warm-up runs
    m._hovered_hex = m.ctl.game.unit(UNIT).hex
    assert m.prefetch_hovered() is False and m.ctl.prefetches == 0
    qtbot.waitUntil(lambda: m.ctl.warm_seconds is not None, timeout=20000)
    assert m.prefetch_hovered() is True and m.ctl.prefetches == 1


def test_no_prefetch_with_a_selection_or_the_fire_zone(qtbot: Any) -> None:
    w, m = _playing(qtbot)
    ctl = m.ctl
    ctl.select([OTHER])
    assert ctl.prefetch(ctl.game.unit(UNIT).hex) == []  # a click now would move, not select
    ctl.clear_selection()
    ctl.fire_zone_on = True
    assert ctl.prefetch(ctl.game.unit(UNIT).hex) == []  # the fire zone depends on the selection
    ctl.fire_zone_on = False
    m.prefetch_on_hover = False
    _hover(w, ctl.game.unit(UNIT).hex)
    qtbot.wait(60)
    assert ctl.prefetches == 0


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(["move", "undo", "hover-b", "hover-c", "click-b", "click-c", "clear"]),
                min_size=1, max_size=8))
def test_whatever_happens_between_hover_and_click_the_click_shows_the_engines_reach(qtbot: Any,
                                                                                   steps: list[str]) -> None:
    """A law over random sequences of hovers, clicks, moves and undos: after every click the
    overlay is the engine's reach for the game as it stands, prefetched or not."""
    w, m = _playing(qtbot)
    ctl = m.ctl
    for step in steps:
        if step.startswith("hover"):
            ctl.clear_selection()
            m._hovered_hex = ctl.game.unit(UNIT if step.endswith("b") else OTHER).hex
            m.prefetch_hovered()  # what the pointer's rest runs: the reach and the overlay
        elif step.startswith("click"):
            ctl.clear_selection()
            target = ctl.game.unit(UNIT if step.endswith("b") else OTHER).hex
            with m.map_first():
                ctl.select_hex(target)
            _shows_a_fresh_build(w, m)
        elif step == "move" and ctl.selection and ctl.reachable_costs():
            dest = min(ctl.reachable_costs(), key=lambda x: (ctl.reachable_costs()[x], x.q, x.r))
            ctl.move_to(dest)
        elif step == "undo":
            ctl.undo()
        elif step == "clear":
            ctl.clear_selection()
        if ctl.selection:
            _shows_a_fresh_build(w, m)
    m.refresh_panels()
