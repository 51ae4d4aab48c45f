"""Recovery that says what it has (issue #14 part 5, issue #15 part 6), in-process.

A "crash" here is a window that autosaved and then went away without dropping its copy or its
lock (the real SIGKILL is in test_crash_recovery.py). Each test checks one guarantee of
docs/reliability.md § Recovery guarantees."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QMessageBox

from conftest import FIXTURES
from editor import recovery
from editor.commands import PaintTerrain
from editor.main_window import MainWindow
from model.safefile import file_sha256

MINI = FIXTURES / "bundles" / "mini"


@pytest.fixture(autouse=True)
def isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HEXPROOF_RECOVERY_DIR", str(tmp_path / "recovery"))
    monkeypatch.setattr(MainWindow, "ask_save", lambda self: QMessageBox.StandardButton.Discard)
    monkeypatch.setattr(MainWindow, "ask_recover", lambda self, path: False)


@pytest.fixture
def bundle(tmp_path: Path) -> Path:
    dest = tmp_path / "mini"
    shutil.copytree(MINI, dest)
    return dest


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def crashed_session(bundle: Path, label: str = "0502", terrain: str = "woods") -> Path:
    """A window edits and autosaves, then vanishes as a crash would: copy and lock stay."""
    w = MainWindow(autosave_seconds=3600)
    assert w.open_path(bundle) and w.doc is not None
    w.doc.push(PaintTerrain(w.doc, {w.doc.hmap.parse(label): terrain}))
    rdir = w.autosave()
    assert rdir is not None
    w._discard_recovery = lambda: None  # type: ignore[method-assign]  # a crash cleans nothing up
    w.locked_by = recovery.LockHolder(0, "", Path())  # …and releases no lock
    w.close()
    w.deleteLater()
    return rdir


def offer_window(qtbot: Any, monkeypatch: pytest.MonkeyPatch, answer: bool = True) -> tuple[MainWindow, list[Any]]:
    w = MainWindow(autosave_seconds=3600)
    qtbot.addWidget(w)
    offers: list[Any] = []
    monkeypatch.setattr(w, "ask_recover", lambda path: offers.append(w.recovery_offer) or answer)
    return w, offers


def dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def write_lock(bundle: Path, pid: int) -> None:
    path = recovery.lock_path(bundle)
    path.write_text(json.dumps({"pid": pid, "host": socket.gethostname(), "bundle": str(bundle)}), encoding="utf-8")


# --- what the prompt says --------------------------------------------------------------------


def test_prompt_says_when_and_what(qtbot: Any, bundle: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The offer names the local time of the copy and a semantic diff saved → copy."""
    crashed_session(bundle)
    w, offers = offer_window(qtbot, monkeypatch)
    assert w.open_path(bundle)
    assert len(offers) == 1
    offer = offers[0]
    text = offer.describe()
    assert offer.saved_at is not None and offer.saved_at_text in text and "local time" in text
    assert "terrain clear → woods in 1 hex(es): 0502" in offer.summary
    assert "changed on disk" not in text  # the saved files are what the copy was based on
    assert w.doc is not None and w.doc.is_modified
    assert w.doc.hmap.terrain_at(w.doc.hmap.parse("0502")) == "woods"


# --- the manifest decides, not mtimes --------------------------------------------------------


