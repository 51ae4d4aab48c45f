"""Atomic saves through ``Bundle.save()``: a failure in the middle of a write (full disk,
permission denied, read-only file system) leaves every previous file byte-for-byte intact
(the save is bundle-atomic: model/safefile.commit_files), leaves no temp files behind, and
surfaces as an ``OSError`` that names the file.
"""

from __future__ import annotations

import errno
import io
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conftest import FIXTURES
from model.bundle import Bundle, load_bundle

MINI = FIXTURES / "bundles" / "mini"
ERRNOS = [errno.ENOSPC, errno.EACCES, errno.EROFS]


def _bundle(tmp_path: Path) -> tuple[Bundle, Path]:
    root = tmp_path / "b"
    shutil.copytree(MINI, root)
    result = load_bundle(root)
    assert result.bundle is not None and result.ok
    return result.bundle, root


def _snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _temp_files(root: Path) -> list[Path]:
    return [p for p in root.rglob("*") if p.name.endswith(".tmp")]


def _fail(code: int) -> Callable[..., Any]:
    def boom(*_args: Any, **_kwargs: Any) -> Any:
        raise OSError(code, os.strerror(code))

    return boom


class _HalfWriter(io.BufferedWriter):
    """Writes half of what it is given, then fails: the disk filled up mid-write."""

    code = errno.ENOSPC

    def write(self, data: Any) -> int:
        super().write(bytes(data)[: len(data) // 2])
        super().flush()
        raise OSError(self.code, os.strerror(self.code))


def _half_fdopen(code: int) -> Callable[..., Any]:
    real = os.fdopen

    def fdopen(fd: int, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        fh = real(fd, mode, *args, **kwargs)
        if "w" not in mode:
            return fh
        raw = fh.detach()
        writer = _HalfWriter(raw)
        writer.code = code
        return writer

    return fdopen


FAILURES: dict[str, Callable[[int], tuple[Any, str, Callable[..., Any]]]] = {
    "write": lambda code: (os, "fdopen", _half_fdopen(code)),
    "fsync": lambda code: (os, "fsync", _fail(code)),
    "replace": lambda code: (os, "replace", _fail(code)),
    "mkstemp": lambda code: (tempfile, "mkstemp", _fail(code)),  # folder not writable
}


@pytest.mark.parametrize("code", ERRNOS, ids=[errno.errorcode[c] for c in ERRNOS])
@pytest.mark.parametrize("where", sorted(FAILURES))
def test_failure_mid_save_keeps_the_old_file(where: str, code: int, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    bundle, root = _bundle(tmp_path)
    before = _snapshot(root)
    bundle.game.name = "Renamed so that game.yaml must be written"
    target, attr, fake = FAILURES[where](code)
    monkeypatch.setattr(target, attr, fake)
    with pytest.raises(OSError) as info:
        bundle.save()
    monkeypatch.undo()

    exc = info.value
    assert exc.errno == code
    assert "game.yaml" in str(exc) and os.strerror(code) in str(exc)
    assert "previous version" in str(exc)
    after = _snapshot(root)
    # Nothing half written and nothing left over: the folder is exactly as it was.
    assert after == before
    assert not _temp_files(root)
    assert load_bundle(root).ok


def test_successful_save_leaves_no_litter(tmp_path: Path) -> None:
    """A save writes the edited files and nothing else: no ``.bak``, no temp file, no journal
    (the bundle is the user's, often a git checkout; the journal's rollback links go away)."""
    bundle, root = _bundle(tmp_path)
    before = _snapshot(root)
    bundle.game.name = "Second edition"
    written = bundle.save()
    assert written == [(root / "game.yaml").resolve()]
    after = _snapshot(root)
    assert set(after) == set(before)
    assert [rel for rel in after if after[rel] != before[rel]] == ["game.yaml"]
    assert "Second edition" in (root / "game.yaml").read_text(encoding="utf-8")
    reloaded = load_bundle(root)
    assert reloaded.ok and reloaded.bundle is not None and reloaded.bundle.game.name == "Second edition"


def _fail_nth_replace(monkeypatch: pytest.MonkeyPatch, n: int, code: int) -> Callable[..., None]:
    """Make the ``n``-th ``os.replace`` of the save fail with ``code``; returns the real one."""
    real_replace = os.replace
    calls = {"n": 0}

    def nth_fails(src: Any, dst: Any) -> None:
        calls["n"] += 1
        if calls["n"] == n:
            raise OSError(code, os.strerror(code))
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", nth_fails)
    return real_replace


def test_failure_on_a_later_file_leaves_the_bundle_wholly_old(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A save of several files lands whole or not at all: if the second rename fails, the
    first file (already renamed) is rolled back, and the user is told nothing was saved."""
    bundle, root = _bundle(tmp_path)
    before = _snapshot(root)
    bundle.game.name = "Changed game"
    bundle.counters[0].name = "Changed counter"
    _fail_nth_replace(monkeypatch, 2, errno.ENOSPC)
    with pytest.raises(OSError) as info:
        bundle.save()
    monkeypatch.undo()
    assert "nothing was saved" in str(info.value)
    assert _snapshot(root) == before
    assert not _temp_files(root)
    result = load_bundle(root)
    assert result.ok and result.bundle is not None and result.bundle.game.name != "Changed game"


def test_read_only_folder(tmp_path: Path) -> None:
    bundle, root = _bundle(tmp_path)
    before = _snapshot(root)
    root.chmod(0o555)
    try:
        if os.access(root, os.W_OK):
            pytest.skip("running as root: chmod does not make the folder read-only "
                        "(the mkstemp EACCES/EROFS cases above cover this path)")
        bundle.game.name = "Cannot land"
        with pytest.raises(PermissionError, match="could not save"):
            bundle.save()
    finally:
        root.chmod(0o755)
    assert _snapshot(root) == before


def test_unchanged_files_are_not_rewritten(tmp_path: Path) -> None:
    bundle, root = _bundle(tmp_path)
    bundle.save()  # the hand-written fixture is not in canonical form yet
    bundle = load_bundle(root).bundle
    assert bundle is not None
    before = {p: p.stat().st_mtime_ns for p in root.rglob("*.yaml*")}
    assert bundle.save() == []
    assert {p: p.stat().st_mtime_ns for p in root.rglob("*.yaml*")} == before


CRASH_AFTER_FIRST_RENAME = r"""
import os, sys
from pathlib import Path
from model.bundle import load_bundle
bundle = load_bundle(sys.argv[1]).bundle
bundle.game.name = "Changed game"
bundle.counters[0].name = "Changed counter"
real = os.replace
def replace(src, dst):
    real(src, dst)
    if str(src).endswith(".hexproof-new.tmp"):
        os._exit(9)  # the process dies between two renames of one save
os.replace = replace
bundle.save()
"""


def _crash_mid_save(root: Path) -> None:
    import subprocess
    import sys

    from conftest import REPO

    proc = subprocess.run([sys.executable, "-c", CRASH_AFTER_FIRST_RENAME, str(root)], cwd=REPO,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 9, proc.stderr


def test_a_save_interrupted_by_a_crash_is_rolled_forward_when_the_bundle_is_opened(tmp_path: Path) -> None:
    """Every staged file is fsynced before the journal is written, so after a crash between
    two renames the next open completes the save: the bundle is wholly new, and it says so."""
    _, root = _bundle(tmp_path)
    before = _snapshot(root)
    _crash_mid_save(root)
    half = _snapshot(root)
    assert any(half.get(rel) != data for rel, data in before.items())  # one file is new already
    result = load_bundle(root)
    assert result.ok and result.bundle is not None
    assert result.bundle.game.name == "Changed game"
    assert result.bundle.counters[0].name == "Changed counter"
    told = [d for d in result.diagnostics if d.code == "LOAD-SAVE-001"]
    assert len(told) == 1 and "completed" in told[0].message
    assert set(_snapshot(root)) == set(before)  # no journal, no staged or rollback files left


def test_an_interrupted_save_whose_staged_file_is_gone_is_rolled_back(tmp_path: Path) -> None:
    """If a staged file has disappeared (someone cleaned the folder), the save cannot be
    completed, so the files already renamed are restored: the bundle is wholly old."""
    _, root = _bundle(tmp_path)
    before = _snapshot(root)
    _crash_mid_save(root)
    for staged in root.rglob("*.hexproof-new.tmp"):
        staged.unlink()
    result = load_bundle(root)
    assert result.ok and result.bundle is not None
    told = [d for d in result.diagnostics if d.code == "LOAD-SAVE-001"]
    assert len(told) == 1 and "rolled back" in told[0].message
    assert _snapshot(root) == before


def test_a_file_system_without_hard_links_still_saves_and_rolls_back(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """exFAT and some network mounts refuse os.link: the rollback copy is made with a copy."""
    bundle, root = _bundle(tmp_path)
    before = _snapshot(root)

    def no_links(*_args: Any, **_kwargs: Any) -> None:
        raise OSError(errno.EPERM, os.strerror(errno.EPERM))

    monkeypatch.setattr(os, "link", no_links)
    bundle.game.name = "Changed game"
    bundle.counters[0].name = "Changed counter"
    real_replace = _fail_nth_replace(monkeypatch, 2, errno.EIO)
    with pytest.raises(OSError):
        bundle.save()
    assert _snapshot(root) == before
    monkeypatch.setattr(os, "replace", real_replace)
    bundle.save()
    result = load_bundle(root)
    assert result.bundle is not None and result.bundle.game.name == "Changed game"
    assert set(_snapshot(root)) == set(before)
