"""A Qt application for headless exports (CLI): offscreen unless a display is there."""

from __future__ import annotations

import os
import sys

from PySide6.QtWidgets import QApplication


def ensure_app() -> QApplication:
    """The running QApplication, or a new one (offscreen when there is no display)."""
    app = QApplication.instance()
    if app is None:
        if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
            os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        app = QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    return app
