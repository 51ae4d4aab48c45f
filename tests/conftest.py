"""Test-wide settings: Qt renders offscreen, hypothesis is deterministic in CI, the session's
settings and recovery files live in a temp folder, and rulebook texts are optional."""

from __future__ import annotations

import os
import re
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

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


# --- no Qt warnings on stderr ---------------------------------------------------------------
# Qt reports misuse (a signal connected to nothing, an editor committed to the wrong view, a
# painter on a null device, a missing font) as warnings on stderr and carries on. A test that
# makes Qt warn fails (``no_qt_warnings``), unless the message is one of these, which say
# nothing about Hexproof's code. Each entry is (regular expression, why it is benign).
QT_WARNINGS_ALLOWED: tuple[tuple[str, str], ...] = (
    (r"^This plugin does not support propagateSizeHints\(\)$",
     "the offscreen platform plugin (QT_QPA_PLATFORM=offscreen, every test and CI) prints it on every "
     "top-level window's show(): the plugin has no window manager to pass size hints to"),
    (r"^This plugin does not support raise\(\)$",
     "the offscreen platform plugin again: QWidget.raise_() on a top-level window (a dialog brought to the "
     "front, Help ▸ Rule Reference) has no window stack to change offscreen; on a desktop it raises the window"),
)
_QT_ALLOWED = [re.compile(pattern) for pattern, _why in QT_WARNINGS_ALLOWED]


def qt_warning_allowed(message: str) -> bool:
    return any(p.search(message) for p in _QT_ALLOWED)


@pytest.fixture(autouse=True)
def no_qt_warnings(request: pytest.FixtureRequest) -> Iterator[list[str]]:
    """Fail the test if Qt printed a warning (or worse) while it ran, naming each message.

    The handler (``qInstallMessageHandler``) passes every message on to the handler it replaced
    (pytest-qt's capture, or stderr), so nothing is hidden. A test that provokes a warning on
    purpose marks itself ``@pytest.mark.qt_warnings`` and may read the list this fixture yields."""
    from PySide6.QtCore import QtMsgType, qInstallMessageHandler

    caught: list[str] = []
    previous: Any = None

    def handler(kind: QtMsgType, context: Any, message: str) -> None:
        if kind not in (QtMsgType.QtDebugMsg, QtMsgType.QtInfoMsg) and not qt_warning_allowed(message):
            where = f" ({context.file}:{context.line})" if getattr(context, "file", None) else ""
            caught.append(f"{kind.name}: {message}{where}")
        if previous is not None:
            previous(kind, context, message)
        else:
            sys.stderr.write(message + "\n")

    previous = qInstallMessageHandler(handler)
    try:
        yield caught
    finally:
        qInstallMessageHandler(previous)
    if caught and request.node.get_closest_marker("qt_warnings") is None:
        pytest.fail("Qt printed warnings during this test (fix the cause, or allow a benign platform message in "
                    "tests/conftest.py QT_WARNINGS_ALLOWED with the reason):\n  " + "\n  ".join(caught),
                    pytrace=False)


@pytest.fixture(autouse=True)
def no_saved_dock_layouts() -> None:
    """Each test's window starts with the default dock layouts: a window a previous test
    closed saved its per-mode layouts (``layouts-vN/<mode>``) in the session's settings."""
    settings = QSettings("Hexproof", "Hexproof")
    for group in settings.childGroups():
        if group == "layouts" or group.startswith("layouts-v"):
            settings.remove(group)
