"""VASSAL modules (.vmod) through pywargame: build one from Hexproof data, read one back.

Pure data work, no Qt: images arrive and leave as PNG bytes (the editor renders them).
pywargame is an optional dependency ([test] extra); :func:`pywargame_vassal` says how to
install it when it is missing.

pywargame 0.8 needs Python 3.12 for three of its modules; :mod:`model.formats.pywargame_hook`
makes it importable on 3.11.

Grid policy (``vassal-numbering``): VASSAL numbers a hex grid from one origin with one
column/row offset, ascending or descending, optional separator and leading zeros. A
Hexproof sheet whose label scheme is exactly that (one sheet, no prefix) is carried over
so VASSAL shows the printed labels; anything else (several sheets, sheet-letter prefixes)
gets the grid without numbering and a note saying so — never a numbering that prints
different labels from the map.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

from model.counters import Counter
from model.hexes import Hex
from model.layout import Layout
from model.mapdata import HexMap
from model.formats.pywargame_hook import INSTALL_HINT, MissingPywargame, pywargame_vassal  # noqa: F401 (re-exported)
from model.formats.vassal_grid import GRID_LOCATION, VHexGrid, VNumbering, VZoneGrid
from model.formats.vassal_archive import (DEFAULT_LIMITS, Limits, VmodArchive, VmodError, check_image, image_info,
                                  parse_xml, save_lines)
from model.formats.vassal_save import SavedPiece, picked_boards, saved_pieces, unescape

# --- what goes into a module ----------------------------------------------------------------


@dataclass
class PieceSpec:
    id: str
    name: str
    front_png: bytes
    back_png: bytes | None
    size: int
    properties: dict[str, str] = field(default_factory=dict)  # VASSAL marker properties (Side, …)


@dataclass
class ZoneSpec:
    """One sheet as a VASSAL Zone: its rectangle on the board, its own numbering and the
    ``locationFormat`` that carries the sheet's label prefix."""

    name: str  # the sheet id
    bounds: tuple[int, int, int, int]  # x, y, width, height in board pixels
    numbering: VNumbering
    location_format: str = GRID_LOCATION

    def path(self) -> str:
        x, y, w, h = self.bounds
        return f"{x},{y};{x + w},{y};{x + w},{y + h};{x},{y + h}"

    def vassal(self, grid: "GridSpecV") -> VZoneGrid:
        return VZoneGrid(VHexGrid(grid.dx, grid.dy, grid.x0, grid.y0), self.numbering, self.bounds,
                         self.location_format)


@dataclass
class GridSpecV:
    """A VASSAL HexGrid lattice in board pixels, one zone (with its numbering) per sheet."""

    sideways: bool  # pointy-top
    dx: float
    dy: float
    x0: int
    y0: int
    zones: list[ZoneSpec] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def numbering(self) -> dict[str, Any] | None:
        """The first zone's numbering attributes (single-sheet maps: the map's numbering)."""
        return self.zones[0].numbering.attributes() if self.zones else None


@dataclass
class SetupSpec:
    id: str
    name: str
    description: str
    placements: dict[str, list[str]]  # printed hex label → piece ids (bottom first)


@dataclass
class ModuleSpec:
    name: str
    version: str
    description: str
    board_name: str
    board_png: bytes
    width: int
    height: int
    grid: GridSpecV
    pieces: list[PieceSpec]
    setups: list[SetupSpec]
    hex_centres: dict[str, tuple[float, float]] = field(default_factory=dict)  # label → board pixel


SWATCHED_SHARE = 0.5  # share of exact terrain colours that marks a board as carrying swatches
ZONE_MARGIN = 0.45  # zone edge beyond the outermost hex centres, in centre spacings


def grid_for(hmap: HexMap, px_per_unit: float, origin: tuple[float, float]) -> GridSpecV:
    """VASSAL grid for ``hmap`` rendered at ``px_per_unit`` pixels per hex size, with the
    map-unit point ``origin`` at board pixel (0, 0).

    Policy ``vassal-sheet-zones``: every sheet is a Zone of the one board, with its own
    HexGridNumbering and its prefix in the zone's ``locationFormat`` (``N$gridLocation$``).
    One board per sheet cannot hold The Killing Ground's layout (sheet N above W and E):
    VASSAL places a board at the summed widths of the boards left of it in its row and the
    summed heights of the boards above it in its column (Map.getLocation), so E (column 1,
    row 1) would land at the top of the map. The lattice origin is Hexproof offset (0, 0)
    (a phantom column to its left for even stagger: VASSAL shifts odd columns), so import
    recovers every sheet's offsets from its zone.
    """
    lay = Layout.for_orientation(hmap.grid.orientation)
    spec = hmap.spec
    flat = hmap.grid.orientation == "flat"
    notes: list[str] = []
    c0 = 0 if hmap.grid.stagger == "odd" else -1
    ox, oy = lay.center(spec.hex_at_offset(c0, 0) if flat else spec.hex_at_offset(0, c0))
    x0 = int(round((ox - origin[0]) * px_per_unit))
    y0 = int(round((oy - origin[1]) * px_per_unit))
    across = math.sqrt(3.0) * px_per_unit  # centre spacing across flats
    along = 1.5 * px_per_unit  # centre spacing between staggered columns (rows)
    # pywargame: "dx … dy: meaning seems reversed" — for a flat-top (not sideways) VASSAL
    # grid dy is the spacing within a column and dx the spacing between columns.
    dx, dy = along, across
    zones: list[ZoneSpec] = []
    if not flat:
        notes.append("pointy-top (sideways) grid: exported without numbering; Hexproof's port of VASSAL's "
                     "numbering covers flat-top grids only (policy vassal-numbering)")
        return GridSpecV(sideways=True, dx=dx, dy=dy, x0=x0, y0=y0, zones=[], notes=notes)
    lattice = VHexGrid(dx, dy, x0, y0)
    for s in spec.sheets:
        lab = s.labels
        c_first, c_last = s.x0 - c0, s.x0 + s.cols - 1 - c0
        left = x0 + c_first * dx - ZONE_MARGIN * dx
        right = x0 + c_last * dx + ZONE_MARGIN * dx
        shifted = any(c % 2 for c in range(c_first, c_last + 1))
        unshifted = any(c % 2 == 0 for c in range(c_first, c_last + 1))
        top = y0 + s.y0 * dy + (0 if unshifted else dy / 2) - ZONE_MARGIN * dy
        bottom = y0 + (s.y0 + s.rows - 1) * dy + (dy / 2 if shifted else 0) + ZONE_MARGIN * dy
        bounds = (math.floor(left), math.floor(top), math.ceil(right) - math.floor(left),
                  math.ceil(bottom) - math.floor(top))
        base = VNumbering(first="H" if lab.axis_order == "col_row" else "V", sep=lab.separator,
                          h_leading=max(0, lab.col_digits - 1), v_leading=max(0, lab.row_digits - 1),
                          h_descend=lab.col_step < 0, v_descend=lab.row_step < 0)
        probe = VZoneGrid(lattice, base, bounds)
        # Offsets solved through the port of VASSAL's own formulas at the sheet's first hex.
        px, py = lattice.raw_centre(c_first, s.y0)
        col, row = s.printed(s.x0, s.y0)
        numbering = VNumbering(**{**base.__dict__, "h_off": col - probe.column(px, py),
                                  "v_off": row - probe.row(px, py)})
        zones.append(ZoneSpec(s.id, bounds, numbering, f"{lab.prefix}{GRID_LOCATION}"))
    return GridSpecV(sideways=False, dx=dx, dy=dy, x0=x0, y0=y0, zones=zones, notes=notes)


