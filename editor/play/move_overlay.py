"""MoveOverlay: what a selection shows under the counters — the Fire Zone (Show Fire Zone on),
the selected hex's outline, the reachable hexes with their MP costs, and the neighbours a rule
refuses (red dashed).

Why an item of its own, and why paths: a click that selects a unit used to repaint the whole
viewport and draw every reachable hex as its own antialiased, translucent polygon (0.4 ms a
hex at 200 %, ~30 ms a click; docs/benchmarks.md). Now

* the overlay is built once per selection into a few ``QPainterPath``s (fills, edges, refused
  outlines) and the MP-cost texts' positions, keyed on the controller's reach and fire-zone
  objects, so repaints reuse it;
* fills are drawn without antialiasing (one path has no seams to smooth, and the edges are
  stroked on top), as the union's boundary loops filled odd-even (:func:`outline_path`, the
  same pixels as every hexagon in one winding path, :func:`winding_fill_path`, at a quarter of
  the cost: 2.3 → 0.5 ms for 59 hexes at 200 %); edges are drawn once each (``drawLines`` of the unique hexsides:
  stroking the path of 59 hexes with its overlapping sides cost as much as the old painter,
  7-10 ms at 200 %), the reach's in an opaque colour that matches the old translucent one on
  open ground (see :func:`opaque_edge`);
* the reach is edged along its outline only (the union's boundary: 62 sides for a 59-hex
  reach, :func:`loop_lines`), not around every reachable hex (208 sides): inside it the map's
  own hex grid shows through the fill, and the paint's edge part fell from 0.62 to 0.18 ms at
  200 % (docs/benchmarks.md); the fire zone keeps its dotted side per hex;
* a change repaints only the old and the new overlay's rectangle (:meth:`sync`, ``update(rect)``),
  not the viewport; a paint draws only the texts whose box meets the exposed rectangle.

:func:`paint_reference` is the old painter, kept beside it; tests/editor/test_play_move_overlay.py
renders both and checks they cover the same hexes and pixels.

A child of the PlayLayer stacked behind it, so it is added, removed and hidden with the layer and
the counters stay on top. It holds no game data: every build reads the controller.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from editor.play.controller import PlayController
from editor.qt_geometry import hex_polygon
from model.hex_outline import outline_loops
from model.hexes import Hex

REACH_FILL = QColor(40, 200, 80, 90)
REACH_EDGE = QColor(20, 120, 40, 200)
REACH_TEXT = QColor("#0b3d17")
REFUSED_EDGE = QColor(200, 30, 30, 170)
SELECTED_EDGE = QColor(255, 200, 0)
FIRE_ZONE_FILL = QColor(230, 120, 20, 80)  # orange: distinct from the green reach overlay
FIRE_ZONE_EDGE = QColor(170, 70, 0, 210)
TEXT_PX = 8
# Why the reach edges are drawn opaque: antialiased 2-pixel lines in a translucent colour take
# Qt's slow path (measured 9-10 ms for the 208 hexsides of a 59-hex reach at 200 %, against
# 0.5 ms opaque). The opaque colour is REACH_EDGE composited over REACH_FILL over the reach's
# most common terrain colour (from the system data), so on open ground it looks as the
# translucent edge did; over a road or a label the edge now covers it instead of tinting it.


def over(top: QColor, bottom: QColor) -> QColor:
    """``top`` (with its alpha) composited over an opaque ``bottom``."""
    a = top.alphaF()
    return QColor(round(top.red() * a + bottom.red() * (1 - a)), round(top.green() * a + bottom.green() * (1 - a)),
                  round(top.blue() * a + bottom.blue() * (1 - a)))


def opaque_edge(ground: QColor) -> QColor:
    return over(REACH_EDGE, over(REACH_FILL, ground))
PEN_MARGIN = 3.0  # the widest pen (the selected hex's 3-unit outline) reaches this far outside a hex


def _text_box(cx: float, cy: float) -> QRectF:
    """Where a reachable hex's MP cost is written (scene units), as the old painter did."""
    return QRectF(cx - 15, cy + 6, 30, 10)


@dataclass
class Built:
    """One overlay, built from the controller's state for one key."""

    key: tuple[Any, ...]
    fire_zone: QPainterPath = field(default_factory=QPainterPath)
    fire_edges: list[QLineF] = field(default_factory=list)
    selected: QPolygonF | None = None
    reach: QPainterPath = field(default_factory=QPainterPath)
    reach_edges: list[QLineF] = field(default_factory=list)
    refused: list[QPolygonF] = field(default_factory=list)
    texts: list[tuple[QRectF, str]] = field(default_factory=list)
    edge: QColor = field(default_factory=lambda: QColor(REACH_EDGE))  # the reach edges' opaque colour
    rect: QRectF = field(default_factory=QRectF)  # scene rectangle everything above is drawn in
    hexes: frozenset[Hex] = frozenset()  # the reachable hexes drawn (tests compare with the engine's)
    # The objects whose ids are in ``key``, held so that no new object can take a freed one's id
    # (and so match a stale key) while this overlay is the current one.
    refs: tuple[Any, ...] = ()


