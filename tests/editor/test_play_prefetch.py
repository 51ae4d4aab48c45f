"""The hover prefetch (PlayMode.prefetch_hovered, PlayController.prefetch, MoveOverlay.prefetch):
once the pointer is on a stack a click would select (nothing selected, or another friendly
stack out of the selection's reach), its reach, its Fire Zone when Show Fire Zone is on, and its
move overlay are computed before the click; the click that selects it shows them. A prefetch is
used only in the state it was computed for: any action, undo, restart, or a change made to the
game directly, makes the click compute the reach again. What the click shows is always the
engine's reach and Fire Zone for the game as it stands (``Game.legal_moves``, the ``fire_zone``
query), prefetched or not.

The reach is the engine's on Utah's ``night-drop-playtest`` variant (ILLUSTRATIVE MAs, docs/play.md)
with the unit's Formation chit in play: "If a Formation Activation Chit is drawn: All Units
belonging to that Formation become Active and may perform Actions" [GTS 10.0.1]."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PySide6.QtCore import Qt

from conftest import REPO
from editor.play.move_overlay import build
from helpers import activate, click, mouse, no_modal_prompts, open_play, scene_point  # noqa: F401 (autouse fixture)

UTAH = REPO / "scenarios" / "utah-beach"
VARIANT, UNIT, OTHER = "night-drop-playtest", "b-1-502", "c-1-502"
# A friendly stack 11 hexes from B/1/502 at the start, out of its reach (59 hexes within 1-2).
FAR = "h-3-506"


def _playing(qtbot: Any) -> tuple[Any, Any]:
    # the step-table warm-up finished: no prefetch runs while it builds (PlayMode.prefetch_hovered)
    w, m = open_play(qtbot, UTAH, VARIANT, wait_warm=True)
    activate(m, UNIT)
    assert m.ctl is not None and w.view is not None
    qtbot.waitUntil(w.view.isVisible)
    w.view.center_on_hex(m.ctl.game.unit(UNIT).hex)
    return w, m


def _hover(w: Any, h: Any) -> None:
    mouse(w.view, "move", scene_point(w.view, h), Qt.MouseButton.NoButton)  # no button held


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
    assert (got.fire_zone.boundingRect(), len(got.fire_edges)) == (made.fire_zone.boundingRect(), len(made.fire_edges))
    ctl = m.ctl
    if ctl.fire_zone_on:  # the Fire Zone shown is the engine's answer now, asked afresh
        assert ctl.fire_zone == ctl._fire_zone_of(ctl.selected_units())[1]


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
    assert units and ctl.prefetched(units) is not None
    ctl.game.log.append({"type": "note", "text": "a script's own event"})  # past the controller
    assert ctl.prefetched(units) is None


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


def test_no_prefetch_where_a_click_would_not_select(qtbot: Any) -> None:
    w, m = _playing(qtbot)
    ctl = m.ctl
    ctl.select([OTHER])
    assert ctl.game.unit(UNIT).hex in ctl.reachable_costs()
    assert not ctl.click_selects(ctl.game.unit(UNIT).hex)
    assert ctl.prefetch(ctl.game.unit(UNIT).hex) == []  # a click there now moves C, not selects B
    assert ctl.prefetch(ctl.game.unit(OTHER).hex) == []  # the selected stack stays selected
    ctl.clear_selection()
    m.prefetch_on_hover = False  # switched off (as the bench's reference clicks do): no timer, no query
    _hover(w, ctl.game.unit(UNIT).hex)
    assert not m._prefetch_timer.isActive()
    assert m.prefetch_hovered() is False and ctl.prefetches == 0


def test_with_a_selection_a_friendly_stack_out_of_reach_is_prefetched(qtbot: Any) -> None:
    """B/1/502 selected, the pointer on H/3/506 eleven hexes off: a click there selects H (the
    tool's rule, PlayController.click_selects), so its reach is computed ahead and the click,
    through the map view, shows it."""
    w, m = _playing(qtbot)
    ctl, ov = m.ctl, m.layer.move_overlay
    click(w.view, scene_point(w.view, ctl.game.unit(UNIT).hex))
    assert UNIT in ctl.selection
    far = ctl.game.unit(FAR).hex
    assert far not in ctl.reachable_costs() and ctl.click_selects(far)
    w.view.center_on_hex(far)
    _hover(w, far)
    qtbot.waitUntil(lambda: ctl.prefetches == 1)
    hits = ov.prefetch_hits
    click(w.view, scene_point(w.view, far))
    assert FAR in ctl.selection and ov.prefetch_hits == hits + 1
    _shows_a_fresh_build(w, m)


def test_a_tap_with_no_hover_before_it_is_prefetched_while_the_button_is_held(qtbot: Any) -> None:
    """No mouse move before the press (a touch tap, a click where the pointer already was):
    the press tells the mode where the pointer is, the reach is computed while the button is
    held, and the release (where the tool acts) shows it."""
    w, m = _playing(qtbot)
    ctl, ov = m.ctl, m.layer.move_overlay
    h = ctl.game.unit(UNIT).hex
    assert m._hovered_hex is None and ctl.prefetches == 0
    mouse(w.view, "press", scene_point(w.view, h))
    assert not ctl.selection  # the tool acts on the release
    qtbot.waitUntil(lambda: ctl.prefetches == 1)
    hits = ov.prefetch_hits
    mouse(w.view, "release", scene_point(w.view, h))
    assert UNIT in ctl.selection and ov.prefetch_hits == hits + 1
    _shows_a_fresh_build(w, m)


def test_with_the_fire_zone_on_the_prefetch_asks_for_it_too(qtbot: Any) -> None:
    """Show Fire Zone on: the stack's Fire Zone ("Any hex to which it has a Line of Sight and
    that is within its Fire Range" [GTS 17.3]) is asked of the engine ahead with the reach; the
    click shows both. Turned on after a prefetch, the click asks for it itself."""
    w, m = _playing(qtbot)
    ctl, ov = m.ctl, m.layer.move_overlay
    h = ctl.game.unit(UNIT).hex
    ctl.set_fire_zone(True)
    _hover(w, h)
    qtbot.waitUntil(lambda: ctl.prefetches == 1)
    units = [ctl.game.unit(UNIT)]
    pre = ctl.prefetched(units)
    assert pre is not None and pre.fire_zone is not None and pre.fire_zone[0].ok
    hits = ov.prefetch_hits
    click(w.view, scene_point(w.view, h))
    assert ctl.fire_zone is pre.fire_zone[1] and ctl.fire_zone  # the prefetched answer, shown
    assert ov.prefetch_hits == hits + 1
    _shows_a_fresh_build(w, m)
    # Prefetched with the Fire Zone off, then turned on: the reach is used, the zone asked now.
    ctl.clear_selection()
    ctl.set_fire_zone(False)
    assert ctl.prefetch(h) and ctl.prefetched(units).fire_zone is None
    ctl.fire_zone_on = True  # as the action does, without its refresh (which would prefetch again)
    assert not ov.prefetch(units)  # the overlay is not built without the zone
    with m.map_first():
        ctl.select_hex(h)
    assert ctl.fire_zone and ov.current().key[3] == id(ctl.fire_zone)
    _shows_a_fresh_build(w, m)


@settings(max_examples=16, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(["move", "undo", "hover-b", "hover-c", "hover-h", "click-b", "click-c", "click-h",
                                 "clear", "fire-zone"]),
                min_size=1, max_size=10))
def test_whatever_happens_between_hover_and_click_the_click_shows_the_engines_reach(qtbot: Any,
                                                                                   steps: list[str]) -> None:
    """A law over random sequences of hovers, clicks (the tool's: select, move or keep), moves,
    undos and Show Fire Zone toggles, with or without a selection: after every step the overlay
    is the engine's reach and Fire Zone for the game as it stands, prefetched or not."""
    w, m = _playing(qtbot)
    ctl = m.ctl
    unit_of = {"b": UNIT, "c": OTHER, "h": FAR}
    for step in steps:
        if step.startswith("hover"):
            m._hovered_hex = ctl.game.unit(unit_of[step[-1]]).hex
            m.prefetch_hovered()  # what the pointer's arrival runs: the reach, zone and overlay
        elif step.startswith("click"):
            target = ctl.game.unit(unit_of[step[-1]]).hex
            if target is not None:
                m.tool.click(target)
            _shows_a_fresh_build(w, m)
        elif step == "move" and ctl.selection and ctl.reachable_costs():
            dest = min(ctl.reachable_costs(), key=lambda x: (ctl.reachable_costs()[x], x.q, x.r))
            ctl.move_to(dest)
        elif step == "undo":
            ctl.undo()
        elif step == "clear":
            ctl.clear_selection()
        elif step == "fire-zone":
            ctl.set_fire_zone(not ctl.fire_zone_on)
        if ctl.selection:
            _shows_a_fresh_build(w, m)
    m.refresh_panels()
