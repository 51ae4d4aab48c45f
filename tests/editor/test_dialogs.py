"""The New Map dialog itself (widgets → bundle) and Open Recent through isolated settings.
(Help ▸ Rule Reference is tested in test_rule_reference.py.)"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QMessageBox

from conftest import SETTINGS_DIR, use_settings_dir
from editor.dialogs import NewMapDialog
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


def test_new_map_dialog_widgets_build_the_bundle(qtbot: Any, tmp_path: Path, settings_dir: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Values typed into the dialog reach the new document: size, orientation, stagger,
    label scheme, system and folder; it is unsaved and saves to that folder."""
    folder = tmp_path / "fresh-game"

    def fill_and_accept(dlg: NewMapDialog) -> int:
        dlg.cols.setValue(12)
        dlg.rows.setValue(9)
        dlg.orientation.setCurrentText("pointy")
        dlg.stagger.setCurrentText("even")
        dlg.scheme.setCurrentIndex(1)  # CC.RRR (28.048)
        dlg.system.setCurrentText("gts-utah")
        dlg.folder.setText(str(folder))
        return NewMapDialog.DialogCode.Accepted.value

    monkeypatch.setattr(NewMapDialog, "exec", fill_and_accept)
    w = _window(qtbot)
    w.new_map()
    assert w.doc is not None
    hmap = w.doc.hmap
    assert hmap.size() == (12, 9)
    assert hmap.grid.orientation == "pointy" and hmap.grid.stagger == "even"
    assert w.doc.system.id == "gts-utah"
    assert w.doc.bundle.root == folder.resolve()
    first = hmap.hexes()[0]
    assert "." in hmap.label(first) and len(hmap.label(first).split(".")[1]) == 3
    assert {hmap.terrain_at(h) for h in hmap.hexes()} == {w.doc.system.terrain[0].id}
    assert w.doc.is_modified
    assert w.save()
    assert (folder / "maps" / "map.yaml").exists() and not w.doc.is_modified


def test_new_map_dialog_cancel_keeps_the_document(qtbot: Any, settings_dir: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(NewMapDialog, "exec", lambda dlg: NewMapDialog.DialogCode.Rejected.value)
    w = _window(qtbot)
    assert w.open_path(MINI)
    doc = w.doc
    w.new_map()
    assert w.doc is doc


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
