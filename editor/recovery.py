"""Autosave and crash recovery: recovery copies with a manifest, and one lock per open bundle.

Layout of the recovery folder (``$HEXPROOF_RECOVERY_DIR``, else Qt's AppDataLocation
``/recovery``; never inside the user's bundle)::

    <name>-<key>/                      the copy: a complete, loadable bundle
        recovery-manifest.json         what it was based on, and when it was made
    <name>-<key>.lock                  {"pid", "host", "bundle"}: an editor has the bundle open
    .<name>-<key>.partial-<pid>-<n>/   a copy being built (never used; removed when stale)

``<key>`` is a hash of the bundle's absolute path. A copy is built in a ``.partial`` folder,
its manifest written last, and then renamed into place, so a kill during an autosave leaves
either the previous copy or the new one, never half of one. The manifest holds the sha256 of
every bundle file the copy was *based on* (as the editor last read or wrote them) and of every
file *in* the copy. Whether to offer recovery is decided from the manifest, never from mtimes:

* the copy's files all match their manifest hashes (else it is broken, and named as such);
* the copy differs from the saved files (else there is nothing to recover; it is dropped);
* the based-on hashes still match the saved files → offered; they do not → offered with a
  warning that the bundle changed on disk since the copy was made, naming the files.

A lock held by a live process (same host, PID alive) means another Hexproof has the bundle
open: its copy is not offered and this window does not autosave over it.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import shutil
import socket
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Callable

from PySide6.QtCore import QStandardPaths

from model.safefile import SafeFileError, commit_files, file_sha256, read_bytes

MANIFEST = "recovery-manifest.json"
MANIFEST_VERSION = 1
_PARTIAL = ".partial-"
_OLD = ".replaced-"
_BROKEN = ".broken-"
_counter = itertools.count()


def recovery_root() -> Path:
    env = os.environ.get("HEXPROOF_RECOVERY_DIR")
    if env:
        return Path(env)
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation) or str(Path.home())
    return Path(base) / "recovery"


def _key(bundle_root: Path) -> str:
    key = hashlib.sha1(str(Path(bundle_root).resolve()).encode()).hexdigest()[:12]
    return f"{Path(bundle_root).resolve().name}-{key}"


def recovery_dir(bundle_root: Path) -> Path:
    """One folder per bundle, named after the bundle and a hash of its absolute path."""
    return recovery_root() / _key(bundle_root)


def lock_path(bundle_root: Path) -> Path:
    return recovery_root() / f"{_key(bundle_root)}.lock"


# --- lock ----------------------------------------------------------------------------------


def pid_alive(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, owned by someone else
        return True
    except OSError:
        return False
    return True


@dataclass(frozen=True)
class LockHolder:
    pid: int
    host: str
    path: Path

    def describe(self) -> str:
        return f"Hexproof process {self.pid} on {self.host}"


def read_lock(bundle_root: Path) -> LockHolder | None:
    """The holder of the bundle's lock, or None (no lock, unreadable, or ours)."""
    path = lock_path(bundle_root)
    try:
        body = json.loads(read_bytes(path, 1 << 16, what="lock file"))
        holder = LockHolder(int(body["pid"]), str(body["host"]), path)
    except (SafeFileError, ValueError, KeyError, TypeError):
        return None
    return holder


def live_holder(bundle_root: Path) -> LockHolder | None:
    """Another live process that has this bundle open, or None (a stale lock is ignored).

    On another host the PID cannot be checked: that lock counts as live (the message says how
    to clear it)."""
    holder = read_lock(bundle_root)
    if holder is None:
        return None
    if holder.host == socket.gethostname():
        if holder.pid == os.getpid() or not pid_alive(holder.pid):
            return None
    return holder


def acquire_lock(bundle_root: Path) -> LockHolder | None:
    """Take the bundle's lock; returns the *other* live holder when it cannot."""
    other = live_holder(bundle_root)
    if other is not None:
        return other
    path = lock_path(bundle_root)
    body = {"pid": os.getpid(), "host": socket.gethostname(), "bundle": str(Path(bundle_root).resolve()),
            "since": datetime.now().astimezone().isoformat(timespec="seconds")}
    try:
        commit_files(path.parent, {Path(path.name): json.dumps(body, indent=1).encode()})
    except (SafeFileError, OSError):
        pass  # no lock is better than no editor; recovery then just cannot tell
    return None


