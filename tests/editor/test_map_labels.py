"""Feature names on the map (editor/map_view/labels.py, policy ``label-layout``): the names the
issue found cut ("…an Reinforcement", "te-Marie-du-Mon") or printed over each other (SFN "Juno
(Dieppe)" over "Dieppe") are whole and apart; a tile draws every name that reaches into it; an
elided or hidden name reads whole in the tooltip, and an edit lays the names out again. No name
is crossed by a named location's ring (TKG "Maisy", Utah "German Reinforcement F", SFN "Fecamp"
were) or covers a feature symbol, its own included."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QFont, QFontMetricsF

from conftest import REPO
from editor.commands import PlaceFeature
from editor.export.map_render import render_image, scene_for
from editor.map_view.scene import MapScene
from editor.map_view.view import MapView
from helpers import no_modal_prompts, open_doc  # noqa: F401
from model.bundle import load_bundle
import editor.map_view.labels as map_labels
from editor.map_view.detail_item import RING_INK
from editor.map_view.labels import NUMBER_PX, RING_PEN, RING_R, SYMBOL_PEN, number_plate, number_rect
from editor.map_view.symbols import symbol_path
from model.label_layout import PlacedLabel, Rect, Ring, layout_labels, ring_overlaps_reference
from model.mapdata import Feature

pytestmark = pytest.mark.usefixtures("qapp")


def labels_of(sample: str) -> tuple[MapScene, dict[str, PlacedLabel]]:
    scene = scene_for(load_bundle(REPO / "scenarios" / sample).bundle)
    assert scene.details is not None
    return scene, {p.full_text: p for p in scene.details.labels.result.placed}


def qrect(r: Rect) -> QRectF:
    return QRectF(r.x, r.y, r.w, r.h)


@pytest.mark.parametrize("sample", ["utah-beach", "second-front-now", "killing-ground"])
def test_no_two_names_overlap_and_none_leaves_the_map(sample: str) -> None:
    scene, _ = labels_of(sample)
    assert scene.details is not None
    lay = scene.details.labels.result
    bounds = scene.sceneRect()
    for i, a in enumerate(lay.placed):
        assert bounds.contains(qrect(a.rect)), a
        for b in lay.placed[i + 1:]:
            assert not a.rect.overlaps(b.rect), (a, b)
    assert all(h.reason for h in lay.hidden)
    named = [f for f in scene.doc.hmap.features if f.name]
    assert len(lay.placed) + len(lay.hidden) == len(named)


@pytest.mark.parametrize("sample", ["utah-beach", "second-front-now", "killing-ground"])
def test_no_name_covers_a_hex_number_or_is_drawn_below_the_floor(sample: str) -> None:
    """Issue #21: a name crossed a neighbour hex's number. Every printed number (and its plate)
    is an obstacle; a name is elided or hidden, with the reason, rather than cover one."""
    scene, _ = labels_of(sample)
    assert scene.details is not None
    labels = scene.details.labels
    requests, obstacles, _ = labels.requests()
    numbers = every_number(scene)
    assert len(numbers) == len(scene.doc.hmap.hexes())
    floors = {r.key: r.floor for r in requests}
    for p in labels.result.placed:
        assert not any(p.rect.overlaps(n) for n in numbers), p
        assert p.size >= floors[p.key] > 0
        assert bool(p.note) == (p.elided or p.size < requests[0].forms[0].size)
    # The fast path passes only the numbers a name could reach; with every number on the map
    # (the reference) the layout is the same.
    b = scene.sceneRect()
    bounds = Rect(b.x(), b.y(), b.width(), b.height())
    kept = [(r, o) for r, o in obstacles if not o.startswith("hex number ")]
    reference = layout_labels(requests, kept + [(n, "hex number") for n in numbers], bounds)
    assert [(p.key, p.rect, p.text) for p in reference.placed] == [(p.key, p.rect, p.text) for p in labels.result.placed]
    if sample != "second-front-now":  # the big maps: the fast path does leave numbers out
        assert len(obstacles) - len(kept) < len(numbers) / 2


def every_number(scene: MapScene) -> list[Rect]:
    """The box of every printed hex number and its plate, as drawn (DetailItem._paint_labels)."""
    font = QFont()
    font.setPixelSize(max(1, int(scene.layout.size * NUMBER_PX)))
    fm = QFontMetricsF(font)
    hmap = scene.doc.hmap
    out = []
    for h in hmap.hexes():
        r = number_rect(scene.layout, h, hmap.label(h), fm).united(number_plate(scene.layout, h, hmap.label(h), fm))
        out.append(Rect(r.x(), r.y(), r.width(), r.height()))
    return out


def test_utah_names_the_issue_found_cut_are_whole() -> None:
    scene, placed = labels_of("utah-beach")
    for name in ("American Reinforcement Hex 1", "Ste-Marie-du-Mont"):
        p = placed[name]
        assert p.text == name and not p.elided
        # Ink reaches both ends of the label's rectangle: the first and last letters are drawn.
        img = render_image(scene, qrect(p.rect).adjusted(-1, -1, 1, 1), scale=6.0)
        w = img.width()
        dark = [(x, y) for y in range(img.height()) for x in range(w) if img.pixelColor(x, y).lightness() < 60]
        assert any(x < w * 0.1 for x, _ in dark) and any(x > w * 0.9 for x, _ in dark), name


def test_sfn_juno_and_dieppe_share_a_hex_without_overlapping() -> None:
    """SFN 3.4 puts Dieppe at 1510 and SFN 3.5 lands the 1st Canadian at Juno (Dieppe) = 1510.
    Since the locations' rings became obstacles the beach's name has no whole position left
    (1510's own ring, Omaha's at 1411 and the hex numbers around take them all), so it is
    elided, and says so, rather than crossed by a ring."""
    _, placed = labels_of("second-front-now")
    juno, dieppe = placed["Juno (Dieppe)"], placed["Dieppe"]
    assert dieppe.text == "Dieppe" and juno.full_text == "Juno (Dieppe)"
    assert juno.text == "Juno (Dieppe)" or (juno.text.endswith("…") and "blocked by the ring of" in juno.note)
    assert not juno.rect.overlaps(dieppe.rect)


def test_a_tile_draws_every_name_that_reaches_into_it() -> None:
    """A name is drawn by each tile its rectangle meets, however far its feature is: the tiles
    no longer cut a long name at their edges."""
    scene, placed = labels_of("utah-beach")
    assert scene.details is not None
    p = placed["American Reinforcement Hex 1"]
    right_end = QRectF(p.rect.right - 2, p.rect.y, 2, p.rect.h)
    left_end = QRectF(p.rect.x, p.rect.y, 2, p.rect.h)
    for end in (left_end, right_end):
        assert p in scene.details.labels.placed_in(end)


def _mini_view(qtbot: Any) -> MapView:
    view = MapView(MapScene(open_doc()))
    qtbot.addWidget(view)
    view.resize(600, 450)
    view.show()
    view.set_zoom(2.0)
    return view


def test_an_elided_name_reads_whole_in_the_tooltip_and_undo_lays_out_again(qtbot: Any) -> None:
    view = _mini_view(qtbot)
    doc = view.map_scene.doc
    details = view.map_scene.details
    assert details is not None
    long_name = "Saint-Germain-de-Varreville-sur-la-Mer " * 6  # wider than the whole map
    doc.push(PlaceFeature(doc, Feature(type="town", hex=doc.hmap.parse("0303"), name=long_name)))
    placed = {p.full_text: p for p in details.labels.result.placed}
    p = placed[long_name]  # elided to three hexes, not hidden: the forms get that short
    assert p.elided and p.text.endswith("…") and long_name.startswith(p.text[:-1])
    assert p.note.startswith("elided: the whole name is blocked by")
    assert view.label_tooltip(qrect(p.rect).center()) == f"{long_name} ({p.note})"
    doc.undo_stack.undo()
    assert long_name not in {p.full_text for p in details.labels.result.placed}
    assert "Ville" in {p.full_text for p in details.labels.result.placed}


def test_a_hidden_name_is_named_in_its_symbols_tooltip(qtbot: Any) -> None:
    view = _mini_view(qtbot)
    doc = view.map_scene.doc
    details = view.map_scene.details
    assert details is not None
    ville = doc.hmap.parse("0502")
    doc.push(PlaceFeature(doc, Feature(type="town", hex=ville, name="Ville")))  # the same name again
    (hidden,) = details.labels.result.hidden
    assert hidden.full_text == "Ville" and "same text" in hidden.reason
    x, y = view.map_scene.layout.center(ville)
    assert "Ville (name not drawn: same text" in (view.label_tooltip(QPointF(x, y)) or "")


def test_no_tooltip_where_names_are_not_drawn(qtbot: Any) -> None:
    view = _mini_view(qtbot)
    details = view.map_scene.details
    assert details is not None
    (ville,) = details.labels.result.placed
    at = qrect(ville.rect).center()
    assert view.label_tooltip(at) == "Ville"
    view.set_zoom(0.05)  # names are not drawn at this zoom
    assert view.label_tooltip(at) is None


def symbol_boxes(scene: MapScene) -> list[tuple[str, Rect]]:
    """The box of every feature symbol as drawn (DetailItem._paint_features: the path, and half
    its outline's width round it), computed here from the drawing's own numbers."""
    size = scene.layout.size
    types = scene.doc.system.feature_by_id
    out = []
    for f in scene.doc.hmap.features:
        t = types.get(f.type)
        b = symbol_path(t.symbol if t else "dot", size * map_labels.SYMBOL_R).boundingRect()
        cx, cy = scene.layout.center(f.hex)
        m = size * SYMBOL_PEN / 2
        out.append((f.name, Rect(cx + b.x() - m, cy + b.y() - m, b.width() + 2 * m, b.height() + 2 * m)))
    return out


def rings(scene: MapScene) -> list[Ring]:
    size = scene.layout.size
    return [Ring(*scene.layout.center(h), size * RING_R, size * RING_PEN)
            for loc in scene.doc.hmap.locations for h in loc.all_hexes()]


@pytest.mark.parametrize("sample", ["utah-beach", "second-front-now", "killing-ground"])
def test_no_name_is_crossed_by_a_ring_or_covers_a_symbol(sample: str) -> None:
    """Issue #21: the red ring of a named location (0.7 hex sizes) ran through the top of the
    name below it. Every ring is an obstacle, the name's own too (its candidates start past
    it), and no name covers any feature's symbol, its own included."""
    scene, placed = labels_of(sample)
    ringed = rings(scene)
    assert ringed  # each sample has named locations
    boxes = symbol_boxes(scene)
    for p in placed.values():
        assert not any(ring_overlaps_reference(r, p.rect) for r in ringed), p
        assert not any(p.rect.overlaps(b) for _, b in boxes), p


