"""The commands of a VASSAL save (a predefined setup's ``savedGame``) that Hexproof reads:
AddPiece (where each piece is) and BoardPicker (which boards a map shows).

One parser for both readers of a save: the importer (:mod:`model.formats.vassal`, the setups
of a module it turns into a bundle) and the checker (:mod:`model.formats.vassal_check`, which
says whether each placed piece lies on a hex centre of a selected board). The lines come from
:func:`model.formats.vassal_archive.save_lines` (deobfuscated, split at ESC). Pure text work:
no pywargame, no Qt.

The encodings, as VASSAL writes them:

* AddPiece: ``+/<id>/<type>/<state>``, '/' inside a part escaped as ``\\/``; the type is the
  piece's decorator types, tab-separated, outermost first, with the BasicPiece
  ``piece;<clone key>;<delete key>;<image>;<name>`` innermost (last); the state is the
  decorators' states in the same order, the BasicPiece's ``<map>;<x>;<y>;<gpid>;…`` last.
  A stack is ``+/<id>/stack/<state>``: its position is its pieces', so it is not a piece here.
* BoardPicker (``BoardPicker.encode``): ``<map>BoardPicker\\t<board>\\t<col>\\t<row>…``, a board
  name possibly followed by ``/rev``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

_SLASH = re.compile(r"(?<!\\)/")  # the AddPiece delimiter; an escaped '\/' is part of a name


@dataclass(frozen=True)
class SavedPiece:
    """One piece an AddPiece command places."""

    name: str  # the BasicPiece name, unescaped ("" when the type has too few fields)
    map: str  # the map's name, as the state gives it
    x: float | None  # None: the state's position cannot be read
    y: float | None
    gpid: str  # the PieceSlot id the piece was made from ("" when the state has none)

    @property
    def placed(self) -> bool:
        return self.x is not None and self.y is not None


def unescape(text: str) -> str:
    """Undo VASSAL's command-encoder escapes of its '/' delimiter and of the backslash."""
    return text.replace("\\/", "/").replace("\\\\", "\\")


def saved_pieces(lines: Iterable[str]) -> list[SavedPiece]:
    """Every piece the AddPiece commands of ``lines`` place, in order (stacks and commands
    without a BasicPiece left out; a piece whose position is not numbers has ``x``/``y`` None)."""
    out: list[SavedPiece] = []
    for line in lines:
        for cmd in line.split("\x1b"):
            piece = _add_piece(cmd)
            if piece is not None:
                out.append(piece)
    return out


def _add_piece(cmd: str) -> SavedPiece | None:
    if not cmd.startswith("+/"):
        return None
    parts = _SLASH.split(cmd.rstrip("\\"), maxsplit=3)
    if len(parts) < 4:
        return None
    basic = next((t for t in reversed(parts[2].split("\t")) if t.startswith("piece;")), None)
    if basic is None:
        return None  # a stack, or a piece VASSAL could not make
    fields = basic.split(";")
    name = unescape(fields[-1]) if len(fields) >= 5 else ""
    st = parts[3].split("\t")[-1].split(";")
    x = y = None
    if len(st) >= 3:
        try:
            x, y = float(st[1]), float(st[2])
        except ValueError:
            x = y = None
    return SavedPiece(name, st[0], x, y, st[3] if len(st) > 3 else "")


def picked_boards(lines: Iterable[str]) -> dict[str, list[str]]:
    """Map name → the boards its BoardPicker command selects (the last command of a map wins,
    as VASSAL's decode replaces the selection); ``/rev`` dropped."""
    out: dict[str, list[str]] = {}
    for line in lines:
        for cmd in line.split("\x1b"):
            fields = cmd.split("\t")
            if fields[0].endswith("BoardPicker"):
                out[fields[0].removesuffix("BoardPicker")] = [f.split("/")[0] for f in fields[1::3]]
    return out