def overlay_key(ctl: PlayController) -> tuple[Any, ...]:
    """What the overlay depends on. The controller replaces ``reach`` and ``fire_zone`` with new
    objects on every refresh, so identity is enough; the selected hex covers a move."""
    sel = ctl.selected_units()
    sel_hex = sel[0].hex if sel and sel[0].on_map else None
    fz = ctl.fire_zone if ctl.fire_zone_on else None
    return (id(ctl.reach), ctl.reach is not None, sel_hex, id(fz), len(fz) if fz is not None else -1)


def unique_edges(polys: list[QPolygonF]) -> list[QLineF]:
    """Each polygon side once: a side two hexes share is drawn once, not twice (no darker seam,
    half the strokes). The reference for :func:`hexside_lines` (by corner coordinates)."""
    seen: set[tuple[tuple[float, float], tuple[float, float]]] = set()
    out: list[QLineF] = []
    for poly in polys:
        pts = [(round(p.x(), 3), round(p.y(), 3)) for p in poly]
        for i, a in enumerate(pts):
            b = pts[(i + 1) % len(pts)]
            k = (a, b) if a <= b else (b, a)
            if k not in seen:
                seen.add(k)
                out.append(QLineF(a[0], a[1], b[0], b[1]))
    return out


def hexside_lines(layout: Any, hexes: list[Hex]) -> list[QLineF]:
    """The sides of ``hexes``, each once (the fast path of :func:`unique_edges`, which it must
    equal): a hex draws its sides toward directions 0-2 always, and those toward 3-5 only when
    no hex of the set lies across them (that hex draws the side as its own 0-2 side), so no
    corner coordinates are rounded and compared and no side set is kept."""
    sides = [(d, (layout.corner_offset(a), layout.corner_offset(b)))
             for d, (a, b) in ((d, layout.edge_corners(d)) for d in range(6))]
    steps = [(n.q, n.r) for n in (Hex(0, 0).neighbor(d) for d in range(6))]
    hexes = list(dict.fromkeys(hexes))
    inside = {(h.q, h.r) for h in hexes}
    out: list[QLineF] = []
    for h in hexes:
        cx, cy = layout.center(h)  # corners from the six fixed offsets (Layout.corners recomputes them)
        q, r = h.q, h.r
        for d, ((ax, ay), (bx, by)) in sides:
            if d >= 3 and (q + steps[d][0], r + steps[d][1]) in inside:
                continue
            out.append(QLineF(cx + ax, cy + ay, cx + bx, cy + by))
    return out


def outline_path(layout: Any, hexes: Any) -> tuple[QPainterPath, QRectF]:
    """The union of ``hexes`` as one odd-even path of its boundary loops (model.hex_outline),
    and its bounding rectangle. Fills exactly the pixels :func:`winding_fill_path` fills, at a
    quarter of the rasteriser's cost (tests/editor/test_play_move_overlay.py compares them)."""
    return loops_path(outline_loops(layout, hexes))


def loop_lines(loops: list[list[tuple[float, float]]]) -> list[QLineF]:
    """Every side of the boundary loops once (a loop's last point joins its first)."""
    return [QLineF(x0, y0, x1, y1) for loop in loops
            for (x0, y0), (x1, y1) in zip(loop, loop[1:] + loop[:1])]


def loops_path(loops: list[list[tuple[float, float]]]) -> tuple[QPainterPath, QRectF]:
    """The loops as one odd-even path, and their bounding rectangle."""
    path = QPainterPath()
    path.setFillRule(Qt.FillRule.OddEvenFill)
    x0 = y0 = float("inf")
    x1 = y1 = float("-inf")
    for loop in loops:
        path.addPolygon(QPolygonF([QPointF(x, y) for x, y in loop]))
        path.closeSubpath()
        xs, ys = [p[0] for p in loop], [p[1] for p in loop]
        x0, x1, y0, y1 = min(x0, *xs), max(x1, *xs), min(y0, *ys), max(y1, *ys)
    return path, (QRectF(x0, y0, x1 - x0, y1 - y0) if x0 <= x1 else QRectF())


def winding_fill_path(polys: list[QPolygonF]) -> QPainterPath:
    """The reference fill: every hex's polygon in one winding-rule path (the fill before
    :func:`outline_path`)."""
    path = QPainterPath()
    path.setFillRule(Qt.FillRule.WindingFill)
    for poly in polys:
        path.addPolygon(poly)
        path.closeSubpath()
    return path


