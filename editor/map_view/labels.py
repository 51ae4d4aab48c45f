"""Feature names on the map, laid out once per map so that none overlaps another or is clipped.

The names are measured here (Qt fonts, through the one fitting helper
:func:`editor.export.counter_art.fit_text`) and placed by the Qt-free
:func:`model.label_layout.layout_labels` (policy ``label-layout``, docs/editor.md):

- priority: a feature that *is* a name (symbol ``text``: a town name) first, then by the order
  of the feature types in the game system's file, then by key;
- forms ("priority, offset, elision", issue #21): the whole name at the label size, then
  elided at that size to 3, 2.2 and 1.5 hexes wide, and last, before hiding, the whole name
  at :data:`NAME_FLOOR` of the size (the floor: no name is drawn smaller, and a shrunk or
  elided name says why in its tooltip);
- candidates: below the symbol, above, right, left, the diagonals, then a line further out;
- obstacles: every feature symbol (its box as drawn, stroke included), the red ring round
  every named location's hex (as a ring: a name crosses it only where it meets the stroke) and
  the printed number of every hex on the map (its plate included): a name never covers any of
  them, it is elided or hidden instead; a name's own symbol is exempt but cleared anyway, since
  every candidate sits :func:`clearance` from the anchor, outside the symbol and any ring there;
- bounds: the map's scene rectangle (a name past the edge would be cut off).

Font sizes are in scene units, so the layout does not depend on the zoom: it is computed
once, on first use, and again when the features change. A hidden or elided name keeps its
full text for the tooltip (:meth:`FeatureLabels.tooltip_at`).
"""

from __future__ import annotations

import functools
import math

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QFont, QFontMetricsF

from editor.export.counter_art import fit_text
from model.hexes import Hex
from editor.map_view.symbols import symbol_path
from model.label_layout import (HiddenLabel, LabelForm, LabelLayout, LabelRequest, PlacedLabel, Rect, Ring, Shape,
                                layout_labels)
from model.layout import Layout
from model.mapdata import HexMap
from model.system import GameSystem

NAME_PX = 0.3  # name type size, in hex sizes (centre to corner)
NAME_FLOOR = 0.75  # a name may shrink to this fraction of NAME_PX before it is elided
SYMBOL_R = 0.35  # feature symbol radius, in hex sizes
SYMBOL_PEN = 0.06  # the width of a symbol's outline, in hex sizes (DetailItem._paint_features)
RING_R = 0.7  # the radius of the ring round a named location's hex, in hex sizes (to the stroke's middle)
RING_PEN = 0.08  # … and the width of its stroke (DetailItem._paint_areas)
NUMBER_PX = 0.32  # printed hex number size, in hex sizes (see DetailItem._paint_labels)
ELIDE_WIDTHS = (3.0, 2.2, 1.5)  # widths (hex sizes) of the elided forms, longest first


def name_font(pixels: float) -> QFont:
    font = QFont()
    font.setPixelSize(max(1, int(pixels)))
    font.setBold(True)
    return font


def number_rect(layout: Layout, h: Hex, text: str, fm: QFontMetricsF | None = None, scale: float = 1.0) -> QRectF:
    """Where the printed number of ``h`` is drawn: centred, near the top of the hex (``scale``:
    the Label font size preference, which enlarges the numbers and so their box)."""
    if fm is None:
        font = QFont()
        font.setPixelSize(max(1, int(layout.size * NUMBER_PX * scale)))
        fm = QFontMetricsF(font)
    cx, cy = layout.center(h)
    w = min(2 * layout.size, fm.horizontalAdvance(text))
    return QRectF(cx - w / 2, cy - layout.size * 0.85, w, min(number_height(layout, scale), fm.height()))


def number_height(layout: Layout, scale: float = 1.0) -> float:
    """The height a hex number's line may take (``DetailItem._paint_labels`` draws in it)."""
    return layout.size * 0.4 * max(1.0, scale)


def number_plate(layout: Layout, h: Hex, text: str, fm: QFontMetricsF, scale: float = 1.0) -> QRectF:
    """The pale plate laid under a hex number that a symbol runs through: the number's glyphs
    and a little margin (see ``DetailItem._paint_labels``)."""
    cx, cy = layout.center(h)
    tw = min(2 * layout.size, fm.horizontalAdvance(text)) + layout.size * 0.08
    return QRectF(cx - tw / 2, cy - layout.size * 0.83, tw, min(number_height(layout, scale), fm.height()))


