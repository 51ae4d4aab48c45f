"""Hexproof's own VASSAL module checker: reads a ``.vmod`` the way VASSAL does and says what
VASSAL would trip over, each finding with where it is in the module.

What it reproduces (and from which VASSAL source, see docs/vassal.md):

* **buildFile schema** for the components Hexproof's exports use: the element classes and the
  attributes VASSAL's ``setAttribute`` parses as numbers, booleans or enumerations
  (``GameModule``, ``Map``, ``BoardPicker`` with its default ``setup``, ``Board``, ``ZonedGrid``,
  ``Zone``, ``HexGrid``, ``HexGridNumbering``, ``PieceSlot``, ``PredefinedSetup``);
* **images**: every board image and every image a piece's BasicPiece or Layer (``emb2``) names
  is in the archive under ``images/`` (VASSAL's DataArchive looks there);
* **positions**: every piece a predefined setup (``.vsav``) or an at-start stack places lies on
  a board the setup's BoardPicker command selects, inside a zone with a hex grid, on a hex
  centre (VASSAL's snap: HexGrid.getRawColumn/getRawRow then the centre of that hex);
* **numbering**: every hex of every zone named with VASSAL's formulas
  (:mod:`model.formats.vassal_grid`, a port of HexGrid/HexGridNumbering/Zone.locationName),
  names unique across the board, and — when the caller gives Hexproof's labels — each name equal
  to Hexproof's label of that hex.

Pure data work on the archive (no pywargame, no Qt); hostile input goes through
:class:`VmodArchive` and :func:`parse_xml` like import.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from model.formats.vassal_archive import DEFAULT_LIMITS, Limits, VmodArchive, VmodError, parse_xml, save_lines
from model.formats.vassal_grid import GRID_LOCATION, VHexGrid, VNumbering, VZoneGrid
from model.formats.vassal_save import picked_boards, saved_pieces

V = "VASSAL.build."
MAP = V + "module.Map"
PICKER = V + "module.map.BoardPicker"
BOARD = V + "module.map.boardPicker.Board"
ZONED = V + "module.map.boardPicker.board.ZonedGrid"
ZONE = V + "module.map.boardPicker.board.mapgrid.Zone"
HEXGRID = V + "module.map.boardPicker.board.HexGrid"
NUMBERING = V + "module.map.boardPicker.board.mapgrid.HexGridNumbering"
SLOT = V + "widget.PieceSlot"
SETUP = V + "module.PredefinedSetup"
AT_START = V + "module.map.SetupStack"

INT, FLOAT, BOOL = "int", "float", "bool"
# element → (required attributes, typed attributes); types as VASSAL's setAttribute parses them
SCHEMA: dict[str, tuple[tuple[str, ...], dict[str, Any]]] = {
    V + "GameModule": (("name", "version"), {"nextPieceSlotId": INT}),
    MAP: (("mapName",), {}),
    PICKER: ((), {"slotWidth": INT, "slotHeight": INT, "slotScale": FLOAT}),
    BOARD: (("name", "image"), {"width": INT, "height": INT, "reversible": BOOL}),
    ZONED: ((), {}),
    ZONE: (("name", "path"), {"useParentGrid": BOOL, "useHighlight": BOOL}),
    HEXGRID: (("dx", "dy", "x0", "y0"), {"dx": FLOAT, "dy": FLOAT, "x0": INT, "y0": INT, "sideways": BOOL,
                                         "visible": BOOL, "snapTo": BOOL, "edgesLegal": BOOL, "dotsVisible": BOOL}),
    NUMBERING: ((), {"hOff": INT, "vOff": INT, "hLeading": INT, "vLeading": INT, "hDescend": BOOL,
                     "vDescend": BOOL, "stagger": BOOL, "visible": BOOL, "first": ("H", "V"),
                     "hType": ("N", "A"), "vType": ("N", "A")}),
    SLOT: (("entryName", "gpid"), {"gpid": INT, "width": INT, "height": INT}),
    SETUP: (("name",), {"useFile": BOOL, "isMenu": BOOL}),
}
SNAP_TOLERANCE_PX = 2.0  # a placed piece this close to a hex centre is on it (integer pixel positions)


@dataclass(frozen=True)
class CheckFinding:
    where: str  # "buildFile.xml line 12: Zone 'N'", "night-drop.vsav: piece a-1-502"
    message: str

    def render(self) -> str:
        return f"{self.where}: {self.message}"


@dataclass
class _Board:
    map_name: str
    name: str
    width: int
    height: int
    zones: list[tuple[str, VZoneGrid]]


def _where(el: Any, what: str) -> str:
    line = getattr(el, "parse_position", None)
    return f"buildFile.xml line {line[0]}: {what}" if line else f"buildFile.xml: {what}"


def _typed(el: Any, name: str, kind: Any, out: list[CheckFinding], what: str) -> None:
    if not el.hasAttribute(name):
        return
    text = el.getAttribute(name)
    try:
        if kind == INT:
            int(text)
        elif kind == FLOAT:
            float(text)
        elif kind == BOOL:
            if text not in ("true", "false"):
                raise ValueError
        elif text not in kind:
            raise ValueError
    except ValueError:
        want = {INT: "an integer", FLOAT: "a number", BOOL: "true or false"}.get(kind, " or ".join(kind))
        out.append(CheckFinding(_where(el, what), f"{name}={text[:40]!r} is not {want}"))


def _schema(dom: Any, out: list[CheckFinding]) -> None:
    root = dom.documentElement
    if root.tagName not in (V + "GameModule", "VASSAL.launch.BasicModule"):
        out.append(CheckFinding("buildFile.xml", f"root element {root.tagName!r} is not VASSAL.build.GameModule"))
    for tag, (required, typed) in SCHEMA.items():
        for el in dom.getElementsByTagName(tag):
            what = f"{tag.rsplit('.', 1)[-1]} {el.getAttribute('name') or el.getAttribute('entryName') or el.getAttribute('mapName')!r}"
            for name in required:
                if not el.hasAttribute(name) or (name != "version" and not el.getAttribute(name)):
                    out.append(CheckFinding(_where(el, what), f"required attribute {name} is missing"))
            for name, kind in typed.items():
                _typed(el, name, kind, out, what)
    for el in dom.getElementsByTagName(HEXGRID):
        parent = el.parentNode.tagName if el.parentNode is not None else ""
        if parent not in (BOARD, ZONE, ZONED):
            out.append(CheckFinding(_where(el, "HexGrid"), f"a HexGrid inside {parent!r}; VASSAL puts it in a Board or Zone"))
    for el in dom.getElementsByTagName(NUMBERING):
        if el.parentNode is None or el.parentNode.tagName != HEXGRID:
            out.append(CheckFinding(_where(el, "HexGridNumbering"), "a HexGridNumbering outside a HexGrid"))
    for el in dom.getElementsByTagName(ZONE):
        fmt = el.getAttribute("locationFormat") or GRID_LOCATION
        if el.getElementsByTagName(HEXGRID) and GRID_LOCATION not in fmt:
            out.append(CheckFinding(_where(el, f"Zone {el.getAttribute('name')!r}"),
                                    f"locationFormat {fmt!r} has no {GRID_LOCATION}: every hex gets the same name"))


def _zone_grid(zone: Any, out: list[CheckFinding]) -> VZoneGrid | None:
    what = f"Zone {zone.getAttribute('name')!r}"
    grids = [g for g in zone.getElementsByTagName(HEXGRID)]
    if not grids:
        return None
    g = grids[0]
    try:
        points = [tuple(int(float(v)) for v in p.split(",")) for p in zone.getAttribute("path").split(";")]
        if len(points) < 3 or any(len(p) != 2 for p in points):
            raise ValueError
        grid = VHexGrid(float(g.getAttribute("dx")), float(g.getAttribute("dy")),
                        int(g.getAttribute("x0") or 0), int(g.getAttribute("y0") or 0))
    except (ValueError, OverflowError):
        out.append(CheckFinding(_where(zone, what), "path or hex grid cannot be read (see the schema findings)"))
        return None
    if g.getAttribute("sideways") == "true":
        out.append(CheckFinding(_where(zone, what), "sideways hex grid: numbering not checked (the port covers "
                                "flat-top grids)"))
        return None
    nums = g.getElementsByTagName(NUMBERING)
    n = nums[0] if nums else None

    def num(name: str, default: int) -> int:
        try:
            value = int(n.getAttribute(name)) if n is not None and n.getAttribute(name) else default
        except ValueError:
            return default
        return max(-10**7, min(value, 10**7 if "Off" in name else 9))  # leading zeros capped: 10**n is built

    numbering = VNumbering(first=(n.getAttribute("first") if n is not None else "") or "H",
                           sep=n.getAttribute("sep") if n is not None else "",
                           h_off=num("hOff", 0), v_off=num("vOff", 0), h_leading=num("hLeading", 1),
                           v_leading=num("vLeading", 1),
                           h_descend=n is not None and n.getAttribute("hDescend") == "true",
                           v_descend=n is not None and n.getAttribute("vDescend") == "true")
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return VZoneGrid(grid, numbering, (min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)),
                     zone.getAttribute("locationFormat") or GRID_LOCATION)


def _boards(dom: Any, out: list[CheckFinding]) -> list[_Board]:
    boards = []
    for m in dom.getElementsByTagName(MAP):
        for b in m.getElementsByTagName(BOARD):
            zones = []
            for z in b.getElementsByTagName(ZONE):
                zg = _zone_grid(z, out)
                if zg is not None:
                    zones.append((z.getAttribute("name"), zg))
            try:
                w, h = int(b.getAttribute("width") or 0), int(b.getAttribute("height") or 0)
            except ValueError:
                w, h = 0, 0
            boards.append(_Board(m.getAttribute("mapName"), b.getAttribute("name"), w, h, zones))
    return boards


def _trait_images(text: str) -> list[str]:
    """Images a PieceSlot's traits name: the BasicPiece image and a Layer's image list."""
    parts = re.split(r"(?<!\\)/", text, maxsplit=3)
    if len(parts) < 3:
        return []
    out = []
    for t in parts[2].split("\t"):
        t = t.rstrip("\\")
        fields = t.split(";")
        if fields[0] == "piece" and len(fields) >= 4 and fields[3]:
            out.append(fields[3])
        elif fields[0] == "emb2":
            out.extend(i for f in fields for i in f.split(",") if re.search(r"\.(png|gif|jpe?g|svg)$", i, re.I))
    return out


def _numbering(board: _Board, labels: dict[tuple[int, int], str] | None, out: list[CheckFinding]) -> None:
    from model.formats.vassal import zone_lattice

    names: dict[str, tuple[str, tuple[int, int]]] = {}
    seen: set[tuple[int, int]] = set()
    wrong: list[str] = []
    for zname, zg in board.zones:
        if zg.grid.dx < 1 or zg.grid.dy < 1:
            out.append(CheckFinding(f"board {board.name!r} zone {zname!r}", "hex spacing under 1 px"))
            continue
        for c, r in zone_lattice(zg):
            x, y = zg.grid.raw_centre(c, r)
            name = zg.location_name(x, y)
            if name in names and names[name][1] != (c, r):
                out.append(CheckFinding(f"board {board.name!r} zone {zname!r}",
                                        f"hex {name} is also the name of a hex in zone {names[name][0]!r}"))
            names.setdefault(name, (zname, (c, r)))
            seen.add((c, r))
            # a lattice hex Hexproof does not have (void, off the map) may carry any name
            if labels is not None and (c, r) in labels and labels[(c, r)] != name:
                wrong.append(f"{name} (Hexproof {labels[(c, r)]})")
    if labels is not None:
        missing = sorted(labels[k] for k in set(labels) - seen)
        if missing:
            out.append(CheckFinding(f"board {board.name!r}", f"{len(missing)} Hexproof hexes lie in no numbered zone: "
                                    + ", ".join(missing[:5])))
        if wrong:
            out.append(CheckFinding(f"board {board.name!r}", f"{len(wrong)} hexes VASSAL names differently: "
                                    + ", ".join(wrong[:5])))


def _on_hex(board: _Board, x: float, y: float) -> str | None:
    """None when (x, y) is on a hex centre of a numbered zone of the board, else why not."""
    if not (0 <= x < board.width and 0 <= y < board.height):
        return f"({x:.0f}, {y:.0f}) is off the board ({board.width}×{board.height})"
    for _, zg in board.zones:
        if zg.contains(x, y):
            g = zg.grid
            cx, cy = g.raw_centre(g.raw_column(int(x), int(y)), g.raw_row(int(x), int(y)))
            if abs(cx - x) > SNAP_TOLERANCE_PX or abs(cy - y) > SNAP_TOLERANCE_PX:
                return f"({x:.0f}, {y:.0f}) is {max(abs(cx - x), abs(cy - y)):.0f} px from the hex centre ({cx}, {cy})"
            return None
    return f"({x:.0f}, {y:.0f}) is in no zone with a hex grid"


def check_vmod(path: str | Path, labels: dict[tuple[int, int], str] | None = None,
               limits: Limits = DEFAULT_LIMITS) -> list[CheckFinding]:
    """Findings for the module at ``path`` (empty: VASSAL would read it as built).

    ``labels`` maps VASSAL lattice (raw column, raw row) to the label Hexproof prints there;
    for Hexproof's exports the lattice is Hexproof's offset grid (policy vassal-sheet-zones)."""
    out: list[CheckFinding] = []
    try:
        _check(path, labels, limits, out)
    except VmodError as exc:
        out.append(CheckFinding(exc.where().rstrip(": ") or str(path), exc.message))
    return out


def _check(path: str | Path, labels: dict[tuple[int, int], str] | None, limits: Limits,
           out: list[CheckFinding]) -> None:
    with VmodArchive(path, limits) as archive:
        member = next((m for m in ("buildFile.xml", "buildFile") if m in archive), None)
        if member is None:
            out.append(CheckFinding(str(path), "no buildFile.xml: not a VASSAL module"))
            return
        dom = parse_xml(archive.read(member, limits.max_buildfile_bytes), member, limits)
        _schema(dom, out)
        boards = _boards(dom, out)
        for b in dom.getElementsByTagName(BOARD):
            img = b.getAttribute("image")
            if img and f"images/{img}" not in archive:
                out.append(CheckFinding(_where(b, f"Board {b.getAttribute('name')!r}"), f"image {img!r} is not in the module"))
        for slot in dom.getElementsByTagName(SLOT):
            text = "".join(n.data for n in slot.childNodes if n.nodeType == n.TEXT_NODE)
            if "piece;" not in text:
                out.append(CheckFinding(_where(slot, f"PieceSlot {slot.getAttribute('entryName')!r}"),
                                        "no BasicPiece (piece;) trait: VASSAL cannot make the piece"))
            for img in _trait_images(text):
                if f"images/{img}" not in archive:
                    out.append(CheckFinding(_where(slot, f"PieceSlot {slot.getAttribute('entryName')!r}"),
                                            f"image {img!r} is not in the module"))
        for board in boards:
            if not board.zones:
                out.append(CheckFinding(f"board {board.name!r}", "no zone with a hex grid: hexes are not numbered"))
            _numbering(board, labels, out)
        by_name = {(b.map_name, b.name): b for b in boards}
        for ps in dom.getElementsByTagName(SETUP):
            if ps.getAttribute("useFile") != "true":
                continue
            file = ps.getAttribute("file")
            if not file or file not in archive:
                out.append(CheckFinding(_where(ps, f"PredefinedSetup {ps.getAttribute('name')!r}"),
                                        f"file {file!r} is not in the module"))
                continue
            lines = save_lines(archive, file)
            picked = picked_boards(lines)
            if not picked or not any(picked.values()):
                out.append(CheckFinding(file, "the BoardPicker command selects no board"))
            for piece in saved_pieces(lines):
                where = f"{file}: piece {piece.name!r}"
                if piece.x is None or piece.y is None:
                    out.append(CheckFinding(where, "its position (map;x;y) cannot be read"))
                    continue
                chosen = [by_name[(piece.map, bn)] for bn in picked.get(piece.map, []) if (piece.map, bn) in by_name]
                if not chosen:
                    out.append(CheckFinding(where, f"map {piece.map!r} has no selected board"))
                    continue
                why = _on_hex(chosen[0], piece.x, piece.y)  # boards side by side are not laid out here: the first one
                if why is not None:
                    out.append(CheckFinding(where, why))
        for st in dom.getElementsByTagName(AT_START):
            mp = st.parentNode.getAttribute("mapName") if st.parentNode is not None else ""
            bname = st.getAttribute("owningBoard")
            board = by_name.get((mp, bname))
            what = f"at-start stack {st.getAttribute('name')!r}"
            if board is None:
                out.append(CheckFinding(_where(st, what), f"board {bname!r} is not on map {mp!r}"))
                continue
            try:
                x, y = float(st.getAttribute("x")), float(st.getAttribute("y"))
            except ValueError:
                out.append(CheckFinding(_where(st, what), "x, y are not numbers"))
                continue
            why = _on_hex(board, x, y)
            if why is not None:
                out.append(CheckFinding(_where(st, what), why))


def lattice_labels(hmap: Any) -> dict[tuple[int, int], str]:
    """Hexproof's label of every hex keyed by the VASSAL lattice position Hexproof's export gives
    it (policy vassal-sheet-zones: raw column/row = offset, one phantom column for even stagger)."""
    c0 = 0 if hmap.grid.stagger == "odd" else -1
    out = {}
    for h in hmap.hexes():
        x, y = hmap.spec.offset(h)
        out[(x - c0, y)] = hmap.label(h)
    return out
