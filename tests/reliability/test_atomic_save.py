"""Atomic saves through ``Bundle.save()``: a failure in the middle of a write (full disk,
permission denied, read-only file system) leaves the previous file byte-for-byte intact,
leaves no temp files behind, and surfaces as an ``OSError`` that names the file.
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
    # Nothing half written: every file that existed is unchanged (a .bak may have appeared
    # as a hard link of the untouched original, which is the same bytes).
    for rel, data in before.items():
        assert after[rel] == data, rel
    for rel in set(after) - set(before):
        assert rel.endswith(".bak") and after[rel] == before[rel[: -len(".bak")]], rel
    assert not _temp_files(root)
    assert load_bundle(root).ok


def test_successful_save_keeps_previous_version_as_bak(tmp_path: Path) -> None:
    bundle, root = _bundle(tmp_path)
    old = (root / "game.yaml").read_bytes()
    bundle.game.name = "Second edition"
    written = bundle.save()
    assert root / "game.yaml" in written
    assert (root / "game.yaml.bak").read_bytes() == old
    assert "Second edition" in (root / "game.yaml").read_text(encoding="utf-8")
    assert not _temp_files(root)
    # A second save moves the backup along: .bak is always the version just replaced.
    mid = (root / "game.yaml").read_bytes()
    bundle.game.name = "Third edition"
    bundle.save()
    assert (root / "game.yaml.bak").read_bytes() == mid
    reloaded = load_bundle(root)
    assert reloaded.ok and reloaded.bundle is not None and reloaded.bundle.game.name == "Third edition"


def test_failure_on_a_later_file_never_leaves_a_partial_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bundle save writes file by file: if the disk fills on the second file, the first
    is already fully saved (its old version in .bak) and the second is untouched: each file
    is whole, old or new, and the bundle still loads."""
    bundle, root = _bundle(tmp_path)
    before = _snapshot(root)
    bundle.game.name = "Changed game"
    bundle.counters[0].name = "Changed counter"
    real_replace = os.replace
    calls = {"n": 0}

    def second_fails(src: Any, dst: Any) -> None:
        calls["n"] += 1
        if calls["n"] == 2:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", second_fails)
    with pytest.raises(OSError):
        bundle.save()
    monkeypatch.undo()
    assert (root / "game.yaml.bak").read_bytes() == before["game.yaml"]
    assert (root / "counters.yaml").read_bytes() == before["counters.yaml"]
    assert not _temp_files(root)
    result = load_bundle(root)
    assert result.ok and result.bundle is not None and result.bundle.game.name == "Changed game"


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
