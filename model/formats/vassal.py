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
from typing import Any

from model.hexes import Hex
from model.layout import Layout
from model.mapdata import HexMap
from model.formats.pywargame_hook import INSTALL_HINT, MissingPywargame, pywargame_vassal  # noqa: F401 (re-exported)
from model.formats.vassal_archive import (DEFAULT_LIMITS, Limits, VmodArchive, VmodError, check_image, image_info,
                                  parse_xml, save_lines)

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
class GridSpecV:
    """A VASSAL HexGrid (+ numbering) in board pixels."""

    sideways: bool  # pointy-top
    dx: float
    dy: float
    x0: int
    y0: int
    numbering: dict[str, Any] | None
    notes: list[str] = field(default_factory=list)


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


def grid_for(hmap: HexMap, px_per_unit: float, origin: tuple[float, float]) -> GridSpecV:
    """VASSAL grid for ``hmap`` rendered at ``px_per_unit`` pixels per hex size, with the
    map-unit point ``origin`` at board pixel (0, 0)."""
    lay = Layout.for_orientation(hmap.grid.orientation)
    spec = hmap.spec
    flat = hmap.grid.orientation == "flat"
    stagger = hmap.grid.stagger
    bx0, by0, _, _ = spec.bounds()
    notes: list[str] = []
    # VASSAL shifts odd columns (rows when sideways) by half a hex: column 0 must be an
    # unshifted one, so pick the origin column (a phantom one left of the map if needed).
    shifted_parity = 1 if stagger == "odd" else 0
    if flat:
        c0 = bx0 if bx0 % 2 != shifted_parity else bx0 - 1
        r0 = by0
    else:
        r0 = by0 if by0 % 2 != shifted_parity else by0 - 1
        c0 = bx0
    ox, oy = lay.center(spec.hex_at_offset(c0, r0))
    x0 = (ox - origin[0]) * px_per_unit
    y0 = (oy - origin[1]) * px_per_unit
    across = math.sqrt(3.0) * px_per_unit  # centre spacing across flats
    along = 1.5 * px_per_unit  # centre spacing between staggered columns (rows)
    # pywargame: "dx … dy: meaning seems reversed" — for a flat-top (not sideways) VASSAL
    # grid dy is the spacing within a column and dx the spacing between columns.
    dx, dy = along, across
    numbering: dict[str, Any] | None = None
    sheets = spec.sheets
    if len(sheets) != 1:
        notes.append(f"{len(sheets)} sheets with their own numbering: VASSAL's single hex numbering cannot "
                     "print them; the grid is exported without numbering (policy vassal-numbering)")
    else:
        s = sheets[0]
        lab = s.labels
        if lab.prefix:
            notes.append(f"label prefix {lab.prefix!r} is not expressible in VASSAL numbering; "
                         "exported without it (policy vassal-numbering)")
        first_col = lab.first_col + lab.col_step * (c0 - s.x0)
        first_row = lab.first_row + lab.row_step * (r0 - s.y0)
        numbering = {
            "first": "H" if lab.axis_order == "col_row" else "V",
            "sep": lab.separator, "hType": "N", "vType": "N",
            "hLeading": max(0, lab.col_digits - 1), "vLeading": max(0, lab.row_digits - 1),
            "hOff": first_col, "vOff": first_row,
            "hDescend": lab.col_step < 0, "vDescend": lab.row_step < 0,
            "stagger": False, "visible": False,
        }
        if lab.col_step < 0 or lab.row_step < 0:
            notes.append("descending numbering: VASSAL counts descending from the board's far edge; "
                         "check the labels in VASSAL (policy vassal-numbering)")
    return GridSpecV(sideways=not flat, dx=dx, dy=dy, x0=int(round(x0)), y0=int(round(y0)),
                     numbering=numbering, notes=notes)


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


def _unescape(text: str) -> str:
    return text.replace("\\/", "/").replace("\\\\", "\\")


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
    zone = zoned.addZone(name="Full", useParentGrid=False,
                         path=f"0,0;{spec.width},0;{spec.width},{spec.height};0,{spec.height}")
    grid = zone.addHexGrid(dx=g.dx, dy=g.dy, x0=g.x0, y0=g.y0, sideways=g.sideways, visible=False, snapTo=True)
    if g.numbering is not None:
        grid.addNumbering(**g.numbering)
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


@dataclass
class PieceInfo:
    name: str
    gpid: str
    images: list[str]  # front first
    image_bytes: dict[str, bytes]
    traits: list[str]  # trait ids, for the report of what was not mapped
    properties: dict[str, str] = field(default_factory=dict)  # mark (static property) traits


