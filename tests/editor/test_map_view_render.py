"""Canvas after the frame-time work: cached detail tiles (labels baked in), exact-zoom blits,
the export path drawn directly, per-layer opacity and the grid with the terrain hidden."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPointF
from PySide6.QtGui import QColor, QImage, QPainter

from editor.commands import PaintTerrain, SetHexsideFeature
from editor.map_view.scene import MapScene
from editor.map_view.tiles import TILE, scale_key
from editor.map_view.view import MapView
from model.base import hexside_key
from helpers import open_doc


def _view(qtbot: Any, zoom: float | None = None) -> MapView:
    view = MapView(MapScene(open_doc()))
    qtbot.addWidget(view)
    view.resize(600, 450)
    view.show()
    qtbot.waitExposed(view)
    view.fit() if zoom is None else view.set_zoom(zoom)
    return view


def _settle(qtbot: Any, view: MapView) -> None:
    scene = view.map_scene
    assert scene.terrain is not None
    for _ in range(200):
        view.viewport().grab()  # a synchronous paint (repaint() may be skipped offscreen)
        if not scene.terrain.pending:
            return
        qtbot.wait(1)
    raise AssertionError("tiles never settled")


def _pixel(view: MapView, p: QPointF) -> QColor:
    v = view.mapFromScene(p)
    return view.viewport().grab().toImage().pixelColor(v.x(), v.y())


def test_settled_frames_render_no_tiles(qtbot: Any) -> None:
    """Once settled, repainting (and panning back) draws cached tiles only."""
    view = _view(qtbot, 1.0)
    _settle(qtbot, view)
    scene = view.map_scene
    assert scene.terrain is not None and scene.details is not None
    before = (scene.terrain.tiles_rendered, scene.details.tiles_rendered)
    assert before[1] > 0  # details (labels at 100 %) come from tiles on screen
    for _ in range(5):
        view.viewport().grab()
    assert (scene.terrain.tiles_rendered, scene.details.tiles_rendered) == before


def test_tiles_are_rendered_at_the_view_zoom(qtbot: Any) -> None:
    """Tile keys carry the exact zoom, so a tile covers TILE device pixels (drawn as a blit)."""
    view = _view(qtbot, 1.37)
    _settle(qtbot, view)
    scene = view.map_scene
    assert scene.terrain is not None
    scales = {k[0] for k in scene.terrain._tiles}
    assert scale_key(view.zoom) in scales
    img = next(img for k, img in scene.terrain._tiles.items() if k[0] == scale_key(view.zoom))
    assert (img.width(), img.height()) == (TILE, TILE)


def test_labels_are_drawn_from_tiles_and_follow_the_layer(qtbot: Any) -> None:
    """At 100 % the printed label shows dark text pixels above a hex centre; hiding the
    labels layer removes them (the cached tiles are redrawn)."""
    view = _view(qtbot, 1.5)
    doc, scene = view.map_scene.doc, view.map_scene
    h = doc.hmap.parse("0302")
    view.center_on_hex(h)
    lay = scene.layout

    def dark_pixels() -> int:
        _settle(qtbot, view)
        img = view.viewport().grab().toImage()
        x, y = lay.center(h)
        n = 0
        for dx in range(-12, 13):
            for dy in range(-24, -12):
                p = view.mapFromScene(QPointF(x + dx, y + dy))
                c = img.pixelColor(p.x(), p.y())
                n += c.red() < 110 and c.green() < 110 and c.blue() < 110
        return n

    assert dark_pixels() > 5
    assert scene.details is not None
    scene.set_layer_visible("labels", False)
    assert dark_pixels() == 0


def test_terrain_edit_keeps_detail_tiles(qtbot: Any) -> None:
    """A brush dab patches terrain tiles in place and re-renders no detail tile."""
    view = _view(qtbot, 1.0)
    _settle(qtbot, view)
    doc, scene = view.map_scene.doc, view.map_scene
    assert scene.details is not None
    h = doc.hmap.parse("0602")
    view.center_on_hex(h)
    _settle(qtbot, view)
    cached, rendered = len(scene.details._tiles), scene.details.tiles_rendered
    doc.push(PaintTerrain(doc, {h: "sea"}))
    _settle(qtbot, view)
    assert scene.details.tiles_rendered == rendered and len(scene.details._tiles) == cached
    assert _pixel(view, QPointF(*scene.layout.center(h)) + QPointF(0, 8)).name() == \
        doc.system.terrain_by_id["sea"].color


def test_export_draws_details_directly(qapp: Any) -> None:
    """QGraphicsScene.render (no widget) never uses or creates detail tiles."""
    doc = open_doc()
    scene = MapScene(doc)
    rect = scene.sceneRect()
    img = QImage(int(rect.width()), int(rect.height()), QImage.Format.Format_ARGB32)
    img.fill(0)
    p = QPainter(img)
    scene.render(p, source=rect)
    p.end()
    assert scene.details is not None and scene.details.tiles_rendered == 0
    assert scene.terrain is not None and not scene.terrain.pending


def test_each_detail_layer_has_its_own_opacity(qtbot: Any) -> None:
    """Hexside opacity 0 hides the river colour while other layers keep theirs."""
    view = _view(qtbot)
    doc, scene = view.map_scene.doc, view.map_scene
    h = doc.hmap.parse("0602")
    doc.push(SetHexsideFeature(doc, hexside_key(h, 5), "river"))
    x, y = scene.layout.center(h)
    probe = QPointF(x, y + scene.layout.hex_height / 2)
    river = doc.system.hexside_by_id["river"].color
    qtbot.waitUntil(lambda: _pixel(view, probe).name() == river)
    scene.set_layer_opacity("labels", 0.0)
    scene.set_layer_opacity("paths", 0.2)
    _settle(qtbot, view)
    assert _pixel(view, probe).name() == river
    scene.set_layer_opacity("hexsides", 0.0)
    qtbot.waitUntil(lambda: _pixel(view, probe).name() != river)
    assert scene.layer_opacity("hexsides") == 0.0 and scene.layer_opacity("paths") == 0.2
    assert scene.layer_opacity("labels") == 0.0 and scene.layer_opacity("features") == 1.0


def test_layers_panel_sliders_are_independent(qtbot: Any) -> None:
    """Moving one slider in the Layers dock changes that layer only (window wiring)."""
    from editor.main_window import MainWindow
    from helpers import MINI

    w = MainWindow(autosave_seconds=3600)
    qtbot.addWidget(w)
    assert w.open_path(MINI) and w.scene is not None
    w.layers_panel.sliders["paths"].setValue(30)
    w.layers_panel.sliders["grid"].setValue(50)
    assert w.scene.layer_opacity("paths") == 0.3
    assert w.scene.layer_opacity("grid") == 0.5
    assert w.scene.layer_opacity("hexsides") == 1.0 and w.scene.layer_opacity("labels") == 1.0
    assert w.scene.details is not None and w.scene.details.opacity() == 1.0


def test_grid_shows_with_terrain_hidden_and_toggles(qtbot: Any) -> None:
    """Terrain hidden: a hex edge is still drawn (grid-only layer); grid off: it is gone."""
    view = _view(qtbot, 1.5)
    doc, scene = view.map_scene.doc, view.map_scene
    assert scene.terrain is not None and scene.grid_item is not None
    h = doc.hmap.parse("0302")
    view.center_on_hex(h)
    lay = scene.layout
    # The middle of one side of the hex lies on a grid line.
    a, b = (QPointF(*pt) for pt in lay.corners(h)[:2])
    probe = (a + b) / 2
    bg = scene.backgroundBrush().color().name()

    def darkest_near() -> int:
        _settle(qtbot, view)
        img = view.viewport().grab().toImage()
        v = view.mapFromScene(probe)
        return min(img.pixelColor(v.x() + dx, v.y() + dy).value() for dx in (-1, 0, 1) for dy in (-1, 0, 1))

    scene.set_layer_visible("terrain", False)
    assert scene.grid_item.isVisible()
    assert darkest_near() < QColor(bg).value() - 40  # a grid line, not just background
    scene.set_layer_visible("grid", False)
    assert not scene.grid_item.isVisible()
    assert darkest_near() >= QColor(bg).value() - 2
    scene.set_layer_visible("grid", True)
    scene.set_layer_visible("terrain", True)
    assert not scene.grid_item.isVisible() and scene.terrain.grid.grid_lines


def test_grid_opacity_fades_the_baked_grid(qapp: Any) -> None:
    """The grid's opacity sets how much the raster darkens edge pixels (1 → 60 %, 0 → none)."""
    from editor.map_view.raster import TerrainGrid
    from editor.qt_geometry import HEX_SIZE

    doc = open_doc()
    grid = TerrainGrid(doc.hmap, doc.system)
    full = grid.render(0, 0, 200, 200, 1.0, HEX_SIZE).copy()
    grid.grid_strength = 0.0
    none = grid.render(0, 0, 200, 200, 1.0, HEX_SIZE)
    grid.grid_lines = False
    plain = grid.render(0, 0, 200, 200, 1.0, HEX_SIZE)
    assert (none == plain).all()
    assert (full != plain).sum() > 100
    only = grid.render(0, 0, 200, 200, 1.0, HEX_SIZE, grid_only=True)
    assert not only.any()  # grid off: the grid-only raster is empty
