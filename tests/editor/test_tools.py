"""Every tool turns mouse events into model changes (one undo step each)."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QPointF, Qt

from editor.map_view.scene import MapScene
from editor.map_view.view import MapView
from editor.tools import (Eraser, FeatureTool, HexsidePainter, PathTool, Picker, PortionTool, SelectionTool,
                          TerrainBrush)
from editor.tools.terrain_brush import flood_region
from model.base import hexside_key
from helpers import click, mouse, open_doc, scene_point


@pytest.fixture
def view(qtbot: Any) -> MapView:
    doc = open_doc()
    v = MapView(MapScene(doc))
    qtbot.addWidget(v)
    v.resize(800, 600)
    v.show()
    v.fit()
    return v


def test_brush_paints_a_stroke_as_one_step(view: MapView) -> None:
    """Dragging the brush over three hexes paints them all and merges into one undo step."""
    doc = view.map_scene.doc
    hmap = doc.hmap
    view.tool = TerrainBrush("woods")
    a, b, c = hmap.parse("0501"), hmap.parse("0502"), hmap.parse("0503")
    mouse(view, "press", scene_point(view, a))
    mouse(view, "move", scene_point(view, b))
    mouse(view, "move", scene_point(view, c))
    mouse(view, "release", scene_point(view, c))
    assert [hmap.terrain_at(h) for h in (a, b, c)] == ["woods"] * 3
    assert doc.undo_stack.count() == 1
    doc.undo_stack.undo()
    assert [hmap.terrain_at(h) for h in (a, b, c)] == ["clear"] * 3


def test_brush_radius_and_flood_fill(view: MapView) -> None:
    """Radius 1 paints the hex and its on-map neighbours; fill paints the connected region."""
    doc = view.map_scene.doc
    hmap = doc.hmap
    h = hmap.parse("0502")
    view.tool = TerrainBrush("sea", radius=1)
    click(view, scene_point(view, h))
    assert all(hmap.terrain_at(x) == "sea" for x in h.range(1) if hmap.contains(x))
    doc.undo_stack.undo()
    woods = flood_region(hmap, hmap.parse("0303"))
    assert woods == {hmap.parse(x) for x in ("0303", "0402", "0403")}
    view.tool = TerrainBrush("sea", mode="fill")
    click(view, scene_point(view, hmap.parse("0303")))
    assert all(hmap.terrain_at(x) == "sea" for x in woods)
    assert hmap.terrain_at(hmap.parse("0302")) == "clear"


def test_hexside_painter_sets_and_clears_nearest_side(view: MapView) -> None:
    """A click near the south side sets that hexside; a right-click clears it."""
    doc = view.map_scene.doc
    hmap = doc.hmap
    h = hmap.parse("0502")
    lay = view.map_scene.layout
    view.tool = HexsidePainter("river")
    south = scene_point(view, h, 0, lay.size * 0.8)  # flat-top: S side is straight below
    click(view, south)
    key = hexside_key(h, 5)
    assert "river" in hmap.hexside_features(key)
    click(view, south, Qt.MouseButton.RightButton)
    assert "river" not in hmap.hexside_features(key)
    assert doc.undo_stack.count() == 2


def test_path_tool_adds_path_through_clicked_hexes(view: MapView) -> None:
    """Clicking two hexes two apart and right-clicking adds a 3-hex road (gap filled)."""
    hmap = view.map_scene.doc.hmap
    tool = PathTool("road")
    view.tool = tool
    click(view, scene_point(view, hmap.parse("0501")))
    click(view, scene_point(view, hmap.parse("0503")))
    click(view, scene_point(view, hmap.parse("0503")), Qt.MouseButton.RightButton)
    assert len(hmap.paths) == 2
    assert [hmap.label(x) for x in hmap.paths[-1].hexes] == ["0501", "0502", "0503"]


def test_feature_tool_places_and_removes(view: MapView) -> None:
    """Left click places a named feature, right click removes it."""
    hmap = view.map_scene.doc.hmap
    view.tool = FeatureTool("town", "Here")
    h = hmap.parse("0602")
    click(view, scene_point(view, h))
    assert [f.name for f in hmap.features_by_hex[h]] == ["Here"]
    click(view, scene_point(view, h), Qt.MouseButton.RightButton)
    assert h not in hmap.features_by_hex


def test_portion_tool_greys_side_and_clears(view: MapView) -> None:
    """A click near a hex's S side sets a preset portion on S; right click clears it."""
    hmap = view.map_scene.doc.hmap
    lay = view.map_scene.layout
    view.tool = PortionTool(depth=0.4)
    h = hmap.parse("0502")
    click(view, scene_point(view, h, 0, lay.size * 0.6))
    p = hmap.portion_by_hex[h]
    assert (p.preset, p.depth) == ("S", 0.4)
    click(view, scene_point(view, h), Qt.MouseButton.RightButton)
    assert h not in hmap.portion_by_hex


