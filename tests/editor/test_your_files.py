"""Never overwrite without asking (issue #14 part 4): Save As into folders that hold something
(File ▸ New Bundle… never writes into one at all: test_new_bundle_wizard.py), saves over
files changed on disk, the file watcher and its notice bar.

Dialogs are the window's ``ask_*`` methods, patched per test; nothing modal ever opens."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any, Iterator

import pytest
from PySide6.QtCore import QSettings, QStandardPaths
from PySide6.QtWidgets import QMessageBox

from editor.commands import PaintTerrain
from editor.main_window import MainWindow
from helpers import MINI, no_modal_prompts  # noqa: F401
from model.bundle import load_bundle


@pytest.fixture
def settings_dir(tmp_path: Path) -> Iterator[Path]:
    """QSettings of this test live in a temp folder (restored afterwards)."""
    d = tmp_path / "settings"
    d.mkdir()
    scope = QSettings.Scope.UserScope
    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, scope, str(d))
    yield d
    default = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.GenericConfigLocation)
    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, scope, default)


@pytest.fixture
def bundle_copy(tmp_path: Path) -> Path:
    dest = tmp_path / "mini"
    shutil.copytree(MINI, dest)
    return dest


@pytest.fixture
def window(qtbot: Any, settings_dir: Path) -> MainWindow:
    w = MainWindow(autosave_seconds=3600)
    qtbot.addWidget(w)
    w.show()
    return w


def _paint(w: MainWindow, label: str = "0502", terrain: str = "woods") -> None:
    assert w.doc is not None
    w.doc.push(PaintTerrain(w.doc, {w.doc.hmap.parse(label): terrain}))


def _snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


# --- Save As -------------------------------------------------------------------------------


def test_save_as_creates_a_missing_nested_folder(window: MainWindow, bundle_copy: Path, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Save As to a typed folder name whose parents do not exist creates them and saves there."""
    assert window.open_path(bundle_copy)
    _paint(window)
    target = tmp_path / "new" / "nested" / "copy"
    monkeypatch.setattr(window, "ask_save_as_folder", lambda: str(target))
    monkeypatch.setattr(window, "ask_replace", lambda f, what: pytest.fail("asked about a missing folder"))
    assert window.save_as()
    assert window.doc is not None and window.doc.path == target.resolve() and not window.doc.is_modified
    result = load_bundle(target)
    assert result.bundle is not None, result.diagnostics
    assert result.bundle.default_map.terrain_at(result.bundle.default_map.parse("0502")) == "woods"
    assert set(result.bundle.scenarios) == {"base", "variant"}
    assert load_bundle(bundle_copy).bundle.default_map.terrain_at(  # type: ignore[union-attr]
        window.doc.hmap.parse("0502")) == "clear"


