"""Editor modes as peers (issue #16, part 3): the ModeSet laws with stand-in modes, then the
window's real modes — every mode hears of each document whatever their order, exactly one is
active, a switch is leave-then-enter, and the diagnostics are the window's in every mode."""

from __future__ import annotations

from itertools import permutations
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction

from conftest import FIXTURES, REPO
from editor.main_window import MainWindow
from editor.modes import Mode, ModeSet
from helpers import no_modal_prompts, open_doc, scene_point, show_window  # noqa: F401 (autouse fixture)
from model.diagnostics import Diagnostic, Location, Severity

DUEL = FIXTURES / "playtests" / "duel"
UTAH = REPO / "scenarios" / "utah-beach"


class Recorder:
    """A stand-in mode that writes every call to a shared log (and may refuse to enter)."""

    def __init__(self, name: str, log: list[str], refuse: bool = False, action: QAction | None = None) -> None:
        self.name, self.log, self.refuse, self.action = name, log, refuse, action
        self.active = False
        self.documents: list[object] = []

    def document_set(self, document: Any) -> None:
        self.documents.append(document)
        self.log.append(f"{self.name}.document_set")

    def document_closed(self) -> None:
        self.documents.append(None)
        self.log.append(f"{self.name}.document_closed")

    def enter(self) -> bool:
        self.log.append(f"{self.name}.enter")
        self.active = not self.refuse
        return self.active

    def leave(self) -> None:
        self.log.append(f"{self.name}.leave")
        self.active = False

    def show_diagnostic(self, diagnostic: Diagnostic) -> bool:
        self.log.append(f"{self.name}.show_diagnostic")
        return False


def only_active(modes: Any) -> list[str]:
    return [m.name for m in modes if m.active]


# --- ModeSet, no window ----------------------------------------------------------------------------


def test_recorder_is_a_mode() -> None:
    """The protocol is what the window relies on; the stand-in (and every real mode) meets it."""
    assert isinstance(Recorder("x", []), Mode)


def test_mode_set_starts_in_its_default_mode() -> None:
    log: list[str] = []
    modes = ModeSet(Recorder("map", log))
    assert log == ["map.enter"] and modes.active.name == "map" and only_active(modes) == ["map"]


def test_switch_leaves_the_old_mode_then_enters_the_new() -> None:
    log: list[str] = []
    modes = ModeSet(Recorder("map", log))
    a, b = Recorder("a", log), Recorder("b", log)
    modes.add(a)
    modes.add(b)
    log.clear()
    assert modes.switch(a) and log == ["map.leave", "a.enter"]
    assert modes.switch(b) and log[2:] == ["a.leave", "b.enter"]
    assert modes.switch(b) and len(log) == 4  # already active: nothing is left or entered
    assert only_active(modes) == ["b"] and modes.active is b


def test_a_refused_switch_brings_the_old_mode_back() -> None:
    log: list[str] = []
    modes = ModeSet(Recorder("map", log))
    a, no = Recorder("a", log), Recorder("no", log, refuse=True)
    modes.add(a)
    modes.add(no)
    modes.switch(a)
    log.clear()
    assert not modes.switch(no)
    assert log == ["a.leave", "no.enter", "a.enter"]
    assert modes.active is a and only_active(modes) == ["a"]


def test_the_default_mode_takes_over_when_the_old_one_cannot_come_back() -> None:
    log: list[str] = []
    modes = ModeSet(Recorder("map", log))
    fickle, no = Recorder("fickle", log), Recorder("no", log, refuse=True)
    modes.add(fickle)
    modes.add(no)
    modes.switch(fickle)
    fickle.refuse = True
    assert not modes.switch(no)
    assert modes.active.name == "map" and only_active(modes) == ["map"]


def test_every_mode_hears_of_a_document_in_any_order() -> None:
    for order in permutations(["a", "b", "c"]):
        log: list[str] = []
        modes = ModeSet(Recorder("map", log))
        added = [Recorder(n, log) for n in order]
        for m in added:
            modes.add(m)
        doc = object()
        modes.document_set(doc)
        assert all(m.documents == [doc] for m in [modes.default, *added]), order  # type: ignore[attr-defined]


def test_names_are_unique_and_foreign_modes_are_refused() -> None:
    modes = ModeSet(Recorder("map", []))
    modes.add(Recorder("a", []))
    with pytest.raises(ValueError):
        modes.add(Recorder("a", []))
    with pytest.raises(ValueError):
        modes.switch(Recorder("stranger", []))
    with pytest.raises(KeyError):
        modes.named("nope")


# --- the window's modes ----------------------------------------------------------------------------