COUNTER_PROPERTY = "HexproofCounter"  # marker property holding the whole counter record


def counter_record(counter: Counter) -> str:
    """The counter as JSON, percent-encoded so VASSAL's trait (';'), command ('/', tab) and
    list (',') delimiters never occur in it: a VASSAL static property import reads back
    whole (printed values of both sides, organisation, notes), policy ``vassal-counter-record``."""
    import json
    from urllib.parse import quote

    data = counter.model_dump(mode="json", exclude_defaults=True)
    return quote(json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True), safe=" :{}\"[]-_.")


def counter_from_record(text: str) -> dict[str, Any]:
    """Inverse of :func:`counter_record`; ValueError when the text is not a record."""
    import json
    from urllib.parse import unquote

    data = json.loads(unquote(text))
    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    return data


def _slot_traits(vassal: ModuleType, piece: PieceSpec, gpid: int) -> list[Any]:
    front = f"{piece.id}-front.png"
    traits: list[Any] = [vassal.MarkTrait(name=k, value=v) for k, v in piece.properties.items()]
    if piece.back_png is not None:
        # Two-sided piece: one layer with the front and back images, flipped with Ctrl-F.
        traits.append(vassal.LayerTrait(images=[front, f"{piece.id}-back.png"], newNames=["", "+ flipped"],
                                        activateName="", decreaseName="", increaseName="Flip",
                                        increaseKey=vassal.key("F"), decreaseKey="", name="Side"))
    traits.append(vassal.BasicTrait(name=_escape(piece.name), filename=front, gpid=gpid))
    return traits


def _escape(text: str) -> str:
    """VASSAL's command encoder escapes its '/' delimiter with a backslash; pywargame does
    not, and its own decoder then splits a name like "1/502" apart."""
    return text.replace("\\", "\\\\").replace("/", "\\/")


def build_vmod(spec: ModuleSpec, out: str | Path) -> list[str]:
    """Write the module; returns notes on what could not be carried over."""
    vassal = pywargame_vassal()
    out = Path(out)
    notes = list(spec.grid.notes)
    build = vassal.BuildFile()
    game = build.addGame(name=spec.name, version=spec.version, description=spec.description)
    game.addBasicCommandEncoder()
    game.addPrototypes()  # pywargame flattens piece traits through the (empty) prototype list
    # Pieces: one list per module in a piece window, each slot a counter with its sides.
    window = game.addPieceWindow(name="Counters", hotkey=vassal.key("C", vassal.ALT), text="Counters")
    panel = window.addPanel(entryName="Counters", fixed=False)
    plist = panel.addList(entryName="All counters", width=300, height=300, divider=150)
    slots: dict[str, Any] = {}
    for p in spec.pieces:
        gpid = game.nextPieceSlotId()
        slots[p.id] = plist.addPieceSlot(entryName=p.id, gpid=gpid, traits=_slot_traits(vassal, p, gpid),
                                         width=p.size, height=p.size)
    vmap = game.addMap(mapName=spec.board_name)
    vmap.addCounterDetailViewer()
    vmap.addStackMetrics()
    vmap.addPieceMover()
    vmap.addZoomer()
    picker = vmap.addBoardPicker()
    board = picker.addBoard(name=spec.board_name, image=f"{spec.board_name}.png", width=spec.width,
                            height=spec.height)
    g = spec.grid
    # The grid sits in a zone covering the whole board, as pywargame's own exporters build it
    # (pywargame resolves hex labels to positions only through a zone).
    zoned = board.addZonedGrid()
    for z in g.zones:
        zone = zoned.addZone(name=z.name, useParentGrid=False, path=z.path(), locationFormat=z.location_format)
        grid = zone.addHexGrid(dx=g.dx, dy=g.dy, x0=g.x0, y0=g.y0, sideways=g.sideways, visible=False, snapTo=True)
        grid.addNumbering(**z.numbering.attributes())
    if not g.zones:
        zone = zoned.addZone(name="Full", useParentGrid=False,
                             path=f"0,0;{spec.width},0;{spec.width},{spec.height};0,{spec.height}")
        zone.addHexGrid(dx=g.dx, dy=g.dy, x0=g.x0, y0=g.y0, sideways=g.sideways, visible=False, snapTo=True)
    # The picker's default setup selects the board, and every saved setup repeats it
    # (VASSAL BoardPicker.decode: "<mapName>BoardPicker\t<board>\t<column>\t<row>").
    picker.addSetup(mapName=spec.board_name, boardNames=[spec.board_name])
    menu = game.addPredefinedSetup(name="Scenarios", isMenu=True)
    with vassal.VMod(str(out), "w") as vmod:
        vmod.addFile(f"images/{spec.board_name}.png", spec.board_png)
        for p in spec.pieces:
            vmod.addFile(f"images/{p.id}-front.png", p.front_png)
            if p.back_png is not None:
                vmod.addFile(f"images/{p.id}-back.png", p.back_png)
        for s in spec.setups:
            vsav = vassal.VSav(build, vmod)
            save = vsav.addSaveFile()
            mapping: dict[tuple[int, int], list[Any]] = {}
            for label, ids in s.placements.items():
                xy = spec.hex_centres.get(label)
                if xy is None:
                    notes.append(f"setup {s.id}: hex {label} has no board position; skipped")
                    continue
                mapping[(int(round(xy[0])), int(round(xy[1])))] = [slots[i] for i in ids if i in slots]
            # Positions are Hexproof's own hex centres in board pixels (not VASSAL's
            # numbering), so the setup is right even where the numbering could not be.
            save.addNoGrid(spec.board_name, mapping)
            # Legacy "!VCS" encoding: pywargame 0.8 writes "VOBS" saves it cannot read back
            # (its reader checks a 5- then 6-byte header against the 4-byte "VOBS"); VASSAL
            # reads both.
            vsav.run(savename=f"{s.id}.vsav", description=s.description, vobs=False)
            menu.addPredefinedSetup(name=s.name, useFile=True, file=f"{s.id}.vsav", description=s.description)
        data = vassal.ModuleData()
        d = data.addData()
        d.addVersion(version=spec.version)
        d.addVASSALVersion(version="3.6.7")
        d.addName(name=spec.name)
        d.addDescription(description=spec.description)
        d.addDateSaved()
        vmod.addFiles(**{vassal.VMod.BUILD_FILE: build.encode(), vassal.VMod.MODULE_DATA: data.encode()})
    return notes