RING_NAMES = [("killing-ground", "Maisy"), ("utah-beach", "German Reinforcement F"), ("second-front-now", "Fecamp")]


def _ring_pixels(scene: MapScene, r: Rect) -> int:
    img = render_image(scene, qrect(r), scale=6.0)
    return sum(1 for y in range(img.height()) for x in range(img.width())
               if abs(img.pixelColor(x, y).red() - RING_INK.red()) + img.pixelColor(x, y).green()
               + img.pixelColor(x, y).blue() < 90)


@pytest.mark.parametrize(("sample", "name"), RING_NAMES)
def test_the_names_the_ring_ran_through_are_clear_of_it_on_the_pixels(sample: str, name: str,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Rendered (the export path, as the PDF): no pixel of the ring's red inside the name's
    rectangle. With the rings left out of the layout the name sits where it did, and the ring's
    red is there (so the check can fail)."""
    scene, placed = labels_of(sample)
    assert _ring_pixels(scene, placed[name].rect) == 0
    monkeypatch.setattr(map_labels, "location_ring", lambda layout, h: Ring(-1e6, -1e6, 0.0))
    monkeypatch.setattr(map_labels, "clearance", lambda layout, ringed: layout.size * map_labels.SYMBOL_R)
    old, _ = labels_of(sample)
    assert _ring_pixels(old, {p.full_text: p for p in old.details.labels.result.placed}[name].rect) > 0
