"""Edit ▸ Preferences… (issue #21: it had one setting): autosave interval, autosave after the
last edit, the file watch's delay, the default folder, units and the proof's print scale, the
label font size and the rulebook locations — applied to the window and kept in the settings —
and Reset Panel Layouts."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings

from editor import preferences as prefs
from editor.main_window import MainWindow
from editor.preferences import FIELDS
from editor.rule_reference import settings_key
from helpers import MINI, no_modal_prompts, show_window  # noqa: F401 (autouse fixture)


@pytest.fixture(autouse=True)
def forget_preferences() -> Iterator[None]:
    yield
    settings = QSettings("Hexproof", "Hexproof")
    for key, *_ in FIELDS:
        settings.remove(key)  # later tests' windows start with the defaults
    for key in prefs.DEFAULTS:
        settings.remove(key)
    settings.remove(prefs.RULEBOOK_GROUP)


def test_preferences_apply_and_persist(qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HEXPROOF_AUTOSAVE_SECONDS", raising=False)
    w = show_window(qtbot, MINI)
    dialog = w.preferences()
    assert set(dialog.fields) == {"autosave/seconds", "autosave/after_edit_ms", "files/watch_debounce_ms"}
    assert set(dialog.values()) == set(dialog.fields) | set(prefs.DEFAULTS)
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


def test_default_folder_is_where_dialogs_start_without_a_bundle(qtbot: Any, tmp_path: Path) -> None:
    w = MainWindow(autosave_seconds=3600)
    qtbot.addWidget(w)
    assert w.start_folder() is None  # nothing chosen, nothing open
    dialog = w.preferences()
    dialog.ask_folder = lambda: str(tmp_path)  # type: ignore[method-assign]
    dialog._browse_folder()
    assert dialog.default_folder.text() == str(tmp_path)
    dialog.accept()
    assert w.start_folder() == tmp_path
    assert MainWindow(autosave_seconds=3600).start_folder() == tmp_path  # kept for the next session
    assert w.open_path(MINI)
    assert w.start_folder() == MINI.parent  # the open bundle's folder is nearer


def test_a_default_folder_that_went_away_is_not_used(qtbot: Any, tmp_path: Path) -> None:
    gone = tmp_path / "gone"
    QSettings("Hexproof", "Hexproof").setValue(prefs.DEFAULT_FOLDER, str(gone))
    w = MainWindow(autosave_seconds=3600)
    qtbot.addWidget(w)
    assert w.start_folder() is None


def test_units_change_shows_the_same_sizes_in_inches(qtbot: Any) -> None:
    w = show_window(qtbot, MINI)
    dialog = w.preferences()
    hex_spin, counter_spin = dialog.sizes[prefs.HEX_MM], dialog.sizes[prefs.COUNTER_MM]
    assert hex_spin.value() == pytest.approx(16.0) and hex_spin.suffix() == " mm"
    dialog.units.setCurrentIndex(dialog.units.findData("in"))
    assert hex_spin.suffix() == " in" and counter_spin.suffix() == " in"
    assert counter_spin.value() == pytest.approx(0.625, abs=1e-3)  # 15.875 mm is 5/8 inch
    hex_spin.setValue(0.75)  # typed in inches…
    dialog.accept()
    settings = QSettings("Hexproof", "Hexproof")
    assert float(settings.value(prefs.HEX_MM)) == pytest.approx(19.05)  # …stored in millimetres
    assert settings.value(prefs.UNITS) == "in"
    again = w.preferences()
    assert again.units.currentData() == "in" and again.sizes[prefs.HEX_MM].value() == pytest.approx(0.75)
    again.reject()


def test_the_proof_pdf_prints_at_the_preferred_scale(qtbot: Any, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    w = show_window(qtbot, MINI)
    dialog = w.preferences()
    dialog.sizes[prefs.HEX_MM].setValue(20.0)
    dialog.sizes[prefs.COUNTER_MM].setValue(12.7)
    dialog.page.setCurrentText("Letter")
    dialog.accept()
    seen: list[Any] = []
    import editor.export.pdf as pdf

    monkeypatch.setattr(pdf, "export_proof_pdf", lambda bundle, out, options=None, progress=None: seen.append(options))
    assert w.export_ui.export_pdf(tmp_path / "proof.pdf") is not None
    assert (seen[0].hex_mm, seen[0].counter_mm, seen[0].page) == (20.0, 12.7, "Letter")


def test_stale_or_hand_edited_settings_give_the_defaults(qtbot: Any) -> None:
    settings = QSettings("Hexproof", "Hexproof")
    for key, value in ((prefs.HEX_MM, "huge"), (prefs.COUNTER_MM, 1000), (prefs.UNITS, "furlongs"),
                       (prefs.PAGE, "A0"), (prefs.LABEL_PERCENT, "x")):
        settings.setValue(key, value)
    assert prefs.read(settings, prefs.HEX_MM) == 16.0
    assert prefs.read(settings, prefs.COUNTER_MM) == prefs.SIZE_RANGE_MM[prefs.COUNTER_MM][1]
    assert prefs.read(settings, prefs.UNITS) == "mm" and prefs.read(settings, prefs.PAGE) == "A4"
    assert prefs.read(settings, prefs.LABEL_PERCENT) == 100
    w = show_window(qtbot, MINI)  # opens, and its dialog shows the defaults
    w.preferences().reject()


def test_label_font_size_redraws_the_map_labels_bigger(qtbot: Any) -> None:
    w = show_window(qtbot, MINI)
    assert w.scene is not None and w.scene.details is not None
    before = w.grab().toImage()
    dialog = w.preferences()
    dialog.label_percent.setValue(200)
    dialog.accept()
    assert w.scene.details.label_scale == 2.0
    qtbot.waitUntil(lambda: w.grab().toImage() != before, timeout=5000)  # the tiles were redrawn
    assert w.open_path(MINI) and w.scene.details.label_scale == 2.0  # a new scene keeps it


def test_rulebook_locations_list_choose_and_clear(qtbot: Any, tmp_path: Path) -> None:
    w = show_window(qtbot, MINI)
    assert w.doc is not None
    system_id = w.doc.system.id
    settings = QSettings("Hexproof", "Hexproof")
    settings.setValue(settings_key("other-game"), "/books/other.txt")
    dialog = w.preferences()
    assert dialog.rulebook_paths() == {"other-game": "/books/other.txt", system_id: ""}
    book = tmp_path / "rules.txt"
    book.write_text("1.0 Introduction\n")
    row = [dialog.rulebooks.item(r, 0).text() for r in range(dialog.rulebooks.rowCount())].index(system_id)
    dialog.rulebooks.selectRow(row)
    dialog.ask_rulebook = lambda system: str(book)  # type: ignore[method-assign]
    dialog.choose_rulebook.click()
    dialog.rulebooks.selectRow(1 - row)
    dialog.clear_rulebook.click()
    dialog.accept()
    assert settings.value(settings_key(system_id)) == str(book)  # Help ▸ Rule Reference reads this key
    assert settings.value(settings_key("other-game")) is None


def test_a_closed_preferences_dialog_is_deleted(qtbot: Any) -> None:
    """Each opening builds a fresh dialog; the closed ones do not pile up under the window."""
    from PySide6.QtCore import QCoreApplication, QEvent

    w = show_window(qtbot, MINI)
    for close in ("accept", "reject", "accept"):
        dialog = w.preferences()
        assert w.preferences_dialog is dialog
        getattr(dialog, close)()
        assert w.preferences_dialog is None
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    assert w.findChildren(prefs.PreferencesDialog) == []
