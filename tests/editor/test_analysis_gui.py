"""Scenario ▸ Analyse Random Procedures… / LOS Coverage… / Clear Heatmap (editor/analysis/gui.py):
the heatmap is shown over the map with its legend, and it is the analysis's own data."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtGui import QImage

from conftest import REPO
from editor.analysis.heat import HeatOverlay, ramp
from editor.main_window import MainWindow
from helpers import no_modal_prompts, show_window  # noqa: F401 (autouse fixture)

UTAH = REPO / "scenarios" / "utah-beach"


def open_night_drop(qtbot: Any) -> MainWindow:
    w = show_window(qtbot, UTAH, (1300, 850))
    assert w.scenario_mode.open_scenario("night-drop")
    return w


def test_analyse_shows_the_landing_heatmap_and_legend(qtbot: Any, tmp_path: Path) -> None:
    w = open_night_drop(qtbot)
    menu = w.scenario_mode.menu.analysis
    assert "scenario.analyze" in w.actions_by_id and "scenario.coverage" in w.actions_by_id
    report = menu.analyze(seeds=20)
    assert report is not None
    sel = w.scenario_mode.selection
    assert sel is not None and sel.heat is not None
    landed = sum(report["kinds"]["drop"]["hexes"].values())
    assert sum(sel.heat.counts.values()) == landed
    assert menu.legend is not None and menu.legend.isVisible()
    assert w.doc is not None
    assert sel.heat.counts.get(w.doc.hmap.parse("32.028"), 0) > 0  # stick 1's zone hex: NE results stay
    # the picture: the hex with the most landings is painted with the ramp's hottest colour
    img: QImage = w.view.grab().toImage()  # type: ignore[union-attr]
    img.save(str(tmp_path / "gui-heat.png"))
    menu.clear()
    assert sel.heat is None and not menu.legend.isVisible()


def test_coverage_heatmap(qtbot: Any) -> None:
    w = open_night_drop(qtbot)
    cov = w.scenario_mode.menu.analysis.coverage(side="german")
    sel = w.scenario_mode.selection
    assert cov is not None and sel is not None and sel.heat is not None
    assert len(sel.heat.counts) == cov.covered and "LOS coverage" in sel.heat.title


def test_ramp_runs_from_pale_to_dark() -> None:
    assert ramp(0).lightness() > ramp(0.5).lightness() > ramp(1).lightness()
    assert HeatOverlay({}, "t", "l").vmax == 0


def test_analyse_on_two_processes_gives_the_one_process_report(qtbot: Any) -> None:
    """Scenario ▸ Analyse with Jobs 2 runs on a spawned process pool: the same report."""
    w = open_night_drop(qtbot)
    menu = w.scenario_mode.menu.analysis
    one = menu.analyze(seeds=12, jobs=1)
    two = menu.analyze(seeds=12, jobs=2)
    assert one is not None and two == one
    from play.analysis.executor import ProcessExecutor
    assert isinstance(menu.executor, ProcessExecutor) and menu.executor.start_method == "spawn"
    assert menu.executor.last_run is not None and len(menu.executor.last_run.worker_busy) >= 1


def test_cancel_stops_a_pooled_analysis(qtbot: Any) -> None:
    """The progress dialog's Cancel, pressed when the first chunk is back: the pool stops (no
    worker left), nothing partial is shown, the status bar says so."""
    import multiprocessing

    from PySide6.QtWidgets import QProgressBar, QProgressDialog

    w = open_night_drop(qtbot)
    menu = w.scenario_mode.menu.analysis
    seen: list[int] = []

    def started(dialog: QProgressDialog) -> None:
        bar = dialog.findChild(QProgressBar)
        assert bar is not None

        def on_value(v: int) -> None:
            seen.append(v)
            if v > 0 and not dialog.wasCanceled():
                dialog.cancel()
        bar.valueChanged.connect(on_value)

    menu.run_started.connect(started)
    assert menu.analyze(seeds=400, jobs=2) is None
    run = menu.executor.last_run  # type: ignore[union-attr]
    assert run is not None and 1 <= len(run.order) < run.chunks
    assert max(seen) < 400
    assert not multiprocessing.active_children()
    assert "cancelled" in w.statusBar().currentMessage()
    sel = w.scenario_mode.selection
    assert sel is not None and sel.heat is None


def test_the_report_window_shows_the_commands_text_and_saves_it(qtbot: Any, tmp_path: Path, capsys: Any,
                                                                 monkeypatch: Any) -> None:
    """After a run the Analysis Report window shows the text `hexproof analyze` prints for the
    same seeds (the procedures not analysed included, GTS 26.0), and saves it as text or JSON."""
    import json

    from hexproof.cli import main

    w = open_night_drop(qtbot)
    menu = w.scenario_mode.menu.analysis
    report = menu.analyze(seeds=5)
    view = menu.report_view
    assert report is not None and view is not None and view.isVisible()
    shown = view.text.toPlainText()
    assert main(["analyze", str(UTAH), "--scenario", "night-drop", "--seeds", "5", "--quiet"]) == 0
    assert shown == capsys.readouterr().out
    assert "the weather roll [GTS 5.0, 26.0; Utah Excl 1.2]" in shown
    saved = view.save(tmp_path / "r.json")
    assert saved is not None and json.loads(saved.read_text(encoding="utf-8")) == json.loads(json.dumps(report))
    txt = view.save(tmp_path / "r.txt")
    assert txt is not None and txt.read_text(encoding="utf-8") == shown
    menu.analyze(seeds=3)  # a second run reuses the one window
    assert menu.report_view is view and "3 seeds" in view.windowTitle()
    from PySide6.QtWidgets import QMessageBox

    said: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, text: said.append(text))
    assert view.save(tmp_path / "missing" / "r.txt") is None  # a folder that is not there: said, no traceback
    assert said and "missing" in said[0]
