"""Calibration residuals (math, and the report a new fit sends to the status bar) and
dragging the corners of existing impassable portions (live preview, one undo step)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PySide6.QtCore import QPointF
from PySide6.QtGui import QColor, QImage

from model.calibration import residual_summary, residuals
from editor.commands import CalibrateBackground, SetBackground, SetPortion
from editor.map_view.scene import MapScene
from editor.map_view.view import MapView
from editor.tools import PortionPolygonTool
from editor.tools.portion_tool import portion_corners
from model.mapdata import Background, CalibrationPoint, ImpassablePortion
from helpers import MINI, mouse, open_doc, scene_point


def test_residuals_zero_for_exact_fits_and_show_the_outlier() -> None:
    """Two points fit exactly (0); with four, the one moved point has the largest residual,
    reported in map units, image pixels (map units / fit scale) and hexes."""
    src = np.array([[0, 0], [100, 0], [0, 100], [100, 100]], dtype=float)
    dst = src * 2.0 + 5.0
    two = residuals(src[:2], dst[:2], ["a", "b"], hex_size=30.0)
    assert [r.map_units for r in two] == pytest.approx([0.0, 0.0], abs=1e-9)
    dst[3] += (6.0, 0.0)
    res = residuals(src, dst, ["a", "b", "c", "d"], hex_size=30.0)
    worst = max(res, key=lambda r: r.map_units)
    assert worst.label == "d" and worst.map_units > 1.0
    assert worst.image_px == pytest.approx(worst.map_units / 2.0, rel=0.05)  # the scan is at 2 units/px
    assert worst.hexes == pytest.approx(worst.map_units / 30.0)
    assert "RMS" in residual_summary(res) and "d:" in residual_summary(res)


def test_new_fit_reports_residuals_to_the_view(qtbot: Any, tmp_path: Path) -> None:
    """Calibrating with four points puts per-point residuals in the view's report."""
    root = tmp_path / "b"  # the image inside the bundle: a background image is named relative to it
    shutil.copytree(MINI, root)
    image = root / "scan.png"
    img = QImage(300, 200, QImage.Format.Format_ARGB32)
    img.fill(QColor("#808080"))
    assert img.save(str(image))
    doc = open_doc(root)
    doc.push(SetBackground(doc, Background(image="scan.png", opacity=0.5)))
    view = MapView(MapScene(doc))
    qtbot.addWidget(view)
    lay = view.map_scene.layout
    pts = []
    for i, lbl in enumerate(["0101", "0501", "0104", "0504"]):
        h = doc.hmap.parse(lbl)
        x, y = lay.center(h)
        # Image at 0.5 map units per pixel, one point clicked 4 px off.
        pts.append(CalibrationPoint(label=h, x=x * 2 + (4.0 if i == 3 else 0.0), y=y * 2))
    doc.push(CalibrateBackground(doc, pts))
    bg = view.map_scene.background
    assert len(bg.residuals) == 4
    assert max(r.image_px for r in bg.residuals) > 0.5
    assert "0504" in view.last_calibration_report and "px" in view.last_calibration_report


@pytest.fixture
def view(qtbot: Any) -> MapView:
    v = MapView(MapScene(open_doc()))
    qtbot.addWidget(v)
    v.resize(800, 600)
    v.show()
    v.set_zoom(3.0)
    return v


def _drag(view: MapView, a: QPointF, b: QPointF) -> None:
    mouse(view, "press", a)
    mouse(view, "move", (a + b) / 2)
    mouse(view, "move", b)
    mouse(view, "release", b)


def test_drag_polygon_corner_is_one_undo_step(view: MapView) -> None:
    doc = view.map_scene.doc
    h = doc.hmap.parse("0502")
    view.center_on_hex(h)
    poly = [(0.0, 0.0), (0.5, 0.0), (0.0, 0.5)]
    doc.push(SetPortion(doc, ImpassablePortion(hex=h, polygon=poly)))
    lay = view.map_scene.layout
    view.tool = PortionPolygonTool()
    steps = doc.undo_stack.count()
    _drag(view, scene_point(view, h, 0.5 * lay.size, 0.0), scene_point(view, h, 0.6 * lay.size, -0.2 * lay.size))
    p = doc.hmap.portion_by_hex[h]
    assert p.polygon is not None and p.polygon[1] == pytest.approx((0.6, -0.2), abs=0.02)
    assert p.polygon[0] == (0.0, 0.0) and p.polygon[2] == (0.0, 0.5)
    assert doc.undo_stack.count() == steps + 1
    doc.undo_stack.undo()
    assert doc.hmap.portion_by_hex[h].polygon == poly
    doc.undo_stack.redo()
    assert doc.hmap.portion_by_hex[h].polygon[1] == pytest.approx((0.6, -0.2), abs=0.02)


def test_drag_preset_corner_turns_it_into_a_polygon(view: MapView) -> None:
    doc = view.map_scene.doc
    h = doc.hmap.parse("0302")
    view.center_on_hex(h)
    doc.push(SetPortion(doc, ImpassablePortion(hex=h, preset="S", depth=0.5)))
    lay = view.map_scene.layout
    corners = portion_corners(doc.hmap.portion_by_hex[h], doc.hmap.grid.orientation)
    x, y = corners[0]
    view.tool = PortionPolygonTool()
    _drag(view, scene_point(view, h, x * lay.size, y * lay.size),
          scene_point(view, h, x * lay.size, (y - 0.1) * lay.size))
    p = doc.hmap.portion_by_hex[h]
    assert p.polygon is not None and p.preset is None and len(p.polygon) == len(corners)
    assert p.polygon[0] == pytest.approx((x, y - 0.1), abs=0.02)
    doc.undo_stack.undo()
    back = doc.hmap.portion_by_hex[h]
    assert back.preset == "S" and back.polygon is None


def test_press_away_from_corners_still_draws(view: MapView) -> None:
    """A press not on a corner starts a new polygon as before (no drag)."""
    doc = view.map_scene.doc
    h = doc.hmap.parse("0502")
    view.center_on_hex(h)
    tool = PortionPolygonTool()
    view.tool = tool
    mouse(view, "press", scene_point(view, h))
    mouse(view, "release", scene_point(view, h))
    assert tool.drag is None and len(tool.points) == 1
    assert tool.points[0] == pytest.approx((0.0, 0.0), abs=0.01)
