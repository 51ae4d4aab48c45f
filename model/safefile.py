"""The one safe-file layer: every path that data names, every read and every write.

A bundle, a module or a spreadsheet comes from someone else. A path written in it may point
outside the folder the user chose (``../notes.txt``, ``/dev/zero``, a symlink out), at
something that is not a file (a FIFO that blocks forever, a device that never ends, a folder)
or at a file far too large to read. Every reader and writer therefore goes through here:

* :func:`resolve_inside` — a path named by data must resolve *inside its root after symlinks*;
* :func:`read_bytes` — a read is of a regular file and is bounded by the bytes actually read,
  not by ``stat()`` (which says 0 for ``/dev/zero`` and for pipes); the file is opened
  non-blocking so a FIFO refuses at once instead of hanging;
* :func:`commit_files` — writes land only inside the chosen root, **all or nothing**: every file
  is staged (temp file, fsync) beside its target, a journal is written, then each staged file is
  renamed over its target. A failure rolls every renamed file back; a crash leaves the journal,
  and :func:`recover_interrupted_save` rolls the save forward (or, if a staged file is gone,
  back) the next time the bundle is opened. File modes are kept (a 644 file stays 644; a new
  file gets the umask default) and a symlinked file is written *through* its link, so the link
  stays a link.

Refusals are :class:`SafeFileError` with a stable code; readers turn them into located
diagnostics.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

JOURNAL = ".hexproof-save.journal"
_STAGED_SUFFIX = ".hexproof-new.tmp"
_OLD_SUFFIX = ".hexproof-old.tmp"
_CHUNK = 1 << 20


class SafeFileError(Exception):
    """A path or file that Hexproof refuses to read or write, with a stable code."""

    def __init__(self, code: str, message: str, path: str | os.PathLike[str] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.path = str(path) if path is not None else None


class SaveError(OSError):
    """A multi-file save that did not land. ``rolled_back`` says the files are wholly old;
    ``errno`` is the cause's (ENOSPC, EACCES, ...), when it had one."""

    def __init__(self, message: str, rolled_back: bool = True, *, code: int | None = None) -> None:
        super().__init__(code, message)
        self.message = message
        self.rolled_back = rolled_back

    def __str__(self) -> str:
        return self.message


def _real(path: str | os.PathLike[str]) -> str:
    # realpath(strict=False) never raises on loops (it returns the loop's path, and the
    # stat below then fails with ELOOP), unlike Path.resolve() on Python 3.11.
    return os.path.realpath(os.fspath(path))


def is_inside(path: str | os.PathLike[str], root: str | os.PathLike[str]) -> bool:
    """True when ``path``, after symlinks, is ``root`` or below it."""
    real, base = _real(path), _real(root)
    return real == base or real.startswith(base.rstrip(os.sep) + os.sep)


def resolve_inside(root: str | os.PathLike[str], rel: str | os.PathLike[str], *,
                   what: str = "file") -> Path:
    """``rel`` resolved against ``root``; refused unless it stays inside ``root`` after symlinks.

    Absolute paths are refused outright: a bundle names its files relative to itself."""
    text = os.fspath(rel)
    if "\x00" in text:
        raise SafeFileError("FILE-PATH-001", f"{what} {text!r}: a path cannot contain a NUL character", text)
    if os.path.isabs(text):
        raise SafeFileError("FILE-PATH-001", f"{what} {text!r} is an absolute path; name it relative to "
                            f"the folder ({_real(root)})", text)
    candidate = os.path.join(os.fspath(root), text)
    if not is_inside(candidate, root):
        raise SafeFileError("FILE-PATH-001", f"{what} {text!r} leads outside the folder "
                            f"{_real(root)} (after following '..' and symbolic links); refused", text)
    return Path(_real(candidate))


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def kind_problem(path: str | os.PathLike[str], *, what: str = "file") -> str | None:
    """Why ``path`` cannot be read as a file (a folder, a FIFO, a device, a symlink loop), by
    ``stat()`` only — nothing is opened, so a FIFO never blocks. ``None`` when it is a regular
    file or does not exist (whether a missing file matters is the caller's call)."""
    try:
        info = os.stat(os.fspath(path))
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"cannot read {what}: {exc.strerror or exc}"
    if stat.S_ISREG(info.st_mode):
        return None
    return f"{what} is {_kind(info.st_mode)}, not a regular file; refusing to read it"


