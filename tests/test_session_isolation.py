"""Tests never touch the user's settings, recent files or recovery copies: tests/conftest.py
points all of them at one temp folder for the whole session, before any QSettings exists."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings, QStandardPaths

from conftest import REPO, SESSION_TMP, SETTINGS_DIR


def test_session_settings_file_lives_in_the_temp_folder(qtbot: Any) -> None:
    from editor.main_window import MainWindow
    from editor.recovery import recovery_root

    w = MainWindow(autosave_seconds=3600)
    qtbot.addWidget(w)
    w.settings.setValue("isolation/probe", "written by the test session")
    w.settings.sync()
    settings_file = Path(w.settings.fileName())
    assert settings_file.is_relative_to(SETTINGS_DIR), settings_file
    assert settings_file.is_file() and "written by the test session" in settings_file.read_text(encoding="utf-8")
    assert SESSION_TMP != Path.home() and not SESSION_TMP.is_relative_to(Path.home() / ".config")
    assert recovery_root().is_relative_to(SESSION_TMP)
    for loc in (QStandardPaths.StandardLocation.AppDataLocation, QStandardPaths.StandardLocation.ConfigLocation,
                QStandardPaths.StandardLocation.CacheLocation):
        assert Path(QStandardPaths.writableLocation(loc)).is_relative_to(SESSION_TMP), loc
    # The same for settings any other code creates, in either format.
    ini = QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "Hexproof", "Other")
    assert Path(ini.fileName()).is_relative_to(SETTINGS_DIR)


def test_subprocesses_inherit_the_temp_settings() -> None:
    """`hexproof` processes started by tests (QT_QPA_PLATFORM=offscreen) see the same folders."""
    code = ("from PySide6.QtCore import QCoreApplication, QSettings; app = QCoreApplication([]); "
            "print(QSettings('Hexproof', 'Hexproof').fileName())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO,
                         env=dict(os.environ), timeout=120, check=True).stdout.strip()
    assert Path(out).is_relative_to(SESSION_TMP), out
