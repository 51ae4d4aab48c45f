"""VASSAL modules (.vmod) through pywargame: build one from Hexproof data, read one back.

Pure data work, no Qt: images arrive and leave as PNG bytes (the editor renders them).
pywargame is an optional dependency ([test] extra); :func:`pywargame_vassal` says how to
install it when it is missing.

pywargame 0.8 and Python < 3.12: three of its modules (``vassal/traits/sheet.py``,
``vassal/merger.py``, ``zuntzu/exporter.py``) use f-string syntax that only Python 3.12
accepts, and importing the package imports them. On older Pythons a meta-path hook
substitutes stubs for exactly those three (the property-sheet trait, module merging and
the ZunTzu exporter — none used here); everything else is pywargame's own code.

Grid policy (``vassal-numbering``): VASSAL numbers a hex grid from one origin with one
column/row offset, ascending or descending, optional separator and leading zeros. A
Hexproof sheet whose label scheme is exactly that (one sheet, no prefix) is carried over
so VASSAL shows the printed labels; anything else (several sheets, sheet-letter prefixes)
gets the grid without numbering and a note saying so — never a numbering that prints
different labels from the map.
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import math
import sys
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from model.hexes import Hex
from model.layout import Layout
from model.mapdata import HexMap

INSTALL_HINT = "pywargame is not installed: pip install 'pywargame>=0.8' (or pip install -e '.[test]')"
_STUBBED = ("pywargame.vassal.traits.sheet", "pywargame.vassal.merger", "pywargame.zuntzu.exporter")


class _Needs312:
    """Stand-in for a pywargame class whose module needs Python 3.12 to compile."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise NotImplementedError(f"{type(self).__name__} needs Python 3.12 (pywargame 0.8)")


class MissingPywargame(ImportError):
    pass


class _StubLoader(importlib.abc.Loader):
    def create_module(self, spec: Any) -> None:
        return None

    def exec_module(self, module: ModuleType) -> None:
        # Plain attribute assignments (no code compiled from text): the names the rest of
        # pywargame imports from these modules.
        if module.__name__.endswith(".sheet"):
            from pywargame.vassal.trait import Trait

            module.SheetTrait = type("SheetTrait", (Trait,), {"ID": "propertysheet"})  # type: ignore[attr-defined]
        elif module.__name__.endswith(".merger"):
            module.Merger = type("Merger", (_Needs312,), {})  # type: ignore[attr-defined]
        else:
            module.ZTExporter = type("ZTExporter", (_Needs312,), {})  # type: ignore[attr-defined]


class _StubFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, name: str, path: Any, target: Any = None) -> Any:
        if name in _STUBBED:
            return importlib.util.spec_from_loader(name, _StubLoader(), is_package=False)
        return None


def pywargame_vassal() -> ModuleType:
    """``pywargame.vassal``, importable on Python 3.11 too; MissingPywargame if absent."""
    if importlib.util.find_spec("pywargame") is None:
        raise MissingPywargame(INSTALL_HINT)
    if sys.version_info < (3, 12) and not any(isinstance(f, _StubFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _StubFinder())
    try:
        import pywargame.vassal as vassal
    except SyntaxError:
        # Someone imported pywargame before the hook was in place: forget the half-imported
        # package and import it again through the hook.
        for name in [n for n in sys.modules if n == "pywargame" or n.startswith("pywargame.")]:
            del sys.modules[name]
        import pywargame.vassal as vassal

    return vassal


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


def read_vmod(path: str | Path) -> ModuleInfo:
    vassal = pywargame_vassal()
    with vassal.VMod(str(path), "r") as vmod:
        names = set(vmod.getFileNames())
        build = vassal.BuildFile(vmod.getDOM(vassal.VMod.BUILD_FILE))
        game = build.getGame()

        def image(name: str) -> bytes | None:
            key = f"images/{name}"
            return vmod.getFiles(key)[key] if key in names else None

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
            img = b["image"] or ""
            boards.append(BoardInfo(b["name"], img, image(img) if img else None,
                                    _int(b["width"]), _int(b["height"]), kind, attrs, numbering))
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
                imgs = [basic["filename"]]
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
                              {i: b for i in imgs if (b := image(i)) is not None}, ids, props)
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
            setups.append(SetupInfo(ps["name"], ps["file"] if ps["useFile"] == "true" else None))
        info = ModuleInfo(game["name"] or "", game["version"] or "", game["description"] or "",
                          boards, pieces, setups, unmapped)
    for s in info.setups:
        if s.file:
            s.placements = read_vsav_placements(path, s.file)
    return info


def read_vsav_placements(vmod_path: str | Path, save_name: str) -> list[tuple[str, float, float]]:
    """(piece name, x, y) of every piece placed by a predefined setup inside the module."""
    vassal = pywargame_vassal()
    import io

    with zipfile.ZipFile(vmod_path) as z:
        if save_name not in z.namelist():
            return []
        data = z.read(save_name)
    buf = io.BytesIO(data)
    buf.name = save_name  # type: ignore[attr-defined]  # pywargame logs the file's name
    _, lines = vassal.SaveIO.readSave(buf)
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


