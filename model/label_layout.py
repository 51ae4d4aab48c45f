"""Map label layout: which names are drawn where, so that no two overlap and none is clipped.

Pure geometry over rectangles (no Qt): the editor measures each label's forms (the whole
text, then shorter elided forms, each with its size; see ``editor.map_view.labels``) and this
module chooses, for each label in priority order, the first form and candidate position
around its anchor whose rectangle stays inside the bounds and overlaps neither a placed label
nor an obstacle (a symbol, a printed hex number, the ring round a named location: a
:class:`Rect` or a :class:`Ring`). A label that finds no room is hidden, with
the reason. The result is deterministic: the same requests give the same layout, whatever
their order.

Policy ``label-layout`` (docs/editor.md), in the order issue #21 names it, "priority, offset,
elision": priority first; then the forms in the caller's order (the editor: the whole text,
its elided forms at the same size, and last the whole text at the floor size), each tried at
every candidate position before the next form; the candidates in the order of
:data:`CANDIDATES` (below the anchor first, as printed maps set a town's name under its
symbol; the last two a line further out). A form smaller than the request's ``floor`` is never
used, and a label drawn in any form but its first says why (:attr:`PlacedLabel.note`), so no
name is shrunk or shortened silently.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

# Candidate positions as (dx, dy) offsets of the label from the anchor: below, above, right,
# left, the four diagonals, then further out in quarter lines up to one line further below and
# above (a second name under the first, as two names of one town are set). 0 centres the label
# on that axis; a |dy| of 1 + k moves the label k label heights further out. The quarter steps
# matter since every hex number became an obstacle (issue #21): a name finds the band between
# two rows of numbers a little below its symbol, where the first position grazes them.
_FURTHER = (1.25, 1.5, 1.75, 2.0, 2.25, 2.5)
CANDIDATES: tuple[tuple[int, float], ...] = (
    ((0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, 1), (1, -1), (-1, -1))
    + tuple(c for k in _FURTHER for c in ((0, k), (0, -k), (1, k), (-1, k), (1, -k), (-1, -k))))
EPS = 1e-6  # rectangles that only touch do not overlap


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h

    def overlaps(self, o: Rect) -> bool:
        """Whether the two share some area (touching edges do not count)."""
        return (self.x < o.right - EPS and o.x < self.right - EPS
                and self.y < o.bottom - EPS and o.y < self.bottom - EPS)

    def inside(self, o: Rect) -> bool:
        return (self.x >= o.x - EPS and self.y >= o.y - EPS
                and self.right <= o.right + EPS and self.bottom <= o.bottom + EPS)

    def bbox(self) -> Rect:
        return self


@dataclass(frozen=True)
class Ring:
    """A circle's stroke: the ring drawn round a named location's hex, ``radius`` to the middle
    of a stroke ``width`` wide. A label crosses it only where the label meets the stroke: one
    wholly inside the inner circle, or wholly outside the outer one, does not."""

    cx: float
    cy: float
    radius: float
    width: float = 0.0

    @property
    def outer(self) -> float:
        return self.radius + self.width / 2

    @property
    def inner(self) -> float:
        return max(0.0, self.radius - self.width / 2)

    def bbox(self) -> Rect:
        r = self.outer
        return Rect(self.cx - r, self.cy - r, 2 * r, 2 * r)

    def overlaps(self, o: Rect) -> bool:
        """Whether ``o`` shares some area with the stroke: its nearest point is inside the outer
        circle and its farthest point (a corner) outside the inner one. Touching does not count,
        as for rectangles (:data:`EPS`)."""
        r = self.outer
        if (o.x >= self.cx + r - EPS or o.right <= self.cx - r + EPS
                or o.y >= self.cy + r - EPS or o.bottom <= self.cy - r + EPS):
            return False  # clear of the ring's box: most tests end here, before any square root
        nx = min(max(self.cx, o.x), o.right) - self.cx
        ny = min(max(self.cy, o.y), o.bottom) - self.cy
        fx = max(abs(o.x - self.cx), abs(o.right - self.cx))
        fy = max(abs(o.y - self.cy), abs(o.bottom - self.cy))
        return math.hypot(nx, ny) < self.outer - EPS and math.hypot(fx, fy) > self.inner + EPS


def ring_overlaps_reference(ring: Ring, o: Rect) -> bool:
    """:meth:`Ring.overlaps` by shapely (the reference its test compares with): the distance
    from the centre to the rectangle, and the Hausdorff distance from the rectangle to the
    centre, which is its farthest point."""
    from shapely.geometry import Point, box  # only the tests call the reference

    b, c = box(o.x, o.y, o.right, o.bottom), Point(ring.cx, ring.cy)
    return b.distance(c) < ring.outer - EPS and b.hausdorff_distance(c) > ring.inner + EPS


Shape = Rect | Ring  # an obstacle: a box (a symbol, a hex number) or a ring


@dataclass(frozen=True)
class LabelForm:
    """One way to print a label: its text and the size of that text."""

    text: str
    w: float
    h: float
    size: float = 0.0  # the type size it was measured at, handed on to the placed label


@dataclass(frozen=True)
class LabelRequest:
    """A label to place: ``forms`` from the whole text to the shortest elided form; ``gap`` is
    the clearance from the anchor (the radius of the symbol the label names)."""

    key: str  # unique; breaks priority ties, so the layout does not depend on input order
    text: str
    anchor: tuple[float, float]
    forms: tuple[LabelForm, ...]
    priority: float = 0.0
    gap: float = 0.0
    floor: float = 0.0  # the smallest type size a form may have (0: no floor)


@dataclass(frozen=True)
class PlacedLabel:
    key: str
    text: str  # as drawn: ``full_text`` or an elided form of it
    full_text: str  # the tooltip
    rect: Rect
    size: float = 0.0  # the chosen form's type size
    note: str = ""  # why the first form was not drawn ("" when it was): the tooltip says it

    @property
    def elided(self) -> bool:
        return self.text != self.full_text


@dataclass(frozen=True)
class HiddenLabel:
    key: str
    full_text: str
    reason: str


@dataclass(frozen=True)
class LabelLayout:
    placed: tuple[PlacedLabel, ...]
    hidden: tuple[HiddenLabel, ...]

    def placed_by_key(self) -> dict[str, PlacedLabel]:
        return {p.key: p for p in self.placed}

    def report(self) -> list[str]:
        """One line per label not drawn whole at its first form: elided or shrunk (and why),
        or hidden (and why), by key."""
        lines = [f"{p.key}: drawn as {p.text!r} ({p.note})" for p in sorted(self.placed, key=lambda p: p.key)
                 if p.note]
        lines += [f"{h.key}: hidden ({h.reason})" for h in sorted(self.hidden, key=lambda h: h.key)]
        return lines


def candidate_rect(anchor: tuple[float, float], form: LabelForm, gap: float, where: tuple[int, float],
                   line: float | None = None) -> Rect:
    """The rectangle of ``form`` set at one candidate position around ``anchor``; ``line`` is
    the height of the label's whole form (a position one line further out moves by that)."""
    ax, ay = anchor
    dx, dy = where
    x = ax - form.w / 2 if dx == 0 else (ax + gap if dx > 0 else ax - gap - form.w)
    extra = (form.h if line is None else line) * (abs(dy) - 1) if dy else 0.0
    y = ay - form.h / 2 if dy == 0 else (ay + gap + extra if dy > 0 else ay - gap - form.h - extra)
    return Rect(x, y, form.w, form.h)


