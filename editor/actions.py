"""Menu and toolbar actions as data (app-model style): one table, built into QActions.

Each row names the window method it triggers, so menus can be generated and tested
without hand-written wiring. ``shortcut`` is a QKeySequence.StandardKey name or a
portable key string.
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


LAYER_NAMES = ("grid", "labels", "hexsides", "paths", "features", "portions", "areas", "background")

ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec("file.new", "File", "&New Bundle…", "new_bundle", "New", toolbar=True,
               tip="Create a new game bundle (system, folder, map, labels, terrain) with a wizard"),
    ActionSpec("file.open", "File", "&Open…", "open_dialog", "Open", toolbar=True, tip="Open a game bundle"),
    ActionSpec("file.save", "File", "&Save", "save", "Save", toolbar=True, tip="Save every file of the bundle"),
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
    ActionSpec("view.zoom_in", "View", "Zoom &In", "zoom_in", "Ctrl+=", toolbar=True),
    ActionSpec("view.zoom_out", "View", "Zoom &Out", "zoom_out", "Ctrl+-", toolbar=True),
    ActionSpec("view.fit", "View", "&Fit Map", "fit", "Ctrl+0", toolbar=True),
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
