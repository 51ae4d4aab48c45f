"""Play mode in the editor window: the toggle keeps the document intact, the reach overlay is
the engine's, moves by click and drag, refusals with their rule case, game undo (Ctrl+Z) and
restart, the scenario chooser, combat through the data's CRT, and the first turns of each sample."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage

from conftest import FIXTURES, REPO
from editor.commands import PaintTerrain
from editor.main_window import MainWindow
from editor.play import PlayMode
from helpers import click, mouse, no_modal_prompts, scene_point, show_window  # noqa: F401 (autouse fixture)
from play.game import Game

DUEL = FIXTURES / "playtests" / "duel"


def open_window(qtbot: Any, path: Path) -> MainWindow:
    w = show_window(qtbot, path)
    assert w.view is not None
    w.view.fit()
    return w


def mode_of(w: MainWindow) -> PlayMode:
    return w.play_mode


def play(w: MainWindow, scenario: str | None = None) -> PlayMode:
    m = mode_of(w)
    assert m.play(scenario)
    assert m.ctl is not None
    return m


def to_movement(m: PlayMode) -> None:
    assert m.ctl is not None
    while not m.ctl.game.phase.permits("move"):
        assert m.ctl.next_phase().ok


def test_toggle_keeps_document_intact(qtbot: Any) -> None:
    """Entering Play, moving units and leaving changes no file text, undo step or modified flag."""
    w = open_window(qtbot, DUEL)
    assert w.doc is not None
    w.doc.push(PaintTerrain(w.doc, {w.doc.hmap.parse("0505"): "clear"}))
    before, index, count = w.doc.dump(), w.doc.undo_stack.index(), w.doc.undo_stack.count()
    modified = w.doc.is_modified
    act = w.actions_by_id["view.play_mode"]
    assert act.shortcut().toString() == "Ctrl+P"
    view_menu = next(a.menu() for a in w.menuBar().actions() if a.text().replace("&", "") == "View")
    assert act in view_menu.actions() and act in w.toolbar.actions()
    act.trigger()
    m = mode_of(w)
    assert m.active and m.bar.isVisible() and m.unit_dock.isVisible() and not w.palette_dock.isVisible()
    assert m.layer is not None and m.layer.scene() is w.scene
    to_movement(m)
    assert m.ctl is not None
    m.ctl.select(["b1"])
    assert m.ctl.move_to(w.doc.hmap.parse("0205")).ok
    act.trigger()
    assert not m.active and w.palette_dock.isVisible() and m.layer is None
    assert w.doc.dump() == before
    assert (w.doc.undo_stack.index(), w.doc.undo_stack.count(), w.doc.is_modified) == (index, count, modified)
    # Back to Play: the paused game resumes where it was (the map did not change).
    act.trigger()
    assert m.ctl.game.unit("b1").hex == w.doc.hmap.parse("0205")


def test_map_edit_restarts_the_game(qtbot: Any) -> None:
    """A map edit made in Edit mode restarts the game on the edited map."""
    w = open_window(qtbot, DUEL)
    m = play(w)
    assert m.ctl is not None
    to_movement(m)
    assert w.set_mode("map")
    assert w.doc is not None
    w.doc.push(PaintTerrain(w.doc, {w.doc.hmap.parse("0505"): "clear"}))
    assert w.set_mode(m)
    assert m.ctl.game.phase.kind == "reinforcement" and m.ctl.game.state.turn == 1


def _pixel(w: MainWindow, label: str, dy: float) -> QColor:
    assert w.view is not None and w.doc is not None
    img: QImage = w.view.viewport().grab().toImage()
    p = w.view.mapFromScene(scene_point(w.view, w.doc.hmap.parse(label), 0, dy))
    return img.pixelColor(p.x(), p.y())


def test_selecting_shows_the_engines_reach(qtbot: Any) -> None:
    """Clicking a unit selects its stack; the overlay's hexes and costs equal the engine's."""
    w = open_window(qtbot, DUEL)
    assert w.view is not None and w.doc is not None
    w.view.set_zoom(2.0)
    w.view.center_on_hex(w.doc.hmap.parse("0203"))
    m = play(w)
    assert m.ctl is not None
    to_movement(m)
    plain = _pixel(w, "0203", -10)
    click(w.view, scene_point(w.view, w.doc.hmap.parse("0202")))
    assert m.ctl.selection == ["b1"]
    engine = Game(w.doc.bundle, "meeting", 1)
    while engine.phase.kind != "movement":
        engine.apply({"do": "next_phase"})
    reach, problem = engine.legal_moves([engine.unit("b1")])
    assert problem is None and reach is not None
    expected = {h: c for h, c in reach.cost.items() if h != reach.start}
    assert m.ctl.reachable_costs() == expected and expected
    assert w.doc.hmap.parse("0203") in expected
    tinted = _pixel(w, "0203", -10)
    assert tinted.green() - tinted.red() > plain.green() - plain.red()  # the green overlay is drawn
    assert "b1" in m.unit_panel.info.text() and "0202" in m.unit_panel.info.text()


def test_legal_move_by_click_and_by_drag(qtbot: Any) -> None:
    """Click-then-click and drag both move through the engine; the view and panel follow."""
    w = open_window(qtbot, DUEL)
    assert w.view is not None and w.doc is not None
    m = play(w)
    assert m.ctl is not None
    to_movement(m)
    h = w.doc.hmap.parse
    click(w.view, scene_point(w.view, h("0202")))
    click(w.view, scene_point(w.view, h("0205")))
    assert m.ctl.game.unit("b1").hex == h("0205")
    assert m.ctl.last is not None and m.ctl.last.ok
    assert "moved to 0205" in w.statusBar().currentMessage()
    assert any("move b1 to 0205" in line for line in m.log_panel.event_lines())
    assert m.ctl.game.undo()
    m.ctl.clear_selection()
    # Drag the stack from 0202 to 0204.
    mouse(w.view, "press", scene_point(w.view, h("0202")))
    mouse(w.view, "move", scene_point(w.view, h("0203")))
    mouse(w.view, "release", scene_point(w.view, h("0204")))
    assert m.ctl.game.unit("b1").hex == h("0204")
    # The counter is drawn in its new hex (the layer reads the state).
    assert h("0204") in {u.hex for u in m.ctl.game.state.units.values() if u.on_map}


def test_illegal_move_is_refused_with_rule_case(qtbot: Any) -> None:
    """Moving into prohibited terrain is refused; the status bar and the log show DUEL 2.4."""
    w = open_window(qtbot, DUEL)
    assert w.view is not None and w.doc is not None
    m = play(w)
    assert m.ctl is not None
    to_movement(m)
    h = w.doc.hmap.parse
    click(w.view, scene_point(w.view, h("0202")))
    click(w.view, scene_point(w.view, h("0102")))
    assert m.ctl.game.unit("b1").hex == h("0202")
    assert m.ctl.last is not None and not m.ctl.last.ok and m.ctl.last.rule == "DUEL 2.4"
    assert "[DUEL 2.4]" in w.statusBar().currentMessage()
    assert "[DUEL 2.4]" in m.result_label.text() and m.result_label.isVisible()
    assert any("REFUSED move" in line and "[DUEL 2.4]" in line for line in m.log_panel.event_lines())


def test_ctrl_z_undoes_game_actions_not_map_edits(qtbot: Any) -> None:
    """In Play mode Ctrl+Z undoes the last game action; the map edit stays; Restart resets."""
    w = open_window(qtbot, DUEL)
    assert w.view is not None and w.doc is not None
    w.doc.push(PaintTerrain(w.doc, {w.doc.hmap.parse("0505"): "clear"}))
    index = w.doc.undo_stack.index()
    m = play(w)
    assert m.ctl is not None
    fresh = m.ctl.game.state.to_dict(m.ctl.game.hmap)
    to_movement(m)
    m.ctl.select(["b1"])
    assert m.ctl.move_to(w.doc.hmap.parse("0205")).ok
    assert m.undo_action.shortcut().matches(Qt.KeyboardModifier.ControlModifier | Qt.Key.Key_Z) is not None
    assert w.actions_by_id["edit.undo"].shortcut().isEmpty()
    with qtbot.waitActive(w):  # shortcuts fire only in the active window
        w.activateWindow()
    qtbot.keyClick(w.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert m.ctl.game.unit("b1").hex == w.doc.hmap.parse("0202")
    assert w.doc.undo_stack.index() == index
    m.restart_action.trigger()
    assert m.ctl.game.state.to_dict(m.ctl.game.hmap) == fresh
    assert not m.ctl.game.can_undo
    assert w.set_mode("map")
    assert not w.actions_by_id["edit.undo"].shortcut().isEmpty()  # map-edit undo is back


def test_scenario_chooser_lists_scenarios_and_variants(qtbot: Any) -> None:
    """The chooser offers every scenario and variant; choosing one restarts with it."""
    w = open_window(qtbot, DUEL)
    m = play(w)
    assert m.ctl is not None
    combo = m.bar.scenario
    ids = [combo.itemData(i) for i in range(combo.count())]
    assert ids == m.ctl.bundle.scenario_ids() and "broken" in ids
    assert "variant of meeting" in combo.itemText(ids.index("broken"))
    combo.setCurrentIndex(ids.index("broken"))
    combo.activated.emit(ids.index("broken"))
    assert m.ctl.scenario_id == "broken"
    assert m.ctl.game.unit("b3").hex == m.ctl.game.hmap.parse("0206")  # the variant's setup_add


def test_combat_with_the_datas_crt_is_logged_with_its_dice(qtbot: Any) -> None:
    """Clicking an adjacent enemy in the Combat phase attacks; the roll is in the dice log."""
    w = open_window(qtbot, DUEL)
    assert w.view is not None and w.doc is not None
    m = play(w)
    assert m.ctl is not None
    assert m.ctl.combat_note() is None and m.bar.combat.text().startswith("Combat: CRT")
    assert m.ctl.apply({"do": "place", "unit": "b1", "to": "0602"}).ok
    while m.ctl.game.phase.kind != "combat":
        m.ctl.next_phase()
    h = w.doc.hmap.parse
    click(w.view, scene_point(w.view, h("0602")))
    click(w.view, scene_point(w.view, h("0702")))
    assert m.ctl.last is not None and m.ctl.last.ok, m.ctl.last
    lines = m.log_panel.dice_lines()
    assert len(lines) == 1 and "attack on 0702" in lines[0] and "rolled" in lines[0]


def _first_turns(qtbot: Any, path: Path, scenario: str, turns: int = 2) -> PlayMode:
    """Step through every phase of the first turns; in each Movement phase move the first
    unit that can move to its first reachable hex (through the window's controller)."""
    w = open_window(qtbot, path)
    m = play(w, scenario)
    ctl = m.ctl
    assert ctl is not None
    moved = 0
    while ctl.game.state.turn < ctl.game.first_turn + turns and not ctl.game.state.over:
        if ctl.game.phase.permits("move"):
            side = ctl.game.side_to_move  # None: both sides act (GTS 4.0 H)
            for u in sorted(ctl.game.state.units.values(), key=lambda u: u.id):
                if (side is not None and u.side != side) or u.where not in ("hex", "box"):
                    continue
                ctl.select([u.id])
                dests = sorted(ctl.reachable_costs(), key=lambda x: (x.q, x.r))
                if dests:
                    res = ctl.move_to(dests[0])
                    assert res.ok, res
                    assert ctl.game.unit(u.id).hex == dests[0]
                    moved += 1
                    break
        assert ctl.next_phase().ok
        assert m.bar.turn.text().startswith(f"Turn {ctl.game.state.turn} ")
    m.moved = moved  # type: ignore[attr-defined]
    return m


def test_first_turns_of_second_front_now(qtbot: Any) -> None:
    """SFN: units in off-map boxes enter through their entry hexes; CP are logged."""
    m = _first_turns(qtbot, REPO / "scenarios" / "second-front-now", "calais-landing")
    assert m.ctl is not None
    assert m.moved >= 1  # type: ignore[attr-defined]
    assert m.ctl.game.state.turn == 3
    assert any("command_points" in line for line in m.log_panel.event_lines())


def test_first_turns_of_utah_beach(qtbot: Any) -> None:
    """GTS: the sample's counters print no MA, so selecting shows why they cannot move."""
    m = _first_turns(qtbot, REPO / "scenarios" / "utah-beach", "night-drop")
    ctl = m.ctl
    assert ctl is not None
    ctl.restart()
    to_movement(m)
    ctl.select(["a-1-502"])
    assert ctl.reach_problem is not None and "movement allowance" in ctl.reach_problem.message
    assert "Cannot move" in m.unit_panel.info.text()
    assert ctl.apply({"do": "roll", "dice": "2d6", "reason": "drop table"}).ok
    assert any("2d6 for drop table" in line for line in m.log_panel.dice_lines())


def test_first_turns_of_the_killing_ground(qtbot: Any) -> None:
    """TKG: the bar says what the engine reports, combat not available (the draft has no CRT)."""
    m = _first_turns(qtbot, REPO / "scenarios" / "killing-ground", "operation-overlord")
    assert m.ctl is not None
    assert m.bar.combat.text() == "Combat not available: the rules provided have no CRT (TKG)"
    assert m.ctl.apply({"do": "place", "unit": "us_8_inf", "to": "N3445"}).ok
    res = m.ctl.apply({"do": "attack", "attackers": ["us_8_inf"], "target": "N3446"})
    assert not res.ok and "no CRT (TKG)" in res.message


def test_edit_command_play_screenshot(qapp: Any, tmp_path: Path) -> None:
    """`hexproof edit PATH --mode play --scenario ID --screenshot FILE` writes the PNG."""
    from hexproof.cli import main

    out = tmp_path / "play.png"
    assert main(["edit", str(DUEL), "--mode", "play", "--scenario", "broken", "--screenshot", str(out),
                 "--size", "1000x700"]) == 0
    img = QImage(str(out))
    assert (img.width(), img.height()) == (1000, 700)
    assert main(["edit", str(DUEL), "--mode", "play", "--scenario", "nope", "--screenshot", str(out)]) == 2


def test_out_of_supply_unit_shows_its_oos_marker(qtbot: Any) -> None:
    """SFN: a German unit ringed by Allied units is OOS [9.3]; the unit panel lists the marker
    and the reach shows only 1-MP hexes [9.1]."""
    w = open_window(qtbot, REPO / "scenarios" / "second-front-now")
    m = play(w, "calais-landing")
    ctl = m.ctl
    assert ctl is not None
    assert ctl.apply({"do": "place", "unit": "de-10-ss-pz", "to": "2614"}).ok
    allies = sorted(uid for uid, c in ctl.game.counters.items() if c.side == "allied")
    for uid, h in zip(allies, ctl.game.hmap.parse("2614").ring(2)):
        ctl.apply({"do": "place", "unit": uid, "to": ctl.game.label(h)})
    assert ctl.apply({"do": "check_supply", "side": "german"}).ok
    to_movement(m)
    ctl.select_hex(ctl.game.hmap.parse("2614"))
    assert "markers: OOS" in m.unit_panel.info.text()
    assert ctl.reachable_costs() and max(ctl.reachable_costs().values()) <= 1


def test_play_and_scenario_modes_exclude_each_other(qtbot: Any) -> None:
    """Entering Play leaves Scenario mode (and Scenario mode leaves Play)."""
    w = open_window(qtbot, DUEL)
    sm = w.scenario_mode
    assert sm.open_scenario()
    m = play(w)
    assert m.active and not sm.active and w.active_mode is m
    assert sm.open_scenario()
    assert not m.active and w.active_mode is sm


def test_turn_bar_shows_the_systems_phase_step_names_and_cases(qtbot: Any) -> None:
    """The bar names the phase and its steps as the rules print them. SFN 5.2: "I. German Player
    Turn / A. German Administrative Phase / 1. Check for the approach or arrival of a great storm
    ... / B. German Command & Action Phase The German player may issue Move and/or Attack
    Commands"; GTS 4.0: "H. Activation Phase. Perform the Activation Phase." """
    w = open_window(qtbot, REPO / "scenarios" / "second-front-now")
    m = play(w, "calais-landing")
    assert m.bar.phase.text() == "Phase: German Administrative Phase [SFN 5.2 I.A] · German to move"
    assert m.bar.steps.text().startswith("Steps: I.A.1 Great storm check [15.2] (not played) · ")
    assert "SFN 5.2 I.A.5 Supply check, both sides [9.0, 15.8]: played" in m.bar.steps.toolTip()
    qtbot.mouseClick(m.bar.next_phase, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "Command & Action" in m.bar.phase.text())
    assert m.bar.phase.text() == "Phase: German Command & Action Phase [SFN 5.2 I.B] · German to move"
    assert m.bar.steps.text() == "(played)"

    w = open_window(qtbot, REPO / "scenarios" / "utah-beach")
    m = play(w, "night-drop")
    assert m.bar.phase.text() == "Phase: Weather [GTS 4.0 A] · both sides to move"
    assert m.bar.steps.text() == "(not played)" and m.bar.steps.toolTip() == "GTS 4.0 A Weather: not played"
    assert m.ctl is not None and m.ctl.next_phase("activation").ok
    qtbot.waitUntil(lambda: "Activation Phase" in m.bar.phase.text())
    assert m.bar.phase.text() == "Phase: Activation Phase [GTS 4.0 H] · both sides to move"
    assert m.bar.steps.text() == "(partly played)" and "activation-gated" in m.bar.steps.toolTip()
