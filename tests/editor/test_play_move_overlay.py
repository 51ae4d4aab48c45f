"""The Play-mode move overlay (editor/play/move_overlay.py) shows exactly the hexes the engine
returns, follows the selection both ways (select, deselect, another unit, a move and its undo),
repaints only rectangles, and covers the same hexes and pixels as the old per-hex painter
(``paint_reference``) it replaced.

The reach is the engine's (``Game.legal_moves``): Utah's ``night-drop-playtest`` variant, whose
MAs and costs are ILLUSTRATIVE playtest values (docs/play.md), in the 4.0 H Activation Phase with
the unit's Formation chit in play — "If a Formation Activation Chit is drawn: All Units belonging
to that Formation become Active and may perform Actions" [GTS 10.0.1]."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QImage, QPainter, QTransform

from conftest import REPO
from editor.play import PlayMode
from editor.play.move_overlay import (REACH_FILL, build, hexside_lines, outline_path, paint_built, paint_reference,
                                      unique_edges, winding_fill_path)
from editor.qt_geometry import hex_polygon
from helpers import activate, click, no_modal_prompts, open_play, scene_point  # noqa: F401 (autouse fixture)
from model.hexes import Hex
from model.layout import Layout

UTAH = REPO / "scenarios" / "utah-beach"
VARIANT, UNIT, OTHER = "night-drop-playtest", "b-1-502", "c-1-502"


def playing(qtbot: Any) -> tuple[Any, PlayMode]:
    w, m = open_play(qtbot, UTAH, VARIANT, wait_warm=True)
    activate(m, UNIT)
    assert m.ctl is not None and m.layer is not None and w.view is not None
    w.view.set_zoom(2.0)
    w.view.center_on_hex(m.ctl.game.unit(UNIT).hex)
    return w, m


def engine_reach(m: PlayMode, unit: str) -> set[Any]:
    """The engine's reachable hexes for ``unit`` (Game.legal_moves on the game as it stands)."""
    assert m.ctl is not None
    g = m.ctl.game
    reach, problem = g.legal_moves([g.unit(unit)])
    assert problem is None and reach is not None
    return {h for h in reach.cost if h != reach.start}


def shown(m: PlayMode) -> frozenset[Any]:
    assert m.layer is not None
    return m.layer.move_overlay.current().hexes


def test_the_overlay_shows_the_engines_hexes_and_follows_the_selection(qtbot: Any) -> None:
    w, m = playing(qtbot)
    ctl = m.ctl
    assert ctl is not None and w.view is not None
    g = ctl.game
    start = g.unit(UNIT).hex
    assert shown(m) == frozenset()
    click(w.view, scene_point(w.view, start))  # select → overlay
    assert ctl.selection and UNIT in ctl.selection
    want = engine_reach(m, UNIT)
    assert want and shown(m) == frozenset(want) == frozenset(ctl.reachable_costs())
    # Deselect (right click) → no overlay.
    from PySide6.QtCore import Qt

    click(w.view, scene_point(w.view, start), Qt.MouseButton.RightButton)
    assert not ctl.selection and shown(m) == frozenset()
    # Another unit → its own reach.
    other_hex = g.unit(OTHER).hex
    ctl.select_hex(other_hex)
    assert OTHER in ctl.selection and shown(m) == frozenset(engine_reach(m, OTHER))
    # A move, then its undo: the overlay follows the engine's state each time.
    ctl.select_hex(start)
    dest = min(ctl.reachable_costs(), key=lambda h: (ctl.reachable_costs()[h], h.q, h.r))
    assert ctl.move_to(dest).ok
    after_move = {h for h in ctl.reachable_costs()}
    assert shown(m) == frozenset(after_move)
    assert ctl.undo()
    assert shown(m) == frozenset(ctl.reachable_costs())
    if ctl.selection:
        assert shown(m) == frozenset(engine_reach(m, ctl.selection[0]))


def test_a_selection_repaints_rectangles_not_the_map(qtbot: Any) -> None:
    w, m = playing(qtbot)
    ctl, layer = m.ctl, m.layer
    assert ctl is not None and layer is not None and w.scene is not None
    ov = layer.move_overlay
    ov.sync()
    ctl.select([UNIT])  # PlayMode.refresh → layer.sync → overlay.sync (already done)
    built = ov.current()
    scene = w.scene.sceneRect()
    assert not built.rect.isNull() and built.rect.width() * built.rect.height() < 0.2 * scene.width() * scene.height()
    for h in built.hexes:  # every reachable hex is inside the repainted rectangle
        assert built.rect.contains(QRectF(*w.scene.layout.center(h), 1, 1).topLeft())
    builds = ov.builds
    w.view.viewport().grab()  # a repaint reuses the built overlay
    assert ov.builds == builds
    ctl.clear_selection()
    assert ov.current().rect.isNull() and ov.builds == builds + 1