def symbol_box(symbol: str, cx: float, cy: float, size: float) -> Rect:
    """The box a feature symbol covers as drawn at (cx, cy): its path's bounds and half its
    outline's width on each side (the pen's default bevel joins add nothing past that)."""
    x, y, w, h = _symbol_bounds(symbol, size)
    return Rect(cx + x, cy + y, w, h)


@functools.lru_cache(maxsize=64)
def _symbol_bounds(symbol: str, size: float) -> tuple[float, float, float, float]:
    """A symbol's box about its centre (cached: a relayout asks once per feature)."""
    b = symbol_path(symbol, size * SYMBOL_R).boundingRect()
    m = size * SYMBOL_PEN / 2
    return b.x() - m, b.y() - m, b.width() + 2 * m, b.height() + 2 * m


def location_ring(layout: Layout, h: Hex) -> Ring:
    """The ring drawn round a named location's hex ``h`` (``DetailItem._paint_areas``)."""
    cx, cy = layout.center(h)
    return Ring(cx, cy, layout.size * RING_R, layout.size * RING_PEN)


def clearance(layout: Layout, ringed: bool) -> float:
    """How far a name's rectangle keeps from its anchor (``LabelRequest.gap``): past the widest
    symbol and its outline, and where the hex has a location's ring, past the ring's outer edge,
    so that every candidate position clears the name's own symbol and ring (a name set inside
    a ring would cross it: no name fits in 1.3 hex sizes across a line)."""
    gap = layout.size * (SYMBOL_R + SYMBOL_PEN / 2)
    return max(gap, Ring(0.0, 0.0, layout.size * RING_R, layout.size * RING_PEN).outer) if ringed else gap