def release_lock(bundle_root: Path) -> None:
    holder = read_lock(bundle_root)
    if holder is not None and holder.pid == os.getpid() and holder.host == socket.gethostname():
        _unlink(holder.path)


# --- writing a copy -------------------------------------------------------------------------


def _unlink(path: Path) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _partial_prefix(bundle_root: Path) -> str:
    return f".{_key(bundle_root)}{_PARTIAL}"


def clean_stale_partials(bundle_root: Path) -> list[Path]:
    """Remove half-built copies whose builder is gone; they are never used either way."""
    root = recovery_root()
    removed = []
    if not root.is_dir():
        return removed
    prefix = _partial_prefix(bundle_root)
    for p in root.iterdir():
        if p.name.startswith(prefix):
            try:
                pid = int(p.name[len(prefix):].split("-")[0])
            except ValueError:
                pid = -1
            if pid != os.getpid() and pid_alive(pid):
                continue  # another editor on this machine is building it right now
            shutil.rmtree(p, ignore_errors=True)
            removed.append(p)
    return removed


def write_copy(bundle_root: Path, build: Callable[[Path], None], based_on: dict[str, str | None]) -> Path:
    """Build a recovery copy with ``build(folder)`` and swap it into place; returns its path.

    ``build`` writes a complete, loadable bundle into the (new, empty) folder it is given.
    ``based_on``: the sha256 (None for "absent") of each bundle file the edits started from."""
    root = recovery_root()
    root.mkdir(parents=True, exist_ok=True)
    final = recovery_dir(bundle_root)
    partial = root / f"{_partial_prefix(bundle_root)}{os.getpid()}-{next(_counter)}"
    shutil.rmtree(partial, ignore_errors=True)
    try:
        partial.mkdir()
        build(partial)
        for p in list(partial.rglob("*.bak")):  # a save's backups are not part of the copy
            _unlink(p)
        files = {str(p.relative_to(partial)): file_sha256(p) for p in sorted(partial.rglob("*"))
                 if p.is_file() and not p.name.startswith(".hexproof")}
        now = time.time()
        manifest = {
            "version": MANIFEST_VERSION,
            "bundle": str(Path(bundle_root).resolve()),
            "saved_at": datetime.fromtimestamp(now).astimezone().isoformat(timespec="seconds"),
            "saved_at_epoch": now,
            "pid": os.getpid(),
            "host": socket.gethostname(),
            "based_on": based_on,
            "files": files,
        }
        # The manifest is written last: a folder without one is incomplete by definition.
        commit_files(partial, {Path(MANIFEST): json.dumps(manifest, indent=1, sort_keys=True).encode()})
        old = None
        if final.exists():
            old = root / f".{final.name}{_OLD}{os.getpid()}-{next(_counter)}"
            os.rename(final, old)
        os.rename(partial, final)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        raise
    return final


def discard(bundle_root: Path) -> None:
    shutil.rmtree(recovery_dir(bundle_root), ignore_errors=True)
    root = recovery_root()
    if root.is_dir():
        for p in root.iterdir():
            if p.name.startswith(f".{_key(bundle_root)}{_OLD}"):
                shutil.rmtree(p, ignore_errors=True)


# --- deciding what to offer ------------------------------------------------------------------


