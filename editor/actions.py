"""Menu and toolbar actions as data (app-model style): one table, built into QActions.

Each row names the window method it triggers, so menus can be generated and tested
without hand-written wiring. ``shortcut`` is a QKeySequence.StandardKey name or a
portable key string. ``icon`` names the action's icon (editor/icons.py: a Qt standard
pixmap ``std:SP_…`` or an SVG of editor/icons/). Every toolbar action has one, and its tooltip
names its shortcut ("Open a game bundle (Ctrl+O)").

The map tools (Map mode) and the scenario tools (Scenario mode) are data too (:class:`ToolSpec`):
each is a checkable action with a single-key shortcut, like Tiled's or Photoshop's tools (B
brush, E eraser, I picker, M marquee selection, H hand). A single key never fires while a text
field has the focus (the field takes printable keys first), and each mode enables its own
tools only, so no two enabled actions share a shortcut (tests/editor/test_toolbar_icons.py).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ActionSpec:
    id: str
    menu: str  # "File", "Edit", "View", "Help" (or "" for toolbar-only)
    text: str
    slot: str  # MainWindow method name
    shortcut: str | None = None
    checkable: bool = False
    checked: bool = True
    toolbar: bool = False
    tip: str = ""
    separator_before: bool = False
    icon: str = ""


@dataclass(frozen=True)
class ToolSpec:
    """One map tool: ``id`` is the tool's name (``MapMode.tools``, ``ScenarioSelection.set_tool``)."""

    id: str
    text: str  # a verb phrase: the tooltip reads "Paint terrain (B)"
    shortcut: str
    icon: str
    tip: str = ""


# Map mode (editor/map_mode.py). Letters after the usual painting programs: B brush, E eraser,
# I eyedropper, M marquee, H hand, P pen (paths), U shape (portions); S side, F feature, C calibrate.
MAP_TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec("terrain", "Paint terrain", "B", "paint-terrain",
             "Paint the chosen terrain (brush radius; Flood fill fills the clicked region)"),
    ToolSpec("hexside", "Paint hexsides", "S", "hexside", "Click or drag along hexsides; the right button clears"),
    ToolSpec("path", "Draw path", "P", "path", "Click hex after hex, right-click to add the path (road, railroad…)"),
    ToolSpec("feature", "Place feature", "F", "feature", "Click places the chosen point feature; right-click removes the last one of that type"),
    ToolSpec("portion", "Mark impassable portion", "U", "portion",
             "Mark the part of a hex nearest the clicked side impassable"),
    ToolSpec("portion-polygon", "Draw portion polygon", "Shift+U", "portion-polygon",
             "Draw a free polygon as a hex's impassable portion"),
    ToolSpec("eraser", "Erase", "E", "eraser", "Click a hex to remove its features, portion, paths and hexside features (terrain stays)"),
    ToolSpec("picker", "Pick terrain", "I", "picker", "Take the clicked hex's terrain as the brush terrain"),
    ToolSpec("select", "Select hexes", "M", "select", "Rectangle or lasso selection: copy, cut, paste, drag to move"),
    ToolSpec("calibrate", "Calibrate background", "C", "calibrate",
             "Click hex centres on the background image and type their labels; right-click fits it"),
    ToolSpec("pan", "Pan", "H", "pan", "Drag to move the map (Space+drag and the middle button pan with any tool)"),
)

# Scenario mode (editor/scenario/mode.py): the tools its docks switch on, on its toolbar.
SCENARIO_TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec("setup", "Set up units", "V", "setup", "Click a stack to list it; drag a stack to another hex"),
    ToolSpec("zone", "Edit drop zone hexes", "Z", "zone",
             "Click or drag to add or remove hexes of the drop zone chosen in Drop Zones"),
    ToolSpec("overlay", "Edit beach overlay", "O", "overlay",
             "Click hexes (or gap hexsides) of the overlay chosen in Beach Overlays"),
    ToolSpec("los", "Check line of sight", "L", "check-los", "Drag from hex to hex; right-click a hex for its viewshed"),
)


LAYER_NAMES = ("grid", "labels", "hexsides", "paths", "features", "portions", "areas", "background")

ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec("file.new", "File", "&New Bundle…", "new_bundle", "New", toolbar=True, icon="std:SP_FileIcon",
               tip="Create a new game bundle (system, folder, map, labels, terrain) with a wizard"),
    ActionSpec("file.open", "File", "&Open…", "open_dialog", "Open", toolbar=True, icon="std:SP_DialogOpenButton", tip="Open a game bundle"),
    ActionSpec("file.save", "File", "&Save", "save", "Save", toolbar=True, icon="std:SP_DialogSaveButton", tip="Save every file of the bundle"),
    ActionSpec("file.save_as", "File", "Save &As…", "save_as", "SaveAs"),
    ActionSpec("file.revert", "File", "&Revert", "revert", None, tip="Reload from disk, dropping unsaved changes"),
    ActionSpec("file.close", "File", "&Close", "close_document", "Ctrl+W", separator_before=True,
               tip="Close the bundle (asks about unsaved changes); the window stays open"),
    ActionSpec("file.quit", "File", "&Quit", "close", "Quit", separator_before=True),
    ActionSpec("edit.cut", "Edit", "Cu&t", "cut", "Cut", separator_before=True),
    ActionSpec("edit.copy", "Edit", "&Copy", "copy", "Copy"),
    ActionSpec("edit.paste", "Edit", "&Paste", "paste", "Paste"),
    ActionSpec("edit.select_all", "Edit", "Select &All", "select_all", "SelectAll"),
    ActionSpec("edit.preferences", "Edit", "Pr&eferences…", "preferences", "Preferences", separator_before=True),
    ActionSpec("view.zoom_in", "View", "Zoom &In", "zoom_in", "Ctrl+=", toolbar=True, icon="zoom-in", tip="Zoom in"),
    ActionSpec("view.zoom_out", "View", "Zoom &Out", "zoom_out", "Ctrl+-", toolbar=True, icon="zoom-out", tip="Zoom out"),
    ActionSpec("view.fit", "View", "&Fit Map", "fit", "Ctrl+0", toolbar=True, icon="zoom-fit", tip="Fit the whole map in the view"),
    ActionSpec("view.actual", "View", "&100 %", "zoom_100", "Ctrl+1"),
    ActionSpec("file.load_background", "View", "Load &Background Image…", "load_background", None,
               separator_before=True, tip="Trace a scanned map under the grid"),
    ActionSpec("file.calibrate", "View", "&Calibrate Background…", "calibrate_background", None),
) + tuple(
    ActionSpec(f"view.layer.{name}", "View", f"Show {name.title()}", "toggle_layer", None, checkable=True,
               separator_before=(i == 0))
    for i, name in enumerate(LAYER_NAMES)
) + (
    ActionSpec("help.rules", "Help", "&Rule Reference", "rule_reference", "HelpContents",
               tip="The rulebook of the open game: its text, or at least its case titles"),
    ActionSpec("help.about", "Help", "&About Hexproof", "about", None),
)

MENUS = ("File", "Edit", "View", "Help")
