"""PlayLayer: counters from the GameState, the reachable-hex overlay, the plug-in's hex
overlays (e.g. Barrage markers: :attr:`play.plugin_ui.PlayUI.overlays`) and the last LOS
check's sight line (clear part blue, blocked part red from the first blocker on, the blocker
marked) — also the hover LOS line while Show Fire Zone is on — over the map.

One QGraphicsItem above the map layers, with the selection's overlay (fire zone, reach,
refused hexes: :class:`editor.play.move_overlay.MoveOverlay`) as a child stacked behind it. It
keeps no game data of its own: every paint reads the controller's current state, selection and
reach. After a controller change PlayMode calls :meth:`PlayLayer.sync`, which repaints only
what changed (the overlay's old and new rectangles, the stacks whose drawn state changed), not
the whole viewport; ``update()`` still repaints everything.
"""

from __future__ import annotations

import math
from collections import OrderedDict

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QImage, QPaintEngine, QPainter, QPen, QTransform
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from editor.export.counter_art import fit_text
from editor.play.controller import PlayController
from editor.play.los_check import LosCheck
# The selection's overlay (fire zone, reach, refused hexes) is the MoveOverlay's; its colours
# are re-exported for the tests and docs that name them here.
from editor.play.move_overlay import (FIRE_ZONE_EDGE, FIRE_ZONE_FILL, REACH_EDGE, REACH_FILL,  # noqa: F401
                                      REFUSED_EDGE, SELECTED_EDGE, MoveOverlay)
from editor.qt_geometry import hex_polygon, hexside_line
from model.hexes import Hex
from play.plugin_ui import Overlay
from play.state import UnitState

LOS_CLEAR = QColor(25, 100, 230, 230)    # blue: distinct from the green reach and orange fire zone
LOS_BLOCKED = QColor(215, 25, 25, 235)
# How each play.plugin_ui.OVERLAY_STYLES look is drawn: (colour, hatching, outline width). The
# overlay's label is a badge at the top-left of the hex's stack, mirroring the stack-count badge
# at its top-right, so two overlays differ in pattern, colour and text.
OVERLAY_STYLE: dict[str, tuple[QColor, Qt.BrushStyle, float]] = {
    "hatch": (QColor(235, 140, 0, 220), Qt.BrushStyle.BDiagPattern, 1.5),
    "cross-hatch": (QColor(190, 20, 20, 230), Qt.BrushStyle.DiagCrossPattern, 2.5),
}
HOVER_ALPHA = 150  # the hover line is the Check LOS line, fainter: it follows the mouse
STACK_TEXT_PX = 8  # a stack's top counter's designation or id: largest type (scene units) …
STACK_TEXT_FLOOR = 5  # … and the floor below which it is elided
COUNTER_FRACTION = 1.15  # counter side as a fraction of the hex size (centre to corner)


class _Same:
    """Compares by identity: ``_Same(a) == _Same(b)`` iff ``a is b`` (and keeps ``a`` alive)."""

    __slots__ = ("obj",)

    def __init__(self, obj: object) -> None:
        self.obj = obj

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Same) and other.obj is self.obj

    def __hash__(self) -> int:
        return id(self.obj)