@dataclass
class RecoveryCopy:
    """A recovery copy found for a bundle, judged from its manifest."""

    bundle_root: Path
    path: Path
    saved_at: datetime | None = None
    based_on: dict[str, str | None] = field(default_factory=dict)
    files: dict[str, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)   # non-empty: the copy is broken
    changed_since: list[str] = field(default_factory=list)  # bundle files changed since the copy
    summary: str = ""  # semantic diff, saved → copy (filled in by the window)

    @property
    def broken(self) -> bool:
        return bool(self.problems)

    @property
    def saved_at_text(self) -> str:
        if self.saved_at is None:
            return "at an unknown time"
        return self.saved_at.astimezone().strftime("%Y-%m-%d %H:%M:%S")

    def describe(self) -> str:
        """The prompt text: when, based on what, and what it changes."""
        lines = [f"An autosaved copy of {self.bundle_root} was saved {self.saved_at_text} (local time)"
                 f" and holds unsaved edits.", f"Copy: {self.path}"]
        if self.changed_since:
            lines += ["", "Warning: the bundle changed on disk after this copy was made: "
                      + ", ".join(self.changed_since) + ". Recovering replaces those changes with the copy's "
                      "version when you save; declining opens the files as they are on disk now."]
        if self.summary:
            lines += ["", self.summary]
        return "\n".join(lines)


def _restore_replaced(bundle_root: Path) -> None:
    """A crash between the two renames of :func:`write_copy` leaves only the replaced copy."""
    final = recovery_dir(bundle_root)
    root = recovery_root()
    if final.exists() or not root.is_dir():
        return
    olds = sorted((p for p in root.iterdir() if p.name.startswith(f".{final.name}{_OLD}")),
                  key=lambda p: p.stat().st_mtime, reverse=True)
    for p in olds:
        if (p / MANIFEST).is_file():
            try:
                os.rename(p, final)
            except OSError:
                continue
            return


def find_copy(bundle_root: Path) -> RecoveryCopy | None:
    """The recovery copy of ``bundle_root`` (judged from its manifest), or None.

    Half-built copies are removed, never returned. A copy that fails its own manifest is
    returned with ``problems`` so the window can name it."""
    clean_stale_partials(bundle_root)
    _restore_replaced(bundle_root)
    rdir = recovery_dir(bundle_root)
    if not rdir.is_dir():
        return None
    copy = RecoveryCopy(Path(bundle_root), rdir)
    try:
        body = json.loads(read_bytes(rdir / MANIFEST, 1 << 24, what="recovery manifest"))
        if not isinstance(body, dict) or int(body.get("version", 0)) > MANIFEST_VERSION:
            raise ValueError("unknown manifest version")
        copy.based_on = {str(k): (str(v) if v is not None else None) for k, v in dict(body["based_on"]).items()}
        copy.files = {str(k): str(v) for k, v in dict(body["files"]).items()}
        copy.saved_at = datetime.fromtimestamp(float(body["saved_at_epoch"])).astimezone()
    except SafeFileError as exc:
        copy.problems.append(f"{rdir / MANIFEST}: {exc.message}")
        return copy
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        copy.problems.append(f"{rdir / MANIFEST}: unreadable manifest ({exc})")
        return copy
    for rel, digest in copy.files.items():
        if file_sha256(rdir / rel) != digest:
            copy.problems.append(f"{rdir / rel}: missing or not what the manifest says")
    if copy.broken:
        return copy
    disk = {rel: file_sha256(Path(bundle_root) / rel) for rel in sorted(set(copy.based_on) | set(copy.files))}
    copy.changed_since = sorted(rel for rel, digest in copy.based_on.items() if disk.get(rel) != digest)
    if all(disk.get(rel) == digest for rel, digest in copy.files.items()):
        # The saved files already are the copy (saved after the autosave): nothing to recover.
        discard(bundle_root)
        return None
    return copy


def has_recovery(bundle_root: Path) -> bool:
    """Whether a usable copy would be offered (a live lock elsewhere hides it)."""
    if live_holder(bundle_root) is not None:
        return False
    found = find_copy(bundle_root)
    return found is not None and not found.broken


has_newer_recovery = has_recovery  # the old name (tests and callers of the mtime version)


def set_aside(copy: RecoveryCopy) -> Path:
    """Move a broken copy out of the way (kept for the user to inspect); returns its new path."""
    dest = copy.path.with_name(f"{copy.path.name}{_BROKEN}{datetime.now().strftime('%Y%m%d-%H%M%S')}")
    try:
        os.rename(copy.path, dest)
    except OSError:
        return copy.path
    return dest
