"""docs/img/shots.py makes a README picture in a fresh offscreen process (no pixel golden:
docs pictures are looked at, not compared)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from PySide6.QtGui import QImage

from conftest import REPO


def test_shots_script_makes_the_editor_picture(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("shots", REPO / "docs" / "img" / "shots.py")
    assert spec is not None and spec.loader is not None
    shots = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(shots)
    assert "editor" in shots.NAMES and "play" in shots.NAMES
    [out] = shots.run("editor", tmp_path)
    img = QImage(str(out))
    assert (img.width(), img.height()) == shots.SIZE, (img.width(), img.height())
