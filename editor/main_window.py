"""MainWindow: menus from the action table, toolbars, docks, status bar, safe files.

Safe files: "*" in the title while modified, a prompt on close, atomic save through
``Bundle.save`` (a failure shows an error and leaves the document modified), autosave of
dirty documents to a recovery folder (every N seconds and a few seconds after the last edit),
recovery offered on open from the copy's manifest (editor/recovery.py), and load diagnostics
shown with file:line:col in a non-modal dialog. Never overwrite without asking: New Bundle
never writes into a folder that holds anything; Save As into one that does asks first; a save over files that
changed on disk since they were read asks first and shows what changed; the bundle's files
are watched (editor/disk_watch.py) and a notice bar offers to reload.

Modes: the window owns its modes (Map, Scenario, Play: editor/modes.py) as peers. It tells every
mode of each new document, keeps exactly one active (:meth:`MainWindow.set_mode`, the View
toggles, Ctrl+E, Ctrl+P) and owns what every mode shares: the map view, the docks of the map,
and the live diagnostics (runner, dock, status-bar counts).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from PySide6.QtCore import QByteArray, QSettings, QSize, Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (QDockWidget, QFileDialog, QInputDialog, QLabel, QMainWindow, QMenu, QMessageBox,
                               QSizePolicy, QToolBar, QToolButton, QUndoView, QWidget)

from editor import recovery
from editor.actions import ACTIONS, LAYER_NAMES, MENUS, ActionSpec
from editor.commands import CalibrateBackground, ChangeProperty, SetBackground
from editor.diagnostics.live import LiveDiagnostics
from editor.dialogs import diagnostics_text, message_box
from editor.disk_state import DiskState, describe_target, read_file, semantic_summary
from editor.disk_watch import DEFAULT_DEBOUNCE_MS, DiskWatcher
from editor.docks import LayersPanel, PropertiesPanel
from editor.icons import decorate
from editor.document import MapDocument
from editor.map_mode import MapMode
from editor.map_view.scene import MapScene
from editor.map_view.view import MapView
from editor.modes import Mode, ModeSet
from editor.new_bundle_wizard import NewBundleWizard
from editor.play import PlayMode
from editor import preferences as prefs
from editor.preferences import PreferencesDialog
from editor.rule_reference import RuleReferenceDialog
from editor.scenario import ScenarioMode
from editor.terrain_legend import TerrainLegend
from editor.tools import SelectionTool
from model.diagnostics import Diagnostic, Severity
from model.hexes import Hex
from model.mapdata import Background, CalibrationPoint
from model.safefile import SafeFileError, commit_files

APP_NAME = "Hexproof"
MAX_RECENT = 8
AUTOSAVE_AFTER_EDIT_MS = 3000  # default of the "autosave/after_edit_ms" setting
LAYOUT_VERSION = 3  # of the saved per-mode dock layouts: a new version ignores the old ones (2: Terrain Legend,
# 3: the map keeps the room; the settings key carries the version too, so a 2 never starves the map again)
LAYOUTS_GROUP = f"layouts-v{LAYOUT_VERSION}"  # settings group of the per-mode layouts (older groups are ignored)
OLDER_LAYOUT_GROUPS = ("layouts",)  # where older versions saved theirs: read by none, removed by a reset
DEFAULT_SIZE = QSize(1280, 820)
# A mode's default dock sizes, as shares of the window (as Tiled and QGIS do: side panels narrow
# and tabbed, the map the rest). At 1280 × 800 the map keeps ~64 % of the width and over half the
# height in every mode (tests/editor/test_window_layout.py measures it).
LEFT_SHARE, LEFT_MIN = 0.15, 200  # of the width, and px: the left dock column (tools, order of battle)
RIGHT_SHARE, RIGHT_MIN = 0.2, 240  # the right one (properties: forms that need a little more)
BOTTOM_SHARE = 0.24  # of the height, for the bottom dock row


def _int_setting(settings: QSettings, key: str, default: int) -> int:
    try:
        return int(settings.value(key, default))  # type: ignore[call-overload]
    except (TypeError, ValueError):
        return default


class MainWindow(QMainWindow):
    def __init__(self, doc: MapDocument | None = None, autosave_seconds: int | None = None) -> None:
        super().__init__()
        self.doc: MapDocument | None = None
        self.scene: MapScene | None = None
        self.view: MapView | None = None
        self.dialogs: list[QMessageBox] = []  # kept so non-modal boxes live (and tests can read them)
        self.actions_by_id: dict[str, QAction] = {}
        self.settings = QSettings("Hexproof", "Hexproof")
        self.new_bundle_wizard: NewBundleWizard | None = None  # File ▸ New Bundle… while open
        self.rule_reference_dialog: RuleReferenceDialog | None = None  # Help ▸ Rule Reference (F1)
        self.preferences_dialog: PreferencesDialog | None = None  # Edit ▸ Preferences… while open
        self.load_diagnostics: list[Diagnostic] = []  # what the last open_path said
        self.hovered: Hex | None = None  # the hex under the pointer, described in the status bar
        self._show_placeholder()
        self.status_label = QLabel()
        self.statusBar().addPermanentWidget(self.status_label, 1)
        self.zoom_label = QLabel()
        self.statusBar().addPermanentWidget(self.zoom_label)
        self._build_actions()
        self._build_docks()
        self._build_diagnostics()
        self._build_modes()
        from editor.export.ui import install_export  # File ▸ Export, View ▸ Auto-Trace (editor/export/)

        self.export_ui = install_export(self)
        env = os.environ.get("HEXPROOF_AUTOSAVE_SECONDS")
        seconds = (autosave_seconds if autosave_seconds is not None else int(env) if env
                   else _int_setting(self.settings, "autosave/seconds", 120))  # Edit ▸ Preferences
        self.autosave_timer = QTimer(self)
        self.autosave_timer.setInterval(max(1, seconds) * 1000)
        self.autosave_timer.timeout.connect(self.autosave)
        self.autosave_timer.start()
        # …and a few seconds after the last edit (restarted by every undo-stack index change).
        self.autosave_after_edit = QTimer(self)
        self.autosave_after_edit.setSingleShot(True)
        self.autosave_after_edit.setInterval(max(0, _int_setting(self.settings, "autosave/after_edit_ms",
                                                                 AUTOSAVE_AFTER_EDIT_MS)))
        self.autosave_after_edit.timeout.connect(self.autosave)
        self.last_autosave: Path | None = None
        self.locked_by: recovery.LockHolder | None = None  # another Hexproof that has this bundle open
        self.recovery_offer: recovery.RecoveryCopy | None = None  # what ask_recover is asked about
        self.disk_watcher = DiskWatcher(self, _int_setting(self.settings, "files/watch_debounce_ms", DEFAULT_DEBOUNCE_MS))
        self.disk_watcher.changedOnDisk.connect(self._on_disk_changed)
        self.disk_changes: list[str] = []
        self._build_disk_notice()
        self.layouts: dict[str, QByteArray] = {}  # mode name → its dock layout (saveState)
        # The docks as built, before any saved layout: what Reset Panel Layouts goes back to.
        self._built_state: QByteArray = self.saveState(LAYOUT_VERSION)
        self._load_layouts()
        self._legend_sized = "map" in self.layouts  # a saved Map layout has the user's own split
        # Modes whose docks still need their default sizes (no saved layout): sized once the
        # window is laid out (resizeDocks on a window never shown skews the other modes).
        self._unsized: set[str] = {m.name for m in self.modes if m.name not in self.layouts}
        self._restore_layout(self.modes.active.name)
        self.fit_size(DEFAULT_SIZE)  # the default size, on this screen
        if doc is not None:
            self.set_document(doc)
        self._update_title()

    # --- construction ------------------------------------------------------------------------

    def _show_placeholder(self) -> None:
        """What the window shows with no bundle open (setCentralWidget deletes the map view)."""
        placeholder = QLabel("No bundle open. Use File ▸ Open or File ▸ New Bundle.")
        placeholder.setObjectName("no-bundle")
        placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setCentralWidget(placeholder)

    def _build_actions(self) -> None:
        menus = {name: self.menuBar().addMenu(f"&{name}") for name in MENUS}
        self.toolbar = self.addToolBar("Main")
        self.toolbar.setObjectName("main-toolbar")
        self.edit_menu = menus["Edit"]
        self.view_menu = menus["View"]
        self.recent_menu = menus["File"].addMenu("Open &Recent")
        for spec in ACTIONS:
            act = self._make_action(spec)
            menu = menus[spec.menu]
            if spec.separator_before:
                menu.addSeparator()
            menu.addAction(act)
            if spec.toolbar:
                self.toolbar.addAction(act)
        self._update_recent_menu()

    def _make_action(self, spec: ActionSpec) -> QAction:
        act = QAction(spec.text, self)
        act.setObjectName(spec.id)
        if spec.shortcut:
            std = getattr(QKeySequence.StandardKey, spec.shortcut, None)
            act.setShortcut(QKeySequence(std) if std is not None else QKeySequence(spec.shortcut))
        if spec.tip:
            act.setStatusTip(spec.tip)
            act.setToolTip(spec.tip)
        if spec.icon:
            decorate(act, spec.icon, spec.tip or None)  # the icon, and the shortcut in the tooltip
        if spec.checkable:
            act.setCheckable(True)
            act.setChecked(spec.checked)
            layer = spec.id.rsplit(".", 1)[-1]
            act.toggled.connect(lambda on, n=layer: self.toggle_layer(n, on))
        else:
            act.triggered.connect(lambda _=False, s=spec.slot: getattr(self, s)())
        self.actions_by_id[spec.id] = act
        return act

    def _build_docks(self) -> None:
        self.palette_dock = QDockWidget("Tools", self)
        self.palette_dock.setObjectName("tools-dock")
        self.layers_panel = LayersPanel(self.toggle_layer, self.set_layer_opacity)
        self.layers_dock = QDockWidget("Layers", self)
        self.layers_dock.setObjectName("layers-dock")
        self.layers_dock.setWidget(self.layers_panel)
        self.undo_view = QUndoView()
        self.undo_dock = QDockWidget("History", self)
        self.undo_dock.setObjectName("history-dock")
        self.undo_dock.setWidget(self.undo_view)
        self.props = PropertiesPanel(self.rename_map)
        self.props_dock = QDockWidget("Properties", self)
        self.props_dock.setObjectName("properties-dock")
        self.props_dock.setWidget(self.props)
        # The system's terrain with its swatches and counts: under the tools, as painting
        # programs put their palette (Map mode; editor/terrain_legend.py).
        self.legend = TerrainLegend()
        self.legend_dock = QDockWidget("Terrain Legend", self)
        self.legend_dock.setObjectName("terrain-legend-dock")
        self.legend_dock.setWidget(self.legend)
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.palette_dock)
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.legend_dock)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.props_dock)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.layers_dock)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.undo_dock)

    def _build_diagnostics(self) -> None:
        """Validation for every mode: the findings dock at the bottom, counts in the status bar."""
        self.diagnostics = LiveDiagnostics(self)
        self.diagnostics.panel.activated.connect(self.show_diagnostic)
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.diagnostics.dock)
        self.setCorner(Qt.Corner.BottomLeftCorner, Qt.DockWidgetArea.LeftDockWidgetArea)
        self.setCorner(Qt.Corner.BottomRightCorner, Qt.DockWidgetArea.RightDockWidgetArea)
        self.statusBar().addPermanentWidget(self.diagnostics.label)
        self.actions_by_id["view.diagnostics"] = self.diagnostics.toggle_action

    def _build_modes(self) -> None:
        """Map mode (the default), then Scenario and Play with their View toggles at the top of
        View (then Diagnostics) and on the toolbar. Play is built first: its toolbar break and
        docks come before Scenario's, as the window has always laid them out."""
        self.map_mode = MapMode(self)
        self.modes = ModeSet(self.map_mode)
        first = self.view_menu.actions()[0] if self.view_menu.actions() else None
        self._modes_end = self.view_menu.insertSeparator(first)  # type: ignore[arg-type]
        self.toolbar.addSeparator()
        self.play_mode = PlayMode(self)
        self.scenario_mode = ScenarioMode(self)
        for mode in (self.scenario_mode, self.play_mode):
            self.add_mode(mode)
        self.view_menu.insertAction(self._modes_end, self.diagnostics.toggle_action)
        # View ▸ Panels: every dock, shown or hidden, so a closed one always comes back.
        self.panels_menu = QMenu("&Panels", self)
        self.panels_menu.setObjectName("view.panels")
        self.panels_menu.aboutToShow.connect(self.update_panels_menu)
        self.view_menu.insertMenu(self._modes_end, self.panels_menu)
        self.update_panels_menu()

    def update_panels_menu(self) -> None:
        """One checkable entry per dock (its own toggle action), by title. A dock of a mode
        that is not active is listed disabled: its panel follows the document only in its mode."""
        for act in self.panels_menu.actions():
            self.panels_menu.removeAction(act)  # not clear(): the docks own these actions
        owned = {id(d): m for m in self.modes for d in getattr(m, "docks", [])}
        for dock in sorted(self.findChildren(QDockWidget), key=lambda d: d.windowTitle().lower()):
            act = dock.toggleViewAction()
            owner = owned.get(id(dock))
            act.setEnabled(owner is None or owner is self.modes.active)
            if owner is not None and owner is not self.modes.active:
                act.setStatusTip(f"{dock.windowTitle()}: a {owner.name.title()} mode panel")
            self.panels_menu.addAction(act)

    def add_mode(self, mode: Mode) -> None:
        """Make ``mode`` one of this window's: told of each document, switched to by its toggle."""
        self.modes.add(mode)
        if self.doc is not None:
            mode.document_set(self.doc)
        act = mode.action
        if act is not None:
            act.setCheckable(True)
            act.toggled.connect(lambda on, m=mode: self._mode_toggled(m, on))
            self.actions_by_id[act.objectName()] = act
            self.view_menu.insertAction(self._modes_end, act)
            self.toolbar.addAction(act)
            button = self.toolbar.widgetForAction(act)
            if isinstance(button, QToolButton):
                # A mode switch says its name: it changes the whole window, not one thing in it.
                button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)

    # --- modes ---------------------------------------------------------------------------------

    @property
    def active_mode(self) -> Mode:
        return self.modes.active

    def set_mode(self, mode: Mode | str) -> bool:
        """Leave the active mode and enter ``mode`` (or the mode of that name); True when it is
        active now. A mode that cannot enter (no bundle, a game that cannot start) leaves the
        window in the mode it was in.

        Each mode has its own dock layout: the one left is saved (``saveState``), the one
        entered is restored as the user last left it. A mode entered for the first time gets
        its own docks only (the Diagnostics dock only where the mode opens it: Scenario mode).
        The window keeps its size: showing docks never makes it grow."""
        target = self.modes.named(mode) if isinstance(mode, str) else mode
        old = self.modes.active
        size = self.size()
        if target is not old:
            self.layouts[old.name] = self.saveState(LAYOUT_VERSION)
            if target.name not in self.layouts:
                self.diagnostics.dock.hide()
        ok = self.modes.switch(target)
        if target is not old:
            self._restore_layout(self.modes.active.name)
            if size != self.size() and not (self.isMaximized() or self.isFullScreen()):
                self.resize(size)  # a mode's docks never make the window grow (nor shrink)
            self._size_default_docks()
            self.update_panels_menu()
        self._sync_mode_actions()
        return ok

    def _restore_layout(self, mode_name: str) -> None:
        state = self.layouts.get(mode_name)
        if state is None:
            return
        notice = self.disk_notice.isVisible()  # a toolbar too, but about the files, not the mode
        if not self.restoreState(state, LAYOUT_VERSION):
            # Not this version's (or unreadable): the mode's default layout instead.
            del self.layouts[mode_name]
            self._unsized.add(mode_name)
        self.disk_notice.setVisible(notice)
        self._hide_stale_tab_bars()

    def _hide_stale_tab_bars(self) -> None:
        """restoreState can leave the tab bar of another mode's tab group on screen (seen: a
        "Properties | History" bar over the Diagnostics dock in Scenario mode after Play mode).
        A dock-area tab bar is in use when one of its tabs is the current one of a dock shown in
        its place; the others are hidden (QMainWindow re-shows a bar when it uses it again)."""
        from PySide6.QtWidgets import QTabBar

        self.layout().activate()
        shown = [d for d in self.findChildren(QDockWidget) if d.isVisible() and not d.isFloating()]
        for bar in self.findChildren(QTabBar, options=Qt.FindChildOption.FindDirectChildrenOnly):
            if not bar.isVisible() or bar.count() == 0:
                continue
            g = bar.geometry()
            # In use: the dock of its current tab sits right above (or below) it, as wide as it.
            if not any(abs(d.geometry().left() - g.left()) <= 2 and abs(d.geometry().width() - g.width()) <= 2
                       and (abs(d.geometry().bottom() - g.top()) <= 4 or abs(g.bottom() - d.geometry().top()) <= 4)
                       for d in shown):
                bar.hide()

    def _size_default_docks(self) -> None:
        """The active mode's docks at their default sizes, once, if the mode has no saved layout
        and the window is laid out: the left and right columns ``LEFT_SHARE`` and ``RIGHT_SHARE`` of
        the width (at least ``LEFT_MIN``, ``RIGHT_MIN``), the bottom row ``BOTTOM_SHARE`` of the height; the map view gets the rest."""
        name = self.modes.active.name
        if name not in self._unsized or not self.isVisible():
            return
        self._unsized.discard(name)
        left = max(LEFT_MIN, round(self.width() * LEFT_SHARE))
        right = max(RIGHT_MIN, round(self.width() * RIGHT_SHARE))
        bottom = round(self.height() * BOTTOM_SHARE)
        area = Qt.DockWidgetArea
        for where, length, orientation in ((area.LeftDockWidgetArea, left, Qt.Orientation.Horizontal),
                                           (area.RightDockWidgetArea, right, Qt.Orientation.Horizontal),
                                           (area.BottomDockWidgetArea, bottom, Qt.Orientation.Vertical)):
            docks = [d for d in self.findChildren(QDockWidget)
                     if d.isVisible() and not d.isFloating() and self.dockWidgetArea(d) == where]
            if docks:
                self.resizeDocks(docks, [length] * len(docks), orientation)
        # …then the mode's own adjustments (Play mode: one wider column, split for its panels).
        own = getattr(self.modes.active, "default_dock_sizes", None)
        for docks, lengths, orientation in (own(self.width(), self.height()) if callable(own) else ()):
            self.resizeDocks(docks, lengths, orientation)

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        QTimer.singleShot(0, self._size_default_docks)  # after the first layout

    def _load_layouts(self) -> None:
        """The per-mode dock layouts of the last session (``LAYOUTS_GROUP/<mode>`` settings);
        layouts saved by an older version, under an older group, are not read."""
        self.settings.beginGroup(LAYOUTS_GROUP)
        for key in self.settings.childKeys():
            value = self.settings.value(key)
            if isinstance(value, QByteArray) and not value.isEmpty():
                self.layouts[key] = value
        self.settings.endGroup()

    def _save_layouts(self) -> None:
        self.layouts[self.modes.active.name] = self.saveState(LAYOUT_VERSION)
        for name, state in self.layouts.items():
            self.settings.setValue(f"{LAYOUTS_GROUP}/{name}", state)

    def fit_size(self, size: QSize) -> None:
        """Resize to ``size`` made no larger than the screen's available geometry (less the
        frame) nor smaller than the window's minimum: the default size on a small screen."""
        screen = self.screen()
        if screen is not None:
            avail = screen.availableGeometry()
            frame_w = max(0, self.frameGeometry().width() - self.width())
            frame_h = max(0, self.frameGeometry().height() - self.height())
            size = QSize(min(size.width(), avail.width() - frame_w), min(size.height(), avail.height() - frame_h))
        if size != self.size():
            self.resize(size)

    def _mode_toggled(self, mode: Mode, on: bool) -> None:
        if on:
            self.set_mode(mode)
        elif mode is self.modes.active:
            self.set_mode(self.modes.default)  # unticking the active mode's toggle: back to the map
        else:
            self._sync_mode_actions()

    def _sync_mode_actions(self) -> None:
        """Exactly the active mode's toggle is ticked (no signals: this is not a user's choice)."""
        for m in self.modes:
            act = m.action
            if act is not None and act.isChecked() != (m is self.modes.active):
                act.blockSignals(True)
                act.setChecked(m is self.modes.active)
                act.blockSignals(False)

    def show_diagnostic(self, d: Diagnostic) -> None:
        """A finding clicked in the diagnostics dock: the first mode (the active one first) that
        knows how reveals it; if none does, the map is centred on its hexes."""
        if not any(m.show_diagnostic(d) for m in self.modes.diagnostic_handlers()):
            self._centre_on(d)
        self.statusBar().showMessage(d.render(), 8000)

    def _centre_on(self, d: Diagnostic) -> None:
        if self.doc is None or self.view is None:
            return
        for label in d.location.hexes:
            try:
                self.view.center_on_hex(self.doc.hmap.parse(label))
                return
            except ValueError:
                continue

    def _build_disk_notice(self) -> None:
        """A non-modal bar under the toolbar: "files changed on disk" with Reload / Show Changes."""
        bar = QToolBar("Changed on disk", self)
        bar.setObjectName("disk-notice")
        bar.setMovable(False)
        self.addToolBarBreak()
        self.addToolBar(Qt.ToolBarArea.TopToolBarArea, bar)
        # An information-bar look (like an IDE's "file changed" banner): the message takes
        # the width and the actions sit at its right, instead of a wrapped sliver of text.
        bar.setStyleSheet("QToolBar#disk-notice { background: #fff3cd; border-bottom: 1px solid #e0c36c; }")
        self.disk_notice_label = QLabel()
        self.disk_notice_label.setWordWrap(False)
        self.disk_notice_label.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.disk_notice_label.setContentsMargins(6, 2, 6, 2)
        bar.addWidget(self.disk_notice_label)
        self.disk_notice_reload = bar.addAction("Reload", self.reload_from_disk)
        self.disk_notice_reload.setObjectName("disk-notice.reload")
        self.disk_notice_show = bar.addAction("Show Changes", self.show_disk_changes)
        self.disk_notice_show.setObjectName("disk-notice.show")
        dismiss = bar.addAction("Dismiss", bar.hide)
        dismiss.setObjectName("disk-notice.dismiss")
        bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        for act, name, tip in ((self.disk_notice_reload, "std:SP_BrowserReload", "Reload the files from disk"),
                               (self.disk_notice_show, "std:SP_FileDialogContentsView", "Show what changed on disk"),
                               (dismiss, "std:SP_DialogCloseButton", "Hide this notice")):
            decorate(act, name, tip)
        bar.hide()
        self.disk_notice = bar

    # --- document ------------------------------------------------------------------------------

    def set_document(self, doc: MapDocument) -> None:
        old = self.doc
        # Back to Map mode before the old scene and bundle go: Scenario and Play mode take
        # their layers off the old scene and let go of the old bundle's game.
        self.set_mode(self.modes.default)
        self.doc = doc
        doc.setParent(self)
        doc.modifiedChanged.connect(self._update_title)
        doc.pathChanged.connect(lambda _p: self._update_title())
        self.scene = MapScene(doc)
        self.view = MapView(self.scene)
        self.view.hexHovered.connect(self._on_hover)
        self.view.zoomChanged.connect(self._show_zoom)
        self.setCentralWidget(self.view)
        self.scene.set_label_scale(prefs.read(self.settings, prefs.LABEL_PERCENT) / 100)  # Edit ▸ Preferences
        # The status bar is about this map now: no hover hex of the old one, its own zoom.
        self._on_hover(None)
        self._show_zoom(self.view.zoom)
        self.undo_view.setStack(doc.undo_stack)
        for name in ("undo", "redo"):
            act = self.actions_by_id.get(f"edit.{name}")
            if act is not None:
                self.edit_menu.removeAction(act)
        undo = doc.undo_stack.createUndoAction(self, "&Undo")
        undo.setShortcut(QKeySequence.StandardKey.Undo)
        redo = doc.undo_stack.createRedoAction(self, "&Redo")
        redo.setShortcut(QKeySequence.StandardKey.Redo)
        first = self.edit_menu.actions()[0] if self.edit_menu.actions() else None
        self.edit_menu.insertActions(first, [undo, redo])  # type: ignore[arg-type]
        self.actions_by_id["edit.undo"], self.actions_by_id["edit.redo"] = undo, redo
        self.props.map_id.setText(doc.hmap.id)
        self.props.name.setText(doc.hmap.name)
        self.props.system.setText(f"{doc.system.name} ({doc.system.id})")
        cols, rows = doc.hmap.size()
        self.props.size.setText(f"{cols} × {rows} ({len(doc.hmap.hexes())} hexes)")
        self.props.attach(doc, self.view)  # provenance, selected hex (docks.py)
        doc.changed.connect(self._on_doc_changed)
        doc.undo_stack.indexChanged.connect(self._on_edit)
        self.autosave_after_edit.stop()
        if old is not None and Path(old.path).resolve() != Path(doc.path).resolve():
            self._release(old.path)
        self._take_lock(doc.path)
        self.disk_watcher.watch(doc)
        self.disk_changes = []
        self.disk_notice.hide()
        self._add_recent(str(doc.path))
        self._update_title()
        self.modes.document_set(doc)  # every mode, in no promised order; Map mode builds its tools
        if not self._legend_sized:
            QTimer.singleShot(0, self._size_legend)
        self.diagnostics.document_set(doc)
        if old is not None:
            old.deleteLater()

    def _size_legend(self) -> None:
        """Once, when the window has been laid out in Map mode: the legend under the tools gets
        room for a system's terrain list (~12 rows). Not earlier: resizeDocks on a window never
        laid out skews the layouts of the other modes (the map squeezed to a sliver in Play)."""
        if self._legend_sized or not self.isVisible() or not self.legend_dock.isVisible():
            return
        self._legend_sized = True
        self.resizeDocks([self.palette_dock, self.legend_dock], [460, 300], Qt.Orientation.Vertical)

    def _on_doc_changed(self, _change: object) -> None:
        if self.doc is not None and not self.props.name.hasFocus():
            self.props.name.setText(self.doc.hmap.name)
        self._on_hover(self.hovered)  # an edit or undo may have changed the hex under the pointer

    def _show_zoom(self, zoom: float) -> None:
        self.zoom_label.setText(f"{zoom * 100:.0f} %")

    def _on_hover(self, h: Hex | None) -> None:
        self.hovered = h if self.doc is not None and h is not None and self.doc.hmap.contains(h) else None
        if h is None or self.doc is None or self.hovered is None:
            self.status_label.setText("")
            self.props.hex_info.setText("")
            return
        hmap = self.doc.hmap
        parts = [hmap.label(h), hmap.terrain_at(h) or "?"]
        parts += [f.name or f.type for f in hmap.features_by_hex.get(h, ())]
        parts += [p.type for p in hmap.paths_by_hex.get(h, ())]
        sides = {k for d in range(6) for k in hmap.hexside_features(_key(h, d))}
        parts += sorted(sides)
        if h in hmap.portion_by_hex:
            parts.append("impassable portion")
        text = " · ".join(parts)
        self.status_label.setText(text)
        self.props.hex_info.setText(text)

    def _update_title(self, *_: object) -> None:
        if self.doc is None:
            self.setWindowTitle(APP_NAME)
            return
        star = "*" if self.doc.is_modified else ""
        self.setWindowTitle(f"{self.doc.bundle.game.name} — {self.doc.path}{star} — {APP_NAME}")

    # --- messages --------------------------------------------------------------------------

    def message(self, icon: QMessageBox.Icon, title: str, text: str, details: str | None = None) -> QMessageBox:
        box = message_box(self, icon, title, text, details)
        self.dialogs.append(box)
        return box

    def ask_save(self) -> QMessageBox.StandardButton:
        """Save / Discard / Cancel for unsaved changes (tests patch this)."""
        return QMessageBox.question(self, APP_NAME, "The document has unsaved changes. Save them?",
                                    QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
                                    | QMessageBox.StandardButton.Cancel)

    def ask_restart(self, scenario: str, actions: int) -> bool:
        """Whether to throw away a game with ``actions`` played and start ``scenario`` from its
        setup; Cancel is the default (tests patch this)."""
        box = QMessageBox(QMessageBox.Icon.Warning, APP_NAME, f"Restart {scenario} from its setup?",
                          QMessageBox.StandardButton.NoButton, self)
        box.setInformativeText(f"The game in progress ({actions} action{'s' if actions != 1 else ''} played) "
                               "is lost: a restart cannot be undone.")
        restart = box.addButton("Restart", QMessageBox.ButtonRole.DestructiveRole)
        cancel = box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(cancel)
        box.setEscapeButton(cancel)
        box.exec()
        return box.clickedButton() is restart

    def ask_label(self) -> str | None:
        """The printed label of the hex centre just clicked on the background (tests patch this)."""
        text, ok = QInputDialog.getText(self, "Calibrate", "Printed label of this hex centre (e.g. 28.048):")
        return text.strip() if ok and text.strip() else None

    def ask_recover(self, path: Path) -> bool:
        """Whether to load the autosaved copy described by :attr:`recovery_offer` (tests patch this)."""
        offer = self.recovery_offer
        box = QMessageBox(QMessageBox.Icon.Question, APP_NAME, f"Recover unsaved edits of {path}?",
                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, self)
        if offer is not None:
            box.setInformativeText(offer.describe())
            box.setDetailedText(offer.summary)
        box.setDefaultButton(QMessageBox.StandardButton.Yes)
        return box.exec() == QMessageBox.StandardButton.Yes

    def _choose(self, text: str, informative: str, choices: list[tuple[str, QMessageBox.ButtonRole, str]],
                detailed: str | None = None) -> str:
        """A warning with ``choices`` (label, role, answer) and Cancel, the default: the answer."""
        box = QMessageBox(QMessageBox.Icon.Warning, APP_NAME, text, QMessageBox.StandardButton.NoButton, self)
        box.setInformativeText(informative)
        if detailed:
            box.setDetailedText(detailed)
        buttons = {box.addButton(label, role): answer for label, role, answer in choices}
        cancel = box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(cancel)
        box.setEscapeButton(cancel)
        box.exec()
        return buttons.get(box.clickedButton(), "cancel")

    def ask_replace(self, folder: Path, what: str) -> str:
        """Writing into ``folder`` would replace ``what``: "replace", "other" (pick another folder)
        or "cancel" — the default (tests patch this)."""
        return self._choose(f"{folder} is not empty.", what, [
            ("Replace", QMessageBox.ButtonRole.DestructiveRole, "replace"),
            ("Choose Another Folder…", QMessageBox.ButtonRole.ActionRole, "other")])

    def ask_folder(self, title: str, start: Path | None = None) -> str | None:
        """An existing or new folder (tests patch this)."""
        folder = QFileDialog.getExistingDirectory(self, title, str(start or ""))
        return folder or None

    def ask_save_as_folder(self) -> str | None:
        """Save As target: a folder to pick, or a new folder name to type (tests patch this)."""
        dlg = QFileDialog(self, "Save bundle as — pick a folder or type a new folder name")
        dlg.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dlg.setFileMode(QFileDialog.FileMode.AnyFile)  # a name that does not exist yet is allowed
        dlg.setOption(QFileDialog.Option.DontConfirmOverwrite, True)  # the window asks, naming the bundle
        dlg.setLabelText(QFileDialog.DialogLabel.FileName, "Folder")
        dlg.setLabelText(QFileDialog.DialogLabel.Accept, "Save Here")
        if self.doc is not None:
            dlg.setDirectory(str(Path(self.doc.path).parent))
        if dlg.exec() and dlg.selectedFiles():
            return dlg.selectedFiles()[0]
        return None

    def ask_overwrite(self, files: list[str], summary: str) -> str:
        """Files changed on disk since they were read: "overwrite", "reload" (discard my edits)
        or "cancel" — the default (tests patch this)."""
        return self._choose(
            "These files changed on disk since Hexproof read or saved them:\n  " + "\n  ".join(files),
            "Overwrite them with your version, reload the files from disk (your unsaved "
            "edits are lost), or cancel the save?\n\n" + summary[:1500],
            [("Overwrite", QMessageBox.ButtonRole.DestructiveRole, "overwrite"),
             ("Reload (Discard My Edits)", QMessageBox.ButtonRole.ResetRole, "reload")], detailed=summary)

    # --- File ----------------------------------------------------------------------------

    def open_path(self, path: str | Path) -> bool:
        """Open a bundle; on failure show the diagnostics and keep the current document.

        A recovery copy (editor/recovery.py) is offered when its manifest says it holds edits
        the saved files do not have, unless another live Hexproof has the bundle open. A copy
        that is broken or does not load is named in a message and set aside; the saved
        bundle opens."""
        path = Path(path)
        from model.bundle import find_bundle_root

        root, _ = find_bundle_root(path)
        copy: recovery.RecoveryCopy | None = None
        if root is not None and recovery.live_holder(root) is None:
            copy = recovery.find_copy(root)
        doc, diags = MapDocument.open(path, self)
        self.load_diagnostics = list(diags)  # what the last open said (``hexproof edit --screenshot`` prints it)
        if copy is not None and copy.broken:
            moved = recovery.set_aside(copy)
            self.message(QMessageBox.Icon.Warning, "Recovery copy cannot be used",
                         f"The autosaved recovery copy {copy.path} of {root} is incomplete or damaged and was not "
                         f"used; it was moved to {moved}. The saved bundle opens instead.", "\n".join(copy.problems))
            copy = None
        recovered: MapDocument | None = None
        if copy is not None and root is not None:
            rdoc, rdiags = MapDocument.open(copy.path, self)
            if rdoc is None:
                moved = recovery.set_aside(copy)
                self.message(QMessageBox.Icon.Warning, "Recovery copy cannot be loaded",
                             f"The autosaved recovery copy {copy.path} of {root} could not be loaded and was not "
                             f"used; it was moved to {moved}. The saved bundle opens instead.",
                             diagnostics_text(rdiags) or "unknown error")
            else:
                copy.summary = semantic_summary(doc.bundle if doc is not None else None, rdoc.bundle,
                                                old_name="the saved files", new_name="the recovery copy")
                self.recovery_offer = copy
                try:
                    accepted = self.ask_recover(root)
                finally:
                    self.recovery_offer = None
                if accepted:
                    recovered, diags = rdoc, rdiags
                else:
                    rdoc.deleteLater()
        if recovered is not None and root is not None and copy is not None:
            if doc is not None:
                doc.deleteLater()
            doc = recovered
            doc.bundle.rebase(root)  # saves patch the user's files, not the copy's
            if copy.changed_since:
                # The edits were based on older files: saving must ask before replacing the new ones.
                doc.disk = DiskState.from_hashes(root, copy.based_on)
            else:
                doc.record_disk_state()
            doc.undo_stack.resetClean()  # recovered edits are unsaved until the user saves
        if doc is None:
            self.message(QMessageBox.Icon.Critical, "Cannot open bundle",
                         f"{path} could not be opened:", diagnostics_text(diags) or "unknown error")
            return False
        if diags:
            errors = [d for d in diags if d.severity >= Severity.ERROR]
            self.message(QMessageBox.Icon.Warning if errors else QMessageBox.Icon.Information,
                         "Problems while loading", f"{len(diags)} problem(s) in {path}:", diagnostics_text(diags))
        self.set_document(doc)
        if recovered is not None:
            self.autosave()  # the recovered edits are this session's now: keep them safe at once
            if copy is not None and copy.changed_since:
                self.disk_watcher.check()  # show the notice now: the bundle changed after the copy
        return True

    def close_document(self) -> bool:
        """File ▸ Close (Ctrl+W): close the bundle, asking about unsaved changes first (Cancel
        keeps it open: False). The window stays, in Map mode, with nothing of the old bundle
        on show: no map, no findings, no panels, no undo history, no lock, no file watch."""
        doc = self.doc
        if doc is None:
            return True
        if not self.maybe_save():
            return False
        self.set_mode(self.modes.default)
        self.autosave_after_edit.stop()
        if not doc.is_modified:
            self._discard_recovery()
        self._release(doc.path)
        self.disk_watcher.watch(None)
        self.disk_changes = []
        self.disk_notice.hide()
        self.modes.document_closed()
        self.diagnostics.document_closed()
        self.undo_view.setStack(None)  # type: ignore[arg-type]
        for name in ("undo", "redo"):
            act = self.actions_by_id.pop(f"edit.{name}", None)
            if act is not None:
                self.edit_menu.removeAction(act)
                act.deleteLater()
        self.props.detach()
        self.doc, self.scene, self.view, self.hovered = None, None, None, None
        self._show_placeholder()
        self.status_label.setText("")
        self.zoom_label.setText("")
        self._update_title()
        doc.deleteLater()
        self.statusBar().showMessage(f"Closed {doc.path}", 4000)
        return True

    def open_dialog(self) -> None:
        if not self.maybe_save():
            return
        folder = QFileDialog.getExistingDirectory(self, "Open game bundle", str(self.start_folder() or ""))
        if folder:
            self.open_path(folder)

    def _confirm_target(self, folder: Path, new_files: list[str], purpose: str) -> Path | None:
        """``folder``, or another one the user picked, once writing there replaces nothing the
        user did not agree to; None when they cancel."""
        current = self.doc.path if self.doc is not None else None
        while True:
            what = describe_target(folder, new_files, current_root=current)
            if what is None:
                return folder
            answer = self.ask_replace(folder, what)
            if answer == "replace":
                return folder
            if answer != "other":
                return None
            picked = self.ask_folder(f"{purpose}: choose another folder", folder.parent)
            if not picked:
                return None
            folder = Path(picked).resolve()

    def new_bundle(self) -> NewBundleWizard:
        """File ▸ New Bundle…: the wizard (editor/new_bundle_wizard.py), window-modal but not
        blocking. Finish asks about unsaved changes here (:meth:`maybe_save`) before anything
        is written, then the new bundle opens through :meth:`open_path`."""
        old = self.new_bundle_wizard
        if old is not None:
            if old.isVisible():
                old.raise_()  # one New Bundle wizard at a time
                old.activateWindow()
                return old
            old.deleteLater()
        remembered = self.settings.value("new_bundle/parent_folder")
        start = Path(str(remembered)) if remembered and Path(str(remembered)).is_dir() else None
        if start is None:
            start = self.start_folder()
        self.new_bundle_wizard = NewBundleWizard(self, start, self.maybe_save)
        self.new_bundle_wizard.created.connect(self._open_new_bundle)
        self.new_bundle_wizard.open()
        return self.new_bundle_wizard

    def _open_new_bundle(self, root: Path) -> None:
        self.settings.setValue("new_bundle/parent_folder", str(root.parent))
        if self.open_path(root):
            self.statusBar().showMessage(f"Created {root}", 5000)

    def _check_disk_before_save(self) -> list[str] | None:
        """The files to write back over another program's changes ([] when nothing changed on
        disk), or None when the save must not go ahead."""
        assert self.doc is not None
        changed = self.doc.changed_on_disk()
        if not changed:
            return []
        answer = self.ask_overwrite(changed, self.disk_change_summary())
        if answer == "overwrite":
            return changed
        if answer == "reload":
            self.reload_from_disk()
        return None

    def disk_change_summary(self) -> str:
        """What changed on disk, semantically: the files as last read or saved → the files now.

        When only hashes were recorded (a recovered document), the comparison is with the
        document in memory instead, and the text says so."""
        assert self.doc is not None
        from model.bundle import load_bundle

        now = load_bundle(self.doc.path)
        base = self.doc.disk.load() if self.doc.disk.has_bytes else None
        if base is not None and base.bundle is not None:
            text = semantic_summary(base.bundle, now.bundle, old_name="the files as Hexproof last read or saved them",
                                    new_name="the files on disk now")
        else:
            text = semantic_summary(self.doc.bundle, now.bundle, old_name="your version (with its unsaved edits)",
                                    new_name="the files on disk now")
        if now.bundle is None:
            text += "\n" + diagnostics_text(now.diagnostics)
        return text

    def save(self) -> bool:
        if self.doc is None:
            return False
        overwrite = self._check_disk_before_save()
        if overwrite is None:
            return False
        try:
            self.doc.save(overwrite=overwrite)
        except (OSError, SafeFileError) as exc:
            self.message(QMessageBox.Icon.Critical, "Save failed",
                         f"Could not save {self.doc.path}: {exc}. Your changes are still open and unsaved.")
            return False
        self._discard_recovery()
        self.disk_notice.hide()
        self.statusBar().showMessage(f"Saved {self.doc.path}", 3000)
        return True

    def save_as(self) -> bool:
        if self.doc is None:
            return False
        picked = self.ask_save_as_folder()
        if not picked:
            return False
        old_root = Path(self.doc.path)
        folder = Path(picked).expanduser().resolve()
        if folder == old_root.resolve():
            return self.save()
        chosen = self._confirm_target(folder, self.doc.bundle_files(), "Save As")
        if chosen is None:
            return False
        if chosen == old_root.resolve():
            return self.save()
        try:
            chosen.mkdir(parents=True, exist_ok=True)  # a new folder name typed in the dialog
            self.doc.save(chosen)
        except (OSError, SafeFileError) as exc:
            self.message(QMessageBox.Icon.Critical, "Save failed", f"Could not save into {chosen}: {exc}")
            return False
        self._release(old_root)
        self._take_lock(chosen)
        self.disk_watcher.watch(self.doc)
        self.disk_notice.hide()
        self._add_recent(str(chosen))
        self.statusBar().showMessage(f"Saved {chosen}", 3000)
        return True

    def revert(self) -> None:
        if self.doc is None:
            return
        doc, diags = MapDocument.open(self.doc.path, self)
        if doc is None:
            self.message(QMessageBox.Icon.Critical, "Revert failed", "The saved files cannot be read:",
                         diagnostics_text(diags))
            return
        self.set_document(doc)

    def reload_from_disk(self) -> None:
        """Open the files as they are on disk now, dropping unsaved edits (and their recovery copy)."""
        if self.doc is None:
            return
        doc, diags = MapDocument.open(self.doc.path, self)
        if doc is None:
            self.message(QMessageBox.Icon.Critical, "Reload failed", f"{self.doc.path} cannot be read as it is now; "
                         "your version stays open.", diagnostics_text(diags))
            return
        self._discard_recovery()
        self.set_document(doc)
        self.statusBar().showMessage(f"Reloaded {doc.path} from disk", 5000)

    def _on_disk_changed(self, files: list[str]) -> None:
        self.disk_changes = list(files)
        if not files or self.doc is None:
            self.disk_notice.hide()
            return
        # One line: at most three names (the bar must not widen the window); all in the tooltip.
        names = ", ".join(files[:3]) + (f" and {len(files) - 3} more" if len(files) > 3 else "")
        if self.doc.is_modified:
            text = (f"Changed on disk by another program: {names}. You have unsaved edits; saving will ask "
                    "before overwriting those files.")
            self.disk_notice_reload.setText("Reload (Discard My Edits)")
        else:
            text = f"Changed on disk by another program: {names}. Reload to see the new version."
            self.disk_notice_reload.setText("Reload")
        self.disk_notice_label.setText(text)
        self.disk_notice_label.setToolTip("Changed on disk:\n" + "\n".join(files))
        self.disk_notice.show()

    def show_disk_changes(self) -> None:
        if self.doc is None:
            return
        changed = self.doc.changed_on_disk()
        self.message(QMessageBox.Icon.Information, "Changed on disk",
                     "Files changed on disk: " + (", ".join(changed) or "none (any more)"), self.disk_change_summary())

    def maybe_save(self) -> bool:
        """True when it is fine to drop the current document (Discard also drops its recovery copy)."""
        if self.doc is None or not self.doc.is_modified:
            return True
        answer = self.ask_save()
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        if answer == QMessageBox.StandardButton.Discard:
            self.autosave_after_edit.stop()
            self._discard_recovery()
            return True
        return False

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.maybe_save():
            self._save_layouts()
            self.autosave_after_edit.stop()
            self.autosave_timer.stop()
            if self.doc is not None:
                if not self.doc.is_modified:
                    self._discard_recovery()
                self._release(self.doc.path)
                self.disk_watcher.watch(None)
            event.accept()
        else:
            event.ignore()

    # --- recovery -----------------------------------------------------------------------

    def _take_lock(self, root: Path) -> None:
        self.locked_by = recovery.acquire_lock(root)
        if self.locked_by is not None:
            self.message(QMessageBox.Icon.Information, "Bundle open elsewhere",
                         f"{root} is also open in {self.locked_by.describe()}. Its autosaved copy is not offered "
                         "here, and this window does not autosave this bundle. If no other Hexproof is running, "
                         f"delete {self.locked_by.path}.")

    def _release(self, root: Path) -> None:
        if self.locked_by is None:
            recovery.release_lock(root)
        self.locked_by = None

    def _discard_recovery(self) -> None:
        """Drop this document's recovery copy (never one that another live editor owns)."""
        if self.doc is not None and self.locked_by is None:
            recovery.discard(self.doc.path)

    def _on_edit(self, _index: int) -> None:
        if self.doc is None:
            return
        if self.doc.is_modified:
            self.autosave_after_edit.start()  # restarted by every edit: runs once the edits pause
        else:
            self.autosave_after_edit.stop()
            self._discard_recovery()  # back at the saved state: nothing to recover

    def autosave(self) -> Path | None:
        """Write a dirty document to its recovery folder (never over the user's files).

        The copy is built in a temporary folder and renamed into place, with a manifest of the
        bundle files it is based on (editor/recovery.py)."""
        doc = self.doc
        if doc is None or not doc.is_modified:
            return None
        if self.locked_by is not None:
            self.statusBar().showMessage(f"Not autosaved: {doc.path} is open in {self.locked_by.describe()}", 5000)
            return None
        root = Path(doc.path)

        def build(dest: Path) -> None:
            # What the edits are based on (the recorded bytes), so files the save leaves alone
            # (a local system file) are there and the copy loads on its own…
            base = doc.disk.files if doc.disk.has_bytes else {rel: read_file(root, rel) for rel in doc.bundle_files()}
            present = {Path(rel): data for rel, data in base.items() if data is not None}
            if present:
                commit_files(dest, present)
            # …then the document itself, as Save would write it.
            doc.bundle.save(dest)
            missing = {Path(p.relative_to(root)): text.encode("utf-8") for p, text in doc.bundle.dump_files().items()
                       if not (dest / p.relative_to(root)).exists()}
            if missing:
                commit_files(dest, missing)

        try:
            rdir = recovery.write_copy(root, build, doc.disk.hashes)
        except (OSError, SafeFileError) as exc:
            self.statusBar().showMessage(f"Autosave failed: {exc}", 5000)
            return None
        self.last_autosave = rdir
        return rdir

    def _add_recent(self, path: str) -> None:
        recent = [p for p in (self.settings.value("recent", []) or []) if p != path]
        self.settings.setValue("recent", [path] + recent[: MAX_RECENT - 1])
        self._update_recent_menu()

    def _update_recent_menu(self) -> None:
        self.recent_menu.clear()
        for p in self.settings.value("recent", []) or []:
            act = self.recent_menu.addAction(str(p))
            act.triggered.connect(lambda _=False, path=p: self.maybe_save() and self.open_path(path))

    # --- Edit ----------------------------------------------------------------------------

    def _selection(self) -> SelectionTool | None:
        return self.map_mode.selection_tool() if self.doc is not None else None

    def _fill_terrain(self) -> str:
        assert self.doc is not None
        return self.doc.system.terrain[0].id

    def copy(self) -> None:
        sel = self._selection()
        if sel is not None and self.doc is not None:
            sel.copy(self.doc)

    def cut(self) -> None:
        sel = self._selection()
        if sel is not None and self.doc is not None:
            sel.cut(self.doc, self._fill_terrain())

    def paste(self) -> None:
        sel = self._selection()
        if sel is None or self.doc is None or self.view is None:
            return
        pos = self.view.mapFromGlobal(self.view.cursor().pos())
        sel.paste(self.doc, self.view.hex_at_view(pos))

    def select_all(self) -> None:
        sel = self._selection()
        if sel is not None and self.view is not None:
            sel.select_all(self.view)

    def start_folder(self) -> Path | None:
        """Where a file dialog starts when it has no better place: the open bundle's parent
        folder, else the Preferences' default folder (if it still exists)."""
        if self.doc is not None:
            return Path(self.doc.path).parent
        folder = prefs.read(self.settings, prefs.DEFAULT_FOLDER)
        return Path(folder) if folder and Path(folder).is_dir() else None

    def proof_options(self) -> dict[str, Any]:
        """The print scale and paper of File ▸ Export ▸ Proof PDF (Edit ▸ Preferences, in mm)."""
        return {"hex_mm": prefs.read(self.settings, prefs.HEX_MM),
                "counter_mm": prefs.read(self.settings, prefs.COUNTER_MM),
                "page": prefs.read(self.settings, prefs.PAGE)}

    def preferences(self) -> PreferencesDialog:
        """Edit ▸ Preferences…: autosave, the file watch's delay, the default folder, units and
        proof scale, label font size, rulebook locations, Reset Panel Layouts
        (editor/preferences.py); window-modal, not blocking."""
        current = {"autosave/seconds": self.autosave_timer.interval() // 1000,
                   "autosave/after_edit_ms": self.autosave_after_edit.interval(),
                   "files/watch_debounce_ms": self.disk_watcher.timer.interval()}
        systems = (self.doc.system.id,) if self.doc is not None else ()
        dialog = PreferencesDialog(self.settings, current, self, systems=systems)
        dialog.applied.connect(self._apply_preferences)
        dialog.resetLayouts.connect(self.reset_layouts)
        # Each opening builds a fresh dialog (it reads the settings as they are now); a closed
        # one is deleted, not kept as a child of the window for the rest of the session.
        dialog.finished.connect(lambda _result: self._forget_preferences(dialog))
        dialog.open()
        self.preferences_dialog = dialog
        return dialog

    def _forget_preferences(self, dialog: PreferencesDialog) -> None:
        if self.preferences_dialog is dialog:
            self.preferences_dialog = None
        dialog.deleteLater()

    def _apply_preferences(self, values: dict[str, Any]) -> None:
        self.autosave_timer.setInterval(max(1, values["autosave/seconds"]) * 1000)
        self.autosave_after_edit.setInterval(max(0, values["autosave/after_edit_ms"]))
        self.disk_watcher.timer.setInterval(max(0, values["files/watch_debounce_ms"]))
        if self.scene is not None:
            self.scene.set_label_scale(values[prefs.LABEL_PERCENT] / 100)

    def reset_layouts(self) -> None:
        """Forget every mode's saved dock layout, in this session and in the settings (this
        version's group and the older ones): the active mode shows its default docks at their
        default sizes now, each other mode when next entered. The window keeps its size."""
        active, default = self.modes.active, self.modes.default
        size = self.size()
        if active is not default:
            self.set_mode(default)  # leave the mode so it is entered again as for the first time
        self.layouts.clear()
        for group in (LAYOUTS_GROUP, *OLDER_LAYOUT_GROUPS):
            self.settings.remove(group)
        notice = self.disk_notice.isVisible()
        self.restoreState(self._built_state, LAYOUT_VERSION)  # every dock back where it was built
        self.disk_notice.setVisible(notice)
        for mode in self.modes:
            forget = getattr(mode, "layout_forgotten", None)  # a mode's own first-entry state
            if callable(forget):
                forget()
        default.leave()
        default.enter()  # the built state shows every dock as built: the mode's own again
        self._hide_stale_tab_bars()
        self._unsized = {m.name for m in self.modes}
        self._legend_sized = False
        if size != self.size() and not (self.isMaximized() or self.isFullScreen()):
            self.resize(size)
        self._size_default_docks()
        self._size_legend()
        if active is not default:
            self.set_mode(active)
        self.update_panels_menu()
        self.statusBar().showMessage("Panel layouts reset: each mode shows its default docks", 5000)

    def rename_map(self, name: str) -> None:
        if self.doc is not None and name and name != self.doc.hmap.name:
            self.doc.push(ChangeProperty(self.doc, self.doc.hmap, "name", name))

    # --- View ----------------------------------------------------------------------------

    def zoom_in(self) -> None:
        if self.view:
            self.view.zoom_in()

    def zoom_out(self) -> None:
        if self.view:
            self.view.zoom_out()

    def fit(self) -> None:
        if self.view:
            self.view.fit()

    def zoom_100(self) -> None:
        if self.view:
            self.view.zoom_100()

    def toggle_layer(self, name: str = "", on: bool = True) -> None:
        if self.scene is None or not name:
            return
        if name == "terrain":
            assert self.scene.terrain is not None
            self.scene.terrain.setVisible(on)
        elif name == "background":
            self.scene.background.setVisible(on and self.doc is not None and self.doc.hmap.background is not None)
        elif name == "grid":
            assert self.scene.terrain is not None
            self.scene.terrain.set_grid_lines(on)  # the grid is baked into the terrain tiles
        else:
            assert self.scene.details is not None
            self.scene.details.set_layer_visible(name, on)
        act = self.actions_by_id.get(f"view.layer.{name}")
        if act is not None and act.isChecked() != on:
            act.setChecked(on)
        check = self.layers_panel.checks.get(name)
        if check is not None and check.isChecked() != on:
            check.setChecked(on)

    def set_layer_opacity(self, name: str, value: float) -> None:
        if self.scene is None:
            return
        if name == "terrain" and self.scene.terrain is not None:
            self.scene.terrain.setOpacity(value)
        elif name == "background":
            self.scene.background.setOpacity(value)
        elif self.scene.details is not None:
            self.scene.set_layer_opacity(name, value)  # each layer its own opacity

    def load_background(self, image: str | None = None) -> None:
        if self.doc is None:
            return
        if image is None:
            image, _ = QFileDialog.getOpenFileName(self, "Background image", "", "Images (*.png *.jpg *.jpeg *.tif)")
        if image:
            name = self._background_name(Path(image))
            if name is not None:
                self.doc.push(SetBackground(self.doc, Background(image=name, opacity=0.5)))

    def _background_name(self, image: Path) -> str | None:
        """The name the map stores for a chosen background image: relative to the bundle.

        A map's ``background.image`` is named by data and must resolve inside the bundle
        (model/safefile), so an image chosen from outside is copied into ``images/`` first
        (a bounded read of a regular file, written all or nothing inside the bundle)."""
        from editor.image_limits import read_image
        from model.limits import MAX_IMAGE_BYTES
        from model.safefile import SafeFileError, commit_files, file_sha256, is_inside, read_bytes, sha256

        assert self.doc is not None
        root = Path(self.doc.bundle.root)
        try:
            read_image(image)  # a readable image within the limits, before anything is stored
            if is_inside(image, root):
                return Path(os.path.relpath(os.path.realpath(image), os.path.realpath(root))).as_posix()
            data = read_bytes(image, MAX_IMAGE_BYTES, what="image")
            stem, suffix = image.stem, image.suffix
            for n in range(1, 1000):
                rel = f"images/{stem}{'' if n == 1 else f'-{n}'}{suffix}"
                existing = file_sha256(root / rel)
                if existing is None and not os.path.lexists(root / rel):
                    commit_files(root, {Path(rel): data})
                    break
                if existing == sha256(data):
                    break  # the same image was copied before
            else:
                raise OSError(f"too many images named {image.name} in {root / 'images'}")
        except (OSError, SafeFileError) as exc:
            self.message(QMessageBox.Icon.Warning, "Background image", f"Cannot use {image} as the background:",
                         getattr(exc, "message", None) or str(exc))
            return None
        self.statusBar().showMessage(f"Copied {image.name} into the bundle as {rel}", 10000)
        return rel

    def calibrate_background(self, points: list[tuple[str, float, float]] | None = None) -> None:
        """Calibrate with (printed label, image x, image y) triples; asks for them if not given."""
        if self.doc is None or self.doc.hmap.background is None:
            self.message(QMessageBox.Icon.Information, "Calibrate", "Load a background image first.")
            return
        if points is None:
            text, ok = QInputDialog.getMultiLineText(
                self, "Calibrate background",
                "One line per point: LABEL X Y (image pixel of that hex's centre), 2 or 3 lines")
            if not ok:
                return
            points = []
            for line in text.splitlines():
                parts = line.split()
                if len(parts) == 3:
                    points.append((parts[0], float(parts[1]), float(parts[2])))
        try:
            cal = [CalibrationPoint(label=self.doc.hmap.parse(lbl), x=x, y=y) for lbl, x, y in points]
        except ValueError as exc:
            self.message(QMessageBox.Icon.Warning, "Calibrate", str(exc))
            return
        if len(cal) < 2:
            self.message(QMessageBox.Icon.Warning, "Calibrate", "Give at least two points.")
            return
        self.doc.push(CalibrateBackground(self.doc, cal))

    # --- Help ----------------------------------------------------------------------------

    def rule_reference(self) -> None:
        """Help ▸ Rule Reference (F1): the rulebook text with its case list, or — when no text
        is found (a plain install has none) — a plain note, a way to choose the file
        (remembered per game system) and the case titles of the bundle's index
        (editor/rule_reference.py)."""
        if self.doc is None:
            self.message(QMessageBox.Icon.Information, "Rule reference", "Open a game bundle first.")
            return
        dialog = self.rule_reference_dialog
        if dialog is None or dialog.bundle is not self.doc.bundle:
            if dialog is not None:
                dialog.close()
            dialog = RuleReferenceDialog(self.doc.bundle, self.settings, self)
            self.rule_reference_dialog = dialog
        else:
            dialog.refresh()  # a file may have appeared (or gone) since it was last shown
        dialog.show()
        dialog.raise_()

    def about(self) -> QMessageBox:
        """Help ▸ About: the version the application was started with (``hexproof edit`` sets
        it from the CLI package, which ``editor`` may not import), Qt's, and the open bundle."""
        from PySide6 import __version__ as pyside_version
        from PySide6.QtCore import QCoreApplication, qVersion

        version = QCoreApplication.applicationVersion() or "unknown (not started by the hexproof command)"
        bundle = f"\nOpen: {self.doc.bundle.game.name} ({self.doc.system.name})" if self.doc is not None else ""
        return self.message(QMessageBox.Icon.Information, "About Hexproof",
                            f"Hexproof {version}\nScenario editor, rules validator and test-play engine for "
                            f"hex-and-counter wargames.\nQt {qVersion()}, PySide6 {pyside_version}{bundle}")


def _key(h: Hex, d: int) -> object:
    from model.base import hexside_key

    return hexside_key(h, d)


def central(window: MainWindow) -> QWidget:
    return window.centralWidget()