class PlayLayer(QGraphicsItem):
    def __init__(self, ctl: PlayController, layout: object, bounds: QRectF) -> None:
        super().__init__()
        self.ctl = ctl
        self.layout = layout
        self._bounds = QRectF(bounds)
        self.setZValue(20)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)  # clicks go to the play tool
        # exposedRect is then the repainted part (Qt leaves it the whole map without the flag),
        # so a partial update draws only the stacks near it.
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)
        self.move_overlay = MoveOverlay(ctl, layout, bounds, self)
        self._drawn: tuple[dict[Hex, tuple[object, ...]], tuple[object, ...]] | None = None
        self._font = QFont()
        self._font.setPixelSize(8)
        self._badge_font = QFont()
        self._badge_font.setPixelSize(9)
        self._badge_font.setBold(True)
        # The hover LOS check (Show Fire Zone on), set by PlayMode from PlayTool.hover.
        self.hover_line: LosCheck | None = None
        self.stack_images = StackImages(self)

    def boundingRect(self) -> QRectF:
        return self._bounds

    def set_layout(self, layout: object) -> None:
        self.layout = layout
        self.move_overlay.layout = layout
        self.move_overlay._built = None
        self.move_overlay._prefetched = None
        self.stack_images.clear()
        self._drawn = None

    # --- what to repaint -----------------------------------------------------------------------

    def _stacks(self) -> dict[Hex, list[UnitState]]:
        stacks: dict[Hex, list[UnitState]] = {}
        for u in self.ctl.game.state.units.values():
            if u.on_map and u.hex is not None:
                stacks.setdefault(u.hex, []).append(u)
        return stacks

    def drawn_state(self) -> tuple[dict[Hex, tuple[object, ...]], tuple[object, ...]]:
        """What a paint would draw, as data: per hex its stack (ids, reduced, markers, which are
        selected), and the map-wide rest (the plug-in's overlays, the LOS lines)."""
        selected = set(self.ctl.selection)
        per_hex = {h: tuple((u.id, u.reduced, tuple(sorted(u.markers)), u.id in selected)
                            for u in sorted(units, key=lambda u: u.id))
                   for h, units in self._stacks().items()}
        overlays = tuple((o.kind, o.style, o.label, tuple(o.hexes)) for o in self.overlays())
        # The LOS checks themselves, compared by identity (LosCheck is a frozen record: a new
        # check is a new object): held here, so a freed one's id cannot be reused by a new one.
        return per_hex, (overlays, _Same(self.ctl.los_line), _Same(self.shown_hover_line()))

    def stack_box(self, h: Hex) -> QRectF:
        """The scene rectangle a stack in ``h`` can paint (counter, offset edges, count badge,
        marker tag), with a margin."""
        cx, cy = self.layout.center(h)  # type: ignore[attr-defined]
        marks = {m for u in self.ctl.game.state.units.values() if u.hex == h and u.on_map for m in u.markers}
        return self._extent(marks).translated(cx, cy)

    def _extent(self, marks: set[str]) -> QRectF:
        """What a stack with ``marks`` can paint, around its hex's centre at (0, 0)."""
        half = self.layout.size * COUNTER_FRACTION / 2  # type: ignore[attr-defined]
        tag = 0.0
        if marks:
            tag = QFontMetricsF(self._font).horizontalAdvance(" ".join(sorted(marks))) / 2 + 4
        w = max(half + 14, tag + 2)
        return QRectF(-w, -half - 14, 2 * w, 2 * half + 28)

    def sync(self) -> None:
        """After a controller change: repaint only what changed — the selection's overlay
        (MoveOverlay.sync), the stacks whose drawn state changed — or, when a map-wide part
        changed (a marker overlay, a LOS line), the whole layer."""
        self.move_overlay.sync()
        before, now = self._drawn, self.drawn_state()
        self._drawn = now
        if before is None or before[1] != now[1]:
            self.update()
            return
        old, new = before[0], now[0]
        for h in old.keys() | new.keys():
            if old.get(h) != new.get(h):
                self.update(self.stack_box(h))

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        exposed = option.exposedRect  # type: ignore[attr-defined]
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        # (The fire zone and reach are drawn under this by the MoveOverlay child.)
        self._paint_overlays(painter, exposed, badges=False)  # hatching under the counters
        world = painter.worldTransform()
        # A view never rotates or shears: each stack is then an image blitted at whole device
        # pixels (StackImages); any other transform (a printer, a rotated render) paints it.
        engine = painter.paintEngine()
        blit = world.m12() == 0 and world.m21() == 0 and world.m11() == world.m22() > 0 and self.stack_images.enabled \
            and engine is not None and engine.type() == QPaintEngine.Type.Raster  # a PDF or SVG keeps vectors
        selected = set(self.ctl.selection)
        for h, units in self._stacks().items():
            cx, cy = self.layout.center(h)  # type: ignore[attr-defined]
            if not exposed.adjusted(-40, -40, 40, 40).contains(QPointF(cx, cy)):
                continue
            units = sorted(units, key=lambda u: u.id)
            if blit:
                self.stack_images.draw(painter, world, cx, cy, units, selected)
            else:
                self._paint_stack(painter, cx, cy, units)
        self._paint_overlays(painter, exposed, badges=True)  # badges over them, like a marker on a stack
        self._paint_los(painter, self.shown_hover_line(), HOVER_ALPHA, 2.0)
        self._paint_los(painter, self.ctl.los_line, 255, 3.0)

    def overlays(self) -> list[Overlay]:
        """The plug-in's hex overlays for the game as it stands (it reads the engine's state
        and never writes it: painting must not change a game)."""
        game = self.ctl.game
        return list(game.plugin.play_ui.overlays(game))

    def _paint_overlays(self, painter: QPainter, exposed: QRectF, badges: bool) -> None:
        for overlay in self.overlays():
            colour, pattern, width = OVERLAY_STYLE.get(overlay.style, OVERLAY_STYLE["hatch"])
            for h in overlay.hexes:
                poly = hex_polygon(self.layout, h)  # type: ignore[arg-type]
                box = poly.boundingRect()
                if not exposed.intersects(box.adjusted(-10, -10, 10, 10)):
                    continue
                if not badges:
                    painter.setPen(QPen(colour, width))
                    painter.setBrush(QBrush(colour, pattern))
                    painter.drawPolygon(poly)
                    continue
                if not overlay.label:
                    continue
                # The badge sits on the stack's top-left corner (the count badge takes the top-right).
                cx, cy = self.layout.center(h)  # type: ignore[attr-defined]
                size = self.layout.size  # type: ignore[attr-defined]
                corner = QPointF(cx - size * COUNTER_FRACTION / 2, cy - size * COUNTER_FRACTION / 2)
                badge = QRectF(corner.x() - size * 0.3, corner.y() - size * 0.2, size * 0.6, size * 0.38)
                painter.setPen(QPen(QColor("#ffffff"), 1))
                painter.setBrush(QBrush(colour.darker(110)))
                painter.drawRoundedRect(badge, 2, 2)
                painter.setFont(self._badge_font_for(size))
                painter.drawText(badge, Qt.AlignmentFlag.AlignCenter, overlay.label)

    def _badge_font_for(self, size: float) -> QFont:
        font = QFont(self._badge_font)
        font.setPixelSize(max(6, int(size * 0.3)))
        return font

    def shown_hover_line(self) -> LosCheck | None:
        """The hover LOS line, drawn only while Show Fire Zone is on and only from the selected
        unit's current hex (a line from a unit that moved or was deselected is stale)."""
        chk = self.hover_line
        if chk is None or not chk.ok or not self.ctl.fire_zone_on:
            return None
        sel = self.ctl.selected_units()
        if not sel or not sel[0].on_map or sel[0].hex != chk.firer:
            return None
        return chk

    def hover_segments(self) -> list[tuple[QLineF, bool]]:
        chk = self.shown_hover_line()
        return [] if chk is None else self.los_segments(chk)

    def los_segments(self, chk: LosCheck | None = None) -> list[tuple[QLineF, bool]]:
        """The drawn sight line as (segment, blocked) pieces in scene coordinates: firer centre
        to target centre, split at the first blocker (its ``t`` along the line). ``chk``:
        the check to draw, default the last Check LOS (``ctl.los_line``)."""
        if chk is None:
            chk = self.ctl.los_line
        if chk is None or chk.firer is None or chk.visible is None:
            return []
        a = QPointF(*self.layout.center(chk.firer))  # type: ignore[attr-defined]
        b = QPointF(*self.layout.center(chk.target))  # type: ignore[attr-defined]
        if chk.visible:
            return [(QLineF(a, b), False)]
        if chk.blocker_t is None:
            return [(QLineF(a, b), True)]  # blocked with no blocker on the line (out of range)
        m = a + (b - a) * chk.blocker_t
        return [(QLineF(a, m), False), (QLineF(m, b), True)]

    def los_blocker_point(self, chk: LosCheck | None = None) -> QPointF | None:
        if chk is None:
            chk = self.ctl.los_line
        segs = self.los_segments(chk)
        if chk is None or chk.blocker_t is None or len(segs) < 2:
            return None
        return segs[0][0].p2()

    def _paint_los(self, painter: QPainter, chk: LosCheck | None, alpha: int, width: float) -> None:
        """One sight line (Check LOS, or the hover line fainter and thinner)."""
        segs = self.los_segments(chk) if chk is not None else []
        if chk is None or not segs:
            return
        clear, blocked_c = QColor(LOS_CLEAR), QColor(LOS_BLOCKED)
        clear.setAlpha(min(alpha, LOS_CLEAR.alpha()))
        blocked_c.setAlpha(min(alpha, LOS_BLOCKED.alpha()))
        for line, blocked in segs:
            pen = QPen(blocked_c if blocked else clear, width)
            pen.setCapStyle(Qt.PenCapStyle.RoundCap)
            if blocked and chk.blocker_t is None:
                pen.setStyle(Qt.PenStyle.DashLine)
            painter.setPen(pen)
            painter.drawLine(line)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        if chk.blocker_hex is not None:
            painter.setPen(QPen(blocked_c, width))
            painter.drawPolygon(hex_polygon(self.layout, chk.blocker_hex))  # type: ignore[arg-type]
        if chk.blocker_side is not None:
            painter.setPen(QPen(blocked_c, width + 2))
            painter.drawLine(hexside_line(self.layout, chk.blocker_side))  # type: ignore[arg-type]
        p = self.los_blocker_point(chk)
        if p is not None:
            painter.setPen(QPen(blocked_c, width - 0.5))
            r = 5.0
            painter.drawLine(QLineF(p.x() - r, p.y() - r, p.x() + r, p.y() + r))
            painter.drawLine(QLineF(p.x() - r, p.y() + r, p.x() + r, p.y() - r))

    def fire_zone_hexes(self) -> set[Hex]:
        """The hexes the fire-zone overlay draws: exactly the engine's Fire Zone query result."""
        return set(self.ctl.fire_zone) if self.ctl.fire_zone_on else set()

    def _colours(self, u: UnitState) -> tuple[QColor, QColor]:
        system = self.ctl.game.system
        c = self.ctl.game.counters.get(u.id)
        nat = next((n for n in system.nationalities if c is not None and n.id == c.nationality), None)
        if nat is not None:
            return QColor(nat.color), QColor(nat.text_color)
        side = system.side_by_id.get(u.side)
        bg = QColor(side.color) if side is not None else QColor("#bbbbbb")
        return bg, QColor("#000000") if bg.lightness() > 110 else QColor("#ffffff")

    def _paint_stack(self, painter: QPainter, cx: float, cy: float, units: list[UnitState]) -> None:
        size = self.layout.size * COUNTER_FRACTION  # type: ignore[attr-defined]
        top = units[0]
        selected = set(self.ctl.selection)
        bg, fg = self._colours(top)
        # Counters under the top one show as offset edges (at most two), like a real stack.
        for k in range(min(len(units) - 1, 2), 0, -1):
            r = QRectF(cx - size / 2 + 2.5 * k, cy - size / 2 - 2.5 * k, size, size)
            painter.setPen(QPen(QColor("#222222"), 0.8))
            painter.setBrush(QBrush(bg.darker(115 + 10 * k)))
            painter.drawRect(r)
        rect = QRectF(cx - size / 2, cy - size / 2, size, size)
        painter.setPen(QPen(SELECTED_EDGE if top.id in selected else QColor("#111111"), 2.5 if top.id in selected else 1))
        painter.setBrush(QBrush(bg))
        painter.drawRect(rect)
        if top.reduced:
            painter.fillRect(QRectF(rect.left(), rect.bottom() - 4, rect.width(), 4), QColor(0, 0, 0, 110))
        c = self.ctl.game.counters.get(top.id)
        side = c.back if c is not None and top.reduced and c.back is not None else (c.front if c is not None else None)
        text = (side.designation if side is not None and side.designation else None) or top.id
        painter.setPen(fg)
        # Shrink to the floor, then elide: never clipped at the counter's edge (a TKG id).
        box = rect.adjusted(1, 1, -1, -1)
        fit = fit_text(text, box, STACK_TEXT_PX, floor=STACK_TEXT_FLOOR, elide=True)
        painter.setFont(fit.font)
        painter.drawText(box, Qt.AlignmentFlag.AlignCenter | fit.flag, fit.text)
        marks = sorted({m for u in units for m in u.markers})
        if marks:
            # Markers on the stack (OOS, paradrop …) as a red tag under the counter.
            painter.setFont(self._font)
            label = " ".join(marks)
            # As wide as its text (at least the counter), so a long marker name is not clipped.
            width = max(rect.width() + 8, QFontMetricsF(self._font).horizontalAdvance(label) + 6)
            tag = QRectF(cx - width / 2, rect.bottom() - 1, width, 9)
            painter.fillRect(tag, QColor(255, 255, 255, 210))
            painter.setPen(QColor("#b71c1c"))
            painter.drawText(tag, Qt.AlignmentFlag.AlignCenter, label)
        if len(units) > 1:
            painter.setFont(self._badge_font)
            badge = QRectF(rect.right() - 6, rect.top() - 7, 13, 13)
            painter.setPen(QPen(QColor("#000000"), 1))
            painter.setBrush(QBrush(QColor("#ffffff")))
            painter.drawEllipse(badge)
            painter.drawText(badge, Qt.AlignmentFlag.AlignCenter, str(len(units)))


