"""A Qt application for headless exports (CLI): always offscreen (exports open no window,
and a DISPLAY variable does not promise a usable X server)."""

from __future__ import annotations

import os
import sys

from PySide6.QtWidgets import QApplication


def ensure_app() -> QApplication:
    """The running QApplication (the editor's), or a new offscreen one."""
    app = QApplication.instance()
    if app is None:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        app = QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    return app
