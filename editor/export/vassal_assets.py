"""Images and setups for a VASSAL module: the map rendered by Hexproof, counter sides, and
each scenario's setup as hex label → counters. The module itself is built by model/formats/vassal.py."""

from __future__ import annotations

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QRectF
from PySide6.QtGui import QColor, QImage, QPainter

from editor.export.counter_art import counter_image
from editor.export.map_render import render_image, scene_for
from editor.qt_geometry import HEX_SIZE
from model.bundle import Bundle
from model.formats.vassal_grid import VHexGrid
from model.formats.vassal import COUNTER_PROPERTY, GridSpecV, ModuleSpec, PieceSpec, SetupSpec, counter_record, grid_for
from model.mapdata import HexMap

SWATCH_PX = 2  # side of the terrain swatch painted at each hex centre (policy vassal-terrain-swatch)


def paint_swatches(board: QImage, hmap: HexMap, colours: dict[str, str], grid: GridSpecV) -> None:
    """Policy ``vassal-terrain-swatch``: a SWATCH_PX square of the hex's terrain colour on the
    pixel VASSAL gives as the hex centre (HexGrid lattice, Java int casts), so the colour under
    every grid centre is the terrain's (a road, feature or label drawn over it would otherwise
    hide it) and import reads terrain back from exactly that pixel."""
    lattice = VHexGrid(grid.dx, grid.dy, grid.x0, grid.y0)
    c0 = 0 if hmap.grid.stagger == "odd" else -1
    p = QPainter(board)
    half = SWATCH_PX // 2
    for h in hmap.hexes():
        terrain = hmap.terrain_at(h)
        colour = colours.get(terrain) if terrain is not None else None
        if colour is None:
            continue
        x, y = hmap.spec.offset(h)
        cx, cy = lattice.raw_centre(x - c0, y)
        p.fillRect(cx - half, cy - half, SWATCH_PX, SWATCH_PX, QColor(colour))
    p.end()


BOARD_RASTER_SCALE = 0.5  # terrain raster at half the board's pixels: 3.9 s → 0.55 s on Utah (bench vassal)
BOARD_PNG_QUALITY = 50  # Qt's PNG quality (compression effort): 1.6 s → 0.8 s, 2.4 → 2.1 MB on Utah


def png_bytes(img: QImage, quality: int = -1) -> bytes:
    ba = QByteArray()
    buf = QBuffer(ba)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    img.save(buf, "PNG", quality)
    buf.close()
    return bytes(ba.data())


def module_spec(bundle: Bundle, hex_px: float = 32.0, counter_px: int = 60,
                map_id: str | None = None) -> tuple[ModuleSpec, list[str]]:
    """Everything the module needs; ``hex_px`` is the hex size (centre to corner) on the board."""
    notes: list[str] = []
    hmap = bundle.maps[map_id] if map_id else bundle.default_map
    if len(bundle.maps) > 1:
        notes.append(f"bundle has {len(bundle.maps)} maps; exported map {hmap.id} only")
    scene = scene_for(bundle, hmap.id)
    src: QRectF = scene.sceneRect()
    scale = hex_px / HEX_SIZE  # board pixels per scene unit
    # Flat terrain colours need fewer pixels than text: rasterised at half resolution under
    # full-resolution labels, hexsides and paths; the swatches keep every centre's colour exact.
    board = render_image(scene, src, scale, BOARD_RASTER_SCALE).convertToFormat(QImage.Format.Format_RGB32)
    # Map units (hex size 1) → board pixels: scene = map × HEX_SIZE, board = (scene − origin) × scale.
    origin = (src.x() / HEX_SIZE, src.y() / HEX_SIZE)
    grid = grid_for(hmap, hex_px, origin)
    # Side and category travel as VASSAL marker properties (import reads them back).
    pieces = [PieceSpec(c.id, c.name, png_bytes(counter_image(c, bundle.system, False, counter_px)),
                        png_bytes(counter_image(c, bundle.system, True, counter_px)) if c.back is not None else None,
                        counter_px, {"Side": c.side, "Category": c.category, COUNTER_PROPERTY: counter_record(c)})
              for c in bundle.counters]
    centres = {}
    for h in hmap.hexes():
        x, y = scene.layout.center(h)
        centres[hmap.label(h)] = ((x - src.x()) * scale, (y - src.y()) * scale)
    if not grid.sideways:
        paint_swatches(board, hmap, {t.id: t.color for t in bundle.system.terrain}, grid)
    setups: list[SetupSpec] = []
    known = {c.id for c in bundle.counters}
    for sid in bundle.scenario_ids():
        try:
            scen = bundle.resolved(sid)
        except (ValueError, KeyError) as exc:
            notes.append(f"scenario {sid}: cannot be resolved ({exc}); no setup exported")
            continue
        if bundle.map_for(scen).id != hmap.id:
            notes.append(f"scenario {sid}: uses map {bundle.map_for(scen).id}, not exported")
            continue
        placements: dict[str, list[str]] = {}
        for e in scen.setup:
            where = e.hex if e.hex is not None else e.adjacent_to
            if e.unit not in known:
                notes.append(f"scenario {sid}: unit {e.unit} is not in the counter manifest; not placed")
                continue
            if where is None:
                kind = next(k for k in ("area", "box", "location") if getattr(e, k) is not None)
                notes.append(f"scenario {sid}: unit {e.unit} sets up in {kind} {getattr(e, kind)}; "
                             "VASSAL setups hold board positions only, not placed")
                continue
            if e.adjacent_to is not None:
                notes.append(f"scenario {sid}: unit {e.unit} 'in or adjacent to' {hmap.label(where)}: placed in it")
            if e.alternatives:
                notes.append(f"scenario {sid}: unit {e.unit} alternatives "
                             f"{', '.join(hmap.label(h) for h in e.alternatives)} dropped; placed in the first hex")
            placements.setdefault(hmap.label(where), []).append(e.unit)
        if scen.schedule:
            notes.append(f"scenario {sid}: {len(scen.schedule)} schedule entries (reinforcements, withdrawals, "
                         "events) are not part of a VASSAL setup")
        setups.append(SetupSpec(sid, scen.name, scen.description or scen.name, placements))
    spec = ModuleSpec(name=bundle.game.name, version="1.0", description=bundle.game.provenance or bundle.game.name,
                      board_name=hmap.id, board_png=png_bytes(board, BOARD_PNG_QUALITY), width=board.width(), height=board.height(),
                      grid=grid, pieces=pieces, setups=setups, hex_centres=centres)
    return spec, notes