def checked(w: MainWindow) -> list[str]:
    return [m.name for m in w.modes if m.action is not None and m.action.isChecked()]


def assert_one_active(w: MainWindow) -> None:
    assert only_active(w.modes) == [w.active_mode.name]
    assert checked(w) == ([] if w.active_mode.action is None else [w.active_mode.name])


@pytest.mark.parametrize("reverse", [False, True], ids=["built-order", "reversed"])
def test_every_mode_is_told_of_each_new_document_whatever_the_order(qtbot: Any, reverse: bool) -> None:
    w = MainWindow(autosave_seconds=3600)
    qtbot.addWidget(w)
    rec = Recorder("recorder", [])
    others: list[Mode] = [w.scenario_mode, w.play_mode, rec]
    if reverse:
        others.reverse()
    w.modes = ModeSet(w.map_mode)  # the same modes, told in another order
    for m in others:
        w.modes.add(m)
    for path, sid in ((DUEL, "meeting"), (UTAH, "beach-landing")):
        assert w.open_path(path)
        doc = w.doc
        assert doc is not None and rec.documents[-1] is doc
        # Map mode's tools are this document's (the palette sits in a scroll area: docks.scrollable)
        assert w.map_mode.palette is w.palette_dock.widget().widget()  # type: ignore[attr-defined]
        sel, panels = w.scenario_mode.selection, w.scenario_mode.panels
        assert sel is not None and panels is not None and sel.document is doc and panels.oob.document is doc
        assert w.play_mode.ctl is None  # the old game went with the old bundle
        assert w.diagnostics.runner is not None and w.diagnostics.runner.doc is doc
        assert w.play_mode.play(sid) and w.play_mode.ctl is not None and w.play_mode.ctl.bundle is doc.bundle
        assert w.scenario_mode.open_scenario(sid) and w.scenario_mode.layer is not None
        assert w.scenario_mode.layer.scene() is w.scene
        # Opening the next bundle happens in Scenario mode: it must come back to Map mode first.
    assert len(rec.documents) == 2
    assert w.open_path(DUEL)
    assert w.active_mode is w.map_mode and only_active(w.modes) == ["map"]


def test_a_mode_added_late_hears_of_the_open_document(qtbot: Any) -> None:
    w = show_window(qtbot, DUEL)
    rec = Recorder("late", [])
    w.add_mode(rec)
    assert rec.documents == [w.doc]


