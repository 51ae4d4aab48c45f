"""Editor rendering benchmarks (offscreen Qt).

- open the default sample to first paint (in-process, QApplication already up);
- full repaint of a synthetic 100×70 map at fit zoom (cold tiles and warm tiles);
- pan/zoom frames on 100×70 and on a synthetic 700×700 map at several zooms;
- a brush stroke over 100 hexes, each followed by the redraw it causes.

Frames are timed as ``viewport().repaint()`` (a synchronous paint of the whole viewport).
"""

from __future__ import annotations

import os
import random
import statistics
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

REPO = Path(__file__).resolve().parents[1]


def _ms(seconds: float) -> float:
    return round(seconds * 1000.0, 2)


def synthetic(cols: int, rows: int, seed: int = 1) -> Any:
    """A MapDocument over a random-terrain map with some hexsides, roads and features."""
    from editor.document import MapDocument
    from editor.new_map import new_bundle
    from model.base import hexside_key
    from model.mapdata import Feature, MapPath

    system = "gts-utah" if (REPO / "resources" / "systems" / "gts-utah.yaml").exists() else \
        str(REPO / "tests" / "fixtures" / "bundles" / "mini" / "system.yaml")
    bundle, diags = new_bundle(Path("/tmp/hexproof-bench"), system, cols, rows, col_digits=3, row_digits=3)
    assert bundle is not None, diags
    hmap = bundle.default_map
    rng = random.Random(seed)
    terr = [t for t in bundle.system.terrain[:8]]
    hmap.terrain.legend = {t.char: t.id for t in terr}
    # Blobs of terrain rather than noise, like a real map.
    lines = []
    for y in range(rows):
        lines.append("".join(terr[((x // 7) * 31 + (y // 5) * 17 + rng.randrange(2)) % len(terr)].char
                             for x in range(cols)))
    hmap.terrain.rows = "\n".join(lines)
    hmap.invalidate()
    hexes = hmap.hexes()
    if bundle.system.hexsides:
        kind = bundle.system.hexsides[0].id
        hmap.hexsides = {kind: [hexside_key(h, rng.randrange(3)) for h in rng.sample(hexes, len(hexes) // 20)]}
    if bundle.system.paths:
        for _ in range(max(1, len(hexes) // 2000)):
            h = rng.choice(hexes)
            hmap.paths.append(MapPath(type=bundle.system.paths[0].id, hexes=h.line_to(h + type(h)(30, -10))))
    if bundle.system.features:
        for h in rng.sample(hexes, max(1, len(hexes) // 500)):
            hmap.features.append(Feature(type=bundle.system.features[0].id, hex=h, name="F"))
    hmap.invalidate()
    return MapDocument(bundle)


def _view(doc: Any, size: tuple[int, int] = (1200, 800)) -> Any:
    from editor.map_view.scene import MapScene
    from editor.map_view.view import MapView

    view = MapView(MapScene(doc))
    view.resize(*size)
    view.show()
    from PySide6.QtWidgets import QApplication

    QApplication.processEvents()  # let the window be exposed before timing paints
    return view


def _frame(app: Any, view: Any) -> float:
    t = time.perf_counter()
    view.viewport().repaint()
    return time.perf_counter() - t


def main(args: list[str]) -> dict[str, Any]:
    from editor.app import application, default_bundle
    from editor.main_window import MainWindow

    app = application()
    out: dict[str, Any] = {}

    # 1. Open the default sample to first paint.
    path, note = default_bundle()
    t0 = time.perf_counter()
    w = MainWindow(autosave_seconds=3600)
    w.open_path(path)
    w.show()
    assert w.view is not None
    w.view.fit()
    w.view.viewport().repaint()
    out["open_to_first_paint_ms"] = _ms(time.perf_counter() - t0)
    from editor.app import settle

    settle(w)
    out["open_to_all_tiles_ms"] = _ms(time.perf_counter() - t0)
    out["open_sample"] = str(path.relative_to(REPO))
    w.hide()

    # 2. Full repaint of 100×70 at fit zoom.
    doc = synthetic(100, 70)
    view = _view(doc)
    view.fit()
    app.processEvents()
    scene = view.map_scene
    scene.terrain._tiles.clear()
    out["fit_100x70_cold_first_frame_ms"] = _ms(_frame(app, view))
    t = time.perf_counter()
    while scene.terrain.pending:
        app.processEvents()
        view.viewport().repaint()
    out["fit_100x70_cold_all_tiles_ms"] = _ms(time.perf_counter() - t)
    warm = [_frame(app, view) for _ in range(20)]
    out["fit_100x70_warm_median_ms"] = _ms(statistics.median(warm))
    out["fit_100x70_warm_max_ms"] = _ms(max(warm))

    # 3. Pan/zoom frames.
    def pan_zoom(view: Any, zooms: list[float]) -> dict[str, Any]:
        res: dict[str, Any] = {}
        for z in zooms:
            view.fit() if z == 0 else view.set_zoom(z)
            view.centerOn(view.map_scene.sceneRect().center())
            _frame(app, view)  # first frame at this zoom (renders tiles)
            frames = []
            for i in range(20):
                view.pan(37 if i % 2 == 0 else -29, 23)
                frames.append(_frame(app, view))
            zf = []
            for i in range(10):
                view.set_zoom(view.zoom * (1.1 if i % 2 == 0 else 1 / 1.1))
                zf.append(_frame(app, view))
            label = "fit" if z == 0 else f"{z:g}"
            res[label] = {"pan_median_ms": _ms(statistics.median(frames)), "pan_max_ms": _ms(max(frames)),
                          "zoom_median_ms": _ms(statistics.median(zf)), "zoom_max_ms": _ms(max(zf))}
        return res

    out["frames_100x70"] = pan_zoom(view, [0, 0.25, 1.0, 2.0])
    view.hide()

    t = time.perf_counter()
    big = synthetic(700, 700, seed=2)
    out["build_700x700_s"] = round(time.perf_counter() - t, 2)
    bview = _view(big)
    out["frames_700x700"] = pan_zoom(bview, [0, 0.05, 0.25, 1.0, 2.0])
    bview.hide()

    # 4. Brush stroke over 100 hexes, each followed by the repaint it causes.
    from editor.commands import PaintTerrain

    view = _view(doc)
    view.zoom_100()
    lay = view.map_scene.layout
    centre = view.map_scene.sceneRect().center()
    start = lay.hex_at(centre.x(), centre.y())
    stroke = [start + type(start)(i % 10 - 5, i // 10 - 5) for i in range(100)]
    view.center_on_hex(start)
    _frame(app, view)
    terrain = doc.system.terrain[1].id
    terrain2 = doc.system.terrain[2].id

    def stroke_run(paint_terrain: str, full: bool) -> list[float]:
        per = []
        for h in stroke:
            t = time.perf_counter()
            doc.push(PaintTerrain(doc, {h: paint_terrain}, stroke=99 if not full else 98))
            if full:
                view.viewport().repaint()  # worst case: the whole viewport, labels and all
            else:
                app.processEvents()  # what the app does: paint only the dirty region
            per.append(time.perf_counter() - t)
        return per

    per = stroke_run(terrain, full=False)
    out["brush_100_hexes_total_ms"] = _ms(sum(per))
    out["brush_per_hex_median_ms"] = _ms(statistics.median(per))
    out["brush_per_hex_max_ms"] = _ms(max(per))
    full = stroke_run(terrain2, full=True)
    out["brush_per_hex_full_viewport_median_ms"] = _ms(statistics.median(full))
    out["brush_per_hex_full_viewport_max_ms"] = _ms(max(full))
    out["brush_undo_steps"] = doc.undo_stack.count()
    import json

    print(json.dumps(out, indent=2))
    return out
