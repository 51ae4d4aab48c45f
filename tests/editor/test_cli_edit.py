"""`hexproof edit --screenshot` renders offscreen and exits; bad arguments are usage errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtGui import QImage

from hexproof.cli import main
from helpers import MINI


def test_edit_screenshot_writes_png(qapp: Any, tmp_path: Path) -> None:
    """The command writes a PNG of the requested size and returns 0."""
    out = tmp_path / "shot.png"
    rc = main(["edit", str(MINI), "--screenshot", str(out), "--size", "900x600", "--center", "0302", "--zoom", "1"])
    assert rc == 0
    img = QImage(str(out))
    assert (img.width(), img.height()) == (900, 600)


def test_edit_bad_size_is_usage_error(qapp: Any, tmp_path: Path) -> None:
    """--size must read WxH."""
    assert main(["edit", str(MINI), "--screenshot", str(tmp_path / "x.png"), "--size", "big"]) == 2


def test_edit_in_commands() -> None:
    """`hexproof` with no subcommand dispatches to edit."""
    from hexproof.commands import COMMANDS

    assert "edit" in COMMANDS
