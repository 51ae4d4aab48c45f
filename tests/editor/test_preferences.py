"""Edit ▸ Preferences… (issue #21: it had one setting): autosave interval, autosave after the
last edit, the file watch's delay — applied to the window and kept in the settings — and Reset
Panel Layouts."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtCore import QSettings

from editor.main_window import MainWindow
from editor.preferences import FIELDS
from helpers import MINI, no_modal_prompts, show_window  # noqa: F401 (autouse fixture)


@pytest.fixture(autouse=True)
def forget_preferences() -> Iterator[None]:
    yield
    settings = QSettings("Hexproof", "Hexproof")
    for key, *_ in FIELDS:
        settings.remove(key)  # later tests' windows start with the defaults


def test_preferences_apply_and_persist(qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HEXPROOF_AUTOSAVE_SECONDS", raising=False)
    w = show_window(qtbot, MINI)
    dialog = w.preferences()
    assert set(dialog.fields) == {"autosave/seconds", "autosave/after_edit_ms", "files/watch_debounce_ms"}
    assert dialog.fields["autosave/seconds"].value() == w.autosave_timer.interval() // 1000
    dialog.fields["autosave/seconds"].setValue(45)
    dialog.fields["autosave/after_edit_ms"].setValue(1500)
    dialog.fields["files/watch_debounce_ms"].setValue(250)
    dialog.accept()
    assert w.autosave_timer.interval() == 45000 and w.autosave_after_edit.interval() == 1500
    assert w.disk_watcher.timer.interval() == 250
    again = MainWindow()  # a new session reads them back
    qtbot.addWidget(again)
    assert again.autosave_timer.interval() == 45000 and again.autosave_after_edit.interval() == 1500
    assert again.disk_watcher.timer.interval() == 250


def test_cancel_changes_nothing(qtbot: Any) -> None:
    w = show_window(qtbot, MINI)
    before = w.autosave_timer.interval()
    dialog = w.preferences()
    dialog.fields["autosave/seconds"].setValue(7)
    dialog.reject()
    assert w.autosave_timer.interval() == before


def test_reset_panel_layouts_brings_the_default_docks_back(qtbot: Any) -> None:
    w = show_window(qtbot, MINI)
    assert w.set_mode("scenario")
    zones = next(d for d in w.scenario_mode.docks if d.objectName() == "scenario-zones-dock")
    zones.close()
    assert w.set_mode("map") and w.set_mode("scenario") and not zones.isVisible()
    assert w.set_mode("map")
    w.preferences().reset_button.click()
    assert w.layouts == {}
    assert w.set_mode("scenario") and zones.isVisible()
