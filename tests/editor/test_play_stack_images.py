"""Play-mode stacks blitted from images (editor/play/layer.py, ``StackImages``): the same
drawing as painting each stack directly, reused on a repaint, redrawn when what it shows
changes (a selection, a reduced side, a zoom).

"The same drawing": within text antialiasing. Qt blends glyphs with a gamma curve on an opaque
surface (the view, the reference here) and linearly into a transparent image (the cache), so a
glyph's edge pixels differ by up to ~45 of 255; a glyph whose position falls exactly on a
half pixel may land one pixel over. Everything else (rectangles, pens, badges) is the same."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QImage, QPainter, QTransform
from PySide6.QtWidgets import QStyleOptionGraphicsItem

from conftest import REPO
from helpers import activate, click, no_modal_prompts, open_play, scene_point  # noqa: F401 (autouse fixture)

UTAH = REPO / "scenarios" / "utah-beach"
VARIANT, UNIT = "night-drop-playtest", "b-1-502"
GROUND = QColor("#c8d8b0")
SIZE = (900, 700)


def _render(layer: Any, tr: QTransform, cached: bool) -> np.ndarray:
    layer.stack_images.enabled = cached
    img = QImage(*SIZE, QImage.Format.Format_RGB32)
    img.fill(GROUND)
    p = QPainter(img)
    p.setWorldTransform(tr)
    opt = QStyleOptionGraphicsItem()
    opt.exposedRect = tr.inverted()[0].mapRect(QRectF(0, 0, *SIZE))  # type: ignore[attr-defined]
    layer.paint(p, opt, None)
    p.end()
    layer.stack_images.enabled = True
    rows = np.frombuffer(img.constBits(), np.uint8).reshape(SIZE[1], img.bytesPerLine() // 4, 4)
    return rows[:, :SIZE[0], :3].astype(int)


@pytest.mark.parametrize("scale", [0.5, 1.0, 1.37, 2.0, 3.1])
@pytest.mark.parametrize("fraction", [0.0, 0.3, 0.71])
def test_blitted_stacks_draw_what_the_direct_paint_draws(qtbot: Any, scale: float, fraction: float) -> None:
    w, m = open_play(qtbot, UTAH, VARIANT)
    activate(m, UNIT)
    assert m.ctl is not None and m.layer is not None
    m.ctl.select([UNIT])  # a selected stack (its yellow edge) among the others
    cx, cy = w.scene.layout.center(m.ctl.game.unit(UNIT).hex)
    tr = QTransform(scale, 0, 0, scale, SIZE[0] / 2 - scale * cx + fraction, SIZE[1] / 2 - scale * cy + fraction / 2)
    direct, blitted = _render(m.layer, tr, False), _render(m.layer, tr, True)
    ground = np.array([GROUND.blue(), GROUND.green(), GROUND.red()])[::-1]
    painted = ~((direct == ground).all(axis=2) & (blitted == ground).all(axis=2))
    assert painted.sum() > 2000  # stacks are in the picture: the comparison can fail
    diff = np.abs(direct - blitted).max(axis=2)[painted]
    assert diff.mean() < 3.0, diff.mean()
    assert (diff > 64).mean() < 0.02, (diff > 64).mean()  # a glyph on a half pixel, at most


def test_a_repaint_reuses_the_images_and_a_change_redraws_only_its_stack(qtbot: Any) -> None:
    w, m = open_play(qtbot, UTAH, VARIANT)
    activate(m, UNIT)
    assert m.ctl is not None and m.layer is not None and w.view is not None
    images = m.layer.stack_images
    qtbot.waitUntil(w.view.isVisible)  # a new view is shown by a posted event (QLayout)
    w.view.set_zoom(2.0)
    w.view.center_on_hex(m.ctl.game.unit(UNIT).hex)
    w.view.viewport().repaint()
    first = images.rendered
    assert first > 0
    w.view.viewport().repaint()
    assert images.rendered == first  # nothing changed: every stack from its image
    click(w.view, scene_point(w.view, m.ctl.game.unit(UNIT).hex))
    m.refresh_panels()
    w.view.viewport().repaint()
    assert m.ctl.selection and images.rendered == first + 1  # the selected stack only
    w.view.set_zoom(1.0)
    w.view.viewport().repaint()
    assert images.rendered > first + 1  # another scale: drawn again


def test_the_image_cache_is_bounded(qtbot: Any) -> None:
    w, m = open_play(qtbot, UTAH, VARIANT)
    activate(m, UNIT)
    assert m.layer is not None and w.view is not None and m.ctl is not None
    images = m.layer.stack_images
    qtbot.waitUntil(w.view.isVisible)
    w.view.center_on_hex(m.ctl.game.unit(UNIT).hex)
    images.MAX = 5
    for zoom in (0.5, 0.75, 1.0, 1.5, 2.0, 3.0):
        w.view.set_zoom(zoom)
        w.view.viewport().repaint()
    assert 0 < len(images._images) <= 5


def test_on_a_high_dpi_device_the_images_are_drawn_at_device_pixels(qtbot: Any) -> None:
    """A device with 2 device pixels to a logical one (a high-DPI screen): each stack's image is
    made at twice the scale and marked with the ratio, so it lands pixel for pixel where the
    direct paint does instead of being scaled up (blurred)."""
    w, m = open_play(qtbot, UTAH, VARIANT)
    activate(m, UNIT)
    assert m.ctl is not None and m.layer is not None
    cx, cy = w.scene.layout.center(m.ctl.game.unit(UNIT).hex)
    out = []
    for cached in (False, True):
        m.layer.stack_images.enabled = cached
        img = QImage(SIZE[0] * 2, SIZE[1] * 2, QImage.Format.Format_RGB32)
        img.setDevicePixelRatio(2.0)
        img.fill(GROUND)
        p = QPainter(img)
        tr = QTransform(1.5, 0, 0, 1.5, SIZE[0] / 2 - 1.5 * cx + 0.25, SIZE[1] / 2 - 1.5 * cy)
        p.setWorldTransform(tr)
        opt = QStyleOptionGraphicsItem()
        opt.exposedRect = tr.inverted()[0].mapRect(QRectF(0, 0, *SIZE))  # type: ignore[attr-defined]
        m.layer.paint(p, opt, None)
        p.end()
        rows = np.frombuffer(img.constBits(), np.uint8).reshape(SIZE[1] * 2, img.bytesPerLine() // 4, 4)
        out.append(rows[:, :SIZE[0] * 2, :3].astype(int))
    m.layer.stack_images.enabled = True
    direct, blitted = out
    painted = (direct != blitted).any(axis=2) | (direct != direct[0, 0]).any(axis=2)
    assert painted.sum() > 4000
    diff = np.abs(direct - blitted).max(axis=2)[painted]
    assert diff.mean() < 3.0 and (diff > 64).mean() < 0.02, (diff.mean(), (diff > 64).mean())
