"""Map-art proofing end to end: render a sample map with the editor, alter a few centre dots
on purpose, calibrate it as the map background and run ``hexproof proof-art``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtGui import QColor, QPainter

from conftest import REPO
from editor.export.image_io import qimage_to_rgb, render_calibrated
from editor.export.map_render import scene_for
from hexproof.cli import main
from model.bundle import load_bundle
from model.formats.mapart import proof_map_art
from model.mapdata import Background

pytestmark = pytest.mark.usefixtures("qapp")
UTAH = REPO / "scenarios" / "utah-beach"
SCALE = 0.5  # pixels per editor unit: a hex is 15 px from centre to corner


def altered_bundle(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A copy of the Utah sample whose map background is its own render with three dots repainted."""
    root = tmp_path / "utah"
    shutil.copytree(UTAH, root)
    bundle = load_bundle(root).bundle
    hmap = bundle.default_map
    scene = scene_for(bundle)
    img, cal = render_calibrated(scene, SCALE)
    changes = {}
    woods = bundle.system.terrain_by_id["woods"].color
    picks = [h for h in hmap.hexes() if hmap.terrain_at(h) == "clear"][100:103]
    p = QPainter(img)
    for i, h in enumerate(picks):
        colour = woods if i < 2 else "#ff00ff"  # two wrong legend colours, one the legend does not know
        x, y = scene.layout.center(h)
        rect_x, rect_y = (x - scene.sceneRect().x()) * SCALE, (y - scene.sceneRect().y()) * SCALE
        p.setPen(QColor(colour))
        p.setBrush(QColor(colour))
        p.drawEllipse(int(rect_x) - 4, int(rect_y) - 4, 9, 9)
        changes[hmap.label(h)] = "woods" if i < 2 else "unknown"
    p.end()
    assert img.save(str(root / "maps" / "utah-art.png"))
    hmap.background = Background.model_validate(
        {"image": "maps/utah-art.png", "calibration": [{"label": hmap.label(h), "x": x, "y": y} for h, x, y in cal]},
        context=hmap.context())
    bundle.save()
    return root, changes


def test_render_then_proof_finds_exactly_the_altered_dots(tmp_path: Path) -> None:
    root, changes = altered_bundle(tmp_path)
    bundle = load_bundle(root).bundle
    hmap = bundle.default_map
    from editor.export.image_io import load_rgb

    report = proof_map_art(load_rgb(root / "maps" / "utah-art.png"), hmap, bundle.system)
    assert {s.label for s in report.problems} == set(changes)
    assert len(report.by_status("match")) == len(hmap.hexes()) - 3


def test_cli_proof_art(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root, changes = altered_bundle(tmp_path)
    assert main(["proof-art", str(root), "--format", "json"]) == 1
    out = json.loads(capsys.readouterr().out)
    found = {d["location"]["hexes"][0]: d for d in out["diagnostics"]}
    assert set(found) == set(changes)
    for label, what in changes.items():
        d = found[label]
        assert d["code"] == ("PROOF-ART-001" if what == "woods" else "PROOF-ART-002")
        assert "clear" in d["message"]  # the data's value is named beside the art's
    assert out["maps"]["utah"]["mismatch"] == 2 and out["maps"]["utah"]["unknown-colour"] == 1


def test_cli_proof_art_without_background_says_how(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["proof-art", str(UTAH)]) == 2
    assert "calibrate" in capsys.readouterr().err


def test_qimage_to_rgb_round_trip() -> None:
    from PySide6.QtGui import QImage

    img = QImage(7, 3, QImage.Format.Format_ARGB32)  # odd width: stride padding must be cut
    img.fill(QColor(10, 20, 30))
    img.setPixelColor(6, 2, QColor(200, 100, 50))
    rgb = qimage_to_rgb(img)
    assert rgb.shape == (3, 7, 3)
    assert tuple(rgb[0, 0]) == (10, 20, 30) and tuple(rgb[2, 6]) == (200, 100, 50)
    assert np.count_nonzero((rgb == (200, 100, 50)).all(axis=2)) == 1
