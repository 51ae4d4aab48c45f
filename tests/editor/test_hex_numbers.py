"""Printed hex numbers over hexside symbols (editor/map_view/detail_item.py): the numbers are drawn
after every symbol, and where a symbol runs through a number (a river on the hex's upper side,
crest ticks) a pale plate goes under the number, so the symbol reads as below it. Checked on
pixels of the export path, which the PDF uses too (editor/export/map_render.py)."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QImage

import editor.map_view.detail_item as detail_item
from editor.commands import SetHexsideFeature
from editor.export.map_render import render_image
from editor.map_view.labels import NUMBER_PX, number_plate
from editor.map_view.scene import MapScene
from helpers import no_modal_prompts, open_doc  # noqa: F401
from editor.qt_geometry import hexside_line
from model.base import hexside_key

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
