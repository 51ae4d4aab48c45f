"""Scenario ▸ Analyse Drops…, LOS Coverage… and Clear Heatmap (issue #22).

Analyse runs ``hexproof analyze``'s per-seed function (play/analysis/) for the current scenario
over N seeds on J worker processes (``--jobs``; J = 1 runs in this process) behind a cancellable
progress dialog, then shows the hexes landed on as a heatmap
over the map with its colour legend, and the text summary in the Analysis Report window
(editor/analysis/report_view.py: Save As… writes it as text or JSON).
LOS Coverage counts, for every hex, the chosen side's set-up units that see it (fast all-pairs
engine) and shows it the same way. Both are view state on the selection, cleared by Clear
Heatmap. Each action has a method taking its answers (``analyze(seeds=200, jobs=2)``,
``coverage(side="german")``), so tests drive it without dialogs.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (QApplication, QDialog, QDialogButtonBox, QFormLayout, QInputDialog, QMenu,
                               QMessageBox, QProgressDialog, QSpinBox, QWidget)

from editor.analysis.heat import HeatLegend, HeatOverlay

if TYPE_CHECKING:
    from editor.analysis.report_view import ReportView
    from editor.main_window import MainWindow
    from editor.scenario.mode import ScenarioMode


# A pool started from the GUI spawns fresh interpreters: forking a process that runs Qt's
# threads may copy a lock another thread holds. Each worker imports the engine and unpickles
# the bundle once (the pool's initializer), so a few seeds are faster with 1 job.
GUI_START_METHOD = "spawn"


class RunOptions(QDialog):
    """Seeds and jobs for Analyse Random Procedures (the command line's ``--seeds``, ``--jobs``)."""

    def __init__(self, parent: QWidget | None, seeds: int = 200, jobs: int = 1) -> None:
        super().__init__(parent)
        self.setObjectName("analysis-options")
        self.setWindowTitle("Analyse Random Procedures")
        form = QFormLayout(self)
        self.seeds = QSpinBox(self)
        self.seeds.setObjectName("analysis-seeds")
        self.seeds.setRange(1, 100_000)
        self.seeds.setValue(seeds)
        self.jobs = QSpinBox(self)
        self.jobs.setObjectName("analysis-jobs")
        self.jobs.setRange(1, max(1, min(64, os.cpu_count() or 1)))
        self.jobs.setValue(min(jobs, self.jobs.maximum()))
        self.jobs.setToolTip("Worker processes; 1 runs in the editor's own process")
        form.addRow("&Seeds:", self.seeds)
        form.addRow("&Jobs:", self.jobs)
        box = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        box.accepted.connect(self.accept)
        box.rejected.connect(self.reject)
        form.addRow(box)


class AnalysisMenu(QObject):
    run_started = Signal(QProgressDialog)  # a run began behind this progress dialog

    def __init__(self, window: "MainWindow", mode: "ScenarioMode", menu: QMenu) -> None:
        super().__init__(window)
        self.window, self.mode = window, mode
        self.legend: HeatLegend | None = None
        self.last_report: dict | None = None  # type: ignore[type-arg]
        self.report_view: "ReportView | None" = None  # the Analysis Report window, made on first use
        self.jobs = 1                      # the last run's jobs, offered again
        self.executor: object | None = None  # the last run's (tests read a pool's RunStats)
        menu.addSeparator()
        self.actions: dict[str, QAction] = {}
        for name, text, tip, slot in (
                ("scenario.analyze", "&Analyse Random Procedures…",
                 "Play the scenario's random procedures (drop rolls …) over many seeds; show where units land",
                 lambda: self.analyze()),
                ("scenario.coverage", "LOS &Coverage…",
                 "For every hex, how many of a side's set-up units see it (fast all-pairs LOS)",
                 lambda: self.coverage()),
                ("scenario.clear_heat", "Clear &Heatmap", "Hide the analysis or coverage heatmap",
                 lambda: self.clear())):
            act = QAction(text, window)
            act.setObjectName(name)
            act.setStatusTip(tip)
            act.triggered.connect(lambda _=False, f=slot: f())
            menu.addAction(act)
            self.actions[name] = act
            window.actions_by_id[name] = act

    # --- helpers ---------------------------------------------------------------------------------
    def _ready(self) -> bool:
        sel = self.mode.selection
        if self.mode.document is None or sel is None or sel.scenario_id is None:
            self.window.statusBar().showMessage("Open a bundle and choose a scenario first", 4000)
            return False
        if not self.mode.active:
            self.mode.enter()
        return True

    def show(self, overlay: HeatOverlay | None) -> None:
        sel = self.mode.selection
        if sel is None:
            return
        sel.set_heat(overlay)
        view = self.window.view
        if view is not None and (self.legend is None or self.legend.parentWidget() is not view.viewport()):
            self.legend = HeatLegend(view.viewport())
        if self.legend is not None:
            self.legend.set_overlay(overlay)
        if overlay is not None:
            self.window.statusBar().showMessage(overlay.title, 8000)

    def clear(self) -> None:
        self.show(None)

    # --- Analyse ---------------------------------------------------------------------------------
    def analyze(self, seeds: int | None = None, jobs: int | None = None) -> dict | None:  # type: ignore[type-arg]
        """Run ``seeds`` seeds of the current scenario on ``jobs`` processes (both asked when
        ``seeds`` is None); returns the report, None when cancelled or nothing to analyse."""
        if not self._ready():
            return None
        sel, doc = self.mode.selection, self.mode.document
        assert sel is not None and doc is not None and sel.scenario_id is not None
        if seeds is None:
            ask = RunOptions(self.window, jobs=jobs or self.jobs)
            if ask.exec() != QDialog.DialogCode.Accepted:
                return None
            seeds, jobs = ask.seeds.value(), ask.jobs.value()
        jobs = max(1, jobs or 1)
        self.jobs = jobs
        from play.analysis import summary
        from play.analysis.executor import AnalysisCancelled, executor_for
        from play.analysis.trial import gaps_for, seed_task

        bundle, sid = doc.bundle, sel.scenario_id
        dialog = QProgressDialog(f"Playing {seeds} seeds of {sid} on {jobs} process{'es' if jobs > 1 else ''}…",
                                 "Cancel", 0, seeds, self.window)
        dialog.setObjectName("analysis-progress")
        dialog.setWindowTitle("Analyse Random Procedures")
        dialog.setWindowModality(Qt.WindowModality.WindowModal)
        dialog.setMinimumDuration(300)
        self.run_started.emit(dialog)

        def progress(done: int, total: int) -> None:
            dialog.setValue(done)
            QApplication.processEvents()

        def cancelled() -> bool:
            # asked between seeds (1 job) or every 0.1 s while the pool works: the dialog's
            # Cancel is handled here, and the window repaints
            QApplication.processEvents()
            return dialog.wasCanceled()

        self.executor = executor_for(jobs, GUI_START_METHOD)
        try:
            outcomes = self.executor.map(seed_task, (bundle, sid), list(range(1, seeds + 1)), progress=progress,
                                         cancelled=cancelled)
        except AnalysisCancelled:
            self.window.statusBar().showMessage("Analysis cancelled", 4000)
            return None
        except Exception as exc:  # an engine bug in one seed: say so, never a traceback
            QMessageBox.warning(self.window, "Analyse Random Procedures", f"The analysis stopped: {exc}")
            return None
        finally:
            dialog.close()
        scen = bundle.resolved(sid)
        report = summary.summarise(outcomes, box_names={b.id: b.name for b in bundle.game.boxes},
                                   zone_names={z.id: z.name for z in scen.drop_zones}, gaps=gaps_for(bundle, sid))
        self.last_report = report
        if not report["kinds"]:
            self.window.statusBar().showMessage(f"{sid}: no random procedure to analyse", 6000)
            self.show(None)
            return report
        hmap = doc.hmap
        counts: dict = {}  # type: ignore[type-arg]
        for block in report["kinds"].values():
            for label, n in block["hexes"].items():
                h = hmap.parse(label)
                counts[h] = counts.get(h, 0.0) + float(n)
        self.show(HeatOverlay(counts, f"{sid}: hexes landed on, {seeds} seeds", "units landed (all seeds)"))
        self._show_report(sid, seeds, report)
        return report

    def _show_report(self, sid: str, seeds: int, report: dict) -> None:  # type: ignore[type-arg]
        """The text summary beside the heatmap, in the one Analysis Report window."""
        from editor.analysis.report_view import ReportView
        from play.analysis import summary

        if self.report_view is None:
            self.report_view = ReportView(self.window)
        # the text `hexproof analyze` prints for the same seeds
        self.report_view.show_report(f"{sid}, {seeds} seeds", report, summary.render_text(report))

    # --- Coverage --------------------------------------------------------------------------------
    def coverage(self, side: str | None = None, night: bool = False, storm: bool = False) -> object | None:
        if not self._ready():
            return None
        sel, doc = self.mode.selection, self.mode.document
        assert sel is not None and doc is not None and sel.scenario_id is not None
        from play.analysis.coverage import CoverageError, coverage

        if side is None:
            sides = [s.id for s in doc.bundle.system.sides]
            side, ok = QInputDialog.getItem(self.window, "LOS Coverage", "Side whose set-up units look:", sides, 0, False)
            if not ok:
                return None
        try:
            cov = coverage(doc.bundle, sel.scenario_id, side, night=night, storm=storm)
        except CoverageError as exc:
            QMessageBox.information(self.window, "LOS Coverage", str(exc))
            return None
        cond = ", ".join(c for c, on in (("night", night), ("storm", storm)) if on) or "day"
        self.show(HeatOverlay({h: float(v) for h, v in cov.counts.items()},
                              f"{sel.scenario_id}: LOS coverage by {side} set-up units ({cond}); "
                              f"{cov.covered} hexes, LOS {cov.seconds:.2f} s", "observers with LOS"))
        return cov