def read_bytes(path: str | os.PathLike[str], limit: int, *, what: str = "file") -> bytes:
    """The bytes of a regular file, refusing anything else and anything over ``limit`` bytes.

    Counts the bytes actually read: ``stat()`` reports 0 for ``/dev/zero`` and for pipes."""
    name = os.fspath(path)
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise SafeFileError("FILE-READ-001", f"{what} not found", name) from None
    except IsADirectoryError:
        raise SafeFileError("FILE-KIND-001", f"{what} is a folder, not a file", name) from None
    except OSError as exc:
        raise SafeFileError("FILE-READ-001", f"cannot read {what}: {exc.strerror or exc}", name) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise SafeFileError("FILE-KIND-001", f"{what} is {_kind(info.st_mode)}, not a regular file; "
                                "refusing to read it", name)
        chunks: list[bytes] = []
        total = 0
        while True:
            chunk = os.read(fd, min(_CHUNK, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                raise SafeFileError("FILE-SIZE-001", f"{what} is larger than the limit of {limit:,} bytes; "
                                    "refusing to read it", name)
        return b"".join(chunks)
    except OSError as exc:
        raise SafeFileError("FILE-READ-001", f"cannot read {what}: {exc.strerror or exc}", name) from None
    finally:
        os.close(fd)


def read_inside(root: str | os.PathLike[str], rel: str | os.PathLike[str], limit: int, *,
                what: str = "file") -> bytes:
    """:func:`resolve_inside` then :func:`read_bytes`: the read a data-named path gets."""
    return read_bytes(resolve_inside(root, rel, what=what), limit, what=what)


def umask_mode() -> int:
    """The mode a new file gets from the process umask (0o666 & ~umask)."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def file_sha256(path: str | os.PathLike[str], limit: int = 1 << 30) -> str | None:
    """Hash of a file's bytes, or ``None`` when it does not exist or cannot be read."""
    try:
        return sha256(read_bytes(path, limit))
    except SafeFileError:
        return None


@dataclass
class _Staged:
    target: Path       # the real file written (a symlink's target)
    staged: Path       # the fsynced new bytes, beside the target
    old: Path | None   # a hard link to the previous bytes, for rolling back
    digest: str


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:  # some file systems cannot fsync a folder; the rename is still atomic
        pass
    finally:
        os.close(fd)


def _mkdirs_inside(root: Path, folder: Path) -> None:
    """Create ``folder`` (inside ``root``) and its parents, refusing to create through a link out."""
    missing = []
    cur = folder
    while not cur.exists():
        missing.append(cur)
        if cur.parent == cur:
            break
        cur = cur.parent
    for part in reversed(missing):
        if not is_inside(part.parent, root):
            raise SafeFileError("FILE-PATH-001", f"folder {part} would be created outside {root}", part)
        part.mkdir()


def _write_journal(root: Path, entries: list[_Staged]) -> Path:
    journal = root / JOURNAL
    body = {
        "version": 1,
        "files": [{"target": os.path.relpath(e.target, root), "staged": os.path.relpath(e.staged, root),
                   "old": os.path.relpath(e.old, root) if e.old else None, "sha256": e.digest}
                  for e in entries],
    }
    fd, tmp = tempfile.mkstemp(prefix=".hexproof-journal.", suffix=".tmp", dir=root)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(body, fh, indent=1)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, journal)
    except BaseException:
        _unlink(Path(tmp))
        raise
    _fsync_dir(root)
    return journal


def _unlink(path: Path | None) -> None:
    if path is None:
        return
    try:
        os.unlink(path)
    except OSError:
        pass


def commit_files(root: str | os.PathLike[str], files: dict[Path, bytes]) -> list[Path]:
    """Write ``files`` (absolute paths inside ``root``, or paths relative to it) all or nothing.

    Returns the paths written. Raises :class:`SafeFileError` for a path outside ``root`` (before
    anything is written) and :class:`SaveError` when the save did not land (every file then
    holds its previous bytes)."""
    base = Path(root)
    base.mkdir(parents=True, exist_ok=True)
    if not files:
        # Nothing to write (a save with no edit): no journal written, nothing fsynced. On a busy
        # disk those fsyncs alone made a no-op save take up to 2 s (bench save).
        return []
    base = Path(_real(base))
    # 1. Resolve every target first: one refused path means nothing is written at all.
    plan: list[tuple[Path, Path, bytes]] = []
    for path, data in files.items():
        rel = os.path.relpath(path, base) if os.path.isabs(path) else os.fspath(path)
        target = resolve_inside(base, rel)
        if target.exists() and not target.is_file():
            raise SafeFileError("FILE-KIND-001", f"{rel} is {_kind(target.stat().st_mode)}; "
                                "refusing to write over it", target)
        plan.append((Path(rel), target, data))
    staged: list[_Staged] = []
    journal: Path | None = None
    done: list[_Staged] = []
    try:
        # 2. Stage: new bytes beside each target, fsynced, with the target's mode.
        for rel, target, data in plan:
            _mkdirs_inside(base, target.parent)
            mode = stat.S_IMODE(target.stat().st_mode) if target.exists() else umask_mode()
            fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=_STAGED_SUFFIX, dir=target.parent)
            entry = _Staged(target, Path(tmp), None, sha256(data))
            staged.append(entry)
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fchmod(fh.fileno(), mode)
                os.fsync(fh.fileno())
            if target.exists():
                old = target.with_name(f".{target.name}.{os.getpid()}{_OLD_SUFFIX}")
                _unlink(old)
                try:
                    os.link(target, old)  # the previous bytes survive the rename, for rolling back
                except OSError:  # no hard links here (exFAT, some network mounts): a copy will do
                    shutil.copy2(target, old)
                entry.old = old
        # 3. The journal makes the rest recoverable after a crash.
        journal = _write_journal(base, staged)
        # 4. Commit.
        for entry in staged:
            os.replace(entry.staged, entry.target)
            done.append(entry)
        for folder in {e.target.parent for e in staged}:
            _fsync_dir(folder)
    except BaseException as exc:
        rolled_back = _roll_back(done)
        for entry in staged:
            if entry not in done:
                _unlink(entry.staged)
            _unlink(entry.old)
        if rolled_back:
            _unlink(journal)
        if isinstance(exc, SafeFileError):
            raise
        if not isinstance(exc, Exception):
            raise
        what = getattr(exc, "strerror", None) or str(exc)
        names = ", ".join(str(rel) for rel, _, _ in plan[:3]) + (f" and {len(plan) - 3} more" if len(plan) > 3 else "")
        state = ("nothing was saved: the previous version of every file is unchanged" if rolled_back else
                 "the save could not be undone; it will be completed when the bundle is next opened")
        raise SaveError(f"could not save {names} in {base}: {what}; {state}", rolled_back,
                        code=getattr(exc, "errno", None)) from exc
    # 5. Landed: drop the rollback links and the journal.
    for entry in staged:
        _unlink(entry.old)
    _unlink(journal)
    _fsync_dir(base)
    return [e.target for e in staged]


