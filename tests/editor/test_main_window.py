"""Main window: bad files give a dialog and a live app, "*" while modified, save failure
keeps the document modified, close prompts, autosave and recovery, actions from the table."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QMessageBox

from editor.actions import ACTIONS
from editor.commands import PaintTerrain
from editor.main_window import MainWindow
from editor.new_map import new_bundle
from helpers import MINI


@pytest.fixture(autouse=True)
def no_modal_prompts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Modal questions would block a headless run: default to Discard / no recovery."""
    monkeypatch.setattr(MainWindow, "ask_save", lambda self: QMessageBox.StandardButton.Discard)
    monkeypatch.setattr(MainWindow, "ask_recover", lambda self, path: False)


@pytest.fixture
def recovery_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    d = tmp_path / "recovery"
    monkeypatch.setenv("HEXPROOF_RECOVERY_DIR", str(d))
    return d


@pytest.fixture
def bundle_copy(tmp_path: Path) -> Path:
    dest = tmp_path / "mini"
    shutil.copytree(MINI, dest)
    return dest


@pytest.fixture
def window(qtbot: Any, recovery_dir: Path) -> MainWindow:
    w = MainWindow(autosave_seconds=3600)
    qtbot.addWidget(w)
    w.show()
    return w


def _paint(w: MainWindow) -> None:
    assert w.doc is not None
    h = w.doc.hmap.parse("0502")
    w.doc.push(PaintTerrain(w.doc, {h: "woods"}))


@pytest.mark.parametrize("breakage", ["yaml", "schema", "missing", "label"])
def test_bad_bundle_shows_dialog_and_app_lives(window: MainWindow, bundle_copy: Path, breakage: str) -> None:
    """A broken bundle yields a dialog naming file:line and the window keeps working."""
    game = bundle_copy / "game.yaml"
    if breakage == "yaml":
        game.write_text("id: [unclosed\n", encoding="utf-8")
    elif breakage == "schema":
        game.write_text(game.read_text(encoding="utf-8") + "bogus_key: 1\n", encoding="utf-8")
    elif breakage == "missing":
        shutil.rmtree(bundle_copy)
    else:
        m = bundle_copy / "maps" / "mini.yaml"
        m.write_text(m.read_text(encoding="utf-8").replace("0303/S", "9x9/S"), encoding="utf-8")
    ok = window.open_path(bundle_copy)
    assert window.dialogs, "no dialog shown"
    box = window.dialogs[-1]
    assert box.isVisible() and not box.isModal()
    details = box.detailedText()
    assert details
    if breakage in ("yaml", "schema", "label"):
        assert ":" in details and ("game.yaml" in details or "mini.yaml" in details)
    assert ok is False
    # The app is alive: it can still open a good bundle.
    assert window.open_path(MINI)
    assert window.doc is not None


def test_title_star_and_save(window: MainWindow, bundle_copy: Path) -> None:
    """Editing puts "*" in the title; saving writes the file and clears it."""
    assert window.open_path(bundle_copy)
    assert "*" not in window.windowTitle()
    _paint(window)
    assert "*" in window.windowTitle()
    assert window.save()
    assert "*" not in window.windowTitle()
    from model.bundle import load_bundle

    reloaded = load_bundle(bundle_copy).bundle
    assert reloaded is not None
    assert reloaded.default_map.terrain_at(reloaded.default_map.parse("0502")) == "woods"


