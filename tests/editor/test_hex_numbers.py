"""Printed hex numbers over hexside symbols (editor/map_view/detail_item.py): the numbers are drawn
after every symbol, and where a symbol runs through a number (a river on the hex's upper side,
crest ticks) a pale plate goes under the number, so the symbol reads as below it. Checked on
pixels of the export path, which the PDF uses too (editor/export/map_render.py). The ring round a
named location is treated the same way: its hex's number is drawn over it, on the plate."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QImage

import editor.map_view.detail_item as detail_item
from editor.commands import SetHexsideFeature
from editor.export.map_render import render_image
from conftest import REPO
from editor.export.map_render import scene_for
from editor.map_view.labels import NUMBER_PX, location_ring, number_plate, number_rect
from editor.map_view.scene import MapScene
from helpers import no_modal_prompts, open_doc  # noqa: F401
from editor.qt_geometry import hexside_line
from model.base import hexside_key
from model.bundle import load_bundle
from model.label_layout import Rect, ring_overlaps_reference

pytestmark = pytest.mark.usefixtures("qapp")
RIVER = QColor("#2060c0")  # the mini fixture's river colour


def _counts(img: QImage) -> tuple[int, int]:
    """(river-coloured pixels, dark ink pixels) of an image."""
    river = ink = 0
    for y in range(img.height()):
        for x in range(img.width()):
            c = img.pixelColor(x, y)
            if abs(c.red() - RIVER.red()) + abs(c.green() - RIVER.green()) + abs(c.blue() - RIVER.blue()) < 60:
                river += 1
            elif c.lightness() < 90:
                ink += 1
    return river, ink


def _number_image(scene: MapScene, label: str) -> QImage:
    """The plate's area under one hex number (the number's glyphs and their margin)."""
    font = QFont()
    font.setPixelSize(max(1, int(scene.layout.size * NUMBER_PX)))
    h = scene.doc.hmap.parse(label)
    return render_image(scene, number_plate(scene.layout, h, label, QFontMetricsF(font)), scale=8.0)


def test_a_river_on_the_upper_side_runs_under_the_number(monkeypatch: pytest.MonkeyPatch) -> None:
    """The mini map has a river on 0303/S, the upper side of 0304 (flat-top): inside 0304's number
    no pixel keeps the river's colour, and the number's ink is there. Without the plate the
    river shows through the number (so the check can fail)."""
    scene = MapScene(open_doc())
    assert scene.details is not None
    assert scene.doc.hmap.parse("0304") in scene.details.under_symbols()
    river, ink = _counts(_number_image(scene, "0304"))
    assert river == 0 and ink > 20
    monkeypatch.setattr(detail_item, "NUMBER_PLATE", QColor(0, 0, 0, 0))
    scene.details.clear_tiles()
    river_bare, _ = _counts(_number_image(scene, "0304"))
    assert river_bare > 0


def test_the_number_plate_follows_hexside_edits(qtbot: Any) -> None:
    doc = open_doc()
    scene = MapScene(doc)
    assert scene.details is not None
    h = doc.hmap.parse("0503")
    cx, cy = scene.layout.center(h)
    # The side whose midpoint is straight above the centre: the upper side (flat-top).
    key = min((hexside_key(h, d) for d in range(6)),
              key=lambda k: hexside_line(scene.layout, k).center().y())
    assert abs(hexside_line(scene.layout, key).center().x() - cx) < 1e-6
    assert h not in scene.details.under_symbols()
    doc.push(SetHexsideFeature(doc, key, "river"))
    assert h in scene.details.under_symbols()
    doc.undo_stack.undo()
    assert h not in scene.details.under_symbols()


def test_at_a_large_label_font_size_the_plate_still_covers_the_number() -> None:
    """At Label font size 200 % the numbers are drawn twice as big: the plate (and the box the
    name layout keeps clear) grows with them, so the river stays under the whole number."""
    scene = MapScene(open_doc())
    assert scene.details is not None
    scene.details.label_scale = 2.0
    scene.details.clear_tiles()
    font = QFont()
    font.setPixelSize(max(1, int(scene.layout.size * NUMBER_PX * 2.0)))
    h = scene.doc.hmap.parse("0304")
    fm = QFontMetricsF(font)
    big = number_plate(scene.layout, h, "0304", fm, 2.0)
    assert big.height() > number_plate(scene.layout, h, "0304", fm).height()
    river, ink = _counts(render_image(scene, big, scale=8.0))
    assert river == 0 and ink > 20


RING = QColor(180, 0, 0)  # editor.map_view.detail_item.RING_INK


def _ring_red(img: QImage) -> int:
    return sum(1 for y in range(img.height()) for x in range(img.width())
               if abs(img.pixelColor(x, y).red() - RING.red()) + img.pixelColor(x, y).green()
               + img.pixelColor(x, y).blue() < 90)


def test_a_locations_ring_runs_under_its_hexs_number(monkeypatch: pytest.MonkeyPatch) -> None:
    """The format example's "Red map edge" location rings 0801-0803 (0.7 hex sizes): each ring's
    top crosses its own hex's number, which is drawn over it on the plate, so no pixel of the
    ring's red is left inside the number. Without the plate the ring shows through."""
    scene = scene_for(load_bundle(REPO / "scenarios" / "format-example").bundle)
    assert scene.details is not None
    ringed = {scene.doc.hmap.label(h) for h in scene.details.under_rings()}
    assert ringed == {"0801", "0802", "0803"}  # at 100 % no neighbour's number reaches a ring
    assert ringed <= {scene.doc.hmap.label(h) for h in scene.details.under_symbols()}
    for label in sorted(ringed):
        red = _ring_red(_number_image(scene, label))
        ink = _counts(_number_image(scene, label))[1]
        assert red == 0 and ink > 20, label
    monkeypatch.setattr(detail_item, "NUMBER_PLATE", QColor(0, 0, 0, 0))
    scene.details.clear_tiles()
    assert all(_ring_red(_number_image(scene, label)) > 0 for label in ringed)


def test_at_a_large_label_font_size_a_ring_still_runs_under_the_numbers() -> None:
    """At 200 % the ringed hexes' numbers are wider; every number box a ring's stroke meets
    (checked here with the shapely reference) gets the plate."""
    scene = scene_for(load_bundle(REPO / "scenarios" / "second-front-now").bundle)
    assert scene.details is not None
    scene.details.label_scale = 2.0
    scene.details.symbols_changed()
    font = QFont()
    font.setPixelSize(max(1, int(scene.layout.size * NUMBER_PX * 2.0)))
    fm = QFontMetricsF(font)
    hmap, lay = scene.doc.hmap, scene.layout
    rings = [location_ring(lay, h) for loc in hmap.locations for h in loc.all_hexes()]
    crossed = set()
    for h in hmap.hexes():
        label = hmap.label(h)
        b = number_rect(lay, h, label, fm, 2.0).united(number_plate(lay, h, label, fm, 2.0))
        if any(ring_overlaps_reference(r, Rect(b.x(), b.y(), b.width(), b.height())) for r in rings):
            crossed.add(h)
    assert crossed and crossed <= scene.details.under_symbols()
    assert crossed == scene.details.under_rings()