def test_touching_a_bundle_file_keeps_the_offer(qtbot: Any, bundle: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """After a crash, an mtime-only change (touch, a git checkout of the same bytes) of every
    bundle file still offers the copy, without a warning."""
    crashed_session(bundle)
    future = os.stat(bundle / "game.yaml").st_mtime + 3600
    for p in bundle.rglob("*.yaml"):
        os.utime(p, (future, future))
    w, offers = offer_window(qtbot, monkeypatch)
    assert w.open_path(bundle)
    assert len(offers) == 1 and offers[0].changed_since == []


def test_changed_bundle_is_offered_with_a_warning(qtbot: Any, bundle: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The saved files changed since the copy: still offered, with a warning naming the file;
    saving the recovered edits then asks before replacing the newer file."""
    crashed_session(bundle)
    scen = bundle / "scenarios" / "base.yaml"
    scen.write_text(scen.read_text(encoding="utf-8") + "# edited elsewhere\n", encoding="utf-8")
    w, offers = offer_window(qtbot, monkeypatch)
    assert w.open_path(bundle)
    assert len(offers) == 1
    assert offers[0].changed_since == ["scenarios/base.yaml"]
    assert "changed on disk after this copy was made: scenarios/base.yaml" in offers[0].describe()
    asked: list[list[str]] = []
    monkeypatch.setattr(w, "ask_overwrite", lambda files, summary: asked.append(files) or "cancel")
    assert not w.save()
    assert asked == [["scenarios/base.yaml"]]
    assert scen.read_text(encoding="utf-8").endswith("# edited elsewhere\n")


def test_a_copy_equal_to_the_saved_files_is_not_offered(qtbot: Any, bundle: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    rdir = crashed_session(bundle)
    for p in rdir.rglob("*.yaml"):  # the user saved the same edits elsewhere, then crashed
        shutil.copyfile(p, bundle / p.relative_to(rdir))
    w, offers = offer_window(qtbot, monkeypatch)
    assert w.open_path(bundle)
    assert offers == [] and not rdir.exists()


# --- half-written and broken copies ------------------------------------------------------------


def test_half_written_copy_is_never_used(qtbot: Any, bundle: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A kill during the first autosave leaves only a ``.partial`` folder: not offered, removed."""
    root = recovery.recovery_root()
    root.mkdir(parents=True)
    partial = root / f".{recovery.recovery_dir(bundle).name}.partial-{dead_pid()}-0"
    shutil.copytree(MINI, partial)
    (partial / "maps" / "mini.yaml").write_text("terrain: [half", encoding="utf-8")
    w, offers = offer_window(qtbot, monkeypatch)
    assert w.open_path(bundle)
    assert offers == [] and not w.dialogs
    assert not partial.exists() and not recovery.recovery_dir(bundle).exists()


def test_kill_between_the_two_renames_keeps_the_previous_copy(qtbot: Any, bundle: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    rdir = crashed_session(bundle)
    replaced = rdir.with_name(f".{rdir.name}.replaced-{dead_pid()}-0")
    os.rename(rdir, replaced)  # the old copy moved aside, the new one not yet in place
    w, offers = offer_window(qtbot, monkeypatch)
    assert w.open_path(bundle)
    assert len(offers) == 1 and offers[0].path == rdir


def test_copy_without_manifest_is_named_and_not_used(qtbot: Any, bundle: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The old failure: a copy folder whose first autosave never finished. Named, set aside."""
    rdir = crashed_session(bundle)
    (rdir / recovery.MANIFEST).unlink()
    w, offers = offer_window(qtbot, monkeypatch)
    assert w.open_path(bundle)
    assert offers == []
    box = w.dialogs[-1]
    assert str(rdir) in box.text() and recovery.MANIFEST in box.detailedText()
    assert w.doc is not None and not w.doc.is_modified  # the saved bundle opened
    assert not rdir.exists()  # set aside, so it is not reported again


def test_recovery_copy_that_fails_to_load_is_named(qtbot: Any, bundle: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A copy that passes its manifest but does not load: its path and diagnostics are shown,
    the saved bundle opens, and the user's files are untouched."""
    rdir = crashed_session(bundle)
    on_disk = snapshot(bundle)
    bad = rdir / "maps" / "mini.yaml"
    bad.write_text("grid: [unclosed\n", encoding="utf-8")
    manifest = json.loads((rdir / recovery.MANIFEST).read_text(encoding="utf-8"))
    manifest["files"]["maps/mini.yaml"] = file_sha256(bad)
    (rdir / recovery.MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    w, offers = offer_window(qtbot, monkeypatch)
    assert w.open_path(bundle)
    assert offers == []
    box = w.dialogs[-1]
    assert "could not be loaded" in box.text() and str(rdir) in box.text()
    assert "mini.yaml" in box.detailedText()
    assert w.doc is not None and w.doc.path == bundle and not w.doc.is_modified
    assert snapshot(bundle) == on_disk


# --- Discard at quit ---------------------------------------------------------------------------


def test_discard_at_quit_offers_nothing_next_time(qtbot: Any, bundle: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    w = MainWindow(autosave_seconds=3600)
    qtbot.addWidget(w)
    assert w.open_path(bundle) and w.doc is not None
    w.doc.push(PaintTerrain(w.doc, {w.doc.hmap.parse("0502"): "woods"}))
    assert w.autosave() is not None
    assert w.close()  # ask_save → Discard
    assert not recovery.recovery_dir(bundle).exists()
    assert not recovery.lock_path(bundle).exists()
    nxt, offers = offer_window(qtbot, monkeypatch)
    assert nxt.open_path(bundle)
    assert offers == []


# --- the lock -----------------------------------------------------------------------------------


def test_live_lock_blocks_the_offer_stale_lock_does_not(qtbot: Any, bundle: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A lock naming a live process (another Hexproof with the bundle open) hides its copy and
    stops this window autosaving over it; a lock whose PID is gone is ignored."""
    rdir = crashed_session(bundle)
    write_lock(bundle, os.getppid())  # alive: the process that started pytest
    w, offers = offer_window(qtbot, monkeypatch)
    assert w.open_path(bundle)
    assert offers == []
    assert w.locked_by is not None and w.locked_by.pid == os.getppid()
    assert str(os.getppid()) in w.dialogs[-1].text()
    assert w.doc is not None
    w.doc.push(PaintTerrain(w.doc, {w.doc.hmap.parse("0303"): "sea"}))
    before = snapshot(rdir)
    assert w.autosave() is None and snapshot(rdir) == before  # the other editor's copy is left alone
    w.doc.undo_stack.undo()
    w.close()
    assert rdir.exists() and recovery.lock_path(bundle).exists()  # not ours to drop

    write_lock(bundle, dead_pid())
    w2, offers2 = offer_window(qtbot, monkeypatch)
    assert w2.open_path(bundle)
    assert len(offers2) == 1
    assert w2.locked_by is None
    lock = json.loads(recovery.lock_path(bundle).read_text(encoding="utf-8"))
    assert lock["pid"] == os.getpid()  # the stale lock was taken over
