"""MapMode: the default mode of the main window — editing the map with the tool palette.

It owns the map tools (terrain brush, hexside painter, selection, …) and the palette that picks
them, rebuilt for each document (the choices come from its game system). Entering shows the
Tools and Layers docks and takes the hand (pan) tool; leaving hides those docks. It has no View
toggle: unticking Scenario or Play mode comes back here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDockWidget, QLabel

from editor.docks import ToolPalette
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

    @property
    def docks(self) -> list[QDockWidget]:
        """This mode's own docks (View ▸ Panels enables them in this mode only)."""
        return [self.window.palette_dock, self.window.layers_dock]

    # --- Mode --------------------------------------------------------------------------------

    def document_set(self, document: "MapDocument") -> None:
        """New tools and palette: their terrain, hexside, path and feature choices are the system's."""
        system = document.system
        self.palette = ToolPalette(system)
        self.window.palette_dock.setWidget(self.palette)
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
        p.toolChosen.connect(self.set_tool)
        p.terrain.currentIndexChanged.connect(lambda _i: setattr(t["terrain"], "terrain", p.terrain.currentData()))
        p.radius.valueChanged.connect(lambda v: setattr(t["terrain"], "radius", v))
        p.fill.toggled.connect(lambda on: setattr(t["terrain"], "mode", "fill" if on else "brush"))
        p.hexside.currentIndexChanged.connect(lambda _i: setattr(t["hexside"], "kind", p.hexside.currentData()))
        p.path.currentIndexChanged.connect(lambda _i: setattr(t["path"], "kind", p.path.currentData()))
        p.feature.currentIndexChanged.connect(lambda _i: setattr(t["feature"], "kind", p.feature.currentData()))
        p.feature_label.textChanged.connect(lambda text: setattr(t["feature"], "label", text))
        # ToolPalette.depth (a spin box) shadows QWidget.depth() for the type checker.
        p.depth.valueChanged.connect(lambda v: setattr(t["portion"], "depth", v))  # type: ignore[attr-defined]
        p.select_mode.currentTextChanged.connect(lambda m: setattr(t["select"], "mode", m))
        self.set_tool("pan")

    def document_closed(self) -> None:
        """No tools without a map: an empty Tools dock until the next document."""
        self.tools = {}
        self.palette = None
        old = self.window.palette_dock.widget()
        self.window.palette_dock.setWidget(QLabel("No bundle open."))
        if old is not None:
            old.deleteLater()

    def enter(self) -> bool:
        w = self.window
        w.palette_dock.show()
        w.layers_dock.show()
        self.set_tool("pan")
        self.active = True
        return True

    def leave(self) -> None:
        w = self.window
        w.palette_dock.hide()
        w.layers_dock.hide()
        self.active = False

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
        if self.palette is not None and name in self.palette.buttons:
            self.palette.buttons[name].setChecked(True)

    def selection_tool(self) -> SelectionTool | None:
        """The terrain selection Edit ▸ Cut/Copy/Paste/Select All act on."""
        tool = self.tools.get("select")
        return tool if isinstance(tool, SelectionTool) else None

    def _picked(self, terrain: str) -> None:
        assert self.palette is not None
        i = self.palette.terrain.findData(terrain)
        if i >= 0:
            self.palette.terrain.setCurrentIndex(i)
        self.tools["terrain"].terrain = terrain  # type: ignore[attr-defined]
        self.set_tool("terrain")