def test_save_failure_shows_error_and_stays_modified(window: MainWindow, bundle_copy: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A failing atomic save reports an error and the document stays modified."""
    assert window.open_path(bundle_copy)
    _paint(window)

    def boom(*_a: Any, **_k: Any) -> None:
        raise PermissionError("read-only folder")

    assert window.doc is not None
    monkeypatch.setattr(window.doc.bundle, "save", boom)
    assert not window.save()
    assert window.doc.is_modified
    assert "read-only" in window.dialogs[-1].text()
    assert "*" in window.windowTitle()


def test_close_prompts_on_unsaved_changes(window: MainWindow, bundle_copy: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Cancel keeps the window open; Discard closes it."""
    assert window.open_path(bundle_copy)
    _paint(window)
    answers = [QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Discard]
    asked: list[int] = []

    def ask() -> QMessageBox.StandardButton:
        asked.append(1)
        return answers[len(asked) - 1]

    monkeypatch.setattr(window, "ask_save", ask)
    assert not window.close()
    assert window.isVisible()
    assert window.close()
    assert len(asked) == 2


def test_autosave_and_recovery_offer(window: MainWindow, bundle_copy: Path, recovery_dir: Path,
                                     monkeypatch: pytest.MonkeyPatch, qtbot: Any) -> None:
    """Autosave writes a recovery copy; reopening offers it and recovers the edit as unsaved."""
    assert window.open_path(bundle_copy)
    _paint(window)
    rdir = window.autosave()
    assert rdir is not None and (rdir / "maps" / "mini.yaml").exists()
    assert (bundle_copy / "maps" / "mini.yaml").read_text(encoding="utf-8") == \
        (MINI / "maps" / "mini.yaml").read_text(encoding="utf-8")  # the user's files are untouched
    other = MainWindow(autosave_seconds=3600)
    qtbot.addWidget(other)
    offered: list[Path] = []
    monkeypatch.setattr(other, "ask_recover", lambda p: offered.append(p) or True)
    assert other.open_path(bundle_copy)
    assert offered == [bundle_copy]
    assert other.doc is not None
    assert other.doc.hmap.terrain_at(other.doc.hmap.parse("0502")) == "woods"
    assert other.doc.is_modified and other.doc.path == bundle_copy
    monkeypatch.setattr(other, "ask_save", lambda: QMessageBox.StandardButton.Discard)


def test_autosave_timer_fires(qtbot: Any, recovery_dir: Path, bundle_copy: Path) -> None:  # noqa: D103
    """With a 1 s interval the timer writes the recovery copy of a dirty document by itself."""
    w = MainWindow(autosave_seconds=1)
    qtbot.addWidget(w)
    assert w.open_path(bundle_copy)
    _paint(w)
    qtbot.waitUntil(lambda: any(recovery_dir.rglob("mini.yaml")), timeout=5000)
    assert w.doc is not None
    w.doc.undo_stack.setClean()


def test_actions_come_from_the_table(window: MainWindow) -> None:
    """Every row of the action table is a QAction; standard shortcuts are set."""
    for spec in ACTIONS:
        assert spec.id in window.actions_by_id
    assert not window.actions_by_id["file.save"].shortcut().isEmpty()
    assert window.actions_by_id["view.fit"].shortcut().toString() == "Ctrl+0"


def test_layer_toggle_and_menu_sync(window: MainWindow) -> None:
    """Unchecking a layer hides it in the view and syncs the menu and the layers dock."""
    assert window.open_path(MINI)
    assert window.scene is not None and window.scene.details is not None
    window.actions_by_id["view.layer.grid"].setChecked(False)
    assert window.scene.terrain is not None and window.scene.terrain.grid.grid_lines is False
    assert not window.layers_panel.checks["grid"].isChecked()
    window.layers_panel.checks["paths"].setChecked(False)
    assert window.scene.details.visible_layers["paths"] is False
    assert not window.actions_by_id["view.layer.paths"].isChecked()


def test_new_bundle_is_filled_with_first_terrain(qapp: Any, tmp_path: Path) -> None:
    """The in-memory one-map bundle (editor/new_map.py) has the requested size, all first-terrain, and saves."""
    system = str(MINI / "system.yaml")
    bundle, diags = new_bundle(tmp_path / "fresh", system, 5, 3)
    assert bundle is not None, diags
    hmap = bundle.default_map
    assert len(hmap.hexes()) == 15
    assert {hmap.terrain_at(h) for h in hmap.hexes()} == {"clear"}
    bundle.save()
    assert (tmp_path / "fresh" / "maps" / "map.yaml").exists()


def test_save_as_makes_a_loadable_copy(qapp: Any, tmp_path: Path) -> None:
    """Save As writes a complete bundle elsewhere (local system file included) and moves the document there."""
    from editor.document import MapDocument
    from model.bundle import load_bundle

    doc, _ = MapDocument.open(MINI)
    assert doc is not None
    doc.push(PaintTerrain(doc, {doc.hmap.parse("0502"): "woods"}))
    dest = tmp_path / "copy"
    doc.save(dest)
    assert doc.path == dest and not doc.is_modified
    result = load_bundle(dest)
    assert result.bundle is not None, result.diagnostics
    assert result.bundle.default_map.terrain_at(result.bundle.default_map.parse("0502")) == "woods"
    # The original fixture is untouched.
    assert load_bundle(MINI).bundle.default_map.terrain_at(doc.hmap.parse("0502")) == "clear"  # type: ignore[union-attr]
