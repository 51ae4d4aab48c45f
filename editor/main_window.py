"""MainWindow: menus from the action table, toolbars, docks, status bar, safe files.

Safe files: "*" in the title while modified, a prompt on close, atomic save through
``Bundle.save`` (a failure shows an error and leaves the document modified), autosave of
dirty documents to a recovery folder, recovery offered on open when that copy is newer,
and load diagnostics shown with file:line:col in a non-modal dialog.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (QDockWidget, QFileDialog, QInputDialog, QLabel, QMainWindow, QMessageBox, QUndoView,
                               QWidget)

from editor import recovery
from editor.actions import ACTIONS, LAYER_NAMES, MENUS, ActionSpec
from editor.commands import CalibrateBackground, ChangeProperty, SetBackground
from editor.dialogs import NewMapDialog, diagnostics_text, message_box
from editor.docks import LayersPanel, PropertiesPanel, ToolPalette
from editor.document import MapDocument
from editor.map_view.scene import MapScene
from editor.map_view.view import MapView
from editor.new_map import new_bundle
from editor.rule_reference import RuleReferenceDialog
from editor.tools import (CalibrateTool, Eraser, FeatureTool, HexsidePainter, PathTool, Picker, PortionPolygonTool,
                          PortionTool, SelectionTool, TerrainBrush)
from model.diagnostics import Diagnostic, Severity
from model.hexes import Hex
from model.mapdata import Background, CalibrationPoint

APP_NAME = "Hexproof"
MAX_RECENT = 8


class MainWindow(QMainWindow):
    def __init__(self, doc: MapDocument | None = None, autosave_seconds: int | None = None) -> None:
        super().__init__()
        self.doc: MapDocument | None = None
        self.scene: MapScene | None = None
        self.view: MapView | None = None
        self.dialogs: list[QMessageBox] = []  # kept so non-modal boxes live (and tests can read them)
        self.actions_by_id: dict[str, QAction] = {}
        self.settings = QSettings("Hexproof", "Hexproof")
        self.rule_reference_dialog: RuleReferenceDialog | None = None  # Help ▸ Rule Reference (F1)
        self._placeholder = QLabel("No bundle open. Use File ▸ Open or File ▸ New Map.")
        self._placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setCentralWidget(self._placeholder)
        self.status_label = QLabel()
        self.statusBar().addPermanentWidget(self.status_label, 1)
        self.zoom_label = QLabel()
        self.statusBar().addPermanentWidget(self.zoom_label)
        self._build_actions()
        self._build_docks()
        from editor.play import install_play_mode  # Play mode (editor/play/) adds itself

        self.play_mode = install_play_mode(self)
        from editor.scenario import install_scenario_mode  # Scenario mode + diagnostics (editor/scenario/)

        self.scenario_mode = install_scenario_mode(self)
        from editor.export.ui import install_export  # File ▸ Export, View ▸ Auto-Trace (editor/export/)

        self.export_ui = install_export(self)
        seconds = autosave_seconds if autosave_seconds is not None else int(os.environ.get("HEXPROOF_AUTOSAVE_SECONDS", "120"))
        self.autosave_timer = QTimer(self)
        self.autosave_timer.setInterval(max(1, seconds) * 1000)
        self.autosave_timer.timeout.connect(self.autosave)
        self.autosave_timer.start()
        self.resize(1280, 820)
        if doc is not None:
            self.set_document(doc)
        self._update_title()

    # --- construction ------------------------------------------------------------------------

    def _build_actions(self) -> None:
        menus = {name: self.menuBar().addMenu(f"&{name}") for name in MENUS}
        self.toolbar = self.addToolBar("Main")
        self.toolbar.setObjectName("main-toolbar")
        self.edit_menu = menus["Edit"]
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
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.palette_dock)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.props_dock)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.layers_dock)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.undo_dock)
        self.palette: ToolPalette | None = None

    # --- document ------------------------------------------------------------------------------

    def set_document(self, doc: MapDocument) -> None:
        old = self.doc
        self.doc = doc
        doc.setParent(self)
        doc.modifiedChanged.connect(self._update_title)
        doc.pathChanged.connect(lambda _p: self._update_title())
        self.scene = MapScene(doc)
        self.view = MapView(self.scene)
        self.view.hexHovered.connect(self._on_hover)
        self.view.zoomChanged.connect(lambda z: self.zoom_label.setText(f"{z * 100:.0f} %"))
        self.setCentralWidget(self.view)
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
        self._build_tools(doc)
        self.props.map_id.setText(doc.hmap.id)
        self.props.name.setText(doc.hmap.name)
        self.props.system.setText(f"{doc.system.name} ({doc.system.id})")
        cols, rows = doc.hmap.size()
        self.props.size.setText(f"{cols} × {rows} ({len(doc.hmap.hexes())} hexes)")
        self.props.attach(doc, self.view)  # provenance, selected hex (docks.py)
        doc.changed.connect(self._on_doc_changed)
        self._add_recent(str(doc.path))
        self._update_title()
        if old is not None:
            old.deleteLater()

    def _build_tools(self, doc: MapDocument) -> None:
        self.palette = ToolPalette(doc.system)
        self.palette_dock.setWidget(self.palette)
        p = self.palette
        first_terrain = doc.system.terrain[0].id
        self.tools = {
            "terrain": TerrainBrush(first_terrain),
            "hexside": HexsidePainter(doc.system.hexsides[0].id if doc.system.hexsides else ""),
            "path": PathTool(doc.system.paths[0].id if doc.system.paths else ""),
            "feature": FeatureTool(doc.system.features[0].id if doc.system.features else ""),
            "portion": PortionTool(),
            "eraser": Eraser(),
            "picker": Picker(self._picked),
            "select": SelectionTool(),
            "portion-polygon": PortionPolygonTool(),
            "calibrate": CalibrateTool(self.ask_label),
        }
        p.toolChosen.connect(self.set_tool)
        p.terrain.currentIndexChanged.connect(lambda _i: setattr(self.tools["terrain"], "terrain", p.terrain.currentData()))
        p.radius.valueChanged.connect(lambda v: setattr(self.tools["terrain"], "radius", v))
        p.fill.toggled.connect(lambda on: setattr(self.tools["terrain"], "mode", "fill" if on else "brush"))
        p.hexside.currentIndexChanged.connect(lambda _i: setattr(self.tools["hexside"], "kind", p.hexside.currentData()))
        p.path.currentIndexChanged.connect(lambda _i: setattr(self.tools["path"], "kind", p.path.currentData()))
        p.feature.currentIndexChanged.connect(lambda _i: setattr(self.tools["feature"], "kind", p.feature.currentData()))
        p.feature_label.textChanged.connect(lambda t: setattr(self.tools["feature"], "label", t))
        p.depth.valueChanged.connect(lambda v: setattr(self.tools["portion"], "depth", v))
        p.select_mode.currentTextChanged.connect(lambda m: setattr(self.tools["select"], "mode", m))
        self.set_tool("pan")

    def set_tool(self, name: str) -> None:
        if self.view is None:
            return
        self.view.tool = self.tools.get(name)
        self.view.setDragMode(self.view.DragMode.ScrollHandDrag if name == "pan" else self.view.DragMode.NoDrag)
        if self.palette is not None and name in self.palette.buttons:
            self.palette.buttons[name].setChecked(True)

    def _picked(self, terrain: str) -> None:
        assert self.palette is not None
        i = self.palette.terrain.findData(terrain)
        if i >= 0:
            self.palette.terrain.setCurrentIndex(i)
        self.tools["terrain"].terrain = terrain  # type: ignore[attr-defined]
        self.set_tool("terrain")

    def _on_doc_changed(self, _change: object) -> None:
        if self.doc is not None and not self.props.name.hasFocus():
            self.props.name.setText(self.doc.hmap.name)

    def _on_hover(self, h: Hex | None) -> None:
        if h is None or self.doc is None:
            self.status_label.setText("")
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

    def ask_label(self) -> str | None:
        """The printed label of the hex centre just clicked on the background (tests patch this)."""
        text, ok = QInputDialog.getText(self, "Calibrate", "Printed label of this hex centre (e.g. 28.048):")
        return text.strip() if ok and text.strip() else None

    def ask_recover(self, path: Path) -> bool:
        """Whether to load the newer autosaved copy (tests patch this)."""
        answer = QMessageBox.question(self, APP_NAME, f"An autosaved copy of {path} is newer than the saved files. "
                                      "Recover it?")
        return answer == QMessageBox.StandardButton.Yes

    # --- File ----------------------------------------------------------------------------

    def open_path(self, path: str | Path) -> bool:
        """Open a bundle; on failure show the diagnostics and keep the current document."""
        path = Path(path)
        use_recovery = False
        from model.bundle import find_bundle_root

        root, _ = find_bundle_root(path)
        if root is not None and recovery.has_newer_recovery(root):
            use_recovery = self.ask_recover(root)
        source = recovery.recovery_dir(root) if (use_recovery and root is not None) else path
        doc, diags = MapDocument.open(source, self)
        if doc is None:
            self.message(QMessageBox.Icon.Critical, "Cannot open bundle",
                         f"{path} could not be opened:", diagnostics_text(diags) or "unknown error")
            return False
        if use_recovery and root is not None:
            doc.bundle.root = root
            doc.undo_stack.resetClean()  # recovered edits are unsaved until the user saves
        if diags:
            errors = [d for d in diags if d.severity >= Severity.ERROR]
            self.message(QMessageBox.Icon.Warning if errors else QMessageBox.Icon.Information,
                         "Problems while loading", f"{len(diags)} problem(s) in {path}:", diagnostics_text(diags))
        self.set_document(doc)
        return True

    def open_dialog(self) -> None:
        if not self.maybe_save():
            return
        folder = QFileDialog.getExistingDirectory(self, "Open game bundle")
        if folder:
            self.open_path(folder)

    def new_map(self) -> None:
        if not self.maybe_save():
            return
        dlg = NewMapDialog(self)
        if dlg.exec() != NewMapDialog.DialogCode.Accepted:
            return
        cd, rd, sep = dlg.scheme.currentData()
        bundle, diags = new_bundle(Path(dlg.folder.text()).resolve(), dlg.system.currentText(), dlg.cols.value(),
                                   dlg.rows.value(), dlg.orientation.currentText(), dlg.stagger.currentText(),
                                   cd, rd, sep)
        if bundle is None:
            self.message(QMessageBox.Icon.Critical, "New map", "Cannot create the map:", diagnostics_text(diags))
            return
        doc = MapDocument(bundle, self)
        doc.undo_stack.resetClean()  # never saved yet
        self.set_document(doc)

    def save(self) -> bool:
        if self.doc is None:
            return False
        try:
            self.doc.save()
        except OSError as exc:
            self.message(QMessageBox.Icon.Critical, "Save failed",
                         f"Could not save {self.doc.path}: {exc}. Your changes are still open and unsaved.")
            return False
        recovery.discard(self.doc.path)
        self.statusBar().showMessage(f"Saved {self.doc.path}", 3000)
        return True

    def save_as(self) -> bool:
        if self.doc is None:
            return False
        folder = QFileDialog.getExistingDirectory(self, "Save bundle into folder")
        if not folder:
            return False
        try:
            self.doc.save(folder)
        except OSError as exc:
            self.message(QMessageBox.Icon.Critical, "Save failed", f"Could not save into {folder}: {exc}")
            return False
        self._add_recent(folder)
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

    def maybe_save(self) -> bool:
        """True when it is fine to drop the current document."""
        if self.doc is None or not self.doc.is_modified:
            return True
        answer = self.ask_save()
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.maybe_save():
            if self.doc is not None and not self.doc.is_modified:
                recovery.discard(self.doc.path)
            event.accept()
        else:
            event.ignore()

    def autosave(self) -> Path | None:
        """Write a dirty document to its recovery folder (never over the user's files)."""
        if self.doc is None or not self.doc.is_modified:
            return None
        try:
            rdir = recovery.prepare_copy(self.doc.path)
            self.doc.bundle.save(rdir)
        except OSError as exc:
            self.statusBar().showMessage(f"Autosave failed: {exc}", 5000)
            return None
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
        return self.tools.get("select") if self.doc is not None else None  # type: ignore[return-value]

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

    def preferences(self) -> None:
        seconds, ok = QInputDialog.getInt(self, "Preferences", "Autosave every (seconds)",
                                          self.autosave_timer.interval() // 1000, 5, 3600)
        if ok:
            self.autosave_timer.setInterval(seconds * 1000)

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
            self.doc.push(SetBackground(self.doc, Background(image=str(image), opacity=0.5)))

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

    def about(self) -> None:
        self.message(QMessageBox.Icon.Information, "About Hexproof",
                     # No version here: `editor` may not import the CLI package (layers) nor
                     # importlib (tests/reliability bans it); `hexproof --version` prints it.
                     "Hexproof\nScenario editor and rules validator for hex-and-counter wargames.")


def _key(h: Hex, d: int) -> object:
    from model.base import hexside_key

    return hexside_key(h, d)


def central(window: MainWindow) -> QWidget:
    return window.centralWidget()