def _ground(ctl: PlayController, hexes: Any) -> QColor:
    """The most common terrain colour under ``hexes`` (the system's data), white if none."""
    hmap, by_id = ctl.game.hmap, ctl.game.system.terrain_by_id
    counts: dict[str, int] = {}
    for h in hexes:
        t = by_id.get(hmap.terrain_at(h) or "")
        if t is not None and getattr(t, "color", None):
            counts[t.color] = counts.get(t.color, 0) + 1
    return QColor(max(counts, key=lambda c: counts[c])) if counts else QColor("white")


def build(ctl: PlayController, layout: Any) -> Built:
    """The overlay of the controller's state now."""
    sel = ctl.selected_units()
    sel_hex = sel[0].hex if sel and sel[0].on_map else None
    return build_for(ctl, layout, overlay_key(ctl), ctl.reach, sel_hex, ctl.fire_zone if ctl.fire_zone_on else None)


def build_for(ctl: PlayController, layout: Any, key: tuple[Any, ...], reach: Any, sel_hex: Hex | None,
              fire_zone: set[Hex] | None) -> Built:
    """The overlay of a reach, a selected hex and a fire zone (None: not shown), under ``key``:
    :func:`build` for the state now, :meth:`MoveOverlay.prefetch` for the state a click would make."""
    b = Built(key, refs=(reach, fire_zone))
    rect = QRectF()

    def polys(hexes: Any) -> list[QPolygonF]:
        nonlocal rect
        out = [hex_polygon(layout, h) for h in hexes]
        for poly in out:
            rect = rect.united(poly.boundingRect())
        return out

    def fill(loops: list[list[tuple[float, float]]]) -> QPainterPath:
        nonlocal rect
        path, box = loops_path(loops)
        if not box.isNull():
            rect = rect.united(box)
        return path

    if fire_zone is not None:
        fz = sorted(fire_zone, key=lambda h: (h.q, h.r))
        b.fire_zone, b.fire_edges = fill(outline_loops(layout, fz)), hexside_lines(layout, fz)
    if sel_hex is not None:
        b.selected = polys([sel_hex])[0]
    if reach is not None:
        costs = {h: c for h, c in reach.cost.items() if h != reach.start}  # as ctl.reachable_costs
        b.hexes = frozenset(costs)
        loops = outline_loops(layout, list(costs))
        b.reach, b.reach_edges = fill(loops), loop_lines(loops)  # the outline: see the module notes
        b.edge = opaque_edge(_ground(ctl, costs))
        for h, cost in costs.items():
            cx, cy = layout.center(h)
            box = _text_box(cx, cy)
            b.texts.append((box, f"{cost:g}"))
            rect = rect.united(box)
        b.refused = polys(h for h, (_reason, rule) in reach.refused.items() if rule is not None)
    b.rect = rect.adjusted(-PEN_MARGIN, -PEN_MARGIN, PEN_MARGIN, PEN_MARGIN) if not rect.isNull() else QRectF()
    return b


def paint_built(painter: QPainter, b: Built, exposed: QRectF, font: QFont) -> None:
    """Draw ``b`` in the old painter's order: fire zone, selected outline, reach, costs, refused."""
    if b.rect.isNull() or not exposed.intersects(b.rect):
        return
    painter.save()
    # The old painter's order (fire zone, selected outline, reach, costs), one path each.
    # Translucent fills without antialiasing: a winding path covers each pixel once, and the
    # antialiased edge strokes drawn over them hide the stair steps.
    painter.setBrush(Qt.BrushStyle.NoBrush)
    if b.fire_edges:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        painter.fillPath(b.fire_zone, FIRE_ZONE_FILL)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setPen(QPen(FIRE_ZONE_EDGE, 1, Qt.PenStyle.DotLine))
        painter.drawLines(b.fire_edges)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    if b.selected is not None:
        painter.setPen(QPen(SELECTED_EDGE, 3))
        painter.drawPolygon(b.selected)
    if b.reach_edges:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        painter.fillPath(b.reach, REACH_FILL)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setPen(QPen(b.edge, 1))  # opaque: see the note at the top
        painter.drawLines(b.reach_edges)
        painter.setFont(font)
        painter.setPen(REACH_TEXT)
        for box, text in b.texts:
            if exposed.intersects(box):
                painter.drawText(box, Qt.AlignmentFlag.AlignCenter, text)
    if b.refused:
        painter.setPen(QPen(REFUSED_EDGE, 1.5, Qt.PenStyle.DashLine))
        for poly in b.refused:
            if exposed.intersects(poly.boundingRect()):
                painter.drawPolygon(poly)
    painter.restore()


