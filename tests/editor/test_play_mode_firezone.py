"""Play mode: Show Fire Zone draws exactly the engine's ``fire_zone`` query, hovering a hex shows
the engine's LOS verdict with the first blocker's rule case, systems without LOS say why; the
unit panel shows the MA in use and where it comes from."""

from __future__ import annotations

from typing import Any


from conftest import REPO
from editor.play import PlayMode
from editor.play.panels import movement_allowance_text
from helpers import no_modal_prompts, open_play  # noqa: F401 (autouse fixture)
from play.game import Game

UTAH = REPO / "scenarios" / "utah-beach"
SFN = REPO / "scenarios" / "second-front-now"
PLAYTEST = "night-drop-playtest"


def first_on_map(m: PlayMode) -> str:
    assert m.ctl is not None
    return sorted(u.id for u in m.ctl.game.state.units.values() if u.on_map and u.hex is not None)[0]


def test_toggle_draws_exactly_the_engine_fire_zone(qtbot: Any) -> None:
    _, m = open_play(qtbot, UTAH, PLAYTEST)
    ctl = m.ctl
    assert ctl is not None and m.layer is not None
    view_menu = next(a.menu() for a in m.window.menuBar().actions() if a.text().replace("&", "") == "View")
    assert m.fire_zone_action in view_menu.actions()
    assert m.fire_zone_button.defaultAction() is m.fire_zone_action
    uid = first_on_map(m)
    ctl.select([uid])
    log_len, can_undo = len(ctl.game.log), ctl.game.can_undo
    assert m.layer.fire_zone_hexes() == set()
    m.fire_zone_button.click()  # the Actions dock button
    assert m.fire_zone_action.isChecked()
    # The engine's answer, from an independent game of the same scenario and seed.
    ref = Game(ctl.bundle, PLAYTEST, ctl.seed)
    res = ref.apply({"do": "fire_zone", "unit": uid})
    assert res.ok and res.data["hexes"]
    expected = {ref.hex_of(lab) for lab in res.data["hexes"]}
    assert m.layer.fire_zone_hexes() == expected
    assert "Fire Zone of" in m.window.statusBar().currentMessage()
    # A query: no undo step, no log line, no state change.
    assert len(ctl.game.log) == log_len and ctl.game.can_undo == can_undo
    # Another unit selected: the overlay follows it.
    other = sorted(u.id for u in ctl.game.state.units.values()
                   if u.on_map and u.hex is not None and u.hex != ctl.game.unit(uid).hex)[0]
    ctl.select([other])
    res2 = ref.apply({"do": "fire_zone", "unit": other})
    assert m.layer.fire_zone_hexes() == {ref.hex_of(lab) for lab in res2.data["hexes"]}
    m.fire_zone_action.trigger()  # View menu entry: off again
    assert not m.fire_zone_action.isChecked() and m.layer.fire_zone_hexes() == set()


def test_hover_shows_los_verdict_and_first_blocker_rule(qtbot: Any) -> None:
    _, m = open_play(qtbot, UTAH, PLAYTEST)
    ctl = m.ctl
    assert ctl is not None
    g = ctl.game
    uid = first_on_map(m)
    # Put the unit where a fortified hex blocks the line (29.019 between 29.020 and 29.018).
    assert ctl.apply({"do": "place", "unit": uid, "to": "29.020"}).ok
    ctl.select([uid])
    m.fire_zone_action.trigger()
    m._hovered(g.hmap.parse("29.018"))
    text = m.los_label.text()
    assert "blocked" in text and "29.019" in text and "[Excl 2.1.6]" in text
    assert m.window.statusBar().currentMessage() == text
    m._hovered(g.hmap.parse("29.021"))  # the neighbour: clear
    assert "clear" in m.los_label.text()
    far = next(h for h in g.unit(uid).hex.ring(5) if g.hmap.contains(h))  # type: ignore[union-attr]
    m._hovered(far)
    assert "blocked" in m.los_label.text() and "out of range" in m.los_label.text()


def test_sfn_toggle_reports_los_is_off(qtbot: Any) -> None:
    _, m = open_play(qtbot, SFN, "calais-landing")
    ctl = m.ctl
    assert ctl is not None and m.layer is not None
    ctl.select([first_on_map(m)])
    m.fire_zone_action.trigger()
    msg = m.window.statusBar().currentMessage()
    assert "LOS is off" in msg and "SFN has no line-of-sight rules" in msg and "[SFN 13.1]" in msg
    assert not m.fire_zone_action.isChecked() and m.layer.fire_zone_hexes() == set()
    assert "LOS is off" in ctl.los_to(ctl.game.unit(first_on_map(m)).hex).message  # type: ignore[arg-type]


def test_unit_panel_shows_ma_and_its_source(qtbot: Any) -> None:
    _, m = open_play(qtbot, UTAH, PLAYTEST)
    ctl = m.ctl
    assert ctl is not None
    uid = first_on_map(m)
    u = ctl.game.unit(uid)
    ma = ctl.game.movement_allowance(u)
    assert ma is not None
    ctl.select([uid])
    assert f"MA {ma:g} (illustrative (params.play_ma))" in m.unit_panel.info.text()
    # SFN counters print their MA.
    _, m2 = open_play(qtbot, SFN, "calais-landing")
    assert m2.ctl is not None
    printed = next(u for u in sorted(m2.ctl.game.state.units.values(), key=lambda u: u.id)
                   if "(printed)" in movement_allowance_text(m2.ctl.game, u))
    m2.ctl.select([printed.id])
    text = m2.unit_panel.info.text()
    assert f"MA {m2.ctl.game.movement_allowance(printed):g} (printed)" in text
    # A counter printing 'unknown' with no params.play_ma: the engine has no MA for it.
    unknown = next(u for u in sorted(m2.ctl.game.state.units.values(), key=lambda u: u.id)
                   if m2.ctl.game.movement_allowance(u) is None)
    m2.ctl.select([unknown.id])
    assert "MA unknown: none printed and no params.play_ma" in m2.unit_panel.info.text()

