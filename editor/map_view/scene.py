"""MapScene: the layers of one map, kept in step with the document's change events."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QGraphicsScene

from editor.document import MapDocument
from model.calibration import residual_summary
from editor.map_view.background_item import BackgroundItem
from editor.map_view.detail_index import DetailIndex
from editor.map_view.detail_item import DetailItem
from editor.map_view.raster import TerrainGrid
from editor.map_view.terrain_item import TerrainItem
from editor.qt_geometry import layout_for, scene_rect
from model.changes import (BackgroundChanged, Change, DocumentReplaced, FeaturesChanged, HexsidesChanged,
                           PathsChanged, PortionsChanged, PropertyChanged, TerrainChanged)


class MapScene(QGraphicsScene):
    calibrationReport = Signal(str)  # residuals of a new background fit, for the status bar

    def __init__(self, doc: MapDocument) -> None:
        super().__init__()
        self.doc = doc
        self.setBackgroundBrush(QColor("#d8d8d8"))
        self.background = BackgroundItem(doc)
        self.background.setZValue(-10)
        self.addItem(self.background)
        self.terrain: TerrainItem | None = None
        self.grid_item: TerrainItem | None = None  # grid lines alone, while terrain is hidden
        self.details: DetailItem | None = None
        self.frame_deadline = 0.0  # tile budget of the frame being painted (see tiles.py)
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
            self.grid_item = TerrainItem(grid, self.layout, bounds, grid_only=True)
            self.grid_item.setZValue(1)
            self.grid_item.setVisible(False)
            self.addItem(self.grid_item)
            self.details = DetailItem(hmap, system, self.layout, bounds)
            self.details.setZValue(5)
            self.addItem(self.details)
        else:
            old = self.terrain.grid
            grid.grid_lines, grid.grid_strength = old.grid_lines, old.grid_strength
            self.terrain.layout = self.layout
            self.terrain.set_grid(grid, bounds)
            assert self.grid_item is not None and self.details is not None
            self.grid_item.layout = self.layout
            self.grid_item.set_grid(grid, bounds)
            self.details.prepareGeometryChange()
            self.details.hmap, self.details.layout, self.details._bounds = hmap, self.layout, bounds
            self.details.index = DetailIndex(hmap)
            self.details.reset()
        self.background.refresh()
        self.sync_grid_item()

    def set_label_scale(self, scale: float) -> None:
        """Hex numbers and feature names at ``scale`` × their usual size (Edit ▸ Preferences)."""
        assert self.details is not None
        if scale != self.details.label_scale:
            self.details.label_scale = scale
            self.details.reset()

    # --- layers (view state) ----------------------------------------------------------------

    def sync_grid_item(self) -> None:
        """The grid is baked into the terrain tiles; with the terrain hidden, the grid-only
        item draws it instead."""
        if self.terrain is None or self.grid_item is None:
            return
        show = self.terrain.grid.grid_lines and not self.terrain.isVisible()
        if show != self.grid_item.isVisible():
            self.grid_item.setVisible(show)

    def set_layer_visible(self, name: str, on: bool) -> None:
        assert self.terrain is not None and self.details is not None
        if name == "terrain":
            self.terrain.setVisible(on)  # itemChange keeps the grid item in step
        elif name == "grid":
            self.terrain.set_grid_lines(on)
        elif name == "background":
            self.background.setVisible(on and self.doc.hmap.background is not None)
        else:
            self.details.set_layer_visible(name, on)

    def set_layer_opacity(self, name: str, value: float) -> None:
        """Each layer's own opacity: terrain and background are items; the grid is a
        strength baked into the terrain tiles; the others are drawn by the detail item."""
        assert self.terrain is not None and self.grid_item is not None and self.details is not None
        value = max(0.0, min(1.0, value))
        if name == "terrain":
            self.terrain.setOpacity(value)
        elif name == "background":
            self.background.setOpacity(value)
        elif name == "grid":
            self.terrain.grid.grid_strength = value
            self.terrain.clear_tiles()
            self.grid_item.clear_tiles()
        else:
            self.details.set_layer_opacity(name, value)

    def layer_opacity(self, name: str) -> float:
        assert self.terrain is not None and self.details is not None
        if name == "terrain":
            return self.terrain.opacity()
        if name == "background":
            return self.background.opacity()
        if name == "grid":
            return self.terrain.grid.grid_strength
        return self.details.layer_opacity[name]

    def on_change(self, change: Change) -> None:
        """Redraw only what the event names (the affected tiles/hexes)."""
        if change.map_id not in (None, self.doc.map_id):
            return
        assert self.terrain is not None and self.details is not None
        if isinstance(change, DocumentReplaced):
            self._build()
        elif isinstance(change, TerrainChanged):
            # Details do not depend on terrain: their cached tiles stay; the terrain item's
            # update of the patched rectangle repaints every layer there.
            self.terrain.terrain_changed(change.hexes)
        elif isinstance(change, HexsidesChanged):
            self.details.index.update_hexsides(change.keys)
            self.details.symbols_changed()
            self.details.repaint_hexes([h for k in change.keys for h in k.hexes()])
        elif isinstance(change, (PathsChanged, FeaturesChanged, PortionsChanged)):
            self.details.index.rebuild_lists()
            self.details.symbols_changed()
            # Paths and names can reach beyond their hexes; repaint their neighbourhood.
            self.details.repaint_hexes([n for h in change.hexes for n in h.range(1)])
            if isinstance(change, FeaturesChanged):
                self.details.relayout_labels()
        elif isinstance(change, BackgroundChanged):
            self.background.refresh()
            if self.background.calibration_error:
                self.calibrationReport.emit(f"Calibration not applied: {self.background.calibration_error}")
            elif self.background.residuals:
                self.calibrationReport.emit(residual_summary(self.background.residuals))
        elif isinstance(change, PropertyChanged):
            self.details.index.rebuild_lists()
            self.details.labels.invalidate()
            self.details.symbols_changed()
            self.details.clear_tiles()  # a name or area may be drawn anywhere

    def map_rect(self) -> QRectF:
        return self.sceneRect()