class MoveOverlay(QGraphicsItem):
    def __init__(self, ctl: PlayController, layout: Any, bounds: QRectF, parent: QGraphicsItem | None = None) -> None:
        super().__init__(parent)
        self.ctl = ctl
        self.layout = layout
        self._bounds = QRectF(bounds)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemStacksBehindParent, True)  # under the counters
        # exposedRect is the repainted part only, not the whole map (Qt fills it only with this flag).
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self._font = QFont()
        self._font.setPixelSize(TEXT_PX)
        self._built: Built | None = None
        self._prefetched: Built | None = None  # the overlay a click would show (prefetch)
        self.builds = 0  # overlays built (a test checks a repaint does not rebuild)
        self.prefetch_hits = 0  # clicks that showed a prefetched overlay

    def boundingRect(self) -> QRectF:
        # The whole map, like the layer: what is drawn moves with each selection, and the item is
        # never asked to repaint all of it (sync updates rectangles).
        return self._bounds

    def current(self) -> Built:
        """The overlay for the controller's state now (built on a change of :func:`overlay_key`)."""
        key = overlay_key(self.ctl)
        if self._built is None or self._built.key != key:
            pre, self._prefetched = self._prefetched, None
            if pre is not None and pre.key == key:
                self._built = pre
                self.prefetch_hits += 1
            else:
                self._built = build(self.ctl, self.layout)
            self.builds += 1
        return self._built

    def prefetch(self, units: list[Any]) -> bool:
        """The overlay a click selecting ``units`` would show, built now from the reach (and
        Fire Zone, when shown) the controller prefetched for them (PlayController.prefetch), under the key
        :func:`overlay_key` will give after that click. False when there is none to build."""
        pre = self.ctl.prefetched(units)
        if pre is None or pre.reach[0] is None:
            return False
        reach = pre.reach[0]
        fz: set[Hex] | None = None
        if self.ctl.fire_zone_on:
            if pre.fire_zone is None:
                return False  # Show Fire Zone came on after the prefetch: the click asks for it
            fz = pre.fire_zone[1]  # the set the controller will show (the same object)
        sel_hex = units[0].hex if units[0].on_map else None
        # overlay_key after the click: the reach object, a reach, the selected hex, the fire zone
        key = (id(reach), True, sel_hex, id(fz), len(fz) if fz is not None else -1)
        if self._prefetched is None or self._prefetched.key != key:
            self._prefetched = build_for(self.ctl, self.layout, key, reach, sel_hex, fz)
        return True

    def sync(self) -> QRectF:
        """After a controller change: rebuild if the key changed and repaint the old and new
        overlay's rectangles only. Returns the scene rectangle scheduled for repainting."""
        old = self._built.rect if self._built is not None else QRectF()
        before = self._built
        now = self.current()
        if now is before:
            return QRectF()
        dirty = old.united(now.rect) if not old.isNull() else QRectF(now.rect)
        for r in (old, now.rect):
            if not r.isNull():
                self.update(r)
        return dirty

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        paint_built(painter, self.current(), option.exposedRect, self._font)  # type: ignore[attr-defined]


# --- the old painter, kept as the reference -------------------------------------------------------

def paint_reference(painter: QPainter, ctl: PlayController, layout: Any, exposed: QRectF, font: QFont) -> None:
    """The painter before MoveOverlay (PlayLayer._paint_fire_zone and _paint_reach as they were):
    one antialiased polygon per hex, text per reachable hex."""
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    if ctl.fire_zone_on:
        painter.setPen(QPen(FIRE_ZONE_EDGE, 1, Qt.PenStyle.DotLine))
        painter.setBrush(QBrush(FIRE_ZONE_FILL))
        for h in set(ctl.fire_zone):
            poly = hex_polygon(layout, h)
            if exposed.intersects(poly.boundingRect()):
                painter.drawPolygon(poly)
    sel = ctl.selected_units()
    if sel and sel[0].on_map and sel[0].hex is not None:
        painter.setPen(QPen(SELECTED_EDGE, 3))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPolygon(hex_polygon(layout, sel[0].hex))
    if ctl.reach is not None:
        painter.setFont(font)
        for h, cost in ctl.reachable_costs().items():
            poly = hex_polygon(layout, h)
            if not exposed.intersects(poly.boundingRect()):
                continue
            painter.setPen(QPen(REACH_EDGE, 1))
            painter.setBrush(QBrush(REACH_FILL))
            painter.drawPolygon(poly)
            cx, cy = layout.center(h)
            painter.setPen(REACH_TEXT)
            painter.drawText(_text_box(cx, cy), Qt.AlignmentFlag.AlignCenter, f"{cost:g}")
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(REFUSED_EDGE, 1.5, Qt.PenStyle.DashLine))
        for h, (_reason, rule) in ctl.reach.refused.items():
            if rule is None:
                continue
            poly = hex_polygon(layout, h)
            if exposed.intersects(poly.boundingRect()):
                painter.drawPolygon(poly)
    painter.restore()