# --- reading a module back ------------------------------------------------------------------


@dataclass
class BoardInfo:
    name: str
    image: str
    image_bytes: bytes | None
    width: int | None
    height: int | None
    grid_kind: str | None  # "hex", "square", "region", None
    grid: dict[str, str] = field(default_factory=dict)
    numbering: dict[str, str] = field(default_factory=dict)
    zones: list["ZoneInfo"] = field(default_factory=list)  # zones with a hex grid of their own


@dataclass
class ZoneInfo:
    """A Zone as the buildFile states it (attribute text, not yet checked)."""

    name: str
    path: str
    location_format: str
    grid: dict[str, str]
    numbering: dict[str, str]


@dataclass
class PieceInfo:
    name: str
    gpid: str
    images: list[str]  # front first
    image_bytes: dict[str, bytes]
    traits: list[str]  # trait ids, for the report of what was not mapped
    properties: dict[str, str] = field(default_factory=dict)  # mark (static property) traits
    entry: str = ""  # the PieceSlot's entryName (Hexproof's exports: the counter id)


@dataclass
class SetupInfo:
    name: str
    file: str | None
    placements: list[tuple[str, float, float]] = field(default_factory=list)  # (piece name, x, y)
    gpids: list[str] = field(default_factory=list)  # the placed pieces' slot ids, in placement order
    boards: list[str] = field(default_factory=list)  # boards the setup's BoardPicker command selects


@dataclass
class ModuleInfo:
    name: str
    version: str
    description: str
    boards: list[BoardInfo]
    pieces: list[PieceInfo]
    setups: list[SetupInfo]
    unmapped: list[str]  # everything read but not representable: reported, never dropped silently


KNOWN_TRAITS = {"piece", "emb2"}  # BasicPiece and Layer: what import maps to a counter's sides
MAPPED_PROPERTIES = {"Side": "side", "Category": "category", COUNTER_PROPERTY: "the whole counter"}  # mark traits export writes and import reads


def read_vmod(path: str | Path, limits: Limits = DEFAULT_LIMITS) -> ModuleInfo:
    """Read a module someone else made. Every member goes through :class:`VmodArchive` (caps on
    entries and sizes, checked from the directory and while decompressing; unsafe entry names
    refused), the buildFile through :func:`parse_xml` (no entities, depth/element/piece caps),
    images through :func:`check_image` (pixel cap from the header). Anything refused or damaged
    is a :class:`VmodError` naming the member; pywargame only sees a DOM that passed."""
    vassal = pywargame_vassal()
    with VmodArchive(path, limits) as archive:
        member = next((m for m in ("buildFile.xml", "buildFile") if m in archive), None)
        if member is None:
            raise VmodError("no buildFile.xml (or buildFile) in the archive: not a VASSAL module", archive.label)
        dom = parse_xml(archive.read(member, limits.max_buildfile_bytes), member, limits,
                        count_tag_suffix="PieceSlot", max_counted=limits.max_pieces)
        try:
            build = vassal.BuildFile(dom)
            game = build.getGame()
        except Exception:  # pywargame raises IndexError when neither root element is there
            raise VmodError("no VASSAL.build.GameModule element: not a VASSAL module", member) from None
        try:
            info = _read_game(game, archive, limits)
        except VmodError:
            raise
        except Exception as exc:  # pywargame's own parsing of a hostile document
            raise VmodError(f"cannot be read as a VASSAL module ({type(exc).__name__}: {exc})", member) from None
        placed = 0
        for s in info.setups:
            if not s.file:
                continue
            if s.file not in archive:
                info.unmapped.append(f"setup {s.name!r}: its file {s.file!r} is not in the module")
                continue
            lines = save_lines(archive, s.file)
            pieces = [p for p in saved_pieces(lines) if p.placed]
            s.placements = _placements(pieces)
            s.gpids = [p.gpid for p in pieces]
            s.boards = [b for boards in picked_boards(lines).values() for b in boards]
            placed += len(s.placements)
            if placed > limits.max_placements:
                raise VmodError(f"the predefined setups place more than {limits.max_placements:,} pieces; refused",
                                s.file)
    return info


