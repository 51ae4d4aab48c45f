"""MapMode: the default mode of the main window — editing the map with the tool palette.

It owns the map tools (terrain brush, hexside painter, selection, …) and the palette that picks
them, rebuilt for each document (the choices come from its game system). Each tool is also a
checkable window action with a single-key shortcut (editor/actions.py ``MAP_TOOLS``: B paints
terrain, E erases, H pans…), enabled in this mode only. Entering shows the Tools and Layers docks
and takes the hand (pan) tool; leaving hides those docks. It has no View toggle: unticking
Scenario or Play mode comes back here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QDockWidget, QLabel

from editor.actions import MAP_TOOLS
from editor.docks import ToolPalette, scrollable
from editor.icons import decorate
from editor.tools import (CalibrateTool, Eraser, FeatureTool, HexsidePainter, PathTool, Picker, PortionPolygonTool,
                          PortionTool, SelectionTool, TerrainBrush)
from editor.tools.base import BaseTool

if TYPE_CHECKING:
    from editor.document import MapDocument
    from editor.main_window import MainWindow
    from model.diagnostics import Diagnostic


class MapMode:
    name = "map"

    def __init__(self, window: "MainWindow") -> None:
        self.window = window
        self.action: QAction | None = None
        self.active = False
        self.palette: ToolPalette | None = None
        self.tools: dict[str, BaseTool] = {}
        window.legend.terrainChosen.connect(self._legend_chosen)
        # One action per tool for the window's life: the palette's buttons show them, and their
        # shortcuts work wherever the focus is in the window (but in a text field).
        self.tool_group = QActionGroup(window)
        self.tool_group.setExclusive(True)
        self.tool_actions: dict[str, QAction] = {}
        for spec in MAP_TOOLS:
            act = QAction(spec.text, window)
            act.setObjectName(f"tool.{spec.id}")
            act.setCheckable(True)
            act.setShortcut(QKeySequence(spec.shortcut))
            act.setStatusTip(spec.tip)
            decorate(act, spec.icon, spec.text)
            act.triggered.connect(lambda _=False, t=spec.id: self.set_tool(t))
            act.setEnabled(False)  # until there is a map to use it on, in this mode
            self.tool_group.addAction(act)
            window.addAction(act)
            window.actions_by_id[act.objectName()] = act
            self.tool_actions[spec.id] = act

    @property
    def docks(self) -> list[QDockWidget]:
        """This mode's own docks (View ▸ Panels enables them in this mode only)."""
        return [self.window.palette_dock, self.window.legend_dock, self.window.layers_dock]

    # --- Mode --------------------------------------------------------------------------------

    def document_set(self, document: "MapDocument") -> None:
        """New tools and palette: their terrain, hexside, path and feature choices are the system's."""
        system = document.system
        self.palette = ToolPalette(system, self.tool_actions)
        # Scrolls rather than set the window's minimum height (the legend shares the left side).
        self.window.palette_dock.setWidget(scrollable(self.palette))
        p = self.palette
        self.tools = {
            "terrain": TerrainBrush(system.terrain[0].id),
            "hexside": HexsidePainter(system.hexsides[0].id if system.hexsides else ""),
            "path": PathTool(system.paths[0].id if system.paths else ""),
            "feature": FeatureTool(system.features[0].id if system.features else ""),
            "portion": PortionTool(),
            "eraser": Eraser(),
            "picker": Picker(self._picked),
            "select": SelectionTool(),
            "portion-polygon": PortionPolygonTool(),
            "calibrate": CalibrateTool(self.window.ask_label),
        }
        t = self.tools
        p.terrain.currentIndexChanged.connect(lambda _i: self._terrain_chosen(p.terrain.currentData()))
        p.radius.valueChanged.connect(lambda v: setattr(t["terrain"], "radius", v))
        p.fill.toggled.connect(lambda on: setattr(t["terrain"], "mode", "fill" if on else "brush"))
        p.hexside.currentIndexChanged.connect(lambda _i: setattr(t["hexside"], "kind", p.hexside.currentData()))
        p.path.currentIndexChanged.connect(lambda _i: setattr(t["path"], "kind", p.path.currentData()))
        p.feature.currentIndexChanged.connect(lambda _i: setattr(t["feature"], "kind", p.feature.currentData()))
        p.feature_label.textChanged.connect(lambda text: setattr(t["feature"], "label", text))
        # ToolPalette.depth (a spin box) shadows QWidget.depth() for the type checker.
        p.depth.valueChanged.connect(lambda v: setattr(t["portion"], "depth", v))  # type: ignore[attr-defined]
        p.select_mode.currentTextChanged.connect(lambda m: setattr(t["select"], "mode", m))
        legend = self.window.legend
        legend.attach(document)
        legend.set_current(p.terrain.currentData())
        self._enable_tools()
        self.set_tool("pan")

    def document_closed(self) -> None:
        """No tools without a map: an empty Tools dock until the next document."""
        self.tools = {}
        self.palette = None
        self.window.legend.detach()
        self._enable_tools()
        old = self.window.palette_dock.widget()
        self.window.palette_dock.setWidget(QLabel("No bundle open."))
        if old is not None:
            old.deleteLater()

    def enter(self) -> bool:
        w = self.window
        w.palette_dock.show()
        w.legend_dock.show()
        w.layers_dock.show()
        self.active = True
        self._enable_tools()
        self.set_tool("pan")
        return True

    def leave(self) -> None:
        w = self.window
        w.palette_dock.hide()
        w.legend_dock.hide()
        w.layers_dock.hide()
        self.active = False
        self._enable_tools()

    def show_diagnostic(self, diagnostic: "Diagnostic") -> bool:
        return False  # map findings are centred by the window itself

    # --- tools -------------------------------------------------------------------------------

    def set_tool(self, name: str) -> None:
        """The palette's tool ``name`` on the view; "pan" is no tool and the hand drag."""
        view = self.window.view
        if view is None:
            return
        view.tool = self.tools.get(name)
        view.setDragMode(view.DragMode.ScrollHandDrag if name == "pan" else view.DragMode.NoDrag)
        act = self.tool_actions.get(name)
        if act is not None and not act.isChecked():
            act.setChecked(True)

    def _enable_tools(self) -> None:
        """The tool actions (and their shortcuts) work in this mode, with a map, only: another
        mode's keys (Scenario mode's V, Z, O, L) and its tools are its own."""
        on = self.active and bool(self.tools)
        for act in self.tool_actions.values():
            act.setEnabled(on)

    def _legend_chosen(self, terrain: str) -> None:
        if self.active:  # the legend is a Map mode panel: it paints in Map mode only
            self.choose_terrain(terrain)

    def selection_tool(self) -> SelectionTool | None:
        """The terrain selection Edit ▸ Cut/Copy/Paste/Select All act on."""
        tool = self.tools.get("select")
        return tool if isinstance(tool, SelectionTool) else None

    def _terrain_chosen(self, terrain: str | None) -> None:
        """The palette's terrain changed: the brush paints it, the legend shows it current."""
        brush = self.tools.get("terrain")
        if brush is not None and terrain is not None:
            brush.terrain = terrain  # type: ignore[attr-defined]
        self.window.legend.set_current(terrain)

    def choose_terrain(self, terrain: str) -> None:
        """A terrain picked (Picker tool, a Terrain Legend row): the paint terrain, brush in hand."""
        if self.palette is None:
            return
        i = self.palette.terrain.findData(terrain)
        if i >= 0:
            self.palette.terrain.setCurrentIndex(i)
        self._terrain_chosen(terrain)
        self.set_tool("terrain")

    def _picked(self, terrain: str) -> None:
        self.choose_terrain(terrain)
