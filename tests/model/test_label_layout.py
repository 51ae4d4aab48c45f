"""Map label layout (model/label_layout.py, policy ``label-layout`` in docs/editor.md): no two
placed labels overlap, none leaves the bounds or covers an obstacle or a hex number, every label
is placed whole, placed elided or shrunk (its full text and the reason kept for the tooltip) or
hidden with a reason, none is drawn below its floor, and the layout does not depend on the order
of the requests. Issue #21 orders the fallbacks "priority, offset, elision". A named location's
ring is an obstacle of its own shape (:class:`Ring`): a label crosses it only where it meets the
stroke, checked against a shapely reference."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from model.label_layout import (CANDIDATES, LabelForm, LabelRequest, Rect, Ring, candidate_rect, layout_labels,
                                ring_overlaps_reference)

CHAR_W, LINE_H = 6.0, 10.0
SIZE, FLOOR = 10.0, 7.5  # type sizes: the label size and its floor (75 %, as the editor's)


def request(key: str, text: str, x: float, y: float, priority: float = 0.0, gap: float = 4.0) -> LabelRequest:
    """A request measured with a fixed-width font, in the editor's order: the whole text, its
    elided forms down to three letters and the ellipsis at the same size, the whole text at the
    floor, and one form below the floor that the layout must never use."""
    forms = [LabelForm(text, len(text) * CHAR_W, LINE_H, SIZE)]
    for n in range(len(text) - 1, 2, -1):
        short = text[:n] + "…"
        forms.append(LabelForm(short, len(short) * CHAR_W, LINE_H, SIZE))
    for size in (FLOOR, FLOOR / 2):
        forms.append(LabelForm(text, len(text) * CHAR_W * size / SIZE, LINE_H * size / SIZE, size))
    return LabelRequest(key, text, (x, y), tuple(forms), priority, gap, FLOOR)


def test_a_lone_label_sits_whole_under_its_anchor() -> None:
    lay = layout_labels([request("a", "Ste-Marie-du-Mont", 100, 100)], bounds=Rect(0, 0, 400, 400))
    (p,) = lay.placed
    assert p.text == "Ste-Marie-du-Mont" and not p.elided
    assert p.rect == candidate_rect((100, 100), LabelForm(p.text, 17 * CHAR_W, LINE_H), 4.0, CANDIDATES[0])
    assert p.size == SIZE and not p.note
    assert p.rect.y >= 104  # below the anchor, clear of its symbol


def test_two_names_on_one_hex_do_not_overlap() -> None:
    """SFN 1510 is Dieppe (a population centre, SFN 3.4) and the Juno beachhead (SFN 3.5): the
    second name moves to the next free position instead of being printed over the first."""
    reqs = [request("juno", "Juno (Dieppe)", 200, 200), request("dieppe", "Dieppe", 200, 200, priority=1)]
    lay = layout_labels(reqs, bounds=Rect(0, 0, 400, 400))
    placed = lay.placed_by_key()
    assert set(placed) == {"juno", "dieppe"}
    assert not placed["juno"].rect.overlaps(placed["dieppe"].rect)
    assert placed["dieppe"].rect == candidate_rect((200, 200), LabelForm("Dieppe", 36, LINE_H), 4.0, CANDIDATES[0])


def test_the_same_name_twice_on_one_hex_is_drawn_once() -> None:
    lay = layout_labels([request("vp", "Dieppe", 50, 50), request("town", "Dieppe", 50, 50)])
    assert [p.key for p in lay.placed] == ["town"]
    assert lay.hidden[0].key == "vp" and "same text" in lay.hidden[0].reason


def test_a_label_at_the_map_edge_moves_inwards_or_is_elided_not_clipped() -> None:
    """'Le Havre' at the left edge, 'American Reinforcement Hex 1' near it: inside the bounds."""
    bounds = Rect(0, 0, 300, 300)
    lay = layout_labels([request("a", "American Reinforcement Hex 1", 20, 150)], bounds=bounds)
    (p,) = lay.placed
    assert p.rect.inside(bounds)
    assert p.text == "American Reinforcement Hex 1"  # moved to the right of its anchor, whole
    tight = Rect(0, 0, 100, 300)
    (q,) = layout_labels([request("a", "American Reinforcement Hex 1", 50, 150)], bounds=tight).placed
    assert q.elided and q.text.endswith("…") and q.full_text == "American Reinforcement Hex 1"
    assert q.rect.inside(tight)


def test_elision_comes_before_shrinking() -> None:
    """Issue #21: "priority, offset, elision". Where the whole name has no room at any position
    but an elided form has, the name is elided at the full size, not shrunk: hex numbers on
    both sides leave room for 8 letters (48 units) around the anchor only."""
    req = request("a", "Ste-Marie-du-Mont", 100, 100)
    walls = [(Rect(100 - 24 - 30, 0, 30, 200), "hex number 0101"), (Rect(124, 0, 30, 200), "hex number 0301")]
    (p,) = layout_labels([req], walls).placed
    assert p.size == SIZE and p.elided and p.text == "Ste-Mar…"
    assert p.note == "elided: the whole name is blocked by hex number 0101"


def test_the_floor_size_is_the_last_resort_and_says_so() -> None:
    """A strip of map 8 units high: no form at the full size (10 high) fits, elided or not; the
    whole name at the floor (7.5 high) does, to the right of its anchor. It is drawn there at
    the floor, never as the half-size form below it, and says why."""
    req = request("a", "Carentan-les-Marais", 200, 4)
    lay = layout_labels([req], bounds=Rect(0, 0, 400, 8))
    (p,) = lay.placed
    assert p.text == "Carentan-les-Marais" and p.size == FLOOR
    assert p.rect == candidate_rect((200, 4), req.forms[-2], 4.0, (1, 0))
    assert p.note == "shrunk to 7.5: the whole name is blocked by the edge of the map"
    assert lay.report() == ["a: drawn as 'Carentan-les-Marais' (shrunk to 7.5: the whole name is blocked by the edge of the map)"]


def test_a_label_whose_forms_are_all_below_the_floor_is_hidden() -> None:
    small = LabelRequest("a", "Hill 30", (50, 50), (LabelForm("Hill 30", 20, 4, 3.0),), floor=FLOOR)
    lay = layout_labels([small])
    assert not lay.placed and "smaller than the floor" in lay.hidden[0].reason


def test_a_label_with_no_room_is_hidden_with_its_blocker() -> None:
    wall = [(Rect(0, 0, 100, 100), "wall")]
    lay = layout_labels([request("a", "Carentan", 50, 50)], obstacles=wall)
    assert not lay.placed
    assert lay.hidden[0].key == "a" and "wall" in lay.hidden[0].reason


def test_soft_rectangles_are_avoided_where_there_is_room_and_covered_where_not() -> None:
    """A neighbour's hex number under the preferred position: the name moves to the next
    position clear of it; with every position under numbers, it covers one rather than hide."""
    req = request("a", "Hill 30", 100, 100)
    below = candidate_rect((100, 100), req.forms[0], 4.0, CANDIDATES[0])
    (p,) = layout_labels([req], soft=[below]).placed
    assert p.rect == candidate_rect((100, 100), req.forms[0], 4.0, CANDIDATES[1]) and not p.elided
    everywhere = [Rect(0, 0, 200, 200)]
    (q,) = layout_labels([req], soft=everywhere).placed
    assert q.rect == below and q.text == "Hill 30"


def test_a_ring_is_crossed_only_where_a_label_meets_its_stroke() -> None:
    """The ring round a named location (0.7 hex sizes, a stroke 0.08 wide, here for a hex of 10
    units): a label inside the inner circle or outside the outer one does not cross it; one
    over the stroke, or over the whole ring, does."""
    ring = Ring(0.0, 0.0, 7.0, 0.8)
    assert ring.outer == 7.4 and abs(ring.inner - 6.6) < 1e-9
    assert not ring.overlaps(Rect(-2, -2, 4, 4))  # inside, round the symbol
    assert not ring.overlaps(Rect(-5, 7.4, 10, 3))  # just below it, touching the outer edge
    assert ring.overlaps(Rect(-5, 6.0, 10, 3))  # "Maisy" set where the ring's bottom runs through it
    assert ring.overlaps(Rect(-20, -20, 40, 40))  # covering the whole ring
    assert not ring.overlaps(Rect(5.3, 5.3, 4, 4))  # in the corner of the ring's box, outside the circle
    assert ring.bbox() == Rect(-7.4, -7.4, 14.8, 14.8)


def test_a_name_clears_a_neighbours_ring_and_starts_past_its_own() -> None:
    """A name whose gap is its own ring's outer radius (as the editor sets it) is placed right
    below the ring; a second ring just below moves it to the next free position."""
    own = Ring(100.0, 100.0, 7.0, 0.8)
    req = LabelRequest("maisy", "Maisy", (100, 100), (LabelForm("Maisy", 30, LINE_H, SIZE),), gap=own.outer)
    (p,) = layout_labels([req], [(own, "ring")]).placed
    assert p.rect == candidate_rect((100, 100), req.forms[0], own.outer, CANDIDATES[0])
    neighbour = Ring(100.0, 120.0, 7.0, 0.8)
    (q,) = layout_labels([req], [(own, "ring"), (neighbour, "ring 2")]).placed
    assert not neighbour.overlaps(q.rect) and not own.overlaps(q.rect)
    assert q.rect != p.rect


coords = st.floats(-50, 50, allow_nan=False)


@settings(max_examples=400, deadline=None)
@given(coords, coords, st.floats(0.5, 30), st.floats(0, 4), coords, coords, st.floats(0, 60), st.floats(0, 60))
def test_ring_overlap_agrees_with_the_shapely_reference(cx: float, cy: float, radius: float, width: float,
                                                        x: float, y: float, w: float, h: float) -> None:
    ring, rect = Ring(cx, cy, radius, width), Rect(x, y, w, h)
    fast, reference = ring.overlaps(rect), ring_overlaps_reference(ring, rect)
    if fast != reference:  # only a rounding tie at the stroke's very edge may differ
        from shapely.geometry import Point, box
        b, c = box(x, y, x + w, y + h), Point(cx, cy)
        assert min(abs(b.distance(c) - ring.outer), abs(b.hausdorff_distance(c) - ring.inner)) < 1e-5


anchors = st.tuples(st.integers(0, 30), st.integers(0, 30))
texts = st.text(alphabet="abcdefgh -", min_size=1, max_size=30)
specs = st.lists(st.tuples(anchors, texts, st.integers(0, 3)), min_size=0, max_size=25)


def build(spec: list[tuple[tuple[int, int], str, int]]) -> list[LabelRequest]:
    return [request(f"k{i:02d}", text, x * 10.0, y * 10.0, prio) for i, ((x, y), text, prio) in enumerate(spec)]


def number_boxes(step: float = 30.0) -> list[tuple[Rect, str]]:
    """Printed hex numbers on a staggered grid (as on a flat-topped hex map: each column half a
    hex lower than the last), the boxes the layout must never cover."""
    return [(Rect(c * step - 6, r * step + (step / 2 if c % 2 else 0) - 14, 12, 5), f"hex number {c:02d}{r:02d}")
            for c in range(-1, 12) for r in range(-1, 12)]


@settings(max_examples=150, deadline=None)
@given(specs, st.lists(st.tuples(anchors, st.integers(1, 40), st.integers(1, 20)), max_size=5), st.booleans(),
       st.lists(anchors, max_size=6), st.randoms())
def test_layout_invariants(spec: list[tuple[tuple[int, int], str, int]], obs: list[tuple[tuple[int, int], int, int]],
                           with_numbers: bool, ringed: list[tuple[int, int]], rnd: object) -> None:
    reqs = build(spec)
    obstacles: list = [(Rect(x * 10.0, y * 10.0, w, h), f"obstacle{i}") for i, ((x, y), w, h) in enumerate(obs)]
    numbers = number_boxes() if with_numbers else []
    obstacles += numbers
    # Named locations' rings (0.7 of a 30-unit hex, stroke 2.4), owned by no label.
    rings = [Ring(x * 10.0, y * 10.0, 21.0, 2.4) for x, y in ringed]
    obstacles += [(ring, f"ring{i}") for i, ring in enumerate(rings)]
    bounds = Rect(-20, -20, 340, 340)
    soft = [Rect(x * 10.0, y * 10.0, 12, 5) for (x, y), _, _ in spec[::2]]
    lay = layout_labels(reqs, obstacles, bounds, soft)
    # Every request is accounted for exactly once: placed (whole, elided or shrunk) or hidden with a reason.
    keys = [p.key for p in lay.placed] + [h.key for h in lay.hidden]
    assert sorted(keys) == sorted(r.key for r in reqs)
    assert all(h.reason for h in lay.hidden)
    by_key = {r.key: r for r in reqs}
    for p in lay.placed:
        req = by_key[p.key]
        assert p.full_text == req.text
        assert (p.text, p.size) in [(f.text, f.size) for f in req.forms]
        assert p.elided == (p.text != p.full_text)
        assert p.size >= req.floor  # never drawn below the floor
        # Drawn other than whole at the full size only with the reason, never silently.
        assert bool(p.note) == (p.elided or p.size < req.forms[0].size)
        assert p.rect.inside(bounds)
        assert not any(r.overlaps(p.rect) for r, _ in obstacles)
        assert not any(p.rect.overlaps(r) for r, _ in numbers)  # no hex number is covered
        assert not any(ring_overlaps_reference(ring, p.rect) for ring in rings)  # no ring crosses a label
    for i, a in enumerate(lay.placed):
        for b in lay.placed[i + 1:]:
            assert not a.rect.overlaps(b.rect), (a, b)
    assert len(lay.report()) == sum(1 for p in lay.placed if p.note) + len(lay.hidden)
    # Deterministic: shuffling the requests changes nothing.
    shuffled = list(reqs)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    again = layout_labels(shuffled, obstacles, bounds, soft)
    assert sorted(again.placed, key=lambda p: p.key) == sorted(lay.placed, key=lambda p: p.key)
    assert sorted(again.hidden, key=lambda h: h.key) == sorted(lay.hidden, key=lambda h: h.key)


@settings(max_examples=60, deadline=None)
@given(specs)
def test_higher_priority_is_never_displaced_by_lower(spec: list[tuple[tuple[int, int], str, int]]) -> None:
    """A label's placement depends only on labels of higher priority (and earlier key): adding
    lower-priority labels never moves or hides it."""
    reqs = build(spec)
    top = [r for r in reqs if r.priority >= 2]
    alone = layout_labels(top).placed_by_key()
    together = layout_labels(reqs).placed_by_key()
    for key, p in alone.items():
        assert together[key] == p


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 30), texts), min_size=1, max_size=12), st.floats(4.0, 30.0))
def test_no_label_is_drawn_below_its_floor(spec: list[tuple[int, str]], strip: float) -> None:
    """On a strip of map as low as a line or lower, where only the floor-size form (or none)
    fits: every placed label is at least its floor, says why when it is not whole at the full
    size, and the half-size form each request carries is never used."""
    reqs = [request(f"k{i:02d}", text, x * 10.0, strip / 2) for i, (x, text) in enumerate(spec)]
    lay = layout_labels(reqs, number_boxes(), Rect(-20, 0, 340, strip))
    by_key = {r.key: r for r in reqs}
    for p in lay.placed:
        assert p.size >= by_key[p.key].floor == FLOOR
        assert bool(p.note) == (p.elided or p.size < SIZE)
    assert len(lay.placed) + len(lay.hidden) == len(reqs)
