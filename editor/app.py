"""Starting the editor: QApplication, the main window, and the offscreen screenshot mode."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QStandardPaths, QTimer
from PySide6.QtWidgets import QApplication

from editor.debug_edits import apply_paint
from editor.main_window import DEFAULT_SIZE, MainWindow
from model.bundle import find_bundle_root
from model.shipped import CHECKOUT, IS_CHECKOUT, default_sample

FALLBACK_SAMPLE = CHECKOUT / "tests" / "fixtures" / "bundles" / "mini"  # a checkout's only
# The sample `hexproof edit` opens without a path (resources/editor.yaml, model/shipped.py).
DEFAULT_SAMPLE = default_sample() or FALLBACK_SAMPLE


def user_copy(sample: Path, data_dir: Path) -> Path:
    """The user's own copy of an installed sample, made on first use (``data_dir/samples/NAME``).

    An installed sample lives inside site-packages, which is not the user's folder: Save must
    never write there, and an upgrade would overwrite the user's edits. A copy that exists is
    opened as it is: it is the user's work now.
    """
    target = data_dir / "samples" / sample.name
    if not target.exists():
        tmp = target.with_name(f".{sample.name}.partial")
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.copytree(sample, tmp, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        tmp.replace(target)  # whole or not at all: a copy cut short is never opened as the sample
    return target


def _data_dir() -> Path:
    location = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    return Path(location) if location else Path.home() / ".hexproof"


def default_bundle() -> tuple[Path | None, str | None]:
    """The default sample, or the mini fixture with a note when it is not there yet.

    In a checkout the repository's sample opens (a developer edits it); an installed copy opens
    the user's own copy of the shipped sample (:func:`user_copy`); with neither, no bundle, and a
    note that says how to open one.
    """
    if find_bundle_root(DEFAULT_SAMPLE)[0] is not None:
        if IS_CHECKOUT:
            return DEFAULT_SAMPLE, None
        try:
            copy = user_copy(DEFAULT_SAMPLE, _data_dir())
        except OSError as exc:
            return None, f"could not copy the sample {DEFAULT_SAMPLE.name} to your data folder: {exc}"
        return copy, f"Opened your copy of the sample {DEFAULT_SAMPLE.name}: {copy}"
    if find_bundle_root(FALLBACK_SAMPLE)[0] is not None:
        return FALLBACK_SAMPLE, (f"The default sample {DEFAULT_SAMPLE.name} is not available; "
                                 f"opened the test fixture {FALLBACK_SAMPLE.name} instead.")
    return None, "No sample bundle is installed: open a bundle with File ▸ Open, or make one with File ▸ New Bundle."


def application() -> QApplication:
    app = QApplication.instance()
    if app is None:
        QCoreApplication.setOrganizationName("Hexproof")
        QCoreApplication.setApplicationName("Hexproof")
        app = QApplication(sys.argv[:1])
    return app  # type: ignore[return-value]


def make_window(path: str | None, size: tuple[int, int] | None = None) -> tuple[MainWindow, str | None]:
    note = None
    if path is None:
        bundle, note = default_bundle()
        path = str(bundle) if bundle is not None else None
    window = MainWindow()
    if size:
        window.resize(*size)  # asked for: a screenshot may be larger than this screen
    if path is not None:
        window.open_path(path)
    if note:
        window.statusBar().showMessage(note, 15000)
    return window, note


def place_view(window: MainWindow, center: str | None, zoom: float | None) -> None:
    """Fit, then apply --zoom (1 = 100 %) and --center (a printed hex label)."""
    if window.view is None or window.doc is None:
        return
    window.view.fit()
    if zoom is not None:
        window.view.set_zoom(zoom)
    if center:
        window.view.center_on_hex(window.doc.hmap.parse(center))


def settle(window: MainWindow, max_frames: int = 200) -> None:
    """Paint until every visible terrain tile is rendered (tiles arrive over a few frames)."""
    app = application()
    if window.view is None or window.scene is None or window.scene.terrain is None:
        return
    for _ in range(max_frames):
        window.view.viewport().grab()  # a synchronous paint: it sets ``pending`` if tiles remain
        if not window.scene.terrain.pending:
            return
        app.processEvents()


STEADY_ENV = "HEXPROOF_STEADY_SHOTS"  # set by docs/img/shots.py: the same picture on every run


def screenshot(window: MainWindow, out: Path) -> bool:
    """Show, let the first paint happen, grab the window and save the PNG. With
    ``HEXPROOF_STEADY_SHOTS`` set, the status bar's validation time (" · 54 ms", different on
    every run) is left out, so a docs picture changes only when the window does."""
    app = application()
    window.show()
    app.processEvents()
    settle(window)
    if os.environ.get(STEADY_ENV):
        label = window.diagnostics.label
        label.setText(label.text().split(" · ")[0])
    out.parent.mkdir(parents=True, exist_ok=True)
    return window.grab().save(str(out))


def run(path: str | None, screenshot_file: str | None = None, size: tuple[int, int] | None = None,
        center: str | None = None, zoom: float | None = None, mode: str = "edit", scenario: str | None = None,
        debug_paint: list[str] | None = None, version: str | None = None) -> int:
    app = application()
    if version:
        # The CLI's version (editor may not import the CLI package): Help ▸ About shows it.
        app.setApplicationVersion(version)
    if screenshot_file and size is None:
        size = (DEFAULT_SIZE.width(), DEFAULT_SIZE.height())  # one picture size whatever the screen
    window, note = make_window(path, size)
    if note:
        print(f"hexproof edit: {note}", file=sys.stderr)
    if debug_paint and (err := apply_paint(window, debug_paint)):
        print(f"hexproof edit: {err}", file=sys.stderr)
        window.hide()
        return 2
    if mode == "play" and window.doc is not None and not window.play_mode.play(scenario):
        print(f"hexproof edit: cannot start play mode{f' with scenario {scenario!r}' if scenario else ''}",
              file=sys.stderr)
        window.hide()
        return 2
    if mode == "scenario" and window.doc is not None and not window.scenario_mode.open_scenario(scenario):
        print(f"hexproof edit: cannot open scenario mode{f' on {scenario!r}' if scenario else ''}", file=sys.stderr)
        window.hide()
        return 2
    if mode == "scenario" and window.doc is not None:
        window.diagnostics.wait_validated()
    if screenshot_file and window.doc is None:
        # Nothing opened: say why and fail, instead of a "No bundle open" picture and exit 0.
        from editor.dialogs import diagnostics_text

        text = diagnostics_text(getattr(window, "load_diagnostics", [])) or "unknown error"
        print(f"hexproof edit: {path or 'the default sample'} could not be opened:\n{text}", file=sys.stderr)
        window.hide()
        return 2
    if screenshot_file:
        window.show()
        app.processEvents()
        place_view(window, center, zoom)
        ok = screenshot(window, Path(screenshot_file))
        window.hide()  # not close(): a screenshot run never prompts about unsaved changes
        return 0 if ok else 1
    window.show()
    QTimer.singleShot(0, lambda: place_view(window, center, zoom))
    return app.exec()
