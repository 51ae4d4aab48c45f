"""File ▸ Export (proof PDF, map PNG/SVG, VASSAL module) and View ▸ Auto-Trace, added to
a main window by one call: ``install_export(window)`` (as Play and Scenario modes install
themselves). Long exports show a QProgressDialog and can be cancelled between steps."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QFileDialog, QMenu, QMessageBox, QProgressDialog

from editor.export.autotrace import AutoTrace

if TYPE_CHECKING:  # pragma: no cover - typing only
    from editor.main_window import MainWindow


class ExportCancelled(Exception):
    pass


class ExportUI:
    def __init__(self, window: "MainWindow") -> None:
        self.window = window
        self.autotrace: AutoTrace | None = None
        self.progress: QProgressDialog | None = None
        file_menu = self._menu("File")
        export = QMenu("&Export", file_menu)
        before = next((a for a in file_menu.actions() if "Quit" in a.text()), None)
        file_menu.insertMenu(before, export) if before is not None else file_menu.addMenu(export)
        self.actions: dict[str, QAction] = {}
        for key, text, slot in (("pdf", "Proof &PDF…", self.export_pdf), ("png", "Map as P&NG…", self.export_png),
                                ("svg", "Map as &SVG…", self.export_svg),
                                ("vassal", "&VASSAL Module…", self.export_vassal)):
            act = export.addAction(text)
            act.triggered.connect(lambda _=False, s=slot: s())
            self.actions[f"export.{key}"] = act
        view = self._menu("View")
        view.addSeparator()
        for key, text, slot in (("show", "Auto-Trace &Suggestions", self.show_suggestions),
                                ("accept_all", "Accept &All Suggestions", self.accept_all)):
            act = view.addAction(text)
            act.triggered.connect(lambda _=False, s=slot: s())
            self.actions[f"autotrace.{key}"] = act

    def _menu(self, title: str) -> QMenu:
        for act in self.window.menuBar().actions():
            if act.menu() is not None and act.text().replace("&", "") == title:
                return act.menu()  # type: ignore[return-value]
        return self.window.menuBar().addMenu(f"&{title}")

    def _ask(self, caption: str, filt: str, suffix: str) -> Path | None:
        name, _ = QFileDialog.getSaveFileName(self.window, caption, str(self.window.start_folder() or ""), filt)
        if not name:
            return None
        path = Path(name)
        return path if path.suffix else path.with_suffix(suffix)

    def _progress(self, done: int, total: int, what: str) -> None:
        if self.progress is None:
            return
        self.progress.setMaximum(total)
        self.progress.setValue(done)
        self.progress.setLabelText(what)
        QApplication.processEvents()
        if self.progress.wasCanceled():
            raise ExportCancelled()

    def _with_progress(self, title: str, fn: "object") -> bool:
        self.progress = QProgressDialog(title, "Cancel", 0, 1, self.window)
        self.progress.setWindowTitle("Export")
        self.progress.setMinimumDuration(300)
        try:
            fn()  # type: ignore[operator]
            return True
        except ExportCancelled:
            return False
        except OSError as exc:
            QMessageBox.warning(self.window, "Export", str(exc))
            return False
        finally:
            self.progress.close()
            self.progress = None

    # --- exports -------------------------------------------------------------------------------

    def export_pdf(self, path: str | Path | None = None) -> Path | None:
        doc = self.window.doc
        if doc is None:
            return None
        out = Path(path) if path else self._ask("Export proof PDF", "PDF (*.pdf)", ".pdf")
        if out is None:
            return None
        from editor.export.pdf import ProofOptions, export_proof_pdf

        options = ProofOptions(**self.window.proof_options())  # Edit ▸ Preferences: scale and paper
        ok = self._with_progress("Writing proof PDF…",
                                 lambda: export_proof_pdf(doc.bundle, out, options, progress=self._progress))
        return out if ok else None

    def _scene(self):  # type: ignore[no-untyped-def]
        return self.window.scene

    def export_png(self, path: str | Path | None = None, scale: float = 1.0) -> Path | None:
        if self.window.scene is None:
            return None
        out = Path(path) if path else self._ask("Export map as PNG", "PNG (*.png)", ".png")
        if out is None:
            return None
        from editor.export.images import export_png

        return export_png(self.window.scene, out, scale)

    def export_svg(self, path: str | Path | None = None, scale: float = 1.0) -> Path | None:
        if self.window.scene is None:
            return None
        out = Path(path) if path else self._ask("Export map as SVG", "SVG (*.svg)", ".svg")
        if out is None:
            return None
        from editor.export.images import export_svg

        return export_svg(self.window.scene, out, scale)

    def export_vassal(self, path: str | Path | None = None) -> Path | None:
        doc = self.window.doc
        if doc is None:
            return None
        from model.formats.vassal import MissingPywargame, build_vmod, pywargame_vassal

        try:
            pywargame_vassal()
        except MissingPywargame as exc:
            QMessageBox.information(self.window, "VASSAL export", str(exc))
            return None
        out = Path(path) if path else self._ask("Export VASSAL module", "VASSAL module (*.vmod)", ".vmod")
        if out is None:
            return None
        from editor.export.vassal_assets import module_spec

        def run() -> None:
            self._progress(0, 2, "Rendering map and counters…")
            spec, notes = module_spec(doc.bundle, map_id=doc.map_id)
            self._progress(1, 2, "Writing module…")
            self.last_notes = notes + build_vmod(spec, out)
            self._progress(2, 2, "Done")

        return out if self._with_progress("Exporting VASSAL module…", run) else None

    # --- auto-trace ----------------------------------------------------------------------------

    def show_suggestions(self) -> int:
        """Read the background's centre dots and show the differing hexes; returns how many."""
        doc, scene = self.window.doc, self.window.scene
        if doc is None or scene is None:
            return 0
        if self.autotrace is None or self.autotrace.doc is not doc:
            self.autotrace = AutoTrace(doc)
        if self.autotrace.layer.scene() is not scene:
            scene.addItem(self.autotrace.layer)
        try:
            found = self.autotrace.refresh()
        except (ValueError, OSError) as exc:
            QMessageBox.information(self.window, "Auto-trace", f"{exc}. Load and calibrate a background first.")
            return 0
        return len(found)

    def accept_all(self) -> int:
        return self.autotrace.accept() if self.autotrace is not None else 0


def install_export(window: "MainWindow") -> ExportUI:
    return ExportUI(window)
