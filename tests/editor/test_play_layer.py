"""Play mode polish (issue 8): Barrage markers drawn on the map from the engine's state
[GTS 16.6.2] (the GTS plug-in's overlays) and removed when the engine removes them; the hover LOS (Show Fire Zone on) draws
the same line as Check LOS and is recomputed only when the hovered hex changes."""

from __future__ import annotations

import copy
from typing import Any

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QColor, QImage, QPainter

from conftest import REPO
from editor.main_window import MainWindow
from editor.play import PlayMode
from editor.play.layer import OVERLAY_STYLE, PlayLayer
from helpers import firer_at, mouse, no_modal_prompts, open_play, scene_point  # noqa: F401 (autouse fixture)
from model.hexes import Hex
from play.game import Game
from play.gts import barrage
from play.gts.params import BarrageParams

UTAH = REPO / "scenarios" / "utah-beach"
PLAYTEST = "night-drop-playtest"


def play(qtbot: Any, scenario: str, seed: int | None = None) -> tuple[MainWindow, PlayMode]:
    """Utah in Play mode with its play layer drawn, after the warm-up."""
    w, m = open_play(qtbot, UTAH, scenario, seed, wait_warm=True)
    assert m.layer is not None
    return w, m


def render_hex(w: MainWindow, h: Hex) -> QImage:
    """The scene (map and play layer) around ``h`` rendered to an image."""
    assert w.scene is not None
    box = QRectF(w.scene.layout.center(h)[0] - 30, w.scene.layout.center(h)[1] - 30, 60, 60)
    img = QImage(120, 120, QImage.Format.Format_ARGB32)
    img.fill(QColor("white"))
    p = QPainter(img)
    w.scene.render(p, QRectF(0, 0, 120, 120), box)
    p.end()
    return img


def markers(layer: PlayLayer) -> dict[Hex, str]:
    """The layer's overlays as {hex: kind} ("light barrage" …)."""
    return {h: o.kind for o in layer.overlays() for h in o.hexes}


def count_near(img: QImage, colour: QColor, tol: int = 40) -> int:
    n = 0
    for y in range(img.height()):
        for x in range(img.width()):
            c = img.pixelColor(x, y)
            if abs(c.red() - colour.red()) + abs(c.green() - colour.green()) + abs(c.blue() - colour.blue()) < tol:
                n += 1
    return n


def test_barrage_markers_follow_the_engine_state(qtbot: Any) -> None:
    """Ship fire in NSoP step 2 places a light Barrage [Excl 4.4.4, GTS 16.6.2.1]: the layer
    draws exactly the engine's markers; undo and Cleanup [GTS 4.0 I] take them off the map."""
    w, m = play(qtbot, "beach-landing", seed=4)
    ctl, layer = m.ctl, m.layer
    assert ctl is not None and layer is not None
    g = ctl.game
    assert markers(layer) == {}
    assert ctl.apply({"do": "next_phase", "to": "activation"}).ok  # chits are drawn in 4.0 H [GTS 10.0.1]
    before = render_hex(w, g.hmap.parse("23.024"))
    assert ctl.apply({"do": "draw_chit"}).ok
    assert ctl.apply({"do": "ship_fire", "ship": "dd-uts-1", "target": "wn-5"}).ok
    # The engine's answer, from an independent game of the same scenario and seed.
    ref = Game(ctl.bundle, "beach-landing", 4)
    ref.apply({"do": "next_phase", "to": "activation"})
    ref.apply({"do": "draw_chit"})
    ref.apply({"do": "ship_fire", "ship": "dd-uts-1", "target": "wn-5"})
    expected = {h: f"{barrage.at(ref, h)} barrage" for h in barrage.hexes(ref)}
    assert expected == {ref.hex_of("23.024"): "light barrage"}
    assert markers(layer) == expected
    [light_overlay] = layer.overlays()
    # Drawn: the light marker's orange hatching appears in that hex (and was not there before).
    light = OVERLAY_STYLE[light_overlay.style][0]
    after = render_hex(w, g.hmap.parse("23.024"))
    assert count_near(after, light) > count_near(before, light) + 30
    # Undo: the engine's state loses the marker, and so does the map.
    assert ctl.undo()
    assert barrage.hexes(g) == [] and markers(layer) == {}
    assert ctl.apply({"do": "ship_fire", "ship": "dd-uts-1", "target": "wn-5"}).ok
    assert markers(layer) == expected
    # A heavy marker replaces a light one [16.6.2.1]; drawn in the heavy style.
    h = g.hex_of("23.024")
    assert barrage.place(g, h, 6, 1, BarrageParams(), by="test") == "heavy"
    assert markers(layer) == {h: "heavy barrage"}
    [heavy_overlay] = layer.overlays()
    assert heavy_overlay.style != light_overlay.style
    heavy_img = render_hex(w, h)
    heavy = OVERLAY_STYLE[heavy_overlay.style][0]
    assert count_near(heavy_img, heavy) > count_near(after, heavy) + 30  # drawn unlike the light one
    assert light_overlay.label and heavy_overlay.label and light_overlay.label != heavy_overlay.label  # the badge says which
    # Cleanup removes every marker [GTS 4.0 I]: the engine's own cleanup, then the layer is empty.
    barrage.cleanup(g, BarrageParams(cleanup_rule="GTS 4.0 I"))
    assert markers(layer) == {}