def _slug(text: str, taken: set[str]) -> str:
    import re

    base = re.sub(r"[^0-9a-z]+", "-", text.lower()).strip("-") or "piece"
    out, n = base, 2
    while out in taken:
        out, n = f"{base}-{n}", n + 1
    taken.add(out)
    return out


@dataclass
class ImportResult:
    files: dict[str, str | bytes]  # bundle-relative path → text or bytes
    notes: list[str]  # everything that could not be mapped


def bundle_from_module(info: ModuleInfo, system: str | None = None) -> ImportResult:
    """Bundle files started from a VASSAL module: the first board with a hex grid as the map
    (its image as the calibrated background tracing layer), pieces as counters, predefined
    setups as scenarios. Nothing is dropped silently: every unmapped element is a note."""
    import yaml

    notes = list(info.unmapped)
    files: dict[str, str | bytes] = {}
    game_id = _slug(info.name or "imported", set())
    boards = [b for b in info.boards if b.grid_kind == "hex"] or info.boards
    if not boards:
        raise ValueError("the module has no board")
    board = boards[0]
    for b in info.boards:
        if b is not board:
            notes.append(f"board {b.name!r} ({b.grid_kind or 'no'} grid) not imported: one map per import")
    img_path = None
    size = (board.width, board.height)
    if board.image_bytes is not None:
        img_path = f"images/{board.image}"
        files[img_path] = board.image_bytes
        size = png_size(board.image_bytes) or size
    else:
        notes.append(f"board {board.name!r}: image {board.image!r} not found in the module")
    width, height = size[0] or 0, size[1] or 0
    g = board.grid
    sideways = g.get("sideways") == "true"
    if board.grid_kind != "hex":
        notes.append(f"board {board.name!r} has a {board.grid_kind or 'missing'} grid, not a hex grid: "
                     "a default hex grid was laid over the image (calibrate it in the editor)")
    dx = float(g.get("dx", 0) or 0) or 48.0
    dy = float(g.get("dy", 0) or 0) or 55.4256
    x0, y0 = float(g.get("x0", 0) or 0), float(g.get("y0", 0) or 0)
    # Columns (flat-top) are dx apart, hexes in a column dy apart; sideways swaps the axes.
    if sideways:
        cols = max(1, int((width - x0) // dy) + 1) if width else 10
        rows = max(1, int((height - y0) // dx) + 1) if height else 10
    else:
        cols = max(1, int((width - x0) // dx) + 1) if width else 10
        rows = max(1, int((height - y0) // dy) + 1) if height else 10
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
    map_id = _slug(board.name or "map", set())

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

    taken: set[str] = set()
    counters = []
    sides_seen: set[str] = set()
    categories_seen: set[str] = set()
    by_name: dict[str, str] = {}
    for p in info.pieces:
        cid = _slug(p.name, taken)
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
            if name in p.image_bytes:
                files[f"images/counters/{cid}-{'front' if i == 0 else 'back'}{Path(name).suffix}"] = p.image_bytes[name]
        c["note"] = ("imported from VASSAL: printed values unknown (artwork in images/counters/)"
                     + ("" if "Side" in p.properties else "; side and category unknown"))
        counters.append(c)
    if info.pieces:
        notes.append(f"{len(info.pieces)} pieces imported as counters without printed values "
                     "(VASSAL keeps them in images); fill them in")
        unknown_side = sum(1 for c in counters if c["side"] == "unassigned")
        if unknown_side:
            notes.append(f"{unknown_side} pieces have no Side/Category property: side, category 'unassigned'")
    files["counters.yaml"] = yaml.safe_dump({"schema_version": 1, "counters": counters}, sort_keys=False,
                                            allow_unicode=True, width=120)

    lay = Layout.for_orientation(orientation)
    # Board pixels → map units, from the calibration (two opposite corners fix scale+shift).
    (ax, ay), (bx, by) = pixel(0, 0), pixel(cols - 1, rows - 1)
    ha, hb = spec.hex_at_offset(0, 0), spec.hex_at_offset(cols - 1, rows - 1)
    (ua, va), (ub, vb) = lay.center(ha), lay.center(hb)
    sx = (ub - ua) / (bx - ax) if bx != ax else 1.0
    sy = (vb - va) / (by - ay) if by != ay else 1.0
    scen_files = []
    for s in info.setups:
        if not s.placements:
            notes.append(f"setup {s.name!r}: no pieces on the board" + ("" if s.file else " (no save file)"))
            continue
        sid = _slug(s.name, set(f.rsplit("/", 1)[-1][:-5] for f in scen_files))
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
        files[path] = yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=120)
        scen_files.append(path)
    if system is None:
        files["system.yaml"] = yaml.safe_dump({
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
    files["game.yaml"] = yaml.safe_dump(game, sort_keys=False, allow_unicode=True, width=120)
    return ImportResult(files, notes)
