"""Open Recent through isolated settings. (File ▸ New Bundle… is tested in
test_new_bundle_wizard.py, Help ▸ Rule Reference in test_rule_reference.py.)"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QMessageBox

from conftest import SETTINGS_DIR, use_settings_dir
from editor.main_window import MainWindow
from helpers import MINI


@pytest.fixture
def settings_dir(tmp_path: Path) -> Iterator[Path]:
    """QSettings of this test live in its own temp folder (then the session's temp folder again)."""
    d = tmp_path / "settings"
    d.mkdir()
    use_settings_dir(d)
    yield d
    # Back to the session's temp settings (tests/conftest.py), never the user's own folder.
    use_settings_dir(SETTINGS_DIR)


@pytest.fixture(autouse=True)
def no_prompts(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(MainWindow, "ask_save", lambda self: QMessageBox.StandardButton.Discard)
    monkeypatch.setattr(MainWindow, "ask_recover", lambda self, path: False)
    monkeypatch.setenv("HEXPROOF_RECOVERY_DIR", str(tmp_path / "recovery"))


def _window(qtbot: Any) -> MainWindow:
    w = MainWindow(autosave_seconds=3600)
    qtbot.addWidget(w)
    return w


def test_open_recent_round_trips_through_settings(qtbot: Any, tmp_path: Path, settings_dir: Path) -> None:
    """Opening a bundle records it; a new window (fresh QSettings read) lists it first and
    its menu action opens it."""
    w1 = _window(qtbot)
    assert w1.open_path(MINI)
    w1.settings.sync()
    assert any(settings_dir.rglob("*")), "settings were written to the isolated folder"
    w2 = _window(qtbot)
    actions = w2.recent_menu.actions()
    assert actions and actions[0].text() == str(w1.doc.path)  # type: ignore[union-attr]
    assert w2.doc is None
    actions[0].trigger()
    assert w2.doc is not None and w2.doc.path == w1.doc.path  # type: ignore[union-attr]


def test_open_recent_is_capped_and_most_recent_first(qtbot: Any, tmp_path: Path, settings_dir: Path) -> None:
    from editor.main_window import MAX_RECENT

    w = _window(qtbot)
    for i in range(MAX_RECENT + 3):
        w._add_recent(str(tmp_path / f"b{i}"))
    w._add_recent(str(tmp_path / "b2"))
    texts = [a.text() for a in w.recent_menu.actions()]
    assert len(texts) == MAX_RECENT and texts[0] == str(tmp_path / "b2")
    assert texts.count(str(tmp_path / "b2")) == 1