class StackImages:
    """Each stack drawn once into an image per look and device position, then blitted.

    A Play-mode click repaints every stack under the new overlay (at 200 % the reach covers the
    viewport); drawing a stack's rectangles, text fit and badge cost ~0.05 ms of Python and
    Qt each (0.37 ms for Utah's stacks in view). The image of a stack is its
    :meth:`PlayLayer._paint_stack` drawing at the view's scale and at the fractional device
    position of its centre, so the blit at whole pixels lands every pixel where the direct
    paint would (tests/editor/test_play_stack_images.py compares the two). The key is
    everything the drawing reads: the scale, that fraction, the hex size and, per unit, its id,
    reduced side, markers and whether it is selected (the counters' designations and colours
    are the game's and do not change during it)."""

    MAX = 512  # images kept (least recently used dropped): a few hundred stacks at two zooms …
    MAX_BYTES = 64 << 20  # … and at most this much image memory (a stack at 8× zoom is ~1 MB)

    def __init__(self, layer: PlayLayer) -> None:
        self.layer = layer
        self.enabled = True  # False: every stack painted directly (the reference the tests use)
        self._images: OrderedDict[tuple[object, ...], tuple[QImage, int, int]] = OrderedDict()
        self.bytes = 0  # of the images kept
        self.rendered = 0  # images drawn (a test checks a repaint reuses them)

    def clear(self) -> None:
        self._images.clear()
        self.bytes = 0

    def draw(self, painter: QPainter, world: QTransform, cx: float, cy: float, units: list[UnitState],
             selected: set[str]) -> None:
        # In device pixels: on a high-DPI screen the painter's transform is in logical pixels and
        # the backing store has ``dpr`` device pixels to each, so the image is drawn at
        # scale × dpr and marked with that ratio (else it would be scaled up, and blurred).
        device = painter.device()
        dpr = device.devicePixelRatioF() if device is not None else 1.0
        scale = world.m11() * dpr
        dev = world.map(QPointF(cx, cy))
        px, py = dev.x() * dpr, dev.y() * dpr
        bx, by = math.floor(px), math.floor(py)
        fx, fy = round(px - bx, 6), round(py - by, 6)  # a pan by whole pixels keeps them
        key = (round(scale, 6), dpr, fx, fy, self.layer.layout.size,  # type: ignore[attr-defined]
               tuple((u.id, u.reduced, tuple(sorted(u.markers)), u.id in selected) for u in units))
        hit = self._images.get(key)
        if hit is None:
            hit = self._render(scale, fx, fy, units)
            hit[0].setDevicePixelRatio(dpr)
            self._images[key] = hit
            self.bytes += hit[0].sizeInBytes()
            while len(self._images) > 1 and (len(self._images) > self.MAX or self.bytes > self.MAX_BYTES):
                _key, (old, _x, _y) = self._images.popitem(last=False)
                self.bytes -= old.sizeInBytes()
        else:
            self._images.move_to_end(key)
        img, ix, iy = hit
        painter.save()
        painter.setWorldTransform(QTransform())
        painter.drawImage(QPointF((bx + ix) / dpr, (by + iy) / dpr), img)
        painter.restore()

    def _render(self, scale: float, fx: float, fy: float, units: list[UnitState]) -> tuple[QImage, int, int]:
        ext = self.layer._extent({m for u in units for m in u.markers})
        # whole device pixels around the extent at this fraction, one spare on each side
        ix, iy = math.floor(fx + scale * ext.left()) - 1, math.floor(fy + scale * ext.top()) - 1
        w = math.ceil(fx + scale * ext.right()) + 1 - ix
        h = math.ceil(fy + scale * ext.bottom()) + 1 - iy
        img = QImage(max(1, w), max(1, h), QImage.Format.Format_ARGB32_Premultiplied)
        img.fill(0)
        p = QPainter(img)
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        p.setWorldTransform(QTransform(scale, 0, 0, scale, fx - ix, fy - iy))
        self.layer._paint_stack(p, 0.0, 0.0, units)
        p.end()
        self.rendered += 1
        return img, ix, iy