def _roll_back(done: list[_Staged]) -> bool:
    ok = True
    for entry in reversed(done):
        try:
            if entry.old is not None:
                os.replace(entry.old, entry.target)
                entry.old = None
            else:
                os.unlink(entry.target)  # a file this save created
        except OSError:
            ok = False
    return ok


def recover_interrupted_save(root: str | os.PathLike[str]) -> list[str]:
    """Finish or undo a save that a crash interrupted; the messages say what was done.

    Every staged file was fsynced before the journal was written, so a journal whose staged
    files are all present (or already renamed) is rolled *forward*: the bundle becomes wholly
    new. If any staged file is missing and its target does not hold the new bytes, the save
    is rolled *back* from the kept old links: the bundle is wholly old."""
    base = Path(_real(root))
    journal = base / JOURNAL
    if not journal.is_file():
        return []
    try:
        body = json.loads(read_bytes(journal, 1 << 22, what="save journal"))
        entries = [(resolve_inside(base, f["target"]), resolve_inside(base, f["staged"]),
                    resolve_inside(base, f["old"]) if f.get("old") else None, str(f["sha256"]))
                   for f in body["files"]]
    except (SafeFileError, ValueError, KeyError, TypeError) as exc:
        return [f"{JOURNAL}: an interrupted save left a journal that cannot be read ({exc}); "
                "nothing was changed. Check the bundle's files, then delete the journal."]
    forward = all(staged.is_file() or file_sha256(target) == digest for target, staged, _, digest in entries)
    changed = 0
    for target, staged, old, digest in entries:
        if forward:
            if staged.is_file():
                os.replace(staged, target)
                changed += 1
            _unlink(old)
        else:
            if old is not None and old.is_file() and file_sha256(target) != file_sha256(old):
                os.replace(old, target)
                changed += 1
            elif old is None and file_sha256(target) == digest:
                _unlink(target)  # created by the interrupted save
                changed += 1
            _unlink(old)
            _unlink(staged)
    _unlink(journal)
    _fsync_dir(base)
    n = len(entries)
    if forward:
        return [f"an interrupted save of {n} file(s) was completed ({changed} renamed now); "
                "the bundle holds the saved version"]
    return [f"an interrupted save of {n} file(s) was rolled back ({changed} restored); "
            "the bundle holds the version before that save"]
