"""Starting the editor: QApplication, the main window, and the offscreen screenshot mode."""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QTimer
from PySide6.QtWidgets import QApplication

from editor.debug_edits import apply_paint
from editor.main_window import DEFAULT_SIZE, MainWindow
from model.bundle import find_bundle_root
from model.formats.yamlio import read_package_data

REPO = Path(__file__).resolve().parents[1]
SETTINGS = REPO / "resources" / "editor.yaml"
FALLBACK_SAMPLE = REPO / "tests" / "fixtures" / "bundles" / "mini"


def _default_sample() -> Path:
    """The sample bundle ``hexproof edit`` opens without a path: data (resources/editor.yaml),
    so the editor's code names no game."""
    try:
        settings = read_package_data(SETTINGS) if SETTINGS.is_file() else {}
    except Exception:  # unreadable settings: the fallback opens, with its note
        settings = {}
    rel = settings.get("default_sample") if isinstance(settings, dict) else None
    return REPO / str(rel) if rel else FALLBACK_SAMPLE


DEFAULT_SAMPLE = _default_sample()


def default_bundle() -> tuple[Path, str | None]:
    """The default sample, or the mini fixture with a note when it is not there yet."""
    if find_bundle_root(DEFAULT_SAMPLE)[0] is not None:
        return DEFAULT_SAMPLE, None
    return FALLBACK_SAMPLE, (f"The default sample {DEFAULT_SAMPLE.relative_to(REPO)} is not available; "
                             f"opened {FALLBACK_SAMPLE.relative_to(REPO)} instead.")


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
        path = str(bundle)
    window = MainWindow()
    if size:
        window.resize(*size)  # asked for: a screenshot may be larger than this screen
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


def screenshot(window: MainWindow, out: Path) -> bool:
    """Show, let the first paint happen, grab the window and save the PNG."""
    app = application()
    window.show()
    app.processEvents()
    settle(window)
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
