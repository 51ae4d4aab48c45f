"""PlayMode: the Play mode of the main window (View ▸ Play Mode, Ctrl+P).

One of the window's peer modes (editor/modes.py): the window tells it of each document and
switches to and from it. Play mode keeps the same map view: it adds the counters/reach layer to
the scene, swaps the map tool for the play tool, shows the Play toolbar and docks, and gives
Ctrl+Z to the game (map-edit undo is hidden until another mode returns). The document and its
undo stack are never changed by playing; a map edit made in between restarts the game on the
edited map. Its panels take the game controller, the one object that changes game state.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDockWidget, QLabel, QMenu, QMessageBox, QWidget

from editor.icons import decorate
from editor.docks import scrollable
from editor.play.actions import ActionsPanel
from editor.play.controller import DEFAULT_SEED, PlayController
from editor.play.after_paint import AfterPaint
from editor.play.layer import PlayLayer
from editor.play.los_check import LosCheck
from editor.play.panels import LogPanel, TurnBar, UnitPanel
from editor.play.tool import PlayTool
from editor.play.warm_up import PaintWarmUp, paint_sample, play_warm_up
from model.diagnostics import Diagnostic
from model.hexes import Hex
from play.game import ActionResult, GameError

if TYPE_CHECKING:
    from editor.document import MapDocument
    from editor.main_window import MainWindow

# When, after the pointer reaches a hex, what a click there would compute is computed ahead
# (PlayMode.prefetch_hovered): on the next idle turn of the event loop. A mouse's events come
# some 8–16 ms apart and a click follows the pointer's arrival by more than that, so the click
# finds it done; a press already queued with the move is handled first and computes its own.
# (It was 20 ms of rest: a click sooner than that after the arrival missed it.)
PREFETCH_AFTER_MS = 0

# Map-editing actions that make no sense while playing (they act on the terrain selection).
EDIT_ONLY = ("edit.cut", "edit.paste", "edit.select_all", "file.load_background", "file.calibrate")


class PlayMode(QObject):
    name = "play"

    def __init__(self, window: "MainWindow") -> None:
        super().__init__(window)
        self.window = window
        self.active = False
        self.ctl: PlayController | None = None
        self.layer: PlayLayer | None = None
        self.tool: PlayTool | None = None
        self._game_key: tuple[int, int] | None = None  # (document id, undo index) the game was set up on
        self._saved_shortcuts: dict[str, QKeySequence] = {}
        self._last_hover: object = None
        self._noticed_game: object = None
        # First-use paint costs paid when Play mode opens and after a zoom settles, off the
        # click (editor/play/warm_up.py): the warm-up, and the view scales already warmed.
        self.warm_up: PaintWarmUp | None = None
        self.warmed_scales: set[float] = set()
        self._zoom_warm = QTimer(self)
        self._zoom_warm.setSingleShot(True)
        self._zoom_warm.setInterval(150)  # after the last wheel step, not on each
        self._zoom_warm.timeout.connect(self._warm_zoom)
        self._map_first = False
        self._panels_after_paint = AfterPaint(self, self._viewport, self.refresh_panels)
        # What a click would show, computed once the pointer is on a stack (prefetch_hovered).
        self.prefetch_on_hover = True
        self._hovered_hex: Hex | None = None
        self._prefetch_timer = QTimer(self)
        self._prefetch_timer.setSingleShot(True)
        self._prefetch_timer.setInterval(PREFETCH_AFTER_MS)
        self._prefetch_timer.timeout.connect(self.prefetch_hovered)
        self._build()

    # --- construction ------------------------------------------------------------------------

    def _build(self) -> None:
        w = self.window
        # The View ▸ Play Mode toggle: the window puts it in the menu and toolbar and switches.
        self.action = QAction("&Play Mode", w)
        self.action.setObjectName("view.play_mode")
        self.action.setCheckable(True)
        self.action.setShortcut(QKeySequence("Ctrl+P"))
        tip = "Switch between editing the map and test-playing a scenario on it (Ctrl+P)"
        self.action.setStatusTip(tip)
        decorate(self.action, "play-mode", "Switch between editing the map and test-playing a scenario on it")
        view_menu = w.view_menu

        self.undo_action = QAction("Undo Game Action", w)
        self.undo_action.setObjectName("play.undo")
        self.undo_action.triggered.connect(self.undo)
        self.restart_action = QAction("&Restart Scenario…", w)
        self.restart_action.setObjectName("play.restart")
        self.restart_action.setStatusTip("Start the scenario again from its setup (asks first: the game is lost)")
        self.restart_action.triggered.connect(lambda: self.restart())
        # A Play menu of its own, before Help and shown in Play mode only: a game-wiping command
        # does not sit in Edit where Preferences is in the other modes.
        self.menu = QMenu("P&lay", w)
        self.menu.setObjectName("play-menu")
        bar = w.menuBar()
        help_menu = next((a for a in bar.actions() if a.text().replace("&", "") == "Help"), None)
        if help_menu is not None:
            bar.insertMenu(help_menu, self.menu)
        else:
            bar.addMenu(self.menu)
        self.menu.menuAction().setVisible(False)
        for a in (self.undo_action, self.restart_action):
            a.setVisible(False)
            self.menu.addAction(a)
            w.actions_by_id[a.objectName()] = a

        self.bar = TurnBar(self.restart)
        w.addToolBarBreak()
        w.addToolBar(Qt.ToolBarArea.TopToolBarArea, self.bar)
        self.bar.hide()
        w.addToolBarBreak()
        w.addToolBar(Qt.ToolBarArea.TopToolBarArea, self.bar.sequence)
        self.bar.sequence.hide()
        self.unit_panel = UnitPanel()
        self.unit_dock = QDockWidget("Unit", w)
        self.unit_dock.setObjectName("play-unit-dock")
        self.unit_dock.setWidget(self.unit_panel)
        self.log_panel = LogPanel()
        self.log_dock = QDockWidget("Dice and Log", w)
        self.log_dock.setObjectName("play-log-dock")
        self.log_dock.setWidget(self.log_panel)
        w.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.unit_dock)
        w.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.log_dock)
        self.actions_panel = ActionsPanel()
        self.actions_dock = QDockWidget("Actions", w)
        self.actions_dock.setObjectName("play-actions-dock")
        # Scrollable: the panel's own minimum (~530 px of buttons) made the right column starve the map (#21).
        self.actions_dock.setWidget(scrollable(self.actions_panel))
        # Fire Zone + hover LOS (GTS queries): View menu entry and Actions dock button, one action.
        self.fire_zone_action = QAction("Show Fire &Zone", w)
        self.fire_zone_action.setObjectName("play.fire_zone")
        self.fire_zone_action.setCheckable(True)
        self.fire_zone_action.setEnabled(False)
        self.fire_zone_action.setStatusTip("Draw the selected unit's Fire Zone (engine fire_zone query); "
                                           "hovering a hex then shows the LOS verdict to it")
        self.fire_zone_action.toggled.connect(self._fire_zone_toggled)
        w.actions_by_id["play.fire_zone"] = self.fire_zone_action
        view_menu.addAction(self.fire_zone_action)
        self.fire_zone_button = self.actions_panel.add_toggle(self.fire_zone_action)
        # Check LOS by click: Ctrl+click a hex any time; with this on, a plain click does it too.
        self.los_action = QAction("Check &LOS", w)
        self.los_action.setObjectName("play.check_los")
        self.los_action.setCheckable(True)
        self.los_action.setEnabled(False)
        self.los_action.setShortcut(QKeySequence("Ctrl+L"))
        tip = ("Check line of sight from the selected unit: click a hex (Ctrl+click works any time); "
               "the engine's verdict is drawn on the map and explained in the status bar (Ctrl+L)")
        self.los_action.setStatusTip(tip)
        decorate(self.los_action, "check-los", tip.removesuffix(" (Ctrl+L)"))
        self.los_action.toggled.connect(self._los_mode_toggled)
        w.actions_by_id["play.check_los"] = self.los_action
        view_menu.addAction(self.los_action)
        # On the Play toolbar (the Actions dock is full: one more button there would raise the
        # window's minimum height).
        self.bar.addSeparator()
        self.bar.addAction(self.los_action)
        w.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.actions_dock)
        self.unit_dock.hide()
        self.log_dock.hide()
        self.actions_dock.hide()
        self.unit_dock.setMinimumWidth(320)
        self.docks = [self.unit_dock, self.log_dock, self.actions_dock]  # this mode's own (View ▸ Panels)
        # The hover label takes the status bar's stretch, which hides temporary messages;
        # the last game result gets a label of its own at the left, shown in Play mode only.
        self.result_label = QLabel()
        self.result_label.setObjectName("play-result")
        w.statusBar().insertPermanentWidget(0, self.result_label)
        self.result_label.hide()
        # The hover LOS verdict (Show Fire Zone on) gets its own label beside the result.
        self.los_label = QLabel()
        self.los_label.setObjectName("play-los")
        w.statusBar().insertPermanentWidget(1, self.los_label)
        self.los_label.hide()

    # --- Mode ----------------------------------------------------------------------------------

    def _forget_pointer(self) -> None:
        """No hovered hex, no prefetch to come, no panel refresh waiting for a paint: the map,
        the game or the mode they were for has gone."""
        self._prefetch_timer.stop()
        self._hovered_hex = None
        self._panels_after_paint.disarm()

    def document_set(self, document: "MapDocument") -> None:
        """A new document (open, revert, new map): the old game belongs to the old bundle."""
        self._forget_pointer()
        self.ctl, self.layer, self.tool, self._game_key = None, None, None, None
        self.unit_panel.clear()  # the old game's unit and log must not show over the new bundle
        self.log_panel.clear()
        self.result_label.setText("")
        self.los_label.setText("")
        view = self.window.view
        if view is not None:  # a new view with each document: hover checks LOS while playing
            view.hexHovered.connect(self._hovered)
            view.zoomChanged.connect(self._zoomed)

    def document_closed(self) -> None:
        """No document: no game, and nothing of the old one on show."""
        self._forget_pointer()
        self.ctl, self.layer, self.tool, self._game_key = None, None, None, None
        self.unit_panel.clear()
        self.log_panel.clear()

    def play(self, scenario_id: str | None = None, seed: int | None = None) -> bool:
        """Play ``scenario_id`` (default: the paused game's, else the first) with ``seed``:
        the game is set up first, so a game that cannot start leaves the window as it was."""
        if not self._ensure_game(scenario_id, seed):
            return False
        if self.active:
            self._show_game()  # already playing: the new game on screen (docks and shortcuts stay)
            return True
        return self.window.set_mode(self)

    def enter(self) -> bool:
        """Become the active mode: a new game unless the paused one is still valid."""
        return self._ensure_game(None, None) and self._show()

    def show_diagnostic(self, diagnostic: Diagnostic) -> bool:
        return False  # findings are about the files, which Play mode does not show

    def _ensure_game(self, scenario_id: str | None, seed: int | None) -> bool:
        """A controller for the document as it is now: the paused game if the map is unchanged
        and no other scenario is asked for, else a new one. False (with a message) if none can start."""
        w = self.window
        if w.doc is None or w.view is None or w.scene is None:
            w.statusBar().showMessage("Open a bundle to play one of its scenarios.", 5000)
            return False
        key = (id(w.doc), w.doc.undo_stack.index())
        try:
            if self.ctl is None or key != self._game_key or (scenario_id and scenario_id != self.ctl.scenario_id):
                if self.ctl is not None and key != self._game_key:
                    w.statusBar().showMessage("The map changed since the game started: the scenario restarts.", 5000)
                self._new_controller(scenario_id or (self.ctl.scenario_id if self.ctl else None),
                                     seed if seed is not None else (self.ctl.seed if self.ctl else DEFAULT_SEED))
        except GameError as exc:
            w.message(QMessageBox.Icon.Warning, "Play", f"Cannot start a game: {exc}")
            return False
        self._game_key = key
        return True

    def _show_game(self) -> None:
        w = self.window
        assert self.ctl is not None and w.doc is not None
        # The scenario's map is the one on screen.
        game_map = self.ctl.game.hmap
        if w.doc.hmap is not game_map:
            map_id = next(k for k, m in w.doc.bundle.maps.items() if m is game_map)
            w.doc.set_current_map(map_id)
        self._attach_view()
        self.refresh()
        self._notice_optional_rules()

    def _show(self) -> bool:
        w = self.window
        self.active = True
        self._show_game()
        self._swap_shortcuts(True)
        for dock in self._shared_docks():
            dock.hide()
        self.bar.show()
        self.bar.sequence.show()
        self.result_label.setText("")
        self.result_label.show()
        self.los_label.setText("")
        self.los_label.show()
        self.unit_dock.show()
        self.log_dock.show()
        self.actions_dock.show()
        for a in (self.undo_action, self.restart_action):
            a.setVisible(True)
        self.menu.menuAction().setVisible(True)
        self.fire_zone_action.setEnabled(True)
        self.los_action.setEnabled(True)
        for aid in EDIT_ONLY:
            act = w.actions_by_id.get(aid)
            if act is not None:
                act.setEnabled(False)
        self._start_warm_up()
        return True

    def _start_warm_up(self) -> None:
        """Once per window: the overlay's glyphs at this zoom, its pens, the Unit panel's first
        rich text and list item, each step on its own event-loop turn (never one long block)."""
        w = self.window
        if self.warm_up is not None or self.layer is None or w.view is None or w.scene is None:
            return
        self.warmed_scales.add(w.view.zoom)
        self.warm_up = play_warm_up(w.view, w.scene.layout, self.layer.move_overlay._font, self.unit_panel, self)
        self.warm_up.start()

    def _zoomed(self, _zoom: float) -> None:
        if self.active:
            self._zoom_warm.start()

    def _warm_zoom(self) -> None:
        """The overlay's glyphs at a new zoom (Qt caches glyphs per scale), once the zoom settled."""
        w = self.window
        if not self.active or self.layer is None or w.view is None or w.scene is None:
            return
        if w.view.zoom in self.warmed_scales:
            return
        self.warmed_scales.add(w.view.zoom)
        paint_sample(w.scene.layout, w.view.transform(), self.layer.move_overlay._font)

    def _notice_optional_rules(self, prefix: str = "") -> None:
        """Once per game: the selected optional rules the engine does not play (the game's
        ``optional_rules_not_applied`` start event, play/optional_coverage.py)."""
        game = self.ctl.game if self.ctl is not None else None
        if game is None or self._noticed_game is game:
            return
        self._noticed_game = game
        ev = next((e for e in game.log if e.get("type") == "optional_rules_not_applied"), None)
        if ev is not None:
            self.window.statusBar().showMessage(f"{prefix}Optional rules not played: {ev.get('message')}", 15000)

    def leave(self) -> None:
        """The game is kept (paused) and resumes if the map is unchanged when Play mode returns."""
        w = self.window
        self.active = False
        self._forget_pointer()
        self._detach_view()
        self._swap_shortcuts(False)
        self.bar.hide()
        self.bar.sequence.hide()
        self.result_label.hide()
        self.los_label.hide()
        self.unit_dock.hide()
        self.log_dock.hide()
        self.actions_dock.hide()
        for a in (self.undo_action, self.restart_action):
            a.setVisible(False)
        self.menu.menuAction().setVisible(False)
        self.fire_zone_action.setEnabled(False)
        self.los_action.setEnabled(False)
        for aid in EDIT_ONLY:
            act = w.actions_by_id.get(aid)
            if act is not None:
                act.setEnabled(True)
        for dock in self._shared_docks():
            dock.show()
        w.statusBar().showMessage("Edit mode", 2000)

    def default_dock_sizes(self, width: int, height: int) -> list[tuple[list[QDockWidget], list[int], Qt.Orientation]]:
        """Play mode's docks the first time (no saved layout; MainWindow._size_default_docks):
        its one right column 28 % of the width (no left column, so the map keeps ~70 %), split
        Unit 30 %, Dice and Log 20 %, Actions the rest of the height: the Actions panel scrolls, so
        without this it got only its scroll area's minimum."""
        docks = [self.unit_dock, self.log_dock, self.actions_dock]
        return [(docks, [max(320, round(width * 0.28))] * 3, Qt.Orientation.Horizontal),
                (docks, [round(height * 0.3), round(height * 0.2), round(height * 0.5)], Qt.Orientation.Vertical)]

    def _shared_docks(self) -> list[QDockWidget]:
        """Window docks other modes keep and playing hides (the map's own go with Map mode)."""
        w = self.window
        return [w.undo_dock, w.props_dock]

    # --- game --------------------------------------------------------------------------------

    def _new_controller(self, scenario_id: str | None, seed: int) -> None:
        w = self.window
        assert w.doc is not None
        old_layer = self.layer
        if old_layer is not None and old_layer.scene() is not None:
            old_layer.scene().removeItem(old_layer)
        self.ctl = PlayController(w.doc.bundle, scenario_id, seed, self)
        self.ctl.changed.connect(self.refresh)
        self.ctl.result.connect(self._show_result)
        self.ctl.warmed.connect(self._prefetch_again)  # none is made while the tables are built
        self.ctl.los_line_checked.connect(self._show_los_line)
        self._set_los_checked(False)
        self._set_fire_zone_checked(False)  # a new game starts without the overlay
        self.layer, self.tool = None, PlayTool(self.ctl, self.map_first, self._pressed_on)
        self.bar.set_controller(self.ctl)
        self.unit_panel.set_controller(self.ctl)
        self.log_panel.set_controller(self.ctl)
        self.actions_panel.set_controller(self.ctl)
        self.ctl.warm()  # step tables off the UI thread, so the first click is fast

    def _viewport(self) -> QWidget | None:
        view = self.window.view
        return view.viewport() if view is not None else None

    def _attach_view(self) -> None:
        w = self.window
        assert self.ctl is not None and w.view is not None and w.scene is not None
        if self.layer is None or self.layer.scene() is not w.scene:
            if self.layer is not None and self.layer.scene() is not None:
                self.layer.scene().removeItem(self.layer)
            self.layer = PlayLayer(self.ctl, w.scene.layout, w.scene.sceneRect())
            w.scene.addItem(self.layer)
        if self.layer.layout is not w.scene.layout:
            self.layer.set_layout(w.scene.layout)
        self.layer.setVisible(True)
        w.view.tool = self.tool
        w.view.setDragMode(w.view.DragMode.NoDrag)

    def _detach_view(self) -> None:
        if self.layer is not None and self.layer.scene() is not None:
            self.layer.scene().removeItem(self.layer)
        self.layer = None  # the next mode takes the view's tool

    def _swap_shortcuts(self, playing: bool) -> None:
        """Ctrl+Z / Ctrl+Shift+Z go to the game in Play mode and back to map edits after.
        Two actions with one shortcut would make Qt ignore both, so the edit ones lose theirs."""
        w = self.window
        for aid in ("edit.undo", "edit.redo"):
            act = w.actions_by_id.get(aid)
            if act is None:
                continue
            if playing:
                self._saved_shortcuts[aid] = act.shortcut()
                act.setShortcut(QKeySequence())
                act.setVisible(False)
            else:
                act.setShortcut(self._saved_shortcuts.get(aid, act.shortcut()))
                act.setVisible(True)
        self.undo_action.setShortcut(QKeySequence(QKeySequence.StandardKey.Undo) if playing else QKeySequence())

    def restart(self, scenario_id: str | None = None, seed: int | None = None) -> bool:
        """Start ``scenario_id`` (default: the one being played) again from its setup. A game
        with actions played is lost, so the window asks first (``MainWindow.ask_restart``);
        True when the game restarted."""
        if self.ctl is None:
            return False
        game = self.ctl.game
        if game.can_undo:
            target = scenario_id or self.ctl.scenario_id
            scen = self.ctl.bundle.scenarios.get(target)
            title = (scen.name if scen is not None and scen.name else None) or target
            if not self.window.ask_restart(title, len(game.actions)):
                self.bar.set_controller(self.ctl)  # the chooser and seed back to the game kept
                return False
        try:
            self.ctl.restart(scenario_id, seed)
        except GameError as exc:
            self.window.statusBar().showMessage(str(exc), 8000)
            return False
        self.bar.set_controller(self.ctl)
        self.actions_panel.set_controller(self.ctl)
        self.window.statusBar().showMessage(f"Restarted {self.ctl.scenario_id} (seed {self.ctl.seed})", 4000)
        self._notice_optional_rules(f"Restarted {self.ctl.scenario_id}. ")
        return True

    def undo(self) -> bool:
        if self.ctl is None or not self.active:
            return False
        ok = self.ctl.undo()
        self.window.statusBar().showMessage("Undid the last game action" if ok else "Nothing to undo in this game", 3000)
        return ok

    def _set_fire_zone_checked(self, on: bool) -> None:
        self.fire_zone_action.blockSignals(True)
        self.fire_zone_action.setChecked(on)
        self.fire_zone_action.blockSignals(False)

    def _fire_zone_toggled(self, on: bool) -> None:
        if self.ctl is None:
            self._set_fire_zone_checked(False)
            return
        res = self.ctl.set_fire_zone(on)
        if on and not res.ok and (self.ctl.los_off_reason() is not None or not self.ctl.offers("fire_zone")):
            # Nothing can ever be drawn in this game (SFN, TKG): say why and untick.
            self.ctl.fire_zone_on = False
            self._set_fire_zone_checked(False)

    def _set_los_checked(self, on: bool) -> None:
        self.los_action.blockSignals(True)
        self.los_action.setChecked(on)
        self.los_action.blockSignals(False)
        if self.ctl is not None:
            self.ctl.los_mode = on

    def _los_mode_toggled(self, on: bool) -> None:
        if self.ctl is None:
            self._set_los_checked(False)
            return
        off = self.ctl.los_off_reason()
        if on and off is not None:
            # SFN, TKG: no LOS rules, so nothing to check: say why (the system's words) and untick.
            self._set_los_checked(False)
            self.ctl.check_los_line(Hex(0, 0))  # any hex: the answer is the system's reason
            return
        self.ctl.los_mode = on
        if not on and self.ctl.los_line is not None:
            self.ctl.los_line = None
            self.refresh()
        self.window.statusBar().showMessage(
            "Check LOS: click a hex to check line of sight to it from the selected unit" if on else "Check LOS off",
            5000)

    def _show_los_line(self, chk: LosCheck) -> None:
        self.window.statusBar().showMessage(chk.message, 15000)
        self.los_label.setText(chk.message)
        self.los_label.setToolTip(chk.explain or chk.message)
        colour = "#b71c1c" if chk.visible is False or chk.off_reason else ("#0d47a1" if chk.visible else "#555555")
        self.los_label.setStyleSheet(f"color: {colour};")

    def _hovered(self, h: object) -> None:
        # With the Fire Zone shown, hovering a hex checks LOS to it from the selected unit: the
        # verdict in the status bar, the line on the map (PlayTool.hover caches per hex).
        if not (self.active and self.ctl is not None and self.tool is not None):
            return
        here = h if isinstance(h, Hex) else None
        before, self._hovered_hex = self._hovered_hex, here
        if here is None or not self.prefetch_on_hover:
            self._prefetch_timer.stop()
        elif here != before:
            self._prefetch_timer.start()  # once per hex reached, not on every pixel of it
        chk = self.tool.hover(h if isinstance(h, Hex) else None)  # None while Fire Zone is off
        if self.layer is not None and self.layer.hover_line is not chk:
            self.layer.hover_line = chk
            self.layer.update()
        if chk is not None and chk is not self._last_hover:
            self._show_los_line(chk)  # status text once per new check, not on every pixel
        self._last_hover = chk

    def _pressed_on(self, h: Hex | None) -> None:
        # A press where no move brought the pointer (a touch tap, a click with no movement
        # before it): the pointer is here now, so what the release would compute is prefetched
        # on the next idle turn, while the button is held. A hover there already did it.
        self._hovered(h)

    def _show_result(self, res: ActionResult) -> None:
        self.window.statusBar().showMessage(str(res), 10000)
        self.result_label.setText(str(res))
        self.result_label.setStyleSheet("color: #1b5e20;" if res.ok else "color: #b71c1c; font-weight: bold;")

    def refresh(self) -> None:
        """The controller changed: the map layer now (its changed rectangles: the overlay, moved
        or selected stacks), the panels now too, unless the change is a map click's selection
        (:meth:`map_first`), whose panels follow the frame that paints the map."""
        if self.ctl is None:
            return
        if self.layer is not None:
            self.layer.sync()
        view = self.window.view
        if self._map_first and view is not None and view.isVisible():
            self._panels_after_paint.arm()
        else:
            self.refresh_panels()

    def refresh_panels(self) -> None:
        """The turn bar, Unit, Log and Actions panels from the controller (at once; a deferred
        refresh, :meth:`map_first`, that has not run yet is done by this)."""
        self._panels_after_paint.disarm()
        if self.ctl is None:
            return
        self.bar.refresh()
        self.unit_panel.refresh()
        self.log_panel.refresh()
        self.actions_panel.refresh()
        self._prefetch_again()  # the state changed: what a click where the pointer is would compute

    def _prefetch_again(self, *_args: object) -> None:
        if self._hovered_hex is not None and self.prefetch_on_hover:
            self._prefetch_timer.start()

    def prefetch_hovered(self) -> bool:
        """The reach, Fire Zone (when shown) and move overlay of the stack under the pointer,
        computed before the click that selects it (PlayController.prefetch, MoveOverlay.prefetch):
        the click then only shows them. Runs on the next idle turn of the event loop after the
        pointer reaches a hex (``PREFETCH_AFTER_MS``) and after every change of the game; a
        click before that computes them itself, as without. Nothing is computed where a click
        would not select (PlayController.click_selects: a reachable hex is moved to)."""
        if not (self.active and self.ctl is not None and self.layer is not None and self.prefetch_on_hover):
            return False
        if self.ctl.warm_seconds is None:
            # the step tables are still being built on the pool thread: the engine query would
            # wait for them here, on the UI thread; the click computes the reach itself
            return False
        units = self.ctl.prefetch(self._hovered_hex)
        return bool(units) and self.layer.move_overlay.prefetch(units)

    @contextmanager
    def map_first(self) -> Iterator[None]:
        """Within: a selection change refreshes the map layer at once and the panels only after
        the map view's next paint (or ``PANELS_AFTER_MS`` at the latest). A click's answer is
        the overlay on the map: it is painted in a frame of its own, not after the Unit panel's
        text layout and the docks' repaint (issue #21's click → overlay target)."""
        self._map_first = True
        try:
            yield
        finally:
            self._map_first = False

