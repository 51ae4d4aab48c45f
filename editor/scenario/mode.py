"""ScenarioMode: the Scenario mode of the main window (View ▸ Scenario Mode, Ctrl+E).

Scenario mode keeps the map view: it adds the scenario layer (stacks, setup areas, zones,
overlays, locations, LOS), a scenario chooser, and the docks for setup, boxes, counters,
schedule, drop zones, beach overlays, locations and LOS. Every change goes through an undo
command on the document's stack; while the mode is active the docks refresh from
``doc.changed``.

For each document it builds a :class:`ScenarioSelection` and the panels and tools
(:func:`build_panels`), which know the document and the selection only. What the mode keeps is
the window-side wiring: the docks, the toolbar, the layer on the scene, the tool on the view,
drops on the map, and the status bar. The diagnostics dock is the window's; this mode opens it,
and reveals the findings that name a scenario.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QDockWidget, QLabel, QMenu, QMessageBox, QToolBar, QToolButton, QWidget

from editor.actions import SCENARIO_TOOLS
from editor.docks import scrollable
from editor.eliding_combo import ElidingComboBox
from editor.icons import decorate
from editor.scenario.layer import ScenarioLayer
from editor.scenario.menu import ScenarioMenu
from editor.scenario.oob import units_from
from editor.scenario.panels import ScenarioPanels, build_panels
from editor.scenario.placing import drop_units, stack_menu
from editor.scenario.selection import ScenarioSelection
from model.changes import Change, ScenarioChanged, ScenarioListChanged
from model.diagnostics import Diagnostic
from model.hexes import Hex

if TYPE_CHECKING:
    from editor.document import MapDocument
    from editor.main_window import MainWindow

LEFT, RIGHT, BOTTOM = (Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea,
                       Qt.DockWidgetArea.BottomDockWidgetArea)
# One dock per panel, in ScenarioPanels.widgets() order: title, object name, area.
DOCKS = (("Order of Battle", "scenario-oob-dock", LEFT), ("Boxes", "scenario-boxes-dock", LEFT),
         ("Stack and Unit", "scenario-unit-dock", RIGHT), ("Counters", "scenario-counters-dock", BOTTOM),
         ("Schedule", "scenario-schedule-dock", BOTTOM), ("Drop Zones", "scenario-zones-dock", RIGHT),
         ("Beach Overlays", "scenario-overlays-dock", RIGHT), ("Locations", "scenario-locations-dock", RIGHT),
         ("Line of Sight", "scenario-los-dock", RIGHT), ("Scenario Properties", "scenario-properties-dock", RIGHT))


class ScenarioMode(QObject):
    name = "scenario"

    def __init__(self, window: "MainWindow") -> None:
        super().__init__(window)
        self.window = window
        self.active = False
        self.document: "MapDocument | None" = None
        self.selection: ScenarioSelection | None = None
        self.panels: ScenarioPanels | None = None
        self.layer: ScenarioLayer | None = None

        self.action = QAction("&Scenario Mode", window)
        self.action.setObjectName("view.scenario_mode")
        self.action.setCheckable(True)
        self.action.setShortcut(QKeySequence("Ctrl+E"))
        self.action.setStatusTip("Edit the scenarios: setup, schedule, drop zones, overlays, counters (Ctrl+E)")
        decorate(self.action, "scenario-mode", "Edit the scenarios: setup, schedule, drop zones, overlays, counters")

        self.bar = QToolBar("Scenario")
        self.bar.setObjectName("scenario-toolbar")
        self.chooser = ElidingComboBox(34, "The scenario the docks and the map show")
        self.chooser.currentIndexChanged.connect(self._chosen)
        self.bar.addWidget(QLabel(" Scenario: "))
        self.bar.addWidget(self.chooser)
        self.place_action = QAction("Place Units…", window)
        self.place_action.setObjectName("scenario.place_units")
        self.place_action.setStatusTip("Place the units selected in the Order of Battle: on a hex, in or adjacent "
                                       "to a hex, in an area, a box or at a named location")
        self.place_action.triggered.connect(self.place_units)
        decorate(self.place_action, "place-units", "Place the units selected in the Order of Battle")
        self.bar.addAction(self.place_action)
        place_button = self.bar.widgetForAction(self.place_action)
        if isinstance(place_button, QToolButton):
            place_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        # The map tools the docks switch on (setup, drop-zone hexes, beach overlay, LOS), on the
        # toolbar with single-key shortcuts (editor/actions.py SCENARIO_TOOLS), in this mode only.
        self.bar.addSeparator()
        self.tool_group = QActionGroup(window)
        self.tool_group.setExclusive(True)
        self.tool_actions: dict[str, QAction] = {}
        for spec in SCENARIO_TOOLS:
            act = QAction(spec.text, window)
            act.setObjectName(f"scenario.tool.{spec.id}")
            act.setCheckable(True)
            act.setShortcut(QKeySequence(spec.shortcut))
            act.setStatusTip(spec.tip)
            decorate(act, spec.icon, spec.text)
            act.setEnabled(False)
            act.triggered.connect(lambda _=False, t=spec.id: self.choose_tool(t))
            self.tool_group.addAction(act)
            self.bar.addAction(act)
            window.actions_by_id[act.objectName()] = act
            self.tool_actions[spec.id] = act
        window.addToolBar(Qt.ToolBarArea.TopToolBarArea, self.bar)
        self.bar.hide()

        # The docks stay for the window's life; their widgets are each document's panels.
        self.docks: list[QDockWidget] = []
        for title, name, area in DOCKS:
            dock = QDockWidget(title, window)
            dock.setObjectName(name)
            dock.setWidget(QWidget())
            window.addDockWidget(area, dock)
            dock.hide()
            self.docks.append(dock)
        # Tabified when Scenario mode first shows them: tabifying hidden docks at start-up makes
        # QMainWindow grow the window to fit them all.
        self.properties_dock = self.docks[9]
        self._built_tab_groups: list[list[QDockWidget]] = [[window.diagnostics.dock, self.docks[3], self.docks[4]],
                                                           [self.properties_dock, *self.docks[5:9]],
                                                           [self.docks[2], window.props_dock, window.undo_dock]]
        self.tab_groups = [list(g) for g in self._built_tab_groups]  # emptied by the first entry
        # (The map's Properties and History are secondary here: tabs behind Stack and Unit.)
        # The Scenario menu (New, Variant, Duplicate, Rename, Delete, Properties): editor/scenario/menu.py.
        self.menu = ScenarioMenu(window, self)

    # --- Mode: document ------------------------------------------------------------------------

    def document_set(self, document: "MapDocument") -> None:
        """A new document: a new selection, panels and tools for it; the old layer went with its scene."""
        old = self.selection
        self.layer = None
        selection = ScenarioSelection(document, parent=self)
        if old is not None:
            # Overlay visibility is view state the user chose: it outlives a revert or reload.
            selection.overlay_shown = dict(old.overlay_shown)
            old.deleteLater()
        panels = build_panels(document, selection)
        for dock, widget in zip(self.docks, panels.widgets()):
            previous = dock.widget()
            dock.setWidget(scrollable(widget))  # the dock scrolls rather than widen the window
            if previous is not None:
                previous.deleteLater()
        selection.scenarioChanged.connect(self._scenario_changed)
        selection.toolChanged.connect(self._use_tool)
        selection.changed.connect(self._repaint)
        for panel in (panels.counters, panels.schedule, panels.overlays, panels.locations, panels.properties):
            panel.status.connect(self._status)
        panels.counters.report.connect(self._report)
        panels.counters.findings.connect(lambda diags: self.window.diagnostics.set_editor_findings("counters", diags))
        # After the selection's own connection (made in its constructor): its cached resolved
        # scenario is dropped before the panels read it again.
        document.changed.connect(self._on_change)
        self.document, self.selection, self.panels = document, selection, panels
        self._fill_chooser()
        self.menu.update_actions()

    def document_closed(self) -> None:
        """No document: its panels, selection and scenario list go (the docks stay, empty)."""
        for dock in self.docks:
            previous = dock.widget()
            dock.setWidget(QWidget())
            if previous is not None:
                previous.deleteLater()
        if self.document is not None:
            try:
                self.document.changed.disconnect(self._on_change)
            except (RuntimeError, TypeError):
                pass
        if self.selection is not None:
            self.selection.deleteLater()
        self.document, self.selection, self.panels, self.layer = None, None, None, None
        self.chooser.blockSignals(True)
        self.chooser.clear()
        self.chooser.blockSignals(False)
        self.menu.update_actions()

    def _fill_chooser(self) -> None:
        """One entry per scenario of the document (its title), the selected one current."""
        assert self.document is not None
        self.chooser.blockSignals(True)
        self.chooser.clear()
        for sid, scen in self.document.bundle.scenarios.items():
            self.chooser.addItem(f"{scen.name}", sid)
        self._sync_chooser()
        self.chooser.blockSignals(False)

    def _on_change(self, change: Change) -> None:
        if isinstance(change, ScenarioListChanged) and self.selection is not None and self.document is not None:
            # Scenarios came or went (Scenario menu): the chooser lists them and follows the
            # one the command names, or any scenario left when the selected one is gone.
            ids = list(self.document.bundle.scenarios)
            target = change.current if change.current in ids else self.selection.scenario_id
            if target not in ids:
                target = ids[0] if ids else None
            if target is not None:
                self.selection.set_scenario(target)
            self._fill_chooser()
            self.menu.update_actions()
        elif isinstance(change, ScenarioChanged):
            self._fill_chooser()  # a title may have changed
        if self.active:
            # A scenario edit leaves the counter manifest alone: skip reloading that table.
            self.refresh(counters=not isinstance(change, ScenarioChanged))

    def _chosen(self, _index: int) -> None:
        if self.selection is not None:
            self.selection.set_scenario(self.chooser.currentData())

    def _scenario_changed(self, _sid: object) -> None:
        self._sync_chooser()
        if self.active:
            self.refresh()

    def _sync_chooser(self) -> None:
        sid = self.selection.scenario_id if self.selection is not None else None
        i = self.chooser.findData(sid)
        if i >= 0 and self.chooser.currentIndex() != i:
            self.chooser.blockSignals(True)
            self.chooser.setCurrentIndex(i)
            self.chooser.blockSignals(False)

    # --- Mode: enter and leave -----------------------------------------------------------------

    def open_scenario(self, scenario_id: str | None = None) -> bool:
        """Switch the window to Scenario mode on ``scenario_id`` (default: the one selected);
        False for an unknown id or when there is no document."""
        if scenario_id is not None and (self.selection is None or not self.selection.set_scenario(scenario_id)):
            return False
        return self.window.set_mode(self)

    def enter(self) -> bool:
        w = self.window
        if w.doc is None or w.view is None or self.selection is None:
            return False
        self.active = True
        self._attach()
        first = bool(self.tab_groups)
        # Tabified before they show: shown one by one side by side first, their minimum sizes
        # add up and QMainWindow grows the window past the screen to fit them.
        for group in self.tab_groups:
            for a, b in zip(group, group[1:]):
                w.tabifyDockWidget(a, b)
        for d in self.docks:
            d.show()
        w.diagnostics.dock.show()
        if first:
            for group in self.tab_groups:
                group[0].raise_()
            self.tab_groups = []
            # The properties dock's tab group gets half the height: its tables need the room. Not
            # more width: a 420 px column here left the map a third of a 1280 px window (#21);
            # the window gives each side column its default share (MainWindow._size_default_docks).
            w.resizeDocks([self.properties_dock], [max(360, w.height() // 2)], Qt.Orientation.Vertical)
        self.bar.show()
        for act in self.tool_actions.values():
            act.setEnabled(True)
        self._sync_tool_action(self.selection.tool)
        self.refresh()
        return True

    def layout_forgotten(self) -> None:
        """The window put the docks back as built (Reset Panel Layouts): the next entry tabifies
        and sizes them as the first one did."""
        self.tab_groups = [list(g) for g in self._built_tab_groups]

    def leave(self) -> None:
        w = self.window
        self.active = False
        if self.layer is not None and self.layer.scene() is not None:
            self.layer.scene().removeItem(self.layer)
        self.layer = None
        for d in self.docks:
            d.hide()
        self.bar.hide()
        for act in self.tool_actions.values():
            act.setEnabled(False)  # V, Z, O, L are this mode's keys only
        if w.view is not None:
            w.view.viewport().removeEventFilter(self)

    def _attach(self) -> None:
        w = self.window
        assert w.view is not None and w.scene is not None and self.document is not None
        assert self.selection is not None
        if self.layer is None or self.layer.scene() is not w.scene:
            self.layer = ScenarioLayer(self.document, self.selection, w.scene.sceneRect())
            w.scene.addItem(self.layer)
        w.view.setAcceptDrops(True)
        w.view.viewport().setAcceptDrops(True)
        w.view.viewport().installEventFilter(self)
        self.selection.set_tool("setup")

    def _tool_switches(self) -> dict[str, tuple[Any, QDockWidget]]:
        """Each dock-switched tool: the panel's checkable button that switches it on, its dock."""
        assert self.panels is not None
        p = self.panels
        return {"zone": (p.zones.edit_btn, self.docks[5]), "overlay": (p.overlays.edit_btn, self.docks[6]),
                "los": (p.los.active, self.docks[8])}

    def choose_tool(self, name: str) -> bool:
        """A tool from the toolbar (or its key): switched on through its panel's own button, so
        the panel and the toolbar agree, with its dock shown; the other panels' tools go off.
        False (and the status bar says why) when the panel cannot offer it now."""
        if self.panels is None or self.selection is None or not self.active:
            return False
        switches = self._tool_switches()
        target = switches.get(name)
        if target is not None and not target[0].isEnabled():
            spec = next(s for s in SCENARIO_TOOLS if s.id == name)
            self.window.statusBar().showMessage(f"{spec.text}: not available here ({target[0].toolTip() or 'see its dock'})",
                                                5000)
            self._sync_tool_action(self.selection.tool)
            return False
        for tid, (button, _dock) in switches.items():
            if tid != name and button.isChecked():
                button.setChecked(False)  # its panel asks for the setup tool back
        if target is None:
            self.selection.set_tool(name)
            return True
        button, dock = target
        dock.show()
        dock.raise_()
        if not button.isChecked():
            button.setChecked(True)
        else:
            self.selection.set_tool(name)
        return True

    def _sync_tool_action(self, name: str) -> None:
        act = self.tool_actions.get(name)
        if act is not None and not act.isChecked():
            act.setChecked(True)

    def _use_tool(self, name: str) -> None:
        """The map tool a panel asked for (through the selection) goes on the view."""
        self._sync_tool_action(name)
        view = self.window.view
        if not self.active or view is None or self.panels is None:
            return
        view.tool = self.panels.tools.get(name)
        view.setDragMode(view.DragMode.NoDrag)

    def refresh(self, counters: bool = True) -> None:
        if self.panels is None:
            return
        for panel in self.panels.refreshable():
            if counters or panel is not self.panels.counters:
                panel.refresh()
        self._repaint()

    def _repaint(self) -> None:
        if self.layer is not None:
            self.layer.update()

    def _status(self, text: str, ms: int) -> None:
        self.window.statusBar().showMessage(text, ms)

    def _report(self, icon: QMessageBox.Icon, title: str, text: str, details: str | None) -> None:
        self.window.message(icon, title, text, details)

    # --- drops on the map ----------------------------------------------------------------------

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        t = event.type()
        if t in (QEvent.Type.DragEnter, QEvent.Type.DragMove):
            if units_from(event.mimeData()):  # type: ignore[attr-defined]
                event.acceptProposedAction()  # type: ignore[attr-defined]
                return True
        elif t == QEvent.Type.Drop:
            units = units_from(event.mimeData())  # type: ignore[attr-defined]
            if units and self.window.view is not None:
                h = self.window.view.hex_at_view(event.position())  # type: ignore[attr-defined]
                # Alt+drop: "in or adjacent to" the hex (a setup area) instead of exactly on it.
                alt = bool(event.modifiers() & Qt.KeyboardModifier.AltModifier)  # type: ignore[attr-defined]
                self.drop_unit(units, hex=h, adjacent=alt)
                event.acceptProposedAction()  # type: ignore[attr-defined]
                return True
        return False

    def drop_unit(self, units: list[str], hex: Hex | None = None, box: str | None = None,
                  adjacent: bool = False) -> bool:
        """Place units in the selected scenario (editor/scenario/placing.py): one undo macro."""
        if self.document is None or self.selection is None:
            return False
        return drop_units(self.document, self.selection.scenario_id, units, hex=hex, box=box, adjacent=adjacent)

    def place_units(self) -> None:
        """The placement dialog (editor/scenario/placing.py) for the units selected in the OOB."""
        if self.panels is not None:
            self.panels.oob.place_selected()

    def stack_menu(self, h: Hex) -> QMenu | None:
        """Context menu of the stack in ``h``: place it exactly on, or in or adjacent to, ``h``."""
        if self.document is None or self.selection is None:
            return None
        return stack_menu(self.document, self.selection, h, self.window)

    # --- diagnostics ---------------------------------------------------------------------------

    def show_diagnostic(self, d: Diagnostic) -> bool:
        """Select the finding's scenario, centre and highlight its hexes (or its units' hexes),
        select its unit and turn. Policy finding-opens-scenario: a finding that names a scenario
        switches the window to this mode, whose layer shows the hexes."""
        w, sel, panels, doc = self.window, self.selection, self.panels, self.document
        if sel is None or panels is None or doc is None:
            return False
        loc = d.location
        if loc.scenario and loc.scenario in doc.bundle.scenarios:
            sel.set_scenario(loc.scenario)
        hexes: list[Hex] = []
        for label in loc.hexes:
            try:
                hexes.append(doc.hmap.parse(label))
            except ValueError:
                continue
        if not hexes and loc.units:
            scen = sel.resolved()
            for e in scen.setup if scen else []:
                if e.unit in loc.units and (e.hex or e.adjacent_to) is not None:
                    hexes.append(e.hex or e.adjacent_to)  # type: ignore[arg-type]
        if not self.active and loc.scenario:
            w.set_mode(self)
        sel.set_highlight(hexes)
        if hexes and w.view is not None:
            w.view.center_on_hex(hexes[0])
        if loc.units:
            item = panels.oob.item_for(loc.units[0])
            if item is not None:
                panels.oob.setCurrentItem(item)
            panels.counters.select_ids([loc.units[0]])  # its row in the Counters dock too
        if loc.turns:
            panels.schedule.select_turn(loc.turns[0])
        return True
