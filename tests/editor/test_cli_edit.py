"""`hexproof edit --screenshot` renders offscreen and exits; bad arguments are usage errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint
from PySide6.QtGui import QCursor, QImage

from hexproof.cli import main
from helpers import MINI


def test_edit_screenshot_writes_png(qapp: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The command writes a PNG of the requested size and returns 0.

    Qt makes a window no smaller than its layout's minimum size, so the PNG has the
    requested size only while that minimum fits inside it. The minimum depends on what the
    docks show (478×517 measured at the default 9 pt font; 573×609 at 12 pt), so the test
    pins down the state it inherits from the process and the machine instead of relying on
    a margin: the mouse cursor (process-global, left wherever an earlier test moved it) is
    parked off the window, so no hover text lands in the word-wrapped hex-info label, and
    the recovery folder (shared by every test process of this user) is private, so an
    autosaved copy of the fixture written by another run cannot be offered or loaded.
    Should the minimum still exceed the request, the first assertion names it.
    """
    import editor.app as app_module
    from editor.main_window import MainWindow

    monkeypatch.setenv("HEXPROOF_RECOVERY_DIR", str(tmp_path / "recovery"))
    monkeypatch.setattr(MainWindow, "ask_recover", lambda self, path: False)
    QCursor.setPos(QPoint(-10000, -10000))
    windows: list[MainWindow] = []
    make_window = app_module.make_window

    def keep(*args: Any, **kwargs: Any) -> Any:
        window, note = make_window(*args, **kwargs)
        windows.append(window)
        return window, note

    monkeypatch.setattr(app_module, "make_window", keep)
    out = tmp_path / "shot.png"
    rc = main(["edit", str(MINI), "--screenshot", str(out), "--size", "900x600", "--center", "0302", "--zoom", "1"])
    assert rc == 0
    (window,) = windows
    minimum = window.minimumSizeHint()
    assert minimum.width() <= 900 and minimum.height() <= 600, \
        f"the window cannot be 900×600: its minimum is {minimum.width()}×{minimum.height()} " \
        f"(status {window.status_label.text()!r}, hex info {window.props.hex_info.text()!r})"
    img = QImage(str(out))
    assert (img.width(), img.height()) == (900, 600)


def test_edit_bad_size_is_usage_error(qapp: Any, tmp_path: Path) -> None:
    """--size must read WxH."""
    assert main(["edit", str(MINI), "--screenshot", str(tmp_path / "x.png"), "--size", "big"]) == 2


def test_edit_in_commands() -> None:
    """`hexproof` with no subcommand dispatches to edit."""
    from hexproof.commands import COMMANDS

    assert "edit" in COMMANDS
