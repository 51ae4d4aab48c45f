"""Background calibration: the numpy solve, the click-to-calibrate tool and the placed image;
the free-polygon portion tool."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QImage

from model.calibration import solve_affine
from editor.commands import SetBackground
from editor.map_view.scene import MapScene
from editor.map_view.view import MapView
from editor.tools import CalibrateTool, PortionPolygonTool
from model.mapdata import Background
from helpers import MINI, click, open_doc, scene_point


def test_similarity_from_two_points() -> None:
    """Two points recover scale 2, rotation 90°, shift (5, 7) exactly."""
    src = np.array([[0.0, 0.0], [1.0, 0.0]])
    dst = np.array([[5.0, 7.0], [5.0, 9.0]])
    m = solve_affine(src, dst)
    assert m @ np.array([0.0, 1.0, 1.0]) == pytest.approx([3.0, 7.0])


def test_affine_least_squares_from_four_points() -> None:
    """Four noisy-free points of a skewed map recover the affine map."""
    true = np.array([[1.5, 0.2, 10.0], [-0.1, 2.0, -4.0]])
    src = np.array([[0, 0], [100, 0], [0, 80], [60, 30]], dtype=float)
    dst = (true @ np.column_stack([src, np.ones(4)]).T).T
    assert solve_affine(src, dst) == pytest.approx(true)


@pytest.fixture
def view_with_image(qtbot: Any, tmp_path: Path) -> MapView:
    root = tmp_path / "b"  # the image inside the bundle: a background image is named relative to it
    shutil.copytree(MINI, root)
    image = root / "scan.png"
    img = QImage(400, 300, QImage.Format.Format_ARGB32)
    img.fill(QColor("#808080"))
    assert img.save(str(image))
    doc = open_doc(root)
    doc.push(SetBackground(doc, Background(image="scan.png", opacity=0.4)))
    view = MapView(MapScene(doc))
    qtbot.addWidget(view)
    view.resize(800, 600)
    view.show()
    view.fit()
    return view


def test_click_calibration_places_image(view_with_image: MapView) -> None:
    """Clicking two hex centres (labels typed) calibrates; the image maps those pixels onto them."""
    view = view_with_image
    doc = view.map_scene.doc
    bg_item = view.map_scene.background
    assert bg_item.isVisible() and bg_item.opacity() == pytest.approx(0.4)
    labels = iter(["0201", "0504"])
    tool = CalibrateTool(lambda: next(labels))
    view.tool = tool
    for lbl in ("0201", "0504"):
        click(view, scene_point(view, doc.hmap.parse(lbl)))
    click(view, scene_point(view, doc.hmap.parse("0504")), Qt.MouseButton.RightButton)
    assert doc.hmap.background is not None and len(doc.hmap.background.calibration) == 2
    for p in doc.hmap.background.calibration:
        mapped = bg_item.mapToScene(QPointF(p.x, p.y))
        want = scene_point(view, p.label)
        assert (mapped.x(), mapped.y()) == pytest.approx((want.x(), want.y()), abs=0.5)
    doc.undo_stack.undo()
    assert doc.hmap.background.calibration == []


def test_portion_polygon_tool(view_with_image: MapView) -> None:
    """Three clicks inside a hex and a right-click set a polygon portion in hex-local units."""
    view = view_with_image
    doc = view.map_scene.doc
    h = doc.hmap.parse("0502")
    lay = view.map_scene.layout
    tool = PortionPolygonTool()
    view.tool = tool
    for dx, dy in ((0, 0), (0.5, 0), (0, 0.5)):
        click(view, scene_point(view, h, dx * lay.size, dy * lay.size))
    click(view, scene_point(view, h), Qt.MouseButton.RightButton)
    p = doc.hmap.portion_by_hex[h]
    assert p.polygon is not None and len(p.polygon) == 3
    assert p.polygon[1] == pytest.approx((0.5, 0.0), abs=0.05)


def test_background_image_is_read_from_the_bundle(view_with_image: MapView) -> None:
    """The image named relative to the bundle is read (through model/safefile) and shown."""
    bg_item = view_with_image.map_scene.background
    assert bg_item.image_error is None
    assert bg_item.pixmap().width() == 400 and bg_item.pixmap().height() == 300