def _read_game(game: Any, archive: VmodArchive, limits: Limits) -> ModuleInfo:
    cache: dict[str, bytes | None] = {}

    def image(name: str) -> bytes | None:
        key = f"images/{name}"
        if key not in cache:
            cache[key] = (archive.read(key, head_check=lambda head: check_image(head, key, limits))
                          if key in archive else None)
        return cache[key]

    unmapped: list[str] = []
    boards: list[BoardInfo] = []
    for b in game.getBoards(asdict=False):
        hexes = list(b.getHexGrids(single=False))
        zones: list[ZoneInfo] = []
        for zoned in b.getZonedGrids(single=False):
            for zone in zoned.getZones(asdict=False):
                zone_grids = zone.getHexGrids(single=False)
                hexes.extend(zone_grids)
                if zone_grids:
                    zn = zone_grids[0].getNumbering()
                    zones.append(ZoneInfo(str(zone["name"] or ""), str(zone["path"] or ""),
                                          str(zone["locationFormat"] or GRID_LOCATION),
                                          dict(zone_grids[0].getAttributes().items()),
                                          dict(zn[0].getAttributes().items()) if zn else {}))
        kind: str | None = None
        attrs: dict[str, str] = {}
        numbering: dict[str, str] = {}
        if hexes:
            kind = "hex"
            attrs = dict(hexes[0].getAttributes().items())
            nums = hexes[0].getNumbering()
            numbering = dict(nums[0].getAttributes().items()) if nums else {}
        elif b.getSquareGrids(single=False):
            kind = "square"
        elif b.getRegionGrids(single=False):
            kind = "region"
        img = str(b["image"] or "")
        boards.append(BoardInfo(str(b["name"] or ""), img, None, _int(b["width"]), _int(b["height"]), kind,
                                attrs, numbering, zones))
    # Only the board that becomes the map has its image read (the others are only named).
    chosen = next((b for b in boards if b.grid_kind == "hex"), boards[0] if boards else None)
    if chosen is not None and chosen.image:
        chosen.image_bytes = image(chosen.image)
    pieces: list[PieceInfo] = []
    for slot in game.getPieces(asdict=False):
        traits = slot.getTraits()
        ids = [t.ID for t in traits]
        basic = next((t for t in traits if t.ID == "piece"), None)
        layer = next((t for t in traits if t.ID == "emb2"), None)
        imgs: list[str] = []
        if layer is not None:
            imgs = [i for i in str(layer["images"]).split(",") if i]
        elif basic is not None and basic["filename"]:
            imgs = [str(basic["filename"])]
        name = (basic["name"] if basic is not None and basic["name"] else slot["entryName"]) or slot["gpid"]
        name = unescape(str(name))
        props: dict[str, str] = {}
        for t in traits:
            if t.ID == "mark":
                try:
                    props[str(t["name"])] = str(t["value"])
                except (ValueError, IndexError, TypeError):
                    continue
        piece = PieceInfo(name, str(slot["gpid"]), imgs,
                          {i: b for i in imgs[:2] if (b := image(i)) is not None}, ids, props,
                          str(slot["entryName"] or ""))
        pieces.append(piece)
        extra = sorted(set(ids) - KNOWN_TRAITS - {"mark"})
        if extra:
            unmapped.append(f"piece {name}: traits {', '.join(extra)} have no Hexproof counterpart")
        other = sorted(k for k in props if k not in MAPPED_PROPERTIES)
        if other:
            unmapped.append(f"piece {name}: mark properties {', '.join(other)} have no Hexproof counterpart")
    setups: list[SetupInfo] = []
    seen: set[tuple[str, str]] = set()
    for ps in _all_setups(game.getPredefinedSetups(asdict=False)):
        if ps["isMenu"] == "true" or (ps["name"], ps["file"]) in seen:
            continue
        seen.add((ps["name"], ps["file"]))
        setups.append(SetupInfo(str(ps["name"] or ""), str(ps["file"]) if ps["useFile"] == "true" and ps["file"]
                                else None))
    return ModuleInfo(str(game["name"] or ""), str(game["version"] or ""), str(game["description"] or ""),
                      boards, pieces, setups, unmapped)


def read_vsav_placements(vmod_path: str | Path, save_name: str,
                         limits: Limits = DEFAULT_LIMITS) -> list[tuple[str, float, float]]:
    """(piece name, x, y) of every piece placed by a predefined setup inside the module."""
    with VmodArchive(vmod_path, limits) as archive:
        if save_name not in archive:
            return []
        return _placements(saved_pieces(save_lines(archive, save_name)))


def _placements(pieces: list[SavedPiece]) -> list[tuple[str, float, float]]:
    """(piece name, x, y) of each piece a save places on a readable position (the pieces from
    :func:`model.formats.vassal_save.saved_pieces`, the parser the checker reads saves with too)."""
    return [(p.name, p.x, p.y) for p in pieces if p.x is not None and p.y is not None]


def _all_setups(items: list[Any]) -> list[Any]:
    """Predefined setups, menus flattened (a menu holds its setups as children)."""
    out: list[Any] = []
    for ps in items:
        out.append(ps)
        if hasattr(ps, "getPredefinedSetups"):
            out.extend(_all_setups(ps.getPredefinedSetups(asdict=False)))
    return out


def _int(v: Any) -> int | None:
    try:
        return int(float(v))
    except (TypeError, ValueError):
        return None


def hex_at_board_pixel(hmap: HexMap, px_per_unit: float, origin: tuple[float, float], x: float, y: float) -> Hex:
    lay = Layout.for_orientation(hmap.grid.orientation)
    return lay.hex_at(x / px_per_unit + origin[0], y / px_per_unit + origin[1])


# --- starting a bundle from a module ---------------------------------------------------------


class _Literal(str):
    pass


def _dump_literal_rows(doc: dict[str, Any]) -> str:
    """YAML with the terrain rows as a literal block (one line per row, diffable)."""
    import yaml

    class Dumper(yaml.SafeDumper):
        pass

    Dumper.add_representer(_Literal, lambda d, v: d.represent_scalar("tag:yaml.org,2002:str", v, style="|"))
    doc = dict(doc)
    doc["terrain"] = dict(doc["terrain"], rows=_Literal(doc["terrain"]["rows"]))
    return yaml.dump(doc, Dumper=Dumper, sort_keys=False, allow_unicode=True, width=120)


def png_size(data: bytes) -> tuple[int, int] | None:
    """Width and height from a PNG header (no image library needed)."""
    if len(data) >= 24 and data[:8] == b"\x89PNG\r\n\x1a\n":
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    return None


_RESERVED = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)), *(f"lpt{i}" for i in range(10))}


class _Ids:
    """File-safe unique ids: ``[0-9a-z_-]``, at most 48 characters, never a Windows device name;
    a repeated base gets ``-2``, ``-3``, … in constant time (200 000 pieces all named "x" once
    took minutes here)."""

    def __init__(self) -> None:
        self.taken: set[str] = set()
        self._next: dict[str, int] = {}

    def __call__(self, text: str, default: str = "piece") -> str:
        import re

        base = re.sub(r"[^0-9a-z_]+", "-", text.lower()[:200]).strip("-_")[:48].strip("-_") or default
        if base in _RESERVED:
            base = f"{base}-x"
        out = base
        if out in self.taken:
            n = self._next.get(base, 2)
            while f"{base}-{n}" in self.taken:
                n += 1
            out = f"{base}-{n}"
            self._next[base] = n + 1
        self.taken.add(out)
        return out


@dataclass
class ImportResult:
    files: dict[str, str | bytes]  # bundle-relative path → text or bytes
    notes: list[str]  # everything that could not be mapped


MIN_HEX_PX = 4.0          # smallest hex spacing accepted from a module's grid, pixels
MAX_IMPORT_SIDE = 1000    # columns or rows of the imported map
MAX_LEADING = 9           # leading zeros of a VASSAL numbering (Hexproof labels have up to 4 digits)
MAX_ZONES = 100           # numbered zones (sheets) on the imported board


def _grid_number(g: dict[str, str], key: str, where: str) -> float:
    """A number from the buildFile; ``where`` names the element ("board 'utah' zone 'N'")."""
    text = g.get(key, "0") or "0"
    try:
        value = float(text)
    except ValueError:
        raise VmodError(f"{where}: hex grid {key}={text[:40]!r} is not a number", "buildFile.xml") from None
    if not math.isfinite(value) or abs(value) > 1e7:
        raise VmodError(f"{where}: hex grid {key}={text[:40]!r} is out of range", "buildFile.xml")
    return value