def test_no_barrage_state_is_written_by_painting(qtbot: Any) -> None:
    """Painting a game without barrages does not create the engine's barrage state."""
    w, m = play(qtbot, PLAYTEST)
    assert m.ctl is not None and m.layer is not None
    g = m.ctl.game
    before = copy.deepcopy(g.state.system)
    render_hex(w, next(iter(g.hmap.hexes())))
    assert markers(m.layer) == {} or barrage.state(g)
    assert g.state.system == before


def test_hover_draws_the_check_los_line_and_recomputes_only_on_a_new_hex(qtbot: Any) -> None:
    w, m = play(qtbot, PLAYTEST)
    ctl, layer, tool = m.ctl, m.layer, m.tool
    assert ctl is not None and layer is not None and tool is not None and w.view is not None
    g = ctl.game
    uid = firer_at(m, "29.020")
    m.fire_zone_action.trigger()
    assert layer.hover_segments() == []
    # Hover with real mouse moves: two points inside 29.018, then 29.021.
    w.view.set_zoom(2.0)
    target = g.hmap.parse("29.018")
    w.view.center_on_hex(target)
    log_len = len(g.log)
    mouse(w.view, "move", scene_point(w.view, target, -3, -2))
    mouse(w.view, "move", scene_point(w.view, target, 3, 2))
    assert tool.hover_checks == 1  # the same hex: computed once
    # The same segments Check LOS draws for that target (the click path's own answer).
    hover = layer.hover_segments()
    chk = ctl.check_los_line(target)
    assert [b for _, b in hover] == [False, True]
    assert [(s.p1(), s.p2(), b) for s, b in hover] == [(s.p1(), s.p2(), b) for s, b in layer.los_segments(chk)]
    assert layer.los_blocker_point(tool.hover_line) == layer.los_blocker_point(chk)
    assert "29.019" in m.los_label.text() and "[Excl 2.1.6]" in m.los_label.text()
    ctl.los_line = None
    # A hover is a query: no log line, the unit stays.
    assert len(g.log) == log_len and g.unit(uid).hex == g.hmap.parse("29.020")
    near = g.hmap.parse("29.021")
    mouse(w.view, "move", scene_point(w.view, near))
    assert tool.hover_checks == 2
    assert [b for _, b in layer.hover_segments()] == [False] and "clear" in m.los_label.text()
    # The line is drawn: pixels of the clear (blue) colour between the two centres.
    a = QPointF(*layer.layout.center(g.hmap.parse("29.020")))
    b = QPointF(*layer.layout.center(near))
    assert w.scene is not None
    img = QImage(80, 80, QImage.Format.Format_ARGB32)
    img.fill(QColor("white"))
    p = QPainter(img)
    mid = (a + b) / 2
    w.scene.render(p, QRectF(0, 0, 80, 80), QRectF(mid.x() - 10, mid.y() - 10, 20, 20))
    p.end()
    from editor.play.layer import LOS_CLEAR
    assert count_near(img, LOS_CLEAR, 120) > 20
    # Fire Zone off: the hover line goes; a hover then computes nothing.
    m.fire_zone_action.trigger()
    assert layer.hover_segments() == []
    mouse(w.view, "move", scene_point(w.view, target))
    assert tool.hover_checks == 2 and layer.hover_line is None


def test_hover_line_is_recomputed_after_the_firer_moves(qtbot: Any) -> None:
    w, m = play(qtbot, PLAYTEST)
    ctl, layer, tool = m.ctl, m.layer, m.tool
    assert ctl is not None and layer is not None and tool is not None
    g = ctl.game
    uid = firer_at(m, "29.020")
    m.fire_zone_action.trigger()
    target = g.hmap.parse("29.018")
    m._hovered(target)
    m._hovered(target)
    assert tool.hover_checks == 1 and [b for _, b in layer.hover_segments()] == [False, True]
    # The firer is placed elsewhere: the old line is stale (not drawn) and the next hover of
    # the same hex recomputes from the new hex.
    assert ctl.apply({"do": "place", "unit": uid, "to": "29.019"}).ok
    ctl.select([uid])
    assert layer.hover_segments() == []
    m._hovered(target)
    assert tool.hover_checks == 2
    assert tool.hover_line is not None and tool.hover_line.firer == g.hmap.parse("29.019")
    assert layer.hover_segments() and layer.hover_segments()[0][0].p1() == QPointF(*layer.layout.center(g.hmap.parse("29.019")))


def test_every_overlay_style_has_a_drawing() -> None:
    """A plug-in picks an overlay's look from play.plugin_ui.OVERLAY_STYLES; the layer draws each."""
    from play.plugin_ui import OVERLAY_STYLES

    assert set(OVERLAY_STYLES) == set(OVERLAY_STYLE)
    assert len({(c.rgba(), p) for c, p, _w in OVERLAY_STYLE.values()}) == len(OVERLAY_STYLE)  # each its own look