class _Buckets:
    """Shapes bucketed on a coarse grid by their bounding boxes, so a test meets only its
    neighbours."""

    def __init__(self, cell: float) -> None:
        self.cell = max(cell, 1e-3)
        self.cells: dict[tuple[int, int], list[tuple[Shape, str]]] = {}

    def _span(self, r: Rect) -> Iterable[tuple[int, int]]:
        c = self.cell
        for i in range(int(r.x // c), int(r.right // c) + 1):
            for j in range(int(r.y // c), int(r.bottom // c) + 1):
                yield i, j

    def add(self, shape: Shape, owner: str) -> None:
        for k in self._span(shape.bbox()):
            self.cells.setdefault(k, []).append((shape, owner))

    def count(self, r: Rect) -> int:
        """How many stored rectangles ``r`` overlaps."""
        found = {id(other) for k in self._span(r) for other, _ in self.cells.get(k, ()) if other.overlaps(r)}
        return len(found)

    def hit(self, r: Rect, ignore: str = "") -> str | None:
        """The owner of the first stored rectangle ``r`` overlaps (``ignore``'s own excepted)."""
        for k in self._span(r):
            for other, owner in self.cells.get(k, ()):
                if owner != ignore and other.overlaps(r):
                    return owner
        return None


def layout_labels(requests: Sequence[LabelRequest], obstacles: Iterable[tuple[Shape, str]] = (),
                  bounds: Rect | None = None, soft: Iterable[Shape] = ()) -> LabelLayout:
    """Place ``requests`` (policy ``label-layout``, see the module docstring).

    ``obstacles`` are (shape, owner key) pairs no label may cover, except the label whose key
    is the owner (the owner lets a caller exempt, say, a label's own symbol); a shape is a
    :class:`Rect` or a :class:`Ring` (a ring is crossed only where a label meets its stroke). ``soft``
    rectangles are avoided where a form has a free position clear of them, and otherwise the
    free position covering the fewest is taken (a preference among free positions; the editor
    passes none since hex numbers became hard obstacles: a name crossing a neighbour's number
    hid it, issue #21). Labels outside ``bounds`` would be clipped at the map's edge, so they
    are not placed there.
    """
    ordered = sorted(requests, key=lambda r: (-r.priority, r.key))
    sizes = [f.h for r in ordered for f in r.forms] + [1.0]
    obstacles = list(obstacles)
    index = _Buckets(4 * max(sizes))
    for rect, owner in obstacles:
        index.add(rect, "obstacle:" + owner)
    soft_index = _Buckets(4 * max(sizes))
    for rect in soft:
        soft_index.add(rect, "soft")
    placed: list[PlacedLabel] = []
    hidden: list[HiddenLabel] = []
    seen: dict[tuple[float, float, str], str] = {}
    for req in ordered:
        twin = seen.get((round(req.anchor[0], 3), round(req.anchor[1], 3), req.text))
        if twin is not None:
            hidden.append(HiddenLabel(req.key, req.text, f"same text at the same place as {twin}"))
            continue
        seen[(round(req.anchor[0], 3), round(req.anchor[1], 3), req.text)] = req.key
        if not req.forms or not any(f.text for f in req.forms):
            hidden.append(HiddenLabel(req.key, req.text, "no form of the text fits the label size"))
            continue
        chosen: PlacedLabel | None = None
        blocker: str | None = None
        first_blocker: str | None = None  # what kept the first form from every position
        usable = [f for f in req.forms if f.text and not (req.floor and f.size and f.size < req.floor - EPS)]
        if not usable:
            hidden.append(HiddenLabel(req.key, req.text, f"every form is smaller than the floor ({req.floor:g})"))
            continue
        for n, form in enumerate(usable):
            free: list[Rect] = []  # positions clear of every hard obstacle, in candidate order
            for where in CANDIDATES:
                rect = candidate_rect(req.anchor, form, req.gap, where, req.forms[0].h)
                if bounds is not None and not rect.inside(bounds):
                    blocker = blocker or "the edge of the map"
                    continue
                hit = index.hit(rect, ignore="obstacle:" + req.key)
                if hit is None:
                    free.append(rect)
                else:
                    blocker = blocker or hit.removeprefix("obstacle:")
            if n == 0:
                first_blocker = blocker
            if free:
                best = min(free, key=soft_index.count)  # the fewest soft rectangles; ties: candidate order
                note = ""
                if form is not req.forms[0]:
                    how = "elided" if form.text != req.text else f"shrunk to {form.size:g}"
                    why = f"the whole name is blocked by {first_blocker}" if n else "the first form is below the floor"
                    note = f"{how}: {why}"
                chosen = PlacedLabel(req.key, form.text, req.text, best, form.size, note)
                break
        if chosen is None:
            hidden.append(HiddenLabel(req.key, req.text, f"no free position (blocked by {blocker})"))
            continue
        placed.append(chosen)
        index.add(chosen.rect, req.key)
    return LabelLayout(tuple(placed), tuple(hidden))


def flow(widths: Sequence[float], height: float, width: float, gap: float = 0.0) -> list[Rect]:
    """Items of the given widths set left to right in rows of ``height``, a new row when the
    next does not fit in ``width`` (a legend under a map). An item wider than ``width`` is cut
    to it, on a row of its own: the caller elides its text to that width."""
    out: list[Rect] = []
    x = y = 0.0
    for w in widths:
        w = min(w, width)
        if x > 0 and x + w > width + EPS:
            x, y = 0.0, y + height
        out.append(Rect(x, y, w, height))
        x += w + gap
    return out