def test_exactly_one_mode_is_active_through_every_way_of_switching(qtbot: Any) -> None:
    w = show_window(qtbot, DUEL)
    assert_one_active(w)
    assert w.active_mode is w.map_mode
    scen, play = w.actions_by_id["view.scenario_mode"], w.actions_by_id["view.play_mode"]
    assert (scen.shortcut().toString(), play.shortcut().toString()) == ("Ctrl+E", "Ctrl+P")
    steps = [
        (lambda: scen.trigger(), "scenario"),  # View ▸ Scenario Mode
        (lambda: play.trigger(), "play"),  # View ▸ Play Mode, from Scenario mode
        (lambda: play.trigger(), "map"),  # unticking the active mode: back to the map
        (lambda: w.set_mode("scenario"), "scenario"),
        (lambda: scen.trigger(), "map"),
        (lambda: w.play_mode.play("broken"), "play"),
        (lambda: w.scenario_mode.open_scenario("meeting"), "scenario"),
        (lambda: w.set_mode(w.map_mode), "map"),
    ]
    for step, expected in steps:
        step()
        assert w.active_mode.name == expected
        assert_one_active(w)
    with qtbot.waitActive(w):  # shortcuts fire only in the active window
        w.activateWindow()
    qtbot.keyClick(w.view, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
    assert w.active_mode is w.scenario_mode
    assert_one_active(w)
    qtbot.keyClick(w.view, Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier)
    assert w.active_mode is w.play_mode
    assert_one_active(w)


def test_a_mode_that_cannot_enter_leaves_the_window_as_it_was(qtbot: Any) -> None:
    w = MainWindow(autosave_seconds=3600)  # no bundle open: neither Scenario nor Play can start
    qtbot.addWidget(w)
    play = w.actions_by_id["view.play_mode"]
    play.trigger()
    assert w.active_mode is w.map_mode and not play.isChecked()
    assert "Open a bundle" in w.statusBar().currentMessage()
    assert not w.set_mode("scenario") and w.active_mode is w.map_mode
    assert_one_active(w)


def test_switching_calls_leave_on_the_old_mode_then_enter_on_the_new(qtbot: Any) -> None:
    w = show_window(qtbot, DUEL)
    log: list[str] = []
    act = QAction("&Probe Mode", w)
    act.setObjectName("view.probe_mode")
    probe, refuser = Recorder("probe", log, action=act), Recorder("refuser", log, refuse=True)
    w.add_mode(probe)
    w.add_mode(refuser)
    assert act in w.view_menu.actions() and act in w.toolbar.actions()  # the window placed its toggle
    assert w.scenario_mode.open_scenario()
    log.clear()
    act.trigger()
    assert log == ["probe.enter"] and w.active_mode is probe and not w.scenario_mode.active
    assert w.scenario_mode.layer is None  # its leave() ran: the layer is off the scene
    assert not w.set_mode(refuser)
    assert log == ["probe.enter", "probe.leave", "refuser.enter", "probe.enter"] and w.active_mode is probe
    act.trigger()  # untick: back to Map mode
    assert log[-1] == "probe.leave" and w.active_mode is w.map_mode and w.palette_dock.isVisible()
    assert_one_active(w)


def _settle(qtbot: Any, w: MainWindow) -> None:
    r = w.diagnostics.runner
    assert r is not None
    r.flush()
    qtbot.waitUntil(lambda: not r.busy and r.completed == r.generation, timeout=20000)


def test_diagnostics_belong_to_the_window_and_survive_mode_switches(qtbot: Any) -> None:
    w = show_window(qtbot, UTAH, (1300, 850))
    diags = w.diagnostics
    runner = diags.runner
    assert runner is not None and runner.parent() is diags and diags.parent() is w and diags.dock.parent() is w
    assert w.actions_by_id["view.diagnostics"] is diags.toggle_action
    for m in w.modes:  # no mode keeps a runner or a findings dock of its own
        assert not any(hasattr(m, name) for name in ("runner", "diagnostics", "diag_dock", "diag_label"))
    _settle(qtbot, w)
    doc = w.doc
    assert doc is not None
    bad = next(h for h in doc.hmap.hexes() if doc.hmap.terrain_at(h) == "impassable")
    assert w.scenario_mode.open_scenario("beach-landing") and diags.dock.isVisible()
    assert w.scenario_mode.drop_unit(["wn-5"], hex=bad)
    _settle(qtbot, w)
    found = [d.render() for d in diags.diagnostics]
    assert any("GTS-HEX-004" in line for line in found)
    label = diags.label.text()
    # Each mode has its own dock layout (#21): the dock opened by Scenario mode does not squash
    # the map in Map and Play mode; one the user shows in Map mode is there again in Map mode.
    for mode, shown in (("play", False), ("map", False), ("scenario", True), ("map", False)):
        assert w.set_mode(mode)
        assert diags.runner is runner and [d.render() for d in diags.diagnostics] == found
        assert diags.label.text() == label and diags.dock.isVisible() is shown
    diags.toggle_action.trigger()
    assert diags.dock.isVisible()
    for mode, shown in (("scenario", True), ("play", False), ("map", True)):
        assert w.set_mode(mode)
        assert diags.dock.isVisible() is shown
    doc.undo_stack.undo()  # an edit in Map mode is validated too
    _settle(qtbot, w)
    assert not any(d.code == "GTS-HEX-004" for d in diags.diagnostics)
    doc.undo_stack.redo()
    _settle(qtbot, w)
    # A finding that names a scenario, clicked in Play mode, switches to Scenario mode and shows it.
    assert w.play_mode.play("beach-landing")
    leaf = next(it for it in diags.panel.leaf_items() if it.data(0, Qt.ItemDataRole.UserRole).code == "GTS-HEX-004")
    with qtbot.waitSignal(diags.panel.activated):
        diags.panel._on_activated(leaf)
    assert w.active_mode is w.scenario_mode
    assert_one_active(w)
    sel = w.scenario_mode.selection
    assert sel is not None and sel.highlight == [bad] and "GTS-HEX-004" in w.statusBar().currentMessage()


def test_a_bundle_finding_clicked_in_map_mode_centres_the_map(qtbot: Any) -> None:
    """No mode claims it (the stand-in is asked too): the window centres the map on its hex."""
    w = show_window(qtbot, DUEL)
    log: list[str] = []
    w.modes = ModeSet(w.map_mode)  # only Map mode and a stand-in: nobody reveals findings
    w.modes.add(Recorder("stand-in", log))
    assert w.view is not None and w.doc is not None
    w.view.set_zoom(3.0)
    target = w.doc.hmap.parse("0505")
    w.view.center_on_hex(w.doc.hmap.parse("0101"))
    shown = lambda: w.view.mapToScene(w.view.viewport().rect()).boundingRect()  # type: ignore[union-attr]  # noqa: E731
    assert not shown().contains(scene_point(w.view, target))
    w.show_diagnostic(Diagnostic("TEST-MAP-001", Severity.WARNING, "a map finding", Location(hexes=("0505",))))
    assert log == ["stand-in.show_diagnostic"] and shown().contains(scene_point(w.view, target))
    assert "TEST-MAP-001" in w.statusBar().currentMessage()


# --- panels take (document, selection) --------------------------------------------------------------


def test_every_scenario_panel_builds_and_refreshes_from_a_document_and_a_selection(qtbot: Any) -> None:
    from editor.scenario.panels import build_panels
    from editor.scenario.selection import ScenarioSelection

    doc = open_doc(UTAH)  # no window and no mode anywhere
    sel = ScenarioSelection(doc)
    panels = build_panels(doc, sel)
    for widget in panels.widgets():
        qtbot.addWidget(widget)
    for panel in panels.refreshable():
        panel.refresh()
    assert panels.oob.topLevelItemCount() > 0 and panels.boxes.count() == len(doc.bundle.game.boxes)
    assert panels.counters.model is not None and panels.counters.model.rowCount() == len(doc.bundle.counters)
    assert set(panels.tools) == {"setup", "zone", "overlay", "los"}


def test_schedule_panel_both_ways_with_only_a_document_and_a_selection(qtbot: Any) -> None:
    from editor.scenario.schedule import SchedulePanel
    from editor.scenario.selection import ScenarioSelection

    doc = open_doc(UTAH)
    sel = ScenarioSelection(doc)
    assert sel.set_scenario("beach-landing")
    panel = SchedulePanel(doc, sel)
    qtbot.addWidget(panel)
    panel.refresh()
    n = panel.model.rowCount()
    assert n == len(doc.bundle.scenarios["beach-landing"].schedule) > 0
    panel.add_row()  # view → model: an undo command on the document
    assert len(doc.bundle.scenarios["beach-landing"].schedule) == n + 1 and doc.undo_stack.count() == 1
    panel.refresh()
    assert panel.model.rowCount() == n + 1
    doc.undo_stack.undo()  # model → view
    panel.refresh()
    assert panel.model.rowCount() == n
    with qtbot.waitSignal(sel.scenarioChanged):  # selection → view
        assert sel.set_scenario("night-drop")
    panel.refresh()
    assert panel.model.rows is doc.bundle.scenarios["night-drop"].schedule
    assert panel.model.rowCount() == len(doc.bundle.scenarios["night-drop"].schedule)
    with qtbot.waitSignal(panel.status) as blocker:  # a refused edit says why, to whoever listens
        assert not panel.model.set_entry(0, "hex", "not a hex")
    assert str(blocker.args[0]).startswith("schedule:")


def test_oob_unit_and_zone_panels_talk_through_the_selection(qtbot: Any) -> None:
    from editor.scenario.oob import OobTree, UnitPanel
    from editor.scenario.selection import ScenarioSelection
    from editor.scenario.zones import ZonePanel
    from model import scenario_edits as se

    doc = open_doc(UTAH)
    sel = ScenarioSelection(doc)
    assert sel.set_scenario("beach-landing")
    oob, unit = OobTree(doc, sel), UnitPanel(doc, sel)
    for widget in (oob, unit):
        qtbot.addWidget(widget)
    oob.refresh()
    item = oob.item_for("wn-5")
    assert item is not None and item.text(1) == "23.024"
    home = doc.hmap.parse("23.024")
    with qtbot.waitSignal(sel.unitChosen):  # view → selection: picking a unit
        oob.setCurrentItem(item)
    assert sel.unit == "wn-5" and sel.highlight == [home]
    assert unit.unit == "wn-5"  # selection → view: the unit panel follows
    with qtbot.waitSignal(sel.stackChosen):
        sel.choose_stack(home)
    assert unit.stack.count() >= 1 and "23.024" in unit.title.text()
    unit.show_unit("wn-5")

    def state() -> list[str]:
        entry = se.setup_entry(doc.bundle.scenarios["beach-landing"], "wn-5")
        assert entry is not None
        return list(entry.state)

    unit.flags["reduced"].setChecked(True)  # view → model
    assert "reduced" in state()
    doc.undo_stack.undo()
    assert "reduced" not in state()
    assert sel.set_scenario("night-drop")
    zones = ZonePanel(doc, sel)
    qtbot.addWidget(zones)
    zones.refresh()
    with qtbot.waitSignal(sel.changed):
        zones.list.setCurrentRow(1)
    assert sel.zone == doc.bundle.scenarios["night-drop"].drop_zones[1].id
