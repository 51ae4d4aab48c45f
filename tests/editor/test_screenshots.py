"""Screenshot regression tests (issue #21, item 3): the whole window, once per mode (Map,
Scenario, Play) and per sample bundle in scenarios/, compared with a golden picture in
tests/editor/golden/ by a perceptual tolerance (tests/editor/image_compare.py).

Each picture is rendered offscreen at a fixed window size (``SIZE``) with a fixed font (DejaVu
Sans 9 pt, as CI installs it) and the Fusion style, the map fitted to the view, after the
findings of the bundle are shown and every visible terrain tile is drawn, then downscaled by
``SCALE`` (small files, and anti-aliasing averaged away). The validation time in the status bar
changes from run to run, so it is cut off the counts before the grab.

Regenerate every golden after an intended change of the look (then LOOK at each picture):

    HEXPROOF_WRITE_GOLDEN=1 python -m pytest tests/editor/test_screenshots.py

A mismatch writes the picture it got and a diff (changed pixels in red) beside the test's tmp
folder and names them in the failure.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Iterator

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QFontInfo, QImage
from PySide6.QtWidgets import QApplication

from conftest import REPO
from editor.app import settle
from editor.commands import PaintTerrain
from editor.main_window import MainWindow
from helpers import no_modal_prompts  # noqa: F401 (autouse fixture)
from image_compare import compare, diff_image

GOLDEN = Path(__file__).resolve().parent / "golden"
SAMPLES = sorted(p.name for p in (REPO / "scenarios").iterdir() if (p / "game.yaml").is_file())
MODES = ("map", "scenario", "play")
SIZE = (1280, 800)
SCALE = 2
FONT = ("DejaVu Sans", 9)
WRITE = os.environ.get("HEXPROOF_WRITE_GOLDEN") == "1"


# --- images as arrays ----------------------------------------------------------------------------

def to_array(img: QImage) -> np.ndarray:
    img = img.convertToFormat(QImage.Format.Format_RGB888)
    w, h, bpl = img.width(), img.height(), img.bytesPerLine()
    rows = np.frombuffer(img.constBits(), dtype=np.uint8, count=bpl * h).reshape(h, bpl)
    return rows[:, : w * 3].reshape(h, w, 3).copy()


def from_array(a: np.ndarray) -> QImage:
    a = np.ascontiguousarray(a, dtype=np.uint8)
    h, w, _ = a.shape
    return QImage(a.data, w, h, 3 * w, QImage.Format.Format_RGB888).copy()


def read_png(path: Path) -> np.ndarray:
    img = QImage(str(path))
    assert not img.isNull(), f"cannot read {path}"
    return to_array(img)


# --- rendering -------------------------------------------------------------------------------------

@pytest.fixture
def fixed_look(qapp: QApplication) -> Iterator[None]:
    """DejaVu Sans 9 pt and Fusion for the screenshots; the application's font back afterwards."""
    if qapp.style().name().lower() != "fusion":
        pytest.skip(f"screenshots are taken with the Fusion style, not {qapp.style().name()}")
    font = QFont(*FONT)
    if QFontInfo(font).family() != FONT[0]:
        pytest.skip(f"the {FONT[0]} font is not installed (CI installs fonts-dejavu-core)")
    old = qapp.font()
    qapp.setFont(font)
    try:
        yield
    finally:
        qapp.setFont(old)


def open_window(qtbot: Any, sample: str, mode: str) -> MainWindow:
    w = MainWindow(autosave_seconds=3600)
    qtbot.addWidget(w)
    w.resize(*SIZE)
    w.show()
    assert w.open_path(REPO / "scenarios" / sample)
    if mode == "scenario":
        assert w.scenario_mode.open_scenario()
    elif mode == "play":
        assert w.play_mode.play()
        ctl = w.play_mode.ctl
        assert ctl is not None
        qtbot.waitUntil(lambda: ctl.warm_seconds is not None, timeout=30000)  # no thread left running
    assert w.active_mode.name == mode
    return w


def capture(qtbot: Any, w: MainWindow) -> np.ndarray:
    """The window as the user sees it, the map fitted, downscaled by ``SCALE``."""
    runner = w.diagnostics.runner
    assert runner is not None and w.view is not None
    runner.flush()
    qtbot.waitUntil(lambda: not runner.busy and runner.completed == runner.generation, timeout=60000)
    label = w.diagnostics.label
    label.setText(label.text().split(" ·")[0])  # the counts, not the time the run took
    w.statusBar().clearMessage()  # transient notes ("Edit mode", "Restarted …") time out on their own
    assert w.size().width() == SIZE[0] and w.size().height() == SIZE[1]
    w.view.fit()
    QApplication.processEvents()
    settle(w)
    img = w.grab().toImage()
    small = img.scaled(img.width() // SCALE, img.height() // SCALE, Qt.AspectRatioMode.IgnoreAspectRatio,
                       Qt.TransformationMode.SmoothTransformation)
    return to_array(small)


