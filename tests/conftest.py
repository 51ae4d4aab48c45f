"""Test-wide settings: Qt renders offscreen, hypothesis is deterministic in CI, the session's
settings and recovery files live in a temp folder, and rulebook texts are optional."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# --- the user's files stay the user's ---------------------------------------------------------
# Every QSettings (recent files, remembered rulebook texts), every QStandardPaths location and
# every crash-recovery copy of this session goes under one temp folder, set here at conftest
# import: before any test module creates a QApplication or a QSettings. The environment is
# inherited by the `hexproof` subprocesses some tests start. QStandardPaths test mode is not
# used: it redirects to ~/.qttest, which is still inside the real home folder.
SESSION_TMP = Path(tempfile.mkdtemp(prefix="hexproof-tests-"))
SETTINGS_DIR = SESSION_TMP / "config"
for _name, _sub in (("XDG_CONFIG_HOME", "config"), ("XDG_DATA_HOME", "data"), ("XDG_CACHE_HOME", "cache"),
                    ("XDG_STATE_HOME", "state"), ("HEXPROOF_RECOVERY_DIR", "recovery")):
    (SESSION_TMP / _sub).mkdir()
    os.environ[_name] = str(SESSION_TMP / _sub)

from PySide6.QtCore import QSettings  # noqa: E402


def use_settings_dir(folder: Path) -> None:
    """Point every user-scope QSettings (native and INI) at ``folder``."""
    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, str(folder))


use_settings_dir(SETTINGS_DIR)


def pytest_unconfigure(config: pytest.Config) -> None:
    shutil.rmtree(SESSION_TMP, ignore_errors=True)


from hypothesis import HealthCheck, settings  # noqa: E402

settings.register_profile("ci", max_examples=100, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=50, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures"
# The rulebook texts are not part of the repository: they sit in ../shared/rules beside a
# working copy (and in CI), not in a user's plain clone. Reach them through rulebook_path.
SHARED = REPO.parent / "shared"
RULES_DIR = SHARED / "rules"


def rulebook_path(name: str) -> Path:
    """The path of rulebook text ``name`` in ../shared/rules; skips the test when it is absent."""
    path = RULES_DIR / name
    if not path.is_file():
        pytest.skip(f"rulebook text {name} not present: {path} (the rulebooks are not in the "
                    "repository; CI provides ../shared/rules)")
    return path


def rulebook_text(name: str) -> str:
    """The text of rulebook ``name`` (see :func:`rulebook_path`; skips when absent)."""
    return rulebook_path(name).read_text(encoding="utf-8")


@pytest.fixture(autouse=True)
def no_saved_dock_layouts() -> None:
    """Each test's window starts with the default dock layouts: a window a previous test
    closed saved its per-mode layouts (``layouts/<mode>``) in the session's settings."""
    QSettings("Hexproof", "Hexproof").remove("layouts")
