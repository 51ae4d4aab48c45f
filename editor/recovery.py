"""Autosave and crash recovery: where recovery copies live and whether one is newer."""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

from PySide6.QtCore import QStandardPaths


def recovery_root() -> Path:
    env = os.environ.get("HEXPROOF_RECOVERY_DIR")
    if env:
        return Path(env)
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation) or str(Path.home())
    return Path(base) / "recovery"


def recovery_dir(bundle_root: Path) -> Path:
    """One folder per document, named after the bundle and a hash of its absolute path."""
    key = hashlib.sha1(str(Path(bundle_root).resolve()).encode()).hexdigest()[:12]
    return recovery_root() / f"{Path(bundle_root).name}-{key}"


def newest_mtime(folder: Path) -> float:
    times = [p.stat().st_mtime for p in folder.rglob("*") if p.is_file() and not p.name.endswith(".bak")]
    return max(times, default=0.0)


def has_newer_recovery(bundle_root: Path) -> bool:
    rdir = recovery_dir(bundle_root)
    return rdir.is_dir() and newest_mtime(rdir) > newest_mtime(Path(bundle_root))


def prepare_copy(bundle_root: Path) -> Path:
    """Mirror the bundle's files (system file, images…) so the recovery copy loads alone."""
    rdir = recovery_dir(bundle_root)
    if not rdir.exists() and Path(bundle_root).is_dir():
        shutil.copytree(bundle_root, rdir, ignore=shutil.ignore_patterns("*.bak", "*.tmp"))
    rdir.mkdir(parents=True, exist_ok=True)
    return rdir


def discard(bundle_root: Path) -> None:
    shutil.rmtree(recovery_dir(bundle_root), ignore_errors=True)
