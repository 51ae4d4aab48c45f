"""TiledItem: a scene item drawn from cached TILE×TILE images rendered at the view's scale.

Shared by the terrain, the grid-only layer and the detail layers. Tiles are rendered at the
exact current zoom (rounded to 6 significant digits) and drawn at integer device pixels, so a
frame at a steady zoom is a set of plain blits. On screen, a paint draws cached tiles,
renders missing ones until the *frame* deadline (one budget shared by every tiled item of
the scene, set by the view when a paint starts), stands in for the rest with tiles cached at
another zoom (scaled, smoothed), and schedules another paint; after a zoom step the view
therefore sharpens over a few frames instead of stalling one. When the view is idle, the
ring of tiles just outside the last painted rectangle is rendered ahead (a slice of
:data:`PREFETCH_SLICE_S` per event-loop turn), so the next pan finds them cached.
QGraphicsScene.render() (export, print) passes no widget and gets every tile at once.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict

from PySide6.QtCore import QPointF, QRectF, QTimer
from PySide6.QtGui import QImage, QPainter, QTransform
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

TILE = 256
MIN_SCALE = 1 / 512
FRAME_BUDGET_S = 0.006  # tile rendering per frame, all tiled items together
PREFETCH_SLICE_S = 0.004  # idle rendering per event-loop turn
PREFETCH_RING = 1  # tiles of margin rendered ahead around the last painted rectangle
STAND_IN_SCALES = 3  # other zooms searched for stand-in tiles, nearest first

TileKey = tuple[float, int, int, int]  # scale (pixels per scene unit), variant, tx, ty


def scale_key(scale: float) -> float:
    """The tile scale for a view scale: rounded so float noise does not split the cache."""
    return float(f"{max(scale, MIN_SCALE):.6g}")


def tile_rect(key: TileKey) -> QRectF:
    scale, _variant, tx, ty = key
    span = TILE / scale
    return QRectF(tx * span, ty * span, span, span)


def start_frame(scene: object) -> None:
    """Called by the view when a paint begins: the tile budget of this frame starts now."""
    setattr(scene, "frame_deadline", time.perf_counter() + FRAME_BUDGET_S)
    setattr(scene, "frame_tiles", 0)


class _Budget:
    """The tile budget one paint of one item draws on: the scene's frame budget when a
    MapView started the frame, else a budget of its own. A tile is rendered only if its
    expected cost still fits, and the first tile of a frame always is (paints converge)."""

    def __init__(self, scene: object, widget: object) -> None:
        now = time.perf_counter()
        self.scene = None
        if widget is None:
            self.deadline = math.inf
        elif getattr(scene, "frame_deadline", 0.0) >= now - 4 * FRAME_BUDGET_S:
            self.scene = scene
            self.deadline = getattr(scene, "frame_deadline")
        else:
            self.deadline = now + FRAME_BUDGET_S
        self.local = 0

    def allows(self, cost: float) -> bool:
        if self.deadline == math.inf:
            return True
        done = getattr(self.scene, "frame_tiles", 0) if self.scene is not None else self.local
        return done == 0 or time.perf_counter() + cost <= self.deadline

    def spent(self) -> None:
        self.local += 1
        if self.scene is not None:
            setattr(self.scene, "frame_tiles", getattr(self.scene, "frame_tiles", 0) + 1)


class TiledItem(QGraphicsItem):
    max_tiles = 600

    def __init__(self, bounds: QRectF) -> None:
        super().__init__()
        self._bounds = bounds
        self._tiles: OrderedDict[TileKey, QImage] = OrderedDict()
        self._per_scale: dict[float, int] = {}  # cached tiles per scale (stand-in search)
        self.tiles_rendered = 0
        self.tile_cost = 0.002  # running estimate of one tile's render time (s)
        self._refresh_scheduled = False
        self._prefetch_scheduled = False
        self._last_visible: tuple[float, int, int, int, int, int] | None = None
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)

    # --- to implement -------------------------------------------------------------------------

    def variant_for(self, scale: float) -> int | None:
        """Which flavour of tile this zoom shows (None: draw nothing)."""
        return 0

    def render_tile(self, key: TileKey) -> QImage:
        raise NotImplementedError

    def paint_direct(self, painter: QPainter, rect: QRectF, scale: float) -> bool:
        """Export painting without tiles; False to use (unbudgeted) tiles instead."""
        return False

    def forget_tile(self, key: TileKey) -> None:
        """Hook: a tile left the cache."""

    # --- cache ----------------------------------------------------------------------------------

    def boundingRect(self) -> QRectF:
        return self._bounds

    def _forget(self, key: TileKey) -> None:
        n = self._per_scale.get(key[0], 0) - 1
        if n > 0:
            self._per_scale[key[0]] = n
        else:
            self._per_scale.pop(key[0], None)
        self.forget_tile(key)

    def clear_tiles(self) -> None:
        for key in list(self._tiles):
            self.forget_tile(key)
        self._tiles.clear()
        self._per_scale.clear()
        self._last_visible = None
        self.update()

    def cached_tiles_in(self, r: QRectF) -> list[TileKey]:
        """Cached tiles (any zoom, any variant) overlapping the scene rectangle ``r``: looked
        up by tile range per cached zoom, not by scanning the whole cache."""
        out: list[TileKey] = []
        variants = self.variants()
        for s in list(self._per_scale):
            span = TILE / s
            for ty in range(math.floor(r.top() / span), math.floor(r.bottom() / span) + 1):
                for tx in range(math.floor(r.left() / span), math.floor(r.right() / span) + 1):
                    for v in variants:
                        if (s, v, tx, ty) in self._tiles:
                            out.append((s, v, tx, ty))
        return out

    def variants(self) -> tuple[int, ...]:
        return (0,)

    def drop_tiles(self, r: QRectF) -> None:
        """Forget every cached tile (any zoom) that overlaps the scene rectangle ``r``."""
        for key in self.cached_tiles_in(r):
            del self._tiles[key]
            self._forget(key)

    def tile(self, key: TileKey) -> QImage:
        img = self._tiles.get(key)
        if img is not None:
            self._tiles.move_to_end(key)
            return img
        t = time.perf_counter()
        img = self.render_tile(key)
        self.tile_cost = 0.8 * self.tile_cost + 0.2 * (time.perf_counter() - t)
        self._tiles[key] = img
        self._per_scale[key[0]] = self._per_scale.get(key[0], 0) + 1
        self.tiles_rendered += 1
        while len(self._tiles) > self.max_tiles:
            old, _ = self._tiles.popitem(last=False)
            self._forget(old)
        return img

    # --- painting -------------------------------------------------------------------------------

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        world = painter.worldTransform()
        scale = option.levelOfDetailFromTransform(world)
        if widget is None and self.paint_direct(painter, option.exposedRect, scale):
            return
        variant = self.variant_for(scale)
        if variant is None:
            return
        s = scale_key(scale)
        span = TILE / s
        rect = option.exposedRect.intersected(self._bounds)
        if rect.isEmpty():
            return
        tx0, tx1 = math.floor(rect.left() / span), math.floor(rect.right() / span)
        ty0, ty1 = math.floor(rect.top() / span), math.floor(rect.bottom() / span)
        scene = self.scene()
        budget = _Budget(scene, widget)
        # A view never rotates or shears: tiles go to whole device pixels, unscaled (a blit).
        blit = world.m12() == 0 and world.m21() == 0 and abs(world.m11() - s) <= 1e-6 * s \
            and abs(world.m22() - s) <= 1e-6 * s
        origin = world.map(QPointF(0.0, 0.0))
        ox, oy = round(origin.x()), round(origin.y())  # tile (tx, ty) sits at o + TILE·(tx, ty)
        missing: list[tuple[TileKey, QRectF]] = []
        if blit:
            painter.setWorldTransform(QTransform())
        for ty in range(ty0, ty1 + 1):
            for tx in range(tx0, tx1 + 1):
                key = (s, variant, tx, ty)
                cached = key in self._tiles
                if cached or budget.allows(self.tile_cost):
                    img = self.tile(key)
                    if not cached:
                        budget.spent()
                    if blit:
                        painter.drawImage(QPointF(ox + tx * TILE, oy + ty * TILE), img)
                    else:
                        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
                        painter.drawImage(QRectF(tx * span, ty * span, span, span), img)
                    continue
                missing.append((key, QRectF(tx * span, ty * span, span, span)))
        if blit:
            painter.setWorldTransform(world)
        if missing:
            # Stand-ins last a frame or two: nearest-neighbour scaling is the cheap path.
            painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, False)
            for key, target in missing:
                self._draw_stand_in(painter, key, target)
        if scene is None or widget is None:
            return
        if missing and not self._refresh_scheduled:
            self._refresh_scheduled = True
            # The scene is the timer's context: no callback after it is gone.
            QTimer.singleShot(0, scene, self._refresh)
        self._last_visible = (s, variant, tx0, tx1, ty0, ty1)
        if not self._prefetch_scheduled:
            self._prefetch_scheduled = True
            QTimer.singleShot(0, scene, self._prefetch)

    def _draw_stand_in(self, painter: QPainter, key: TileKey, target: QRectF) -> None:
        """Cover ``target`` with whatever tiles of the nearest other zooms are cached."""
        s, variant, _tx, _ty = key
        others = sorted((x for x in self._per_scale if x != s), key=lambda x: abs(math.log(x / s)))
        for s2 in others[:STAND_IN_SCALES]:
            span2 = TILE / s2
            drawn = False
            for ty in range(math.floor(target.top() / span2), math.floor((target.bottom() - 1e-9) / span2) + 1):
                for tx in range(math.floor(target.left() / span2), math.floor((target.right() - 1e-9) / span2) + 1):
                    img = self._tiles.get((s2, variant, tx, ty))
                    if img is None:
                        continue
                    src_rect = QRectF(tx * span2, ty * span2, span2, span2)
                    part = src_rect.intersected(target)
                    if part.isEmpty():
                        continue
                    src = QRectF((part.left() - src_rect.left()) * s2, (part.top() - src_rect.top()) * s2,
                                 part.width() * s2, part.height() * s2)
                    painter.drawImage(part, img, src)
                    drawn = True
            if drawn:
                return

    @property
    def pending(self) -> bool:
        """True while some visible tiles are still stand-ins awaiting their render."""
        return self._refresh_scheduled

    def _refresh(self) -> None:
        self._refresh_scheduled = False
        try:
            self.update()
        except RuntimeError:  # the C++ item went away with its scene
            pass

    def _prefetch(self) -> None:
        """Idle time: render the ring around the last painted tiles, a slice at a time."""
        self._prefetch_scheduled = False
        try:
            if self._last_visible is None or not self.isVisible() or self._refresh_scheduled:
                return
            scene = self.scene()
            if scene is None or not any(v.isVisible() for v in scene.views()):
                return  # nobody is looking
        except RuntimeError:
            return
        s, variant, tx0, tx1, ty0, ty1 = self._last_visible
        span = TILE / s
        deadline = time.perf_counter() + PREFETCH_SLICE_S
        m = PREFETCH_RING
        if (tx1 - tx0 + 1 + 2 * m) * (ty1 - ty0 + 1 + 2 * m) > self.max_tiles // 2:
            return  # the ring would evict tiles it needs: no prefetch (no churn)
        rendered = 0
        for ty in range(ty0 - m, ty1 + m + 1):
            for tx in range(tx0 - m, tx1 + m + 1):
                key = (s, variant, tx, ty)
                if key in self._tiles or not QRectF(tx * span, ty * span, span, span).intersects(self._bounds):
                    continue
                # Expected cost must fit the slice (one tile per turn at least, to finish).
                if rendered and time.perf_counter() + self.tile_cost > deadline:
                    self._prefetch_scheduled = True
                    QTimer.singleShot(0, scene, self._prefetch)
                    return
                self.tile(key)  # evicts the least recently drawn tiles: never visible or ring ones
                rendered += 1