@dataclass
class SetupInfo:
    name: str
    file: str | None
    placements: list[tuple[str, float, float]] = field(default_factory=list)  # (piece name, x, y)


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
MAPPED_PROPERTIES = {"Side": "side", "Category": "category"}  # mark traits export writes and import reads


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
            s.placements = _placements_from_lines(save_lines(archive, s.file))
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
        for zoned in b.getZonedGrids(single=False):
            for zone in zoned.getZones(asdict=False):
                hexes.extend(zone.getHexGrids(single=False))
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
                                attrs, numbering))
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
        name = _unescape(str(name))
        props: dict[str, str] = {}
        for t in traits:
            if t.ID == "mark":
                try:
                    props[str(t["name"])] = str(t["value"])
                except (ValueError, IndexError, TypeError):
                    continue
        piece = PieceInfo(name, str(slot["gpid"]), imgs,
                          {i: b for i in imgs[:2] if (b := image(i)) is not None}, ids, props)
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
        return _placements_from_lines(save_lines(archive, save_name))


def _placements_from_lines(lines: list[str]) -> list[tuple[str, float, float]]:
    out: list[tuple[str, float, float]] = []
    for line in lines:
        out.extend(_placements_in(line))
    return out


def _placements_in(line: str) -> list[tuple[str, float, float]]:
    """Pieces in one save command line: ``+/id/<type>/<state>`` with the BasicPiece last.

    VASSAL encodes a piece as its decorator types (tab-separated, outermost first) and
    states; the innermost ``piece;…;image;name`` type carries the name and its state
    ``map;x;y;gpid;…`` the position.
    """
    import re

    out: list[tuple[str, float, float]] = []
    for cmd in line.split("\x1b"):
        if not cmd.startswith("+/"):
            continue
        parts = re.split(r"(?<!\\)/", cmd.rstrip("\\"), maxsplit=3)
        if len(parts) < 4:
            continue
        type_list = parts[2].split("\t")
        state_list = parts[3].split("\t")
        basic_type = next((t for t in reversed(type_list) if t.startswith("piece;")), None)
        if basic_type is None or not state_list:
            continue
        fields = basic_type.split(";")
        name = _unescape(fields[-1]) if len(fields) >= 5 else ""
        st = state_list[-1].split(";")
        if len(st) >= 3:
            try:
                out.append((name, float(st[1]), float(st[2])))
            except ValueError:
                continue
    return out


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
    """File-safe unique ids: ``[0-9a-z-]``, at most 48 characters, never a Windows device name;
    a repeated base gets ``-2``, ``-3``, … in constant time (200 000 pieces all named "x" once
    took minutes here)."""

    def __init__(self) -> None:
        self.taken: set[str] = set()
        self._next: dict[str, int] = {}

    def __call__(self, text: str, default: str = "piece") -> str:
        import re

        base = re.sub(r"[^0-9a-z]+", "-", text.lower()[:200]).strip("-")[:48].strip("-") or default
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


def _grid_number(g: dict[str, str], key: str, board: str) -> float:
    text = g.get(key, "0") or "0"
    try:
        value = float(text)
    except ValueError:
        raise VmodError(f"board {board!r}: hex grid {key}={text[:40]!r} is not a number", "buildFile.xml") from None
    if not math.isfinite(value) or abs(value) > 1e7:
        raise VmodError(f"board {board!r}: hex grid {key}={text[:40]!r} is out of range", "buildFile.xml")
    return value


def _dump(doc: Any, **kw: Any) -> str:
    """``yaml.safe_dump`` through libyaml when present (20 000 counters: 20 s → 2 s)."""
    import yaml

    return yaml.dump(doc, Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper), **kw)