def _dump(doc: Any, **kw: Any) -> str:
    """``yaml.safe_dump`` through libyaml when present (20 000 counters: 20 s → 2 s)."""
    import yaml

    return yaml.dump(doc, Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper), **kw)


def _legacy_map(board: BoardInfo, size: tuple[int | None, int | None], map_id: str,
                notes: list[str]) -> tuple[dict[str, Any], Any, str, Callable[[int, int], tuple[float, float]]]:
    """A board without zoned numbering (another tool's module): the grid from the board's size
    and spacings, labels from the board-wide numbering."""
    width, height = size[0] or 0, size[1] or 0
    g = board.grid
    sideways = g.get("sideways") == "true"
    if board.grid_kind != "hex":
        notes.append(f"board {board.name!r} has a {board.grid_kind or 'missing'} grid, not a hex grid: "
                     "a default hex grid was laid over the image (calibrate it in the editor)")
    dx = _grid_number(g, "dx", f"board {board.name!r}") or 48.0
    dy = _grid_number(g, "dy", f"board {board.name!r}") or 55.4256
    x0, y0 = _grid_number(g, "x0", f"board {board.name!r}"), _grid_number(g, "y0", f"board {board.name!r}")
    if dx < MIN_HEX_PX or dy < MIN_HEX_PX:
        raise VmodError(f"board {board.name!r}: hex grid spacing dx={dx:g}, dy={dy:g} pixels; the smallest "
                        f"accepted is {MIN_HEX_PX} (refused)", "buildFile.xml")
    # Columns (flat-top) are dx apart, hexes in a column dy apart; sideways swaps the axes.
    if sideways:
        cols = max(1, int((width - x0) // dy) + 1) if width else 10
        rows = max(1, int((height - y0) // dx) + 1) if height else 10
    else:
        cols = max(1, int((width - x0) // dx) + 1) if width else 10
        rows = max(1, int((height - y0) // dy) + 1) if height else 10
    if cols > MAX_IMPORT_SIDE or rows > MAX_IMPORT_SIDE:
        raise VmodError(f"board {board.name!r}: the grid would be {cols:,}×{rows:,} hexes; the limit is "
                        f"{MAX_IMPORT_SIDE:,} a side (refused)", "buildFile.xml")
    n = board.numbering
    labels: dict[str, Any] = {"first_col": 0, "first_row": 0, "col_digits": 2, "row_digits": 2}
    if n:
        if n.get("hType", "N") != "N" or n.get("vType", "N") != "N":
            notes.append("alphabetic VASSAL numbering has no Hexproof label scheme: numeric labels used instead")
        if n.get("hDescend") == "true" or n.get("vDescend") == "true":
            notes.append("descending VASSAL numbering: imported ascending; check the printed labels")
        if n.get("stagger") == "true":
            notes.append("staggered VASSAL row numbering has no Hexproof label scheme: offset rows used instead")
        labels = {"first_col": int(n.get("hOff", 0) or 0), "first_row": int(n.get("vOff", 0) or 0),
                  "col_digits": min(4, int(n.get("hLeading", 1) or 0) + 1),
                  "row_digits": min(4, int(n.get("vLeading", 1) or 0) + 1),
                  "separator": n.get("sep", ""),
                  "axis_order": "col_row" if n.get("first", "H") == "H" else "row_col"}
        # VASSAL pads to leading+1 digits and prints wider numbers whole, as Hexproof does.
    else:
        notes.append("the hex grid has no numbering: labels count from 00 (check against the printed map)")
    orientation = "pointy" if sideways else "flat"
    from model.labels import GridModel

    grid_model = GridModel.model_validate({"orientation": orientation, "stagger": "odd",
                                           "sheets": [{"id": "main", "cols": cols, "rows": rows, "labels": labels}]})
    spec = grid_model.spec()

    def pixel(x: int, y: int) -> tuple[float, float]:
        if sideways:
            return x0 + x * dy + (dy / 2 if y % 2 else 0.0), y0 + y * dx
        return x0 + x * dx, y0 + y * dy + (dy / 2 if x % 2 else 0.0)

    map_doc: dict[str, Any] = {
        "schema_version": 1, "id": map_id, "name": board.name or map_id,
        "grid": {"orientation": orientation, "stagger": "odd",
                 "sheets": [{"id": "main", "name": board.name, "cols": cols, "rows": rows, "labels": labels}]},
        "terrain": {"legend": {"?": "untraced"}, "rows": "\n".join("?" * cols for _ in range(rows))},
        "provenance": f"Imported from VASSAL board {board.name!r}: grid and background only; "
                      "terrain is untraced (VASSAL holds no terrain).",
    }
    lay = Layout.for_orientation(orientation)
    # Board pixels → map units, from two opposite corners (scale and shift).
    (ax, ay), (bx, by) = pixel(0, 0), pixel(cols - 1, rows - 1)
    (ua, va), (ub, vb) = lay.center(spec.hex_at_offset(0, 0)), lay.center(spec.hex_at_offset(cols - 1, rows - 1))
    sx = (ub - ua) / (bx - ax) if bx != ax else 1.0
    sy = (vb - va) / (by - ay) if by != ay else 1.0

    def locate(x: float, y: float) -> tuple[int, int]:
        return spec.offset(lay.hex_at(ua + (x - ax) * sx, va + (y - ay) * sy))

    return map_doc, spec, orientation, pixel, locate


def _counter_doc(p: PieceInfo, ids: "_Ids", notes: list[str]) -> dict[str, Any]:
    """A counter from a piece: the whole record when the piece carries Hexproof's
    ``HexproofCounter`` property (its id is kept), else name, side and category only; the id is
    the slot's entryName when it is a usable id, else made from the name."""
    record = p.properties.get(COUNTER_PROPERTY)
    if record is not None:
        try:
            data = counter_from_record(record)
            Counter.model_validate(data)
        except ValueError as exc:
            notes.append(f"piece {p.name}: property {COUNTER_PROPERTY} is not a counter record ({str(exc)[:80]}); "
                         "name, side and category only")
        else:
            wanted = str(data.get("id", ""))
            cid = ids(wanted, "piece")
            if cid != wanted:
                notes.append(f"piece {p.name}: counter id {wanted!r} renamed {cid!r} (not unique or not file-safe)")
            return {**data, "id": cid}
    cid = ids(p.entry or p.name)
    c: dict[str, Any] = {"id": cid, "name": p.name, "side": p.properties.get("Side", "unassigned"),
                         "category": p.properties.get("Category", "unassigned"), "front": {"designation": p.name}}
    if len(p.images) >= 2:
        c["back"] = {"designation": p.name}
    c["note"] = ("imported from VASSAL: printed values unknown (artwork in images/counters/)"
                 + ("" if "Side" in p.properties else "; side and category unknown"))
    return c


def _calibration(spec: Any, pixel: Callable[[int, int], tuple[float, float]]) -> list[dict[str, Any]]:
    """Four hex centres (the grid's corners) in board pixels: the background's calibration."""
    bx0, by0, bx1, by1 = spec.bounds()
    cal = []
    for x, y in ((bx0, by0), (bx1, by0), (bx0, by1), (bx1, by1)):
        h = spec.hex_at_offset(x, y)
        if not spec.in_sheets(h):
            continue
        px, py = pixel(x, y)
        cal.append({"label": spec.label(h), "x": round(px, 2), "y": round(py, 2)})
    if len(cal) < 2:  # corners outside every sheet: each sheet's first hex instead
        for sh in spec.sheets:
            px, py = pixel(sh.x0, sh.y0)
            cal.append({"label": spec.label(spec.hex_at_offset(sh.x0, sh.y0)), "x": round(px, 2), "y": round(py, 2)})
    return cal


def _zone_bounds(path: str, where: str) -> tuple[int, int, int, int]:
    points = []
    for pair in path.split(";"):
        x, _, y = pair.partition(",")
        try:
            points.append((int(float(x)), int(float(y))))
        except (ValueError, OverflowError):
            raise VmodError(f"{where}: zone path point {pair[:40]!r} is not 'x,y'", "buildFile.xml") from None
    if len(points) < 3:
        raise VmodError(f"{where}: zone path has {len(points)} points; a zone needs 3 or more", "buildFile.xml")
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)


def _flag(v: str | None) -> bool:
    return str(v).lower() == "true"


def zone_grid(z: ZoneInfo, board: str) -> VZoneGrid:
    """The port of VASSAL's grid and numbering for one zone as the buildFile states it."""
    where = f"board {board!r} zone {z.name!r}"
    g, n = z.grid, z.numbering
    grid = VHexGrid(_grid_number(g, "dx", where), _grid_number(g, "dy", where),
                    int(_grid_number(g, "x0", where)), int(_grid_number(g, "y0", where)))
    if grid.dx < MIN_HEX_PX or grid.dy < MIN_HEX_PX:
        raise VmodError(f"{where}: hex grid spacing dx={grid.dx:g}, dy={grid.dy:g} pixels; the smallest "
                        f"accepted is {MIN_HEX_PX} (refused)", "buildFile.xml")
    numbering = VNumbering(first=n.get("first", "H") or "H", sep=n.get("sep", "") or "",
                           h_off=int(_grid_number(n, "hOff", where)), v_off=int(_grid_number(n, "vOff", where)),
                           h_leading=int(_grid_number(n, "hLeading", where)),
                           v_leading=int(_grid_number(n, "vLeading", where)),
                           h_descend=_flag(n.get("hDescend")), v_descend=_flag(n.get("vDescend")))
    if max(numbering.h_leading, numbering.v_leading) > MAX_LEADING:
        raise VmodError(f"{where}: {max(numbering.h_leading, numbering.v_leading):,} leading zeros; the limit is "
                        f"{MAX_LEADING} (refused)", "buildFile.xml")
    return VZoneGrid(grid, numbering, _zone_bounds(z.path, where), z.location_format or GRID_LOCATION)


def bounds_text(bounds: tuple[int, int, int, int]) -> str:
    x, y, w, h = bounds
    return f"({x}, {y}) {w}×{h} px"


def zone_lattice(zg: VZoneGrid) -> list[tuple[int, int]]:
    """Raw (column, row) of every lattice hex whose centre lies inside the zone."""
    g = zg.grid
    bx, by, w, h = zg.bounds
    out = []
    c_lo, c_hi = math.ceil((bx - g.x0) / g.dx) - 1, math.floor((bx + w - g.x0) / g.dx) + 1
    r_lo, r_hi = math.ceil((by - g.y0) / g.dy) - 2, math.floor((by + h - g.y0) / g.dy) + 1
    if c_hi - c_lo > MAX_IMPORT_SIDE + 4 or r_hi - r_lo > MAX_IMPORT_SIDE + 4:
        # refused before the scan: a zone of 10⁷ pixels over 4-pixel hexes is 10¹² cells
        raise VmodError(f"zone {bounds_text(zg.bounds)} spans {c_hi - c_lo:,}×{r_hi - r_lo:,} hexes; the limit is "
                        f"{MAX_IMPORT_SIDE:,} a side (refused)", "buildFile.xml")
    for c in range(c_lo, c_hi + 1):
        for r in range(r_lo, r_hi + 1):
            if zg.contains(*g.raw_centre(c, r)):
                out.append((c, r))
    return out


def _zoned_map(board: BoardInfo, zones: list[ZoneInfo], map_id: str, notes: list[str], sample: Sampler | None,
               terrain_colours: dict[str, str] | None) -> tuple[dict[str, Any], Any, str, Any]:
    """Policy ``vassal-sheet-zones`` read back: one sheet per numbered zone. The lattice's raw
    column/row 0 is Hexproof offset (0, 0) (stagger odd: VASSAL shifts odd columns), a sheet's
    offsets and size are the lattice hexes inside its zone, its labels the zone's numbering and
    locationFormat prefix; every label is then checked against VASSAL's own naming."""
    from model.labels import GridModel

    if len(zones) > MAX_ZONES:
        raise VmodError(f"board {board.name!r} has {len(zones):,} numbered zones; the limit is {MAX_ZONES} (refused)",
                        "buildFile.xml")
    grids = [(z, zone_grid(z, board.name)) for z in zones]
    lattice = grids[0][1].grid
    sheets: list[dict[str, Any]] = []
    for z, zg in grids:
        if (zg.grid.dx, zg.grid.dy, zg.grid.x0, zg.grid.y0) != (lattice.dx, lattice.dy, lattice.x0, lattice.y0):
            notes.append(f"board {board.name!r} zone {z.name!r}: its hex grid is not the first zone's; "
                         "placed on the first zone's lattice (check it)")
        cells = zone_lattice(zg)
        if not cells:
            notes.append(f"board {board.name!r} zone {z.name!r}: no hex centre inside the zone; not imported")
            continue
        cs, rs = [c for c, _ in cells], [r for _, r in cells]
        x0, y0 = min(cs), min(rs)
        cols, rows = max(cs) - x0 + 1, max(rs) - y0 + 1
        if cols * rows != len(cells):
            notes.append(f"board {board.name!r} zone {z.name!r}: the hexes inside the zone are not a rectangle of "
                         f"columns and rows; imported as {cols}×{rows}")
        if x0 < 0 or y0 < 0:
            raise VmodError(f"board {board.name!r} zone {z.name!r}: hexes left of or above the grid origin "
                            "cannot be Hexproof offsets (refused)", "buildFile.xml")
        n = zg.numbering
        first_col, first_row = zg.printed(*lattice.raw_centre(x0, y0))
        # A sheet id is no file name: the zone's name is kept as written (made unique if needed).
        sid = z.name.strip()[:48] or f"sheet-{len(sheets) + 1}"
        if sid in {s["id"] for s in sheets}:
            sid = f"{sid}-{len(sheets) + 1}"
        sheets.append({"id": sid, "name": z.name, "x0": x0, "y0": y0, "cols": cols, "rows": rows,
                       "labels": {"prefix": zg.prefix(), "axis_order": "col_row" if n.first == "H" else "row_col",
                                  "col_digits": min(4, n.h_leading + 1), "row_digits": min(4, n.v_leading + 1),
                                  "separator": n.sep, "first_col": first_col, "first_row": first_row,
                                  "col_step": -1 if n.h_descend else 1, "row_step": -1 if n.v_descend else 1}})
        if cols > MAX_IMPORT_SIDE or rows > MAX_IMPORT_SIDE:
            raise VmodError(f"board {board.name!r} zone {z.name!r}: the grid would be {cols:,}×{rows:,} hexes; "
                            f"the limit is {MAX_IMPORT_SIDE:,} a side (refused)", "buildFile.xml")
    if not sheets:
        raise VmodError(f"board {board.name!r}: no zone holds a hex", "buildFile.xml")
    grid = {"orientation": "flat", "stagger": "odd", "sheets": sheets}
    spec = GridModel.model_validate(grid).spec()

    def pixel(x: int, y: int) -> tuple[float, float]:
        return lattice.raw_centre(x, y)

    # Labels VASSAL prints (zone locationFormat + numbering) against the label scheme read back.
    by_sheet = {s["id"]: zg for s, (_, zg) in zip(sheets, grids)}
    bx0, by0, bx1, by1 = spec.bounds()
    chars: list[list[str]] = [["-"] * (bx1 + 1) for _ in range(by1 + 1)]
    points: list[tuple[int, int]] = []
    cells_in: list[tuple[int, int]] = []
    mismatched = 0
    for sh in spec.sheets:
        zg = by_sheet[sh.id]
        for x in range(sh.x0, sh.x0 + sh.cols):
            for y in range(sh.y0, sh.y0 + sh.rows):
                px, py = pixel(x, y)
                if zg.location_name(px, py) != spec.label(spec.hex_at_offset(x, y)):
                    mismatched += 1
                points.append((px, py))
                cells_in.append((x, y))
    if mismatched:
        notes.append(f"board {board.name!r}: {mismatched} hex labels VASSAL prints have no Hexproof label scheme "
                     "(offsets, digits, descending); the scheme's labels are used")
    legend: dict[str, str] = {"?": "untraced"}
    colours = [None] * len(points) if sample is None or board.image_bytes is None else sample(board.image_bytes, points)
    if terrain_colours:
        legend = {}
        palette = {tid: _rgb(c) for c, tid in terrain_colours.items()}
        char_of: dict[str, str] = {}
        pool = iter("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.~#*+=^%&")
        inexact = 0
        exact = sum(1 for c in colours if (c or "") in terrain_colours)
        # Policy vassal-terrain-void: on a board where most centres show a terrain colour
        # exactly (Hexproof's swatches), a centre that shows none is a hex off the map (void).
        swatched = exact >= SWATCHED_SHARE * max(1, len(colours))
        voided = 0
        for (x, y), colour in zip(cells_in, colours):
            tid = terrain_colours.get(colour or "")
            if tid is None and swatched:
                voided += 1
                continue
            if tid is None:
                inexact += 1
                if colour is None:
                    tid = next(iter(palette))
                else:
                    rgb = _rgb(colour)
                    tid = min(palette, key=lambda t: sum((a - b) ** 2 for a, b in zip(palette[t], rgb)))
            if tid not in char_of:
                char_of[tid] = next(pool)
                legend[char_of[tid]] = tid
            chars[y][x] = char_of[tid]
        if voided:
            notes.append(f"board {board.name!r}: {voided} hexes show no terrain colour at their grid centre on a board "
                         "where most hexes do: imported as off the map (policy vassal-terrain-void)")
        if inexact:
            notes.append(f"board {board.name!r}: {inexact} hexes show no terrain colour at their grid centre; "
                         "given the nearest terrain colour (policy vassal-terrain-nearest)")
    else:
        for x, y in cells_in:
            chars[y][x] = "?"
        notes.append("terrain: no game system given (or no image): every hex is 'untraced'; "
                     "import with --system to read terrain from the board's colours")
    map_doc: dict[str, Any] = {
        "schema_version": 1, "id": map_id, "name": board.name or map_id, "grid": grid,
        "terrain": {"legend": legend, "rows": "\n".join("".join(r) for r in chars)},
        "provenance": f"Imported from VASSAL board {board.name!r}: grid, labels and terrain by colour.",
    }
    def locate(x: float, y: float) -> tuple[int, int]:
        return lattice.raw_column(int(x), int(y)), lattice.raw_row(int(x), int(y))

    return map_doc, spec, "flat", pixel, locate


def _rgb(colour: str) -> tuple[int, int, int]:
    c = colour.lstrip("#")
    return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)


Sampler = Callable[[bytes, list[tuple[int, int]]], list[str | None]]  # image, points → "#rrggbb" or None


def bundle_from_module(info: ModuleInfo, system: str | None = None, sample: Sampler | None = None,
                       terrain_colours: dict[str, str] | None = None) -> ImportResult:
    """Bundle files started from a VASSAL module: the first board with a hex grid as the map
    (its image as the calibrated background tracing layer), pieces as counters, predefined
    setups as scenarios. Nothing is dropped silently: every unmapped element is a note.

    ``sample`` reads pixel colours from the board image (the editor's Qt image reader: this
    module has no image decoder) and ``terrain_colours`` maps the system's terrain colours to
    terrain ids; with both, every hex gets the terrain whose colour is under its grid centre."""
    import yaml

    notes = list(info.unmapped)
    files: dict[str, str | bytes] = {}
    game_id = _Ids()(info.name or "imported", "imported")
    boards = [b for b in info.boards if b.grid_kind == "hex"] or info.boards
    if not boards:
        raise VmodError("the module has no board", "buildFile.xml")
    board = boards[0]
    for b in info.boards:
        if b is not board:
            notes.append(f"board {b.name!r} ({b.grid_kind or 'no'} grid) not imported: one map per import")
    img_path = None
    size = (board.width, board.height)
    found = image_info(board.image_bytes) if board.image_bytes is not None else None
    if found is not None:
        # The file name is Hexproof's, the extension the image's own format (magic bytes):
        # nothing the module names reaches the file system.
        ext, w, h = found
        img_path = f"images/board-{info.boards.index(board) + 1}.{ext}"
        files[img_path] = board.image_bytes  # type: ignore[assignment]
        size = (w, h)
    elif board.image_bytes is not None:
        notes.append(f"board {board.name!r}: image {board.image!r} is not a PNG, JPEG or GIF; not imported")
    else:
        notes.append(f"board {board.name!r}: image {board.image!r} not found in the module")
    map_id = _Ids()(board.name or "map", "map")
    zoned = [z for z in board.zones if z.numbering and z.grid.get("sideways") != "true"]
    if zoned:
        map_doc, spec, orientation, pixel, locate = _zoned_map(board, zoned, map_id, notes, sample, terrain_colours)
    else:
        map_doc, spec, orientation, pixel, locate = _legacy_map(board, size, map_id, notes)
    if img_path:
        map_doc["background"] = {"image": img_path, "opacity": 1.0, "calibration": _calibration(spec, pixel)}
    notes.append("hexside features, paths, features and LOS are not in a VASSAL module (only pixels of the board)")
    files[f"maps/{map_id}.yaml"] = _dump_literal_rows(map_doc)

    counter_ids = _Ids()
    counters: list[dict[str, Any]] = []
    sides_seen: set[str] = set()
    categories_seen: set[str] = set()
    by_gpid: dict[str, str] = {}
    by_name: dict[str, str] = {}
    for p in info.pieces:
        c = _counter_doc(p, counter_ids, notes)
        cid = c["id"]
        by_gpid.setdefault(p.gpid, cid)
        by_name.setdefault(p.name, cid)
        sides_seen.add(c["side"])
        categories_seen.add(c["category"])
        if len(p.images) > 2:
            notes.append(f"piece {p.name}: {len(p.images)} layer images; front and back taken from the first two")
        for i, name in enumerate(p.images[:2]):
            data = p.image_bytes.get(name)
            kind = image_info(data) if data is not None else None
            if data is not None and kind is None:
                notes.append(f"piece {p.name}: image {name!r} is not a PNG, JPEG or GIF; not imported")
            elif kind is not None:
                files[f"images/counters/{cid}-{'front' if i == 0 else 'back'}.{kind[0]}"] = data  # type: ignore[assignment]
        counters.append(c)
    plain = [c for c, p in zip(counters, info.pieces) if COUNTER_PROPERTY not in p.properties]
    if plain:
        notes.append(f"{len(plain)} pieces imported as counters without printed values "
                     "(VASSAL keeps them in images); fill them in")
        unknown_side = sum(1 for c in plain if c["side"] == "unassigned")
        if unknown_side:
            notes.append(f"{unknown_side} pieces have no Side/Category property: side, category 'unassigned'")
    files["counters.yaml"] = _dump({"schema_version": 1, "counters": counters}, sort_keys=False,
                                   allow_unicode=True, width=120)

    scen_files = []
    scenario_ids = _Ids()
    for s in info.setups:
        if not s.placements:
            notes.append(f"setup {s.name!r}: no pieces on the board" + ("" if s.file else " (no save file)")
                         + "; imported as a scenario with an empty setup")
        if s.boards and board.name not in s.boards:
            notes.append(f"setup {s.name!r}: selects boards {', '.join(s.boards)}, not {board.name!r}; not imported")
            continue
        # The scenario id is the save file's name (Hexproof's exports write <scenario id>.vsav).
        stem = s.file.rsplit("/", 1)[-1].removesuffix(".vsav") if s.file else s.name
        sid = scenario_ids(stem, "setup")
        entries = []
        gpids = s.gpids if len(s.gpids) == len(s.placements) else [""] * len(s.placements)
        for (name, x, y), gpid in zip(s.placements, gpids):
            xo, yo = locate(x, y)
            h = spec.hex_at_offset(xo, yo)
            if not spec.in_sheets(h):
                notes.append(f"setup {s.name!r} ({s.file}): {name} at pixel ({x:.0f}, {y:.0f}) is off the grid; "
                             "not placed")
                continue
            unit = by_gpid.get(gpid) or by_name.get(name)
            if unit is None:
                notes.append(f"setup {s.name!r} ({s.file}): piece {name!r} is not in the piece palette; not placed")
                continue
            entries.append({"unit": unit, "hex": spec.label(h)})
        doc = {"schema_version": 1, "id": sid, "name": s.name, "map": map_id, "setup": entries,
               "provenance": f"Imported from VASSAL predefined setup {s.file!r}"}
        path = f"scenarios/{sid}.yaml"
        files[path] = _dump(doc, sort_keys=False, allow_unicode=True, width=120)
        scen_files.append(path)
    if system is None:
        files["system.yaml"] = _dump({
            "schema_version": 1, "id": game_id, "name": f"{info.name} (imported)", "short": game_id.upper()[:6],
            "note": "Placeholder system written by hexproof import-vassal: replace with the game's definition.",
            "terrain": [{"id": "untraced", "name": "Untraced", "char": "?", "color": "#d0d0d0", "los": "unknown",
                         "note": "placeholder: VASSAL modules hold no terrain"}],
            "sides": [{"id": sd, "name": sd, "note": "placeholder: from the pieces' Side property"
                       if sd != "unassigned" else "placeholder"} for sd in sorted(sides_seen | {"unassigned"})],
            "unit_categories": [{"id": ct, "name": ct, "note": "placeholder"}
                                for ct in sorted(categories_seen | {"unassigned"})],
        }, sort_keys=False, allow_unicode=True, width=120)
        notes.append("no game system given: wrote a placeholder system.yaml (one 'untraced' terrain)")
    game = {"schema_version": 1, "id": game_id, "name": info.name or game_id,
            "system": system or "system.yaml", "maps": [f"maps/{map_id}.yaml"], "counters": "counters.yaml",
            "scenarios": scen_files,
            "provenance": f"Started from VASSAL module {info.name!r} version {info.version!r} by hexproof import-vassal."}
    files["game.yaml"] = _dump(game, sort_keys=False, allow_unicode=True, width=120)
    return ImportResult(files, notes)