def test_eraser_removes_everything_in_hex_in_one_step(view: MapView) -> None:
    """Erasing 0303 removes the road through it and its river hexside, as one undo step."""
    doc = view.map_scene.doc
    hmap = doc.hmap
    h = hmap.parse("0303")
    view.tool = Eraser()
    click(view, scene_point(view, h))
    assert h not in hmap.paths_by_hex
    assert not any(hmap.hexside_features(hexside_key(h, d)) for d in range(6))
    assert doc.undo_stack.count() == 1
    doc.undo_stack.undo()
    assert h in hmap.paths_by_hex


def test_picker_reports_terrain(view: MapView) -> None:
    """The picker hands the clicked hex's terrain to its callback."""
    picked: list[str] = []
    view.tool = Picker(picked.append)
    click(view, scene_point(view, view.map_scene.doc.hmap.parse("0101")))
    assert picked == ["sea"]


def test_rect_and_lasso_selection_copy_paste_move(view: MapView) -> None:
    """Rectangle-select the woods, copy and paste them elsewhere; lasso; move by one hex."""
    doc = view.map_scene.doc
    hmap = doc.hmap
    tool = SelectionTool("rect")
    view.tool = tool
    a, b = hmap.parse("0402"), hmap.parse("0403")
    lay = view.map_scene.layout
    mouse(view, "press", scene_point(view, a, -lay.size * 0.3, -lay.size * 0.3))
    mouse(view, "move", scene_point(view, b))
    mouse(view, "release", scene_point(view, b, lay.size * 0.3, lay.size * 0.3))
    assert tool.selected == {a, b}
    tool.copy(doc)
    tool.paste(doc, hmap.parse("0601"))
    assert hmap.terrain_at(hmap.parse("0601")) == "woods"
    assert hmap.terrain_at(hmap.parse("0602")) == "woods"
    tool.mode = "lasso"
    c = scene_point(view, hmap.parse("0502"))
    for kind, dx, dy in (("press", -5, -5), ("move", 5, -5), ("move", 5, 5), ("release", -5, 5)):
        mouse(view, kind, QPointF(c.x() + dx, c.y() + dy))
    assert tool.selected == {hmap.parse("0502")}
    tool.selected = {a}
    tool.move_by(doc, hmap.parse("0502") - a, "clear")
    assert hmap.terrain_at(hmap.parse("0502")) == "woods"
    assert hmap.terrain_at(a) == "clear"


def test_hexside_drag_is_one_undo_step(view: MapView) -> None:
    """Dragging along the south sides of a column of hexes sets several sides in one undo step."""
    doc = view.map_scene.doc
    hmap = doc.hmap
    lay = view.map_scene.layout
    view.tool = HexsidePainter("river")
    hexes = [hmap.parse(x) for x in ("0601", "0602", "0603")]
    mouse(view, "press", scene_point(view, hexes[0], 0, lay.size * 0.8))
    for h in hexes[1:]:
        mouse(view, "move", scene_point(view, h, 0, lay.size * 0.8))
    mouse(view, "release", scene_point(view, hexes[-1], 0, lay.size * 0.8))
    keys = [hexside_key(h, 5) for h in hexes]
    assert all("river" in hmap.hexside_features(k) for k in keys)
    assert doc.undo_stack.count() == 1
    doc.undo_stack.undo()
    assert not any("river" in hmap.hexside_features(k) for k in keys)