class FeatureLabels:
    """The laid-out feature names of one map (a cache; :meth:`invalidate` drops it)."""

    def __init__(self, hmap: HexMap, system: GameSystem, layout: Layout, bounds: QRectF) -> None:
        self.hmap, self.system, self.layout, self.bounds = hmap, system, layout, bounds
        self._result: LabelLayout | None = None
        self._anchors: dict[str, tuple[float, float]] = {}
        self._hex_of: dict[str, Hex] = {}  # each request's feature hex
        # Names and hex numbers times their usual size (Edit ▸ Preferences ▸ Label font size).
        self.scale = 1.0

    def invalidate(self) -> None:
        self._result = None

    @property
    def result(self) -> LabelLayout:
        if self._result is None:
            self._result = self._compute()
        return self._result

    def font(self, label: PlacedLabel) -> QFont:
        return name_font(label.size or self.layout.size * NAME_PX * self.scale)

    def placed_in(self, rect: QRectF) -> list[PlacedLabel]:
        """The placed names whose rectangle meets ``rect`` (a tile draws every name that
        reaches into it, wherever its feature is, so no name is cut at a tile's edge)."""
        return [p for p in self.result.placed
                if p.rect.x < rect.right() and p.rect.right > rect.left()
                and p.rect.y < rect.bottom() and p.rect.bottom > rect.top()]

    def tooltip_at(self, pos: QPointF) -> str | None:
        """The full name under ``pos``: a name's rectangle (an elided or shrunk one with why),
        or the symbol of a feature whose name is hidden (with the reason)."""
        for p in self.result.placed:
            if p.rect.x <= pos.x() <= p.rect.right and p.rect.y <= pos.y() <= p.rect.bottom:
                return f"{p.full_text} ({p.note})" if p.note else p.full_text
        r = self.layout.size * SYMBOL_R
        for h in self.result.hidden:
            ax, ay = self._anchors.get(h.key, (float("nan"), float("nan")))
            if abs(pos.x() - ax) <= r and abs(pos.y() - ay) <= r:
                return f"{h.full_text} (name not drawn: {h.reason})"
        return None

    def hidden(self) -> tuple[HiddenLabel, ...]:
        return self.result.hidden

    def requests(self) -> tuple[list[LabelRequest], list[tuple[Shape, str]], list[Shape]]:
        """The label requests, obstacles and soft obstacles of the map's features (policy
        ``label-layout``): symbols, the rings of named locations and every hex number are
        never covered (no soft ones)."""
        lay = self.layout
        order = {t.id: i for i, t in enumerate(self.system.features)}
        types = self.system.feature_by_id
        px = max(1, int(lay.size * NAME_PX * self.scale))
        floor = max(1, int(px * NAME_FLOOR))
        font = name_font(px)
        fm = QFontMetricsF(font)
        line_h = fm.height()
        requests: list[LabelRequest] = []
        obstacles: list[tuple[Shape, str]] = []
        self._anchors.clear()
        self._hex_of.clear()
        # The ring of every named location, owned by none: no name may cross one, its own
        # hex's included (its candidates start outside it, see clearance()).
        ringed: set[Hex] = set()
        for loc in self.hmap.locations:
            for h in loc.all_hexes():
                if h not in ringed:
                    ringed.add(h)
                    obstacles.append((location_ring(lay, h), f"the ring of {loc.name} ({self.hmap.label(h)})"))
        for i, f in enumerate(self.hmap.features):
            cx, cy = lay.center(f.hex)
            key = f"{self.hmap.label(f.hex)}|{f.type}|{i:04d}"
            t = types.get(f.type)
            obstacles.append((symbol_box(t.symbol if t else "dot", cx, cy, lay.size), key))
            if not f.name:
                continue
            rank = order.get(f.type, len(order))
            priority = (2000.0 if t is not None and t.symbol == "text" else 1000.0) - rank
            forms = [LabelForm(f.name, fm.horizontalAdvance(f.name), line_h, px)]
            for width in ELIDE_WIDTHS:  # elided at the label size, never smaller
                box = QRectF(0, 0, lay.size * width, line_h)
                fit = fit_text(f.name, box, px, bold=True, floor=px, elide=True, wrap=False)
                if fit.text and all(fit.text != g.text for g in forms):
                    forms.append(LabelForm(fit.text, fm.horizontalAdvance(fit.text), line_h, px))
            if floor < px:  # the last resort before hiding: the whole name at the floor
                sm = QFontMetricsF(name_font(floor))
                forms.append(LabelForm(f.name, sm.horizontalAdvance(f.name), sm.height(), floor))
            self._anchors[key] = (cx, cy)
            self._hex_of[key] = f.hex
            gap = clearance(lay, f.hex in ringed)
            requests.append(LabelRequest(key, f.name, (cx, cy), tuple(forms), priority, gap, floor))
        nf = QFont()
        nf.setPixelSize(max(1, int(lay.size * NUMBER_PX * self.scale)))
        nfm = QFontMetricsF(nf)
        # Every printed number a name could reach, not only those of feature hexes: a name set
        # over a neighbour's number hid it (issue #21). The box is the glyphs' and the plate's.
        for h in sorted(self._reachable(requests)):
            if self.hmap.contains(h):
                label = self.hmap.label(h)
                nr = (number_rect(lay, h, label, nfm, self.scale)
                      .united(number_plate(lay, h, label, nfm, self.scale)))
                obstacles.append((Rect(nr.x(), nr.y(), nr.width(), nr.height()), "hex number " + label))
        soft: list[Rect] = []
        return requests, obstacles, soft

    def _reachable(self, requests: list[LabelRequest]) -> set[Hex]:
        """The hexes whose number some candidate position of some name could overlap: those
        within the hex distance of the farthest candidate rectangle (the widest form beside
        the symbol, or the tallest one 1½ lines further out than the first), plus the hex size
        a number lies from its centre. Hex centres k hexes apart are at least 1.5·k sizes
        apart on a flat-topped grid, so the reach is that distance over 1.5 sizes. Numbers
        beyond it cannot meet a label; leaving them out keeps a relayout after an edit as
        quick as before (Utah's 7,668 numbers took ~0.1 s, docs/benchmarks.md)."""
        size = self.layout.size
        out: set[Hex] = set()
        for req in requests:
            wide = max(f.w for f in req.forms) + req.gap
            tall = req.gap + max(f.h for f in req.forms) + 1.5 * req.forms[0].h
            reach = math.hypot(wide + size, tall + size)
            out.update(self._hex_of[req.key].range(math.ceil(reach / (1.5 * size)) + 1))
        return out

    def _compute(self) -> LabelLayout:
        requests, obstacles, soft = self.requests()
        b = self.bounds
        return layout_labels(requests, obstacles, Rect(b.x(), b.y(), b.width(), b.height()), soft)