def check_against_golden(got: np.ndarray, name: str, tmp_path: Path) -> None:
    golden = GOLDEN / f"{name}.png"
    if WRITE:
        GOLDEN.mkdir(exist_ok=True)
        assert from_array(got).save(str(golden)), golden
        return
    assert golden.is_file(), (f"no golden picture {golden.relative_to(REPO)}: make it with "
                              "HEXPROOF_WRITE_GOLDEN=1 python -m pytest tests/editor/test_screenshots.py, then look at it")
    want = read_png(golden)
    diff = compare(got, want)
    if not diff.alike:
        out = tmp_path / f"{name}-got.png"
        from_array(got).save(str(out))
        from_array(diff_image(got, want)).save(str(tmp_path / f"{name}-diff.png"))
        pytest.fail(f"{name} differs from {golden.relative_to(REPO)}: {diff.describe()}.\nGot: {out}\n"
                    f"Diff: {tmp_path / f'{name}-diff.png'}\nIf the change is intended, regenerate with "
                    "HEXPROOF_WRITE_GOLDEN=1 python -m pytest tests/editor/test_screenshots.py and look at the pictures.",
                    pytrace=False)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("sample", SAMPLES)
def test_screenshot(qtbot: Any, fixed_look: None, tmp_path: Path, sample: str, mode: str) -> None:
    w = open_window(qtbot, sample, mode)
    check_against_golden(capture(qtbot, w), f"{sample}-{mode}", tmp_path)


def test_samples_are_all_covered() -> None:
    assert len(SAMPLES) >= 4 and "utah-beach" in SAMPLES
    if not WRITE:
        names = {p.stem for p in GOLDEN.glob("*.png")}
        assert names == {f"{s}-{m}" for s in SAMPLES for m in MODES}, "a golden for each sample and mode, no stale one"


# --- the comparison fails for a real change --------------------------------------------------------

def test_a_real_change_on_the_map_fails_the_comparison(qtbot: Any, fixed_look: None) -> None:
    """Painting a block of 7 × 7 hexes another terrain is caught; the same window, unchanged, is not."""
    if WRITE:
        pytest.skip("writing the goldens")
    want = read_png(GOLDEN / "utah-beach-map.png")
    w = open_window(qtbot, "utah-beach", "map")
    assert compare(capture(qtbot, w), want).alike  # unchanged: alike (also proves the run is stable)
    doc = w.doc
    assert doc is not None
    hexes = doc.hmap.hexes()
    centre = hexes[len(hexes) // 2]
    block = {h: "woods" for h in centre.range(3) if doc.hmap.contains(h) and doc.hmap.terrain_at(h) != "woods"}
    assert len(block) > 20
    doc.push(PaintTerrain(doc, block))
    diff = compare(capture(qtbot, w), want)
    assert not diff.alike, diff.describe()


def test_a_closed_dock_fails_the_comparison(qtbot: Any, fixed_look: None) -> None:
    if WRITE:
        pytest.skip("writing the goldens")
    want = read_png(GOLDEN / "utah-beach-map.png")
    w = open_window(qtbot, "utah-beach", "map")
    w.legend_dock.close()
    diff = compare(capture(qtbot, w), want)
    assert not diff.alike, diff.describe()


def test_the_comparator_on_perturbed_images() -> None:
    """Noise within a few levels passes; a local block or a global shift of colour fails."""
    rng = np.random.default_rng(21)
    base = rng.integers(0, 256, size=(400, 640, 3), dtype=np.uint8)
    assert compare(base, base).alike and compare(base, base).mean_abs == 0
    noisy = np.clip(base.astype(np.int16) + rng.integers(-3, 4, size=base.shape), 0, 255).astype(np.uint8)
    assert compare(base, noisy).alike
    few = base.copy()
    few[390:398, 600:630] = 255 - few[390:398, 600:630]  # a few digits' worth: 240 pixels
    assert compare(base, few).alike
    block = base.copy()
    block[100:130, 200:240] = 255 - block[100:130, 200:240]  # 1200 pixels, 0.47 %
    assert not compare(base, block).alike
    tinted = np.clip(base.astype(np.int16) + 6, 0, 255).astype(np.uint8)  # every pixel a little brighter
    assert not compare(base, tinted).alike
    assert not compare(base, base[:, :-1]).alike  # another size
    marked = diff_image(block, base)
    assert (marked[110, 210] == (220, 0, 0)).all() and not (marked[10, 10] == (220, 0, 0)).all()
