"""ScenarioMode: the Scenario mode of the main window and the always-on diagnostics dock.

Installed with one call (:func:`install_scenario_mode`). Scenario mode keeps the map view:
it adds the scenario layer (stacks, setup areas, zones, overlays, locations, LOS), a
scenario chooser, and the docks for setup, boxes, counters, schedule, drop zones, beach
overlays, locations and LOS. Every change goes through an undo command on the document's
stack; the docks refresh from ``doc.changed``. The diagnostics dock re-validates after every
edit in any mode (debounced, on a worker thread) and shows counts in the status bar.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QComboBox, QDockWidget, QLabel, QMenu, QToolBar, QWidget

from editor.commands.scenario import PlaceUnit, SetUnitState
from editor.diagnostics import DiagnosticsPanel, ValidationRunner
from editor.scenario.layer import ScenarioLayer
from editor.scenario.oob import BoxList, OobTree, UnitPanel, units_from
from model import scenario_edits as se
from model.changes import Change, ScenarioChanged
from model.counters import Counter
from model.diagnostics import Diagnostic, Severity
from model.hexes import Hex
from model.mapdata import HexMap
from model.scenario import Scenario, SetupEntry
from model.system import GameSystem

if TYPE_CHECKING:
    from editor.document import MapDocument
    from editor.main_window import MainWindow


class ScenarioMode(QObject):
    def __init__(self, window: "MainWindow") -> None:
        super().__init__(window)
        self.window = window
        self.active = False
        self.scenario_id: str | None = None
        self.layer: ScenarioLayer | None = None
        self.runner: ValidationRunner | None = None
        self.docks: list[QDockWidget] = []
        self.overlay_shown: dict[str, bool] = {}
        self._cache: dict[str, Any] = {}
        self.tab_groups: list[list[QDockWidget]] = []
        self._build()

    # --- construction ------------------------------------------------------------------------

    def _dock(self, title: str, name: str, widget: QWidget, area: Qt.DockWidgetArea) -> QDockWidget:
        d = QDockWidget(title, self.window)
        d.setObjectName(name)
        d.setWidget(widget)
        self.window.addDockWidget(area, d)
        return d

    def _build(self) -> None:
        w = self.window
        self.toggle_action = QAction("&Scenario Mode", w)
        self.toggle_action.setObjectName("view.scenario_mode")
        self.toggle_action.setCheckable(True)
        self.toggle_action.setShortcut(QKeySequence("Ctrl+E"))
        self.toggle_action.setStatusTip("Edit the scenarios: setup, schedule, drop zones, overlays, counters (Ctrl+E)")
        self.toggle_action.toggled.connect(lambda on: self.enter() if on else self.leave())
        w.actions_by_id["view.scenario_mode"] = self.toggle_action
        view_menu = next((a.menu() for a in w.menuBar().actions() if a.text().replace("&", "") == "View"), None)
        if view_menu is not None:
            view_menu.insertAction(view_menu.actions()[0] if view_menu.actions() else None, self.toggle_action)  # type: ignore[arg-type]
        w.toolbar.addAction(self.toggle_action)

        self.bar = QToolBar("Scenario")
        self.bar.setObjectName("scenario-toolbar")
        self.chooser = QComboBox()
        self.chooser.setMinimumWidth(220)
        self.chooser.currentIndexChanged.connect(lambda _i: self.set_scenario(self.chooser.currentData()))
        self.bar.addWidget(QLabel(" Scenario: "))
        self.bar.addWidget(self.chooser)
        w.addToolBar(Qt.ToolBarArea.TopToolBarArea, self.bar)
        self.bar.hide()

        # Diagnostics: validation runs in every mode; the dock shows in Scenario mode.
        self.diagnostics = DiagnosticsPanel()
        self.diagnostics.activated.connect(self.show_diagnostic)
        self.diag_dock = self._dock("Diagnostics", "diagnostics-dock", self.diagnostics, Qt.DockWidgetArea.BottomDockWidgetArea)
        self.diag_label = QLabel()
        w.statusBar().addPermanentWidget(self.diag_label)

        self.oob = OobTree(self)
        self.oob.currentItemChanged.connect(lambda it, _p: it is not None and self._unit_chosen(it.data(0, Qt.ItemDataRole.UserRole)))
        self.boxes = BoxList(self)
        self.unit_panel = UnitPanel(self)
        left = Qt.DockWidgetArea.LeftDockWidgetArea
        right = Qt.DockWidgetArea.RightDockWidgetArea
        self.docks += [self._dock("Order of Battle", "scenario-oob-dock", self.oob, left),
                       self._dock("Boxes", "scenario-boxes-dock", self.boxes, left),
                       self._dock("Stack and Unit", "scenario-unit-dock", self.unit_panel, right)]
        self._build_more_docks()
        # The findings dock is available in every mode (View ▸ Diagnostics); it opens by
        # itself on entering Scenario mode. Hidden at start-up, and with a modest size hint,
        # so it never makes QMainWindow grow the window to fit it.
        self.diag_dock.hide()
        self.diag_toggle = self.diag_dock.toggleViewAction()
        self.diag_toggle.setObjectName("view.diagnostics")
        self.diag_toggle.setText("&Diagnostics")
        self.diag_toggle.setShortcut(QKeySequence("Ctrl+Shift+D"))
        self.diag_toggle.setStatusTip("Show or hide the validation findings (any mode)")
        w.actions_by_id["view.diagnostics"] = self.diag_toggle
        if view_menu is not None:
            view_menu.insertAction(view_menu.actions()[1] if len(view_menu.actions()) > 1 else None,  # type: ignore[arg-type]
                                   self.diag_toggle)
        w.setCorner(Qt.Corner.BottomLeftCorner, Qt.DockWidgetArea.LeftDockWidgetArea)
        w.setCorner(Qt.Corner.BottomRightCorner, Qt.DockWidgetArea.RightDockWidgetArea)
        for d in self.docks:
            d.hide()

    def _build_more_docks(self) -> None:
        """Counters, schedule, zones, overlays, locations and LOS (separate modules)."""
        from editor.scenario.panels import build_panels

        build_panels(self)

    # --- document ----------------------------------------------------------------------------

    @property
    def doc(self) -> "MapDocument":
        assert self.window.doc is not None
        return self.window.doc

    @property
    def system(self) -> GameSystem:
        return self.doc.system

    @property
    def hmap(self) -> HexMap:
        return self.doc.hmap

    def document_set(self, doc: "MapDocument") -> None:
        """A new document: new validation runner, scenario list, fresh layer."""
        if self.runner is not None:
            self.runner.deleteLater()
        self._cache.clear()
        self.runner = ValidationRunner(doc, parent=self)
        self.runner.finished.connect(self._validated)
        self.runner.started.connect(lambda: self.diag_label.setText(self.diag_label.text().split(" ·")[0] + " · validating…"))
        doc.changed.connect(self._on_change)
        self.chooser.blockSignals(True)
        self.chooser.clear()
        for sid, scen in doc.bundle.scenarios.items():
            self.chooser.addItem(f"{scen.name}", sid)
        self.chooser.blockSignals(False)
        self.scenario_id = doc.bundle.scenario_ids()[0] if doc.bundle.scenarios else None
        self.layer = None
        if self.active:
            self._attach()
        self.runner.flush()

    def _on_change(self, change: Change) -> None:
        self._cache.clear()
        if self.active:
            # A scenario edit leaves the counter manifest alone: skip reloading that table.
            counters = not isinstance(change, ScenarioChanged)
            self.refresh(counters=counters)

    def resolved(self) -> Scenario | None:
        if self.scenario_id is None or self.window.doc is None:
            return None
        key = f"resolved:{self.scenario_id}"
        if key not in self._cache:
            try:
                self._cache[key] = self.doc.bundle.resolved(self.scenario_id)
            except (KeyError, ValueError):
                self._cache[key] = None
        return self._cache[key]

    def counters(self) -> dict[str, Counter]:
        if "counters" not in self._cache:
            self._cache["counters"] = self.doc.bundle.counter_index()
        return self._cache["counters"]

    def own_setup_entry(self, unit: str) -> SetupEntry | None:
        if self.scenario_id is None:
            return None
        return se.setup_entry(self.doc.bundle.scenarios[self.scenario_id], unit)

    def describe_place(self, e: SetupEntry | None) -> str:
        if e is None:
            return ""
        if e.hex is not None:
            return self.hmap.label(e.hex)
        if e.adjacent_to is not None:
            return f"in/adj {self.hmap.label(e.adjacent_to)}"
        return next(f"{k} {getattr(e, k)}" for k in ("box", "area", "location") if getattr(e, k))

    # --- mode toggle -------------------------------------------------------------------------

    def enter(self, scenario_id: str | None = None) -> bool:
        w = self.window
        if w.doc is None or w.view is None:
            return False
        play = getattr(w, "play_mode", None)
        if play is not None and play.active:
            play.leave()
        if scenario_id is not None:
            if scenario_id not in w.doc.bundle.scenarios:
                return False
            self.set_scenario(scenario_id)
        self.active = True
        self._attach()
        w.palette_dock.hide()
        w.layers_dock.hide()
        for d in self.docks:
            d.show()
        self.diag_dock.show()
        if self.tab_groups:
            for group in self.tab_groups:
                for a, b in zip(group, group[1:]):
                    w.tabifyDockWidget(a, b)
                group[0].raise_()
            self.tab_groups = []
        self.bar.show()
        if not self.toggle_action.isChecked():
            self.toggle_action.blockSignals(True)
            self.toggle_action.setChecked(True)
            self.toggle_action.blockSignals(False)
        self.refresh()
        return True

    def leave(self) -> None:
        w = self.window
        self.active = False
        if self.layer is not None and self.layer.scene() is not None:
            self.layer.scene().removeItem(self.layer)
        self.layer = None
        for d in self.docks:
            d.hide()
        self.bar.hide()
        w.palette_dock.show()
        w.layers_dock.show()
        if w.view is not None:
            w.view.viewport().removeEventFilter(self)
            w.set_tool("pan")
        if self.toggle_action.isChecked():
            self.toggle_action.blockSignals(True)
            self.toggle_action.setChecked(False)
            self.toggle_action.blockSignals(False)

    def _attach(self) -> None:
        w = self.window
        assert w.view is not None and w.scene is not None
        if self.layer is None or self.layer.scene() is not w.scene:
            self.layer = ScenarioLayer(self, w.scene.sceneRect())
            w.scene.addItem(self.layer)
        w.view.setAcceptDrops(True)
        w.view.viewport().setAcceptDrops(True)
        w.view.viewport().installEventFilter(self)
        self.set_tool(self.tools["setup"])

    def set_tool(self, tool: Any) -> None:
        w = self.window
        if w.view is not None:
            w.view.tool = tool
            w.view.setDragMode(w.view.DragMode.NoDrag)

    def set_scenario(self, sid: str | None) -> None:
        if sid is None or self.window.doc is None or sid not in self.doc.bundle.scenarios:
            return
        self.scenario_id = sid
        self._cache.clear()
        i = self.chooser.findData(sid)
        if i >= 0 and self.chooser.currentIndex() != i:
            self.chooser.blockSignals(True)
            self.chooser.setCurrentIndex(i)
            self.chooser.blockSignals(False)
        if self.active:
            self.refresh()

    def refresh(self, counters: bool = True) -> None:
        self.oob.refresh()
        self.boxes.refresh()
        for panel in self.panels:
            if counters or panel is not self.counter_panel:
                panel.refresh()
        if self.layer is not None:
            self.layer.update()

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
        """Place units on a hex or in a box: one PlaceUnit per unit, one undo macro."""
        if self.scenario_id is None or (hex is None and box is None):
            return False
        stack = self.doc.undo_stack
        if len(units) > 1:
            stack.beginMacro(f"Place {len(units)} units")
        for u in units:
            if box is not None:
                self.doc.push(PlaceUnit(self.doc, self.scenario_id, u, "box", box))
            else:
                assert hex is not None
                self.doc.push(PlaceUnit(self.doc, self.scenario_id, u, "adjacent_to" if adjacent else "hex", hex))
        if len(units) > 1:
            stack.endMacro()
        return True

    def stack_menu(self, h: Hex) -> QMenu | None:
        """Context menu of a placed stack: place it exactly on, or in or adjacent to, ``h``."""
        scen = self.resolved()
        units = se.stacks(scen).get(h, []) if scen else []
        if not units:
            return None
        label = self.hmap.label(h)
        menu = QMenu(self.window)
        adj = menu.addAction(f"Place in or adjacent to {label}")
        adj.setObjectName("place-adjacent")
        adj.triggered.connect(lambda: self.drop_unit(units, hex=h, adjacent=True))
        exact = menu.addAction(f"Place exactly on {label}")
        exact.setObjectName("place-exact")
        exact.triggered.connect(lambda: self.drop_unit(units, hex=h))
        return menu

    def set_state(self, unit: str, flag: str, on: bool) -> None:
        if self.scenario_id is not None and self.own_setup_entry(unit) is not None:
            self.doc.push(SetUnitState(self.doc, self.scenario_id, unit, flag, on))

    def _unit_chosen(self, unit: str | None) -> None:
        if unit:
            self.unit_panel.show_unit(unit)
            e = (self.resolved().setup if self.resolved() else [])
            entry = next((x for x in e if x.unit == unit), None)
            h = entry.hex or entry.adjacent_to if entry is not None else None
            if self.layer is not None:
                self.layer.highlight = [h] if h is not None else []
                self.layer.update()

    def show_stack(self, h: Hex) -> None:
        scen = self.resolved()
        units = se.stacks(scen).get(h, []) if scen else []
        self.unit_panel.show_stack(units, self.hmap.label(h))
        if self.layer is not None:
            self.layer.highlight = [h]
            self.layer.update()

    # --- diagnostics ---------------------------------------------------------------------------

    def wait_validated(self) -> None:
        """Block in the event loop until the findings for the latest edit are shown (screenshots)."""
        from PySide6.QtCore import QEventLoop
        from PySide6.QtWidgets import QApplication

        r = self.runner
        while r is not None and (r.busy or r.completed != r.generation):
            QApplication.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents)

    def _validated(self, diags: list[Diagnostic]) -> None:
        self.diagnostics.set_diagnostics(diags)
        c = self.diagnostics.counts()
        secs = self.runner.last_seconds if self.runner else 0.0
        self.diag_label.setText(f"{c[Severity.ERROR]} errors, {c[Severity.WARNING]} warnings, "
                                f"{c[Severity.INFO]} notes · {secs * 1000:.0f} ms")

    def show_diagnostic(self, d: Diagnostic) -> None:
        """Select, centre and highlight the finding's hexes, unit or turn."""
        w = self.window
        loc = d.location
        if loc.scenario and self.window.doc is not None and loc.scenario in self.doc.bundle.scenarios \
                and loc.scenario != self.scenario_id:
            self.set_scenario(loc.scenario)
        hexes: list[Hex] = []
        for label in loc.hexes:
            try:
                hexes.append(self.hmap.parse(label))
            except ValueError:
                continue
        if not hexes and loc.units:
            scen = self.resolved()
            for e in scen.setup if scen else []:
                if e.unit in loc.units and (e.hex or e.adjacent_to) is not None:
                    hexes.append(e.hex or e.adjacent_to)  # type: ignore[arg-type]
        if not self.active and loc.scenario:
            self.enter()  # policy finding-opens-scenario: a scenario finding needs its layer
        if self.layer is not None:
            self.layer.highlight = hexes
            self.layer.update()
        if hexes and w.view is not None:
            w.view.center_on_hex(hexes[0])
        if loc.units:
            item = self.oob.item_for(loc.units[0])
            if item is not None:
                self.oob.setCurrentItem(item)
        if loc.turns:
            self.schedule_panel.select_turn(loc.turns[0])
        w.statusBar().showMessage(d.render(), 8000)
        self.highlighted = hexes


def install_scenario_mode(window: "MainWindow") -> ScenarioMode:
    """Add Scenario mode (View ▸ Scenario Mode, Ctrl+E) and the diagnostics dock to a window."""
    mode = ScenarioMode(window)
    window.scenario_mode = mode  # type: ignore[attr-defined]
    original = window.set_document

    def set_document(doc: Any) -> None:
        if mode.active:
            mode.leave()
        original(doc)
        mode.document_set(doc)

    window.set_document = set_document  # type: ignore[method-assign]
    return mode