def bundle_from_module(info: ModuleInfo, system: str | None = None) -> ImportResult:
    """Bundle files started from a VASSAL module: the first board with a hex grid as the map
    (its image as the calibrated background tracing layer), pieces as counters, predefined
    setups as scenarios. Nothing is dropped silently: every unmapped element is a note."""
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
    width, height = size[0] or 0, size[1] or 0
    g = board.grid
    sideways = g.get("sideways") == "true"
    if board.grid_kind != "hex":
        notes.append(f"board {board.name!r} has a {board.grid_kind or 'missing'} grid, not a hex grid: "
                     "a default hex grid was laid over the image (calibrate it in the editor)")
    dx = _grid_number(g, "dx", board.name) or 48.0
    dy = _grid_number(g, "dy", board.name) or 55.4256
    x0, y0 = _grid_number(g, "x0", board.name), _grid_number(g, "y0", board.name)
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
        # Printed numbers can need more digits than VASSAL's leading zeros give.
        labels["col_digits"] = max(labels["col_digits"], min(4, len(str(labels["first_col"] + cols - 1))))
        labels["row_digits"] = max(labels["row_digits"], min(4, len(str(labels["first_row"] + rows - 1))))
    else:
        notes.append("the hex grid has no numbering: labels count from 00 (check against the printed map)")
    orientation = "pointy" if sideways else "flat"
    from model.labels import GridModel

    grid_model = GridModel.model_validate({"orientation": orientation, "stagger": "odd",
                                           "sheets": [{"id": "main", "cols": cols, "rows": rows, "labels": labels}]})
    spec = grid_model.spec()
    map_id = _Ids()(board.name or "map", "map")

    def pixel(x: int, y: int) -> tuple[float, float]:
        if sideways:
            return x0 + x * dy + (dy / 2 if y % 2 else 0.0), y0 + y * dx
        return x0 + x * dx, y0 + y * dy + (dy / 2 if x % 2 else 0.0)

    cal = []
    for x, y in ((0, 0), (cols - 1, 0), (0, rows - 1), (cols - 1, rows - 1)):
        px, py = pixel(x, y)
        cal.append({"label": spec.label(spec.hex_at_offset(x, y)), "x": round(px, 2), "y": round(py, 2)})
    map_doc: dict[str, Any] = {
        "schema_version": 1, "id": map_id, "name": board.name or map_id,
        "grid": {"orientation": orientation, "stagger": "odd",
                 "sheets": [{"id": "main", "name": board.name, "cols": cols, "rows": rows, "labels": labels}]},
        "terrain": {"legend": {"?": "untraced"}, "rows": "\n".join("?" * cols for _ in range(rows))},
        "provenance": f"Imported from VASSAL module {info.name!r}: grid and background only; "
                      "terrain is untraced (VASSAL holds no terrain).",
    }
    if img_path:
        map_doc["background"] = {"image": img_path, "opacity": 1.0, "calibration": cal}
    notes.append("terrain, hexside features, paths and LOS are not in a VASSAL module: every hex is 'untraced'")
    files[f"maps/{map_id}.yaml"] = _dump_literal_rows(map_doc)

    counter_ids = _Ids()
    counters = []
    sides_seen: set[str] = set()
    categories_seen: set[str] = set()
    by_name: dict[str, str] = {}
    for p in info.pieces:
        cid = counter_ids(p.name)
        by_name.setdefault(p.name, cid)
        c: dict[str, Any] = {"id": cid, "name": p.name, "side": p.properties.get("Side", "unassigned"),
                             "category": p.properties.get("Category", "unassigned"), "front": {"designation": p.name}}
        sides_seen.add(c["side"])
        categories_seen.add(c["category"])
        if len(p.images) >= 2:
            c["back"] = {"designation": p.name}
        if len(p.images) > 2:
            notes.append(f"piece {p.name}: {len(p.images)} layer images; front and back taken from the first two")
        for i, name in enumerate(p.images[:2]):
            data = p.image_bytes.get(name)
            kind = image_info(data) if data is not None else None
            if data is not None and kind is None:
                notes.append(f"piece {p.name}: image {name!r} is not a PNG, JPEG or GIF; not imported")
            elif kind is not None:
                files[f"images/counters/{cid}-{'front' if i == 0 else 'back'}.{kind[0]}"] = data  # type: ignore[assignment]
        c["note"] = ("imported from VASSAL: printed values unknown (artwork in images/counters/)"
                     + ("" if "Side" in p.properties else "; side and category unknown"))
        counters.append(c)
    if info.pieces:
        notes.append(f"{len(info.pieces)} pieces imported as counters without printed values "
                     "(VASSAL keeps them in images); fill them in")
        unknown_side = sum(1 for c in counters if c["side"] == "unassigned")
        if unknown_side:
            notes.append(f"{unknown_side} pieces have no Side/Category property: side, category 'unassigned'")
    files["counters.yaml"] = _dump({"schema_version": 1, "counters": counters}, sort_keys=False,
                                            allow_unicode=True, width=120)

    lay = Layout.for_orientation(orientation)
    # Board pixels → map units, from the calibration (two opposite corners fix scale+shift).
    (ax, ay), (bx, by) = pixel(0, 0), pixel(cols - 1, rows - 1)
    ha, hb = spec.hex_at_offset(0, 0), spec.hex_at_offset(cols - 1, rows - 1)
    (ua, va), (ub, vb) = lay.center(ha), lay.center(hb)
    sx = (ub - ua) / (bx - ax) if bx != ax else 1.0
    sy = (vb - va) / (by - ay) if by != ay else 1.0
    scen_files = []
    scenario_ids = _Ids()
    for s in info.setups:
        if not s.placements:
            notes.append(f"setup {s.name!r}: no pieces on the board" + ("" if s.file else " (no save file)"))
            continue
        sid = scenario_ids(s.name, "setup")
        entries = []
        for name, x, y in s.placements:
            h = lay.hex_at(ua + (x - ax) * sx, va + (y - ay) * sy)
            xo, yo = spec.offset(h)
            if not (0 <= xo < cols and 0 <= yo < rows):
                notes.append(f"setup {s.name!r}: {name} at pixel ({x:.0f}, {y:.0f}) is off the grid; not placed")
                continue
            unit = by_name.get(name)
            if unit is None:
                notes.append(f"setup {s.name!r}: piece {name!r} is not in the piece palette; not placed")
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
