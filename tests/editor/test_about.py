"""Help ▸ About shows the version (issue #21): the one ``hexproof edit`` starts the editor with."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication

from editor.main_window import MainWindow
from helpers import MINI, no_modal_prompts, show_window  # noqa: F401 (autouse fixture)
from hexproof import __version__


@pytest.fixture
def app_version() -> Any:
    before = QCoreApplication.applicationVersion()
    yield
    QCoreApplication.setApplicationVersion(before)


def test_about_names_the_version_and_the_open_bundle(qtbot: Any, app_version: None) -> None:
    QCoreApplication.setApplicationVersion("9.8.7")
    w = show_window(qtbot, MINI)
    box = w.about()
    assert box.text().startswith("Hexproof 9.8.7\n")
    assert w.doc is not None and w.doc.bundle.game.name in box.text()


def test_about_without_a_version_says_so(qtbot: Any, app_version: None) -> None:
    QCoreApplication.setApplicationVersion("")
    w = MainWindow(autosave_seconds=3600)
    qtbot.addWidget(w)
    assert "Hexproof unknown" in w.about().text()


def test_hexproof_edit_starts_the_editor_with_the_cli_version(qapp: Any, tmp_path: Path, app_version: None,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from hexproof.cli import main

    monkeypatch.setenv("HEXPROOF_RECOVERY_DIR", str(tmp_path / "recovery"))
    monkeypatch.setattr(MainWindow, "ask_recover", lambda self, path: False)
    QCoreApplication.setApplicationVersion("")
    assert main(["edit", str(MINI), "--screenshot", str(tmp_path / "x.png")]) == 0
    assert QCoreApplication.applicationVersion() == __version__
