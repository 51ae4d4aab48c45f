"""The New Map dialog itself (widgets → bundle), Open Recent through isolated settings, and
Help ▸ Rule Reference resolving to a real file (the URL is captured, no browser opens)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings, QStandardPaths, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QMessageBox

from conftest import REPO, SHARED
from editor.dialogs import NewMapDialog
from editor.main_window import MainWindow
from helpers import MINI


@pytest.fixture
def settings_dir(tmp_path: Path) -> Iterator[Path]:
    """QSettings of this test live in a temp folder (restored afterwards)."""
    d = tmp_path / "settings"
    d.mkdir()
    fmt, scope = QSettings.Format.NativeFormat, QSettings.Scope.UserScope
    QSettings.setPath(fmt, scope, str(d))
    QSettings.setPath(QSettings.Format.IniFormat, scope, str(d))
    yield d
    default = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.GenericConfigLocation)
    QSettings.setPath(fmt, scope, default)
    QSettings.setPath(QSettings.Format.IniFormat, scope, default)


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


def test_rule_reference_opens_the_systems_rulebook(qtbot: Any, settings_dir: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """For the default sample (GTS) Help ▸ Rule Reference opens an existing local file: the
    system's rules page under docs/rules, or its rulebook text."""
    opened: list[QUrl] = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url) or True)
    from editor.app import default_bundle

    w = _window(qtbot)
    assert w.open_path(default_bundle()[0]) and w.doc is not None
    w.actions_by_id["help.rules"].trigger()
    assert len(opened) == 1 and opened[0].isLocalFile()
    path = Path(opened[0].toLocalFile())
    assert path.exists()
    system = w.doc.system
    allowed = {REPO / "docs" / "rules" / f"{system.id}.md"}
    if system.rulebook:
        allowed |= {REPO / system.rulebook, SHARED / system.rulebook}
    assert path in allowed
    if system.rulebook:
        assert path.name == Path(system.rulebook).name or path.suffix == ".md"


def test_rule_reference_without_any_file_says_so(qtbot: Any, settings_dir: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[QUrl] = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url) or True)
    w = _window(qtbot)
    assert w.open_path(MINI) and w.doc is not None
    monkeypatch.setattr(w.doc.system, "rulebook", None, raising=False)
    w.dialogs.clear()
    w.rule_reference()
    if opened:  # a docs/rules page exists for this system id
        assert Path(opened[0].toLocalFile()) == REPO / "docs" / "rules" / f"{w.doc.system.id}.md"
    else:
        assert w.dialogs and "No rule reference" in w.dialogs[-1].text()