def test_save_as_into_another_bundle_asks_first(window: MainWindow, bundle_copy: Path, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    other = tmp_path / "other"
    shutil.copytree(MINI, other)
    (other / "scenarios" / "extra.yaml").write_text((other / "scenarios" / "base.yaml").read_text(encoding="utf-8")
                                                    .replace("id: base", "id: extra"), encoding="utf-8")
    before = _snapshot(other)
    assert window.open_path(bundle_copy)
    _paint(window)
    monkeypatch.setattr(window, "ask_save_as_folder", lambda: str(other))
    asked: list[str] = []
    monkeypatch.setattr(window, "ask_replace", lambda f, what: asked.append(what) or "cancel")
    assert not window.save_as()
    assert asked and "already holds the game bundle" in asked[0]
    assert _snapshot(other) == before
    assert window.doc is not None and window.doc.path == bundle_copy and window.doc.is_modified


# --- changed on disk -------------------------------------------------------------------------


def _rename_scenario_on_disk(bundle: Path, new_name: str = "Changed by git") -> bytes:
    """Another program rewrites scenarios/base.yaml (by rename, as git does); returns its bytes."""
    path = bundle / "scenarios" / "base.yaml"
    text = path.read_text(encoding="utf-8")
    lines = [f"name: {new_name}" if line.startswith("name:") else line for line in text.splitlines()]
    data = ("\n".join(lines) + "\n").encode()
    assert data != path.read_bytes()
    tmp = path.with_name("base.yaml.git-tmp")
    tmp.write_bytes(data)
    tmp.replace(path)
    return data


def test_change_on_disk_is_noticed_and_save_asks(window: MainWindow, bundle_copy: Path, qtbot: Any,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The watcher shows the notice; saving asks with the files and a semantic summary; Cancel
    leaves the file as the other program wrote it, and the document stays modified."""
    assert window.open_path(bundle_copy)
    _paint(window)
    theirs = _rename_scenario_on_disk(bundle_copy)
    qtbot.waitUntil(lambda: window.disk_notice.isVisible(), timeout=10000)
    assert "scenarios/base.yaml" in window.disk_notice_label.text()
    assert "saving will ask" in window.disk_notice_label.text()  # modified: a warning, not an offer
    asked: list[tuple[list[str], str]] = []
    monkeypatch.setattr(window, "ask_overwrite", lambda files, summary: asked.append((files, summary)) or "cancel")
    assert not window.save()
    assert asked and asked[0][0] == ["scenarios/base.yaml"]
    summary = asked[0][1]
    assert "Changed by git" in summary and "the files on disk now" in summary
    assert (bundle_copy / "scenarios" / "base.yaml").read_bytes() == theirs
    assert window.doc is not None and window.doc.is_modified
    # Overwrite: our version lands, and the notice goes away (our own write is not "outside").
    monkeypatch.setattr(window, "ask_overwrite", lambda files, summary: "overwrite")
    assert window.save()
    assert (bundle_copy / "scenarios" / "base.yaml").read_bytes() != theirs
    # base.yaml was not edited here: Overwrite still writes our version of it back, so memory
    # and disk agree and a later patch of it cannot silently undo the other program's change.
    reread = load_bundle(bundle_copy).bundle
    assert reread is not None and reread.scenarios["base"].name != "Changed by git"
    assert not window.disk_notice.isVisible()
    assert window.doc.changed_on_disk() == []


def test_reload_from_the_save_question(window: MainWindow, bundle_copy: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """"Reload (discard my edits)" opens the files as the other program left them."""
    assert window.open_path(bundle_copy)
    _paint(window)
    theirs = _rename_scenario_on_disk(bundle_copy)
    monkeypatch.setattr(window, "ask_overwrite", lambda files, summary: "reload")
    assert not window.save()
    assert window.doc is not None and not window.doc.is_modified
    assert window.doc.bundle.scenarios["base"].name == "Changed by git"
    assert window.doc.hmap.terrain_at(window.doc.hmap.parse("0502")) == "clear"
    assert (bundle_copy / "scenarios" / "base.yaml").read_bytes() == theirs


def test_unmodified_document_offers_reload(window: MainWindow, bundle_copy: Path, qtbot: Any) -> None:
    assert window.open_path(bundle_copy)
    _rename_scenario_on_disk(bundle_copy)
    qtbot.waitUntil(lambda: window.disk_notice.isVisible(), timeout=10000)
    assert window.disk_notice_reload.text() == "Reload"
    window.disk_notice_reload.trigger()
    assert window.doc is not None and window.doc.bundle.scenarios["base"].name == "Changed by git"
    assert not window.disk_notice.isVisible()


def test_own_saves_are_not_reported(window: MainWindow, bundle_copy: Path, qtbot: Any) -> None:
    """Our own save fires the watcher too; comparing hashes tells it apart: no notice."""
    assert window.open_path(bundle_copy)
    _paint(window)
    checks = window.disk_watcher.checks
    assert window.save()
    qtbot.waitUntil(lambda: window.disk_watcher.checks > checks, timeout=10000)
    assert not window.disk_notice.isVisible() and window.disk_changes == []


def test_a_burst_of_changes_is_one_check(window: MainWindow, bundle_copy: Path, qtbot: Any) -> None:
    """git checkout writes many files: the watcher waits for the burst to end, then checks once."""
    assert window.open_path(bundle_copy)
    checks = window.disk_watcher.checks
    _rename_scenario_on_disk(bundle_copy)
    for rel in ("scenarios/variant.yaml", "counters.yaml", "maps/mini.yaml"):
        path = bundle_copy / rel
        path.write_bytes(path.read_bytes() + b"# touched by git\n")
    qtbot.waitUntil(lambda: window.disk_notice.isVisible(), timeout=10000)
    assert window.disk_watcher.checks == checks + 1
    for rel in ("scenarios/base.yaml", "scenarios/variant.yaml", "counters.yaml", "maps/mini.yaml"):
        assert rel in window.disk_changes


# --- autosave after an edit ------------------------------------------------------------------


def test_autosave_runs_soon_after_an_edit(qtbot: Any, settings_dir: Path, bundle_copy: Path) -> None:
    """With "autosave/after_edit_ms" small, an edit is autosaved without the 120 s timer."""
    QSettings("Hexproof", "Hexproof").setValue("autosave/after_edit_ms", 50)
    w = MainWindow(autosave_seconds=3600)
    qtbot.addWidget(w)
    assert w.autosave_after_edit.interval() == 50
    assert w.open_path(bundle_copy)
    _paint(w)
    qtbot.waitUntil(lambda: w.last_autosave is not None, timeout=10000)
    from editor import recovery

    copy = recovery.find_copy(bundle_copy)
    assert copy is not None and not copy.broken and copy.changed_since == []
    assert w.doc is not None
    assert (copy.path / "maps" / "mini.yaml").read_text(encoding="utf-8") == w.doc.dump()["maps/mini.yaml"]


# --- the real questions: default buttons ------------------------------------------------------


def _press_default_when_shown(qtbot: Any) -> list[str]:
    """Press Enter (the default button) on the modal box as soon as it is up."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    seen: list[str] = []

    def press() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(10, press)
            return
        seen.append(box.text() + "\n" + box.informativeText())
        box.defaultButton().click()

    QTimer.singleShot(0, press)
    return seen


def test_replace_and_overwrite_questions_default_to_cancel(window: MainWindow, bundle_copy: Path,
                                                           qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The unpatched questions: Enter means Cancel in both, and they name what they are about."""
    seen = _press_default_when_shown(qtbot)
    assert window.ask_replace(bundle_copy, "holds the game bundle “Mini bundle”") == "cancel"
    assert str(bundle_copy) in seen[0] and "Mini bundle" in seen[0]
    seen = _press_default_when_shown(qtbot)
    assert window.ask_overwrite(["scenarios/base.yaml"], "From A to B:\n  - name changed") == "cancel"
    assert "scenarios/base.yaml" in seen[0] and "name changed" in seen[0]