def _render(fn: Any, rect: QRectF, scale: float = 2.0) -> np.ndarray:
    img = QImage(int(rect.width() * scale), int(rect.height() * scale), QImage.Format.Format_RGB32)
    img.fill(QColor("white"))
    p = QPainter(img)
    p.setTransform(QTransform().scale(scale, scale).translate(-rect.left(), -rect.top()))
    fn(p)
    p.end()
    a = np.frombuffer(img.constBits(), dtype=np.uint8, count=img.sizeInBytes()).reshape(img.height(), -1, 4)
    return a[:, : img.width(), :3].astype(np.int16).copy()


def test_the_fast_painter_covers_what_the_reference_covered(qtbot: Any) -> None:
    """Same hexes, same pixels: the hex centres' colours agree and the painted (non-white) pixels
    differ only along edges (the reference blends a shared side twice and antialiases fills)."""
    w, m = playing(qtbot)
    ctl, layer = m.ctl, m.layer
    assert ctl is not None and layer is not None and w.scene is not None
    ctl.select([UNIT])
    ov = layer.move_overlay
    built = build(ctl, w.scene.layout)
    rect = built.rect
    fast = _render(lambda p: paint_built(p, built, rect, ov._font), rect)
    ref = _render(lambda p: paint_reference(p, ctl, w.scene.layout, rect, ov._font), rect)
    painted_fast, painted_ref = (fast < 250).any(axis=2), (ref < 250).any(axis=2)
    assert painted_ref.sum() > 10000
    disagree = (painted_fast != painted_ref).mean()
    assert disagree < 0.01, disagree
    big = (np.abs(fast - ref).max(axis=2) > 48).mean()
    assert big < 0.03, big  # edges: one blend instead of two, no antialiasing on fills
    for h in built.hexes:
        cx, cy = w.scene.layout.center(h)
        x, y = int((cx - rect.left()) * 2), int((cy - 8 - rect.top()) * 2)  # above the cost text
        assert np.abs(fast[y, x] - ref[y, x]).max() <= 2, (h, fast[y, x], ref[y, x])


def test_the_layer_repaints_only_the_stacks_a_selection_changes(qtbot: Any) -> None:
    """Selecting a unit changes how its stack is drawn (the yellow edge) and nothing else of the
    layer: PlayLayer.sync asks for that stack's rectangle, not the whole map; a LOS line (map-wide)
    repaints everything."""
    w, m = playing(qtbot)
    ctl, layer = m.ctl, m.layer
    assert ctl is not None and layer is not None
    layer.sync()
    asked: list[tuple[Any, ...]] = []
    orig = layer.update
    layer.update = lambda *a: (asked.append(a), orig(*a))  # type: ignore[method-assign]
    try:
        ctl.select([UNIT])
        h = ctl.game.unit(UNIT).hex
        assert asked and all(a for a in asked), asked  # rectangles only, never update() of everything
        assert [a[0] for a in asked] == [layer.stack_box(h)]
        asked.clear()
        ctl.check_los_line(ctl.game.hmap.parse("33.024"))
        if ctl.los_line is not None:
            assert () in asked  # the sight line is map-wide: the whole layer
    finally:
        del layer.update


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["flat", "pointy"]),
       st.lists(st.tuples(st.integers(-6, 6), st.integers(-6, 6)), min_size=1, max_size=40))
def test_hexside_lines_equal_the_reference_unique_edges(orientation: str, cells: list[tuple[int, int]]) -> None:
    """The fast side list (named by hex and direction) is the reference's (by rounded corner
    coordinates): the same segments, each once."""
    lay = Layout.for_orientation(orientation, 30.0)
    hexes = list(dict.fromkeys(Hex(q, r) for q, r in cells))

    def key(line: Any) -> tuple[tuple[float, float], ...]:
        return tuple(sorted(((round(line.x1(), 2), round(line.y1(), 2)), (round(line.x2(), 2), round(line.y2(), 2)))))

    fast = sorted(map(key, hexside_lines(lay, hexes)))
    ref = sorted(map(key, unique_edges([hex_polygon(lay, h) for h in hexes])))
    assert fast == ref and len(set(fast)) == len(fast)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["flat", "pointy"]),
       st.lists(st.tuples(st.integers(-4, 4), st.integers(-4, 4)), min_size=1, max_size=40),
       st.sampled_from([0.5, 1.0, 1.37, 2.0, 3.0]))
def test_the_outline_fill_paints_the_pixels_of_the_winding_fill(orientation: str, cells: list[tuple[int, int]],
                                                                  scale: float) -> None:
    """The fast fill (the union's boundary loops, odd-even) and the reference (every hexagon in
    one winding path) paint the very same pixels, translucent colour over white, at any zoom."""
    lay = Layout.for_orientation(orientation, 30.0)
    hexes = list(dict.fromkeys(Hex(q, r) for q, r in cells))
    fast, box = outline_path(lay, hexes)
    ref = winding_fill_path([hex_polygon(lay, h) for h in hexes])
    assert box == ref.boundingRect()
    rect = box.adjusted(-2, -2, 2, 2)
    a = _render(lambda p: p.fillPath(fast, REACH_FILL), rect, scale)
    b = _render(lambda p: p.fillPath(ref, REACH_FILL), rect, scale)
    assert (a != 255).any()
    assert np.array_equal(a, b)
