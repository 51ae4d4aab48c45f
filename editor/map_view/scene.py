"""MapScene: the layers of one map, kept in step with the document's change events."""

from __future__ import annotations

from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QGraphicsScene

from editor.document import MapDocument
from editor.map_view.background_item import BackgroundItem
from editor.map_view.detail_index import DetailIndex
from editor.map_view.detail_item import DetailItem
from editor.map_view.raster import TerrainGrid
from editor.map_view.terrain_item import TerrainItem
from editor.qt_geometry import layout_for, scene_rect
from model.changes import (BackgroundChanged, Change, DocumentReplaced, FeaturesChanged, HexsidesChanged,
                           PathsChanged, PortionsChanged, PropertyChanged, TerrainChanged)


class MapScene(QGraphicsScene):
    def __init__(self, doc: MapDocument) -> None:
        super().__init__()
        self.doc = doc
        self.setBackgroundBrush(QColor("#d8d8d8"))
        self.background = BackgroundItem(doc)
        self.background.setZValue(-10)
        self.addItem(self.background)
        self.terrain: TerrainItem | None = None
        self.details: DetailItem | None = None
        self._build()
        doc.changed.connect(self.on_change)

    def _build(self) -> None:
        hmap, system = self.doc.hmap, self.doc.system
        self.layout = layout_for(hmap)
        bounds = scene_rect(hmap, self.layout)
        self.setSceneRect(bounds)
        grid = TerrainGrid(hmap, system)
        if self.terrain is None:
            self.terrain = TerrainItem(grid, self.layout, bounds)
            self.addItem(self.terrain)
            self.details = DetailItem(hmap, system, self.layout, bounds)
            self.details.setZValue(5)
            self.addItem(self.details)
        else:
            self.terrain.layout = self.layout
            self.terrain.set_grid(grid, bounds)
            assert self.details is not None
            self.details.prepareGeometryChange()
            self.details.hmap, self.details.layout, self.details._bounds = hmap, self.layout, bounds
            self.details.index = DetailIndex(hmap)
            self.details._pens.clear()
            self.details._labels.clear()
            self.details.update()
        self.background.refresh()

    def on_change(self, change: Change) -> None:
        """Redraw only what the event names (the affected tiles/hexes)."""
        if change.map_id not in (None, self.doc.map_id):
            return
        assert self.terrain is not None and self.details is not None
        if isinstance(change, DocumentReplaced):
            self._build()
        elif isinstance(change, TerrainChanged):
            self.terrain.terrain_changed(change.hexes)
            self.details.repaint_hexes(change.hexes)
        elif isinstance(change, HexsidesChanged):
            self.details.index.update_hexsides(change.keys)
            self.details.repaint_hexes([h for k in change.keys for h in k.hexes()])
        elif isinstance(change, (PathsChanged, FeaturesChanged, PortionsChanged)):
            self.details.index.rebuild_lists()
            # Paths and names can reach beyond their hexes; repaint their neighbourhood.
            self.details.repaint_hexes([n for h in change.hexes for n in h.range(1)])
        elif isinstance(change, BackgroundChanged):
            self.background.refresh()
        elif isinstance(change, PropertyChanged):
            self.details.index.rebuild_lists()
            self.details.update()

    def map_rect(self) -> QRectF:
        return self.sceneRect()
