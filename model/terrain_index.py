"""A dense terrain index of one map: which offset cells are hexes, and their terrain character.

:class:`model.mapdata.HexMap` stores terrain as rows of characters and answers
``contains``/``terrain_at`` through the grid spec (offset conversion, a sheet search and the
bounds per call), which cost about 4 µs a hex: 2 s for a whole 700×700 pass. This index is
built once per map state with numpy from the rows (a few milliseconds) and answers the
same questions with plain arithmetic:

* ``codes``: ``uint32`` array [row, col] over the sheets' bounding box clipped to the
  terrain text, the code point of the terrain character of each cell that is a hex, ``0``
  where there is none (outside every sheet, past the end of a row, or ``-``);
* ``sheet_of_cell``: ``int16`` array [row, col], the index of the sheet a cell belongs to
  (the first sheet listed wins, as in :meth:`GridSpec.sheet_of`), ``-1`` for none;
* ``lines``: the same cells as strings (``-`` where there is no hex), for per-hex look-ups
  without numpy scalar overhead;
* :meth:`hexes`: every hex in row-major offset order, built on first use.

A file whose text is ragged enough that even the clipped box would dwarf it gets the
*ragged* form (no arrays; see :class:`TerrainIndex`), so memory stays proportional to the
text whatever the sheets declare.

It holds *characters*, not terrain ids: the legend is read live by the map, so a legend
change needs no rebuild (``model.edits.char_for`` assigns a new legend before painting).
The row text itself is what :meth:`HexMap.invalidate` announces as changed; the map drops
its index there. An index is immutable once built, so map copies may share it
(``__deepcopy__`` returns it unchanged, which keeps the editor's snapshot copies cheap).
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from model.hexes import Hex
from model.labels import GridSpec

if TYPE_CHECKING:  # pragma: no cover - typing only
    import numpy as np

VOID = "-"
_VOID_CODE = ord(VOID)
# Hex(q, r) through tuple.__new__ skips NamedTuple's Python-level __new__: the list of
# every hex of a 700×700 map is built in about half the time.
_make_hex = partial(tuple.__new__, Hex)


def _char_lookup(spec: GridSpec, x0: int, y0: int, width: int, height: int,
                 lines: Sequence[str]) -> Callable[[Hex], str]:
    """``hex → character`` (``-`` for no hex) specialised for the grid's offset layout.

    The offset formulas are those of :func:`model.labels.hex_to_offset`, inlined because
    this runs once per hex in whole-map passes. ``>> 1`` is floor division by 2 for
    negative numbers too, so ``(q - (q & 1)) // 2`` there is ``q >> 1`` here and
    ``(q + (q & 1)) // 2`` is ``(q + 1) >> 1``.
    """
    flat = spec.orientation == "flat"
    odd = spec.stagger == "odd"

    if flat and odd:
        def char(h: Hex) -> str:
            q, r = h
            i = q - x0
            j = r + (q >> 1) - y0
            if 0 <= i < width and 0 <= j < height:
                return lines[j][i]
            return VOID
    elif flat:
        def char(h: Hex) -> str:
            q, r = h
            i = q - x0
            j = r + ((q + 1) >> 1) - y0
            if 0 <= i < width and 0 <= j < height:
                return lines[j][i]
            return VOID
    elif odd:
        def char(h: Hex) -> str:
            q, r = h
            i = q + (r >> 1) - x0
            j = r - y0
            if 0 <= i < width and 0 <= j < height:
                return lines[j][i]
            return VOID
    else:
        def char(h: Hex) -> str:
            q, r = h
            i = q + ((r + 1) >> 1) - x0
            j = r - y0
            if 0 <= i < width and 0 <= j < height:
                return lines[j][i]
            return VOID
    return char


def _dense_is_sane(cells: int, text_chars: int) -> bool:
    """Whether a dense array over the text's bounding box is affordable: at most a few times
    the text itself. A ragged or adversarial file (one very long row among many short ones)
    gets the ragged form instead of gigabytes of padding."""
    return cells <= 4 * text_chars + (1 << 20)


def _ragged_line(line: str, y: int, x0: int, width: int, sheets: Sequence[Any]) -> str:
    """One row of text with ``-`` wherever no sheet holds the cell (no padding)."""
    seg = line[:width]
    out = [VOID] * len(seg)
    for s in sheets:
        if s.y0 <= y < s.y0 + s.rows:
            a, b = max(0, s.x0 - x0), min(len(seg), s.x0 - x0 + s.cols)
            if a < b:
                out[a:b] = seg[a:b]
    return "".join(out)


def _dense_line(line: str, y: int, x0: int, width: int, sheets: Sequence[Any]) -> str:
    """One row of the dense form: exactly ``width`` characters, ``-`` wherever no sheet holds
    the cell, the row text ends, or the text has a NUL (code 0 means "no hex" in :attr:`codes`).
    Cut with string slices over the row's merged sheet spans; :func:`dense_line_reference`
    is the numpy construction it replaces (tests/model/test_terrain_index.py compares them)."""
    seg = line[:width]
    spans = sorted((max(0, s.x0 - x0), min(width, s.x0 - x0 + s.cols)) for s in sheets if s.y0 <= y < s.y0 + s.rows)
    parts: list[str] = []
    end = 0
    for a, b in spans:
        a = max(a, end)
        if a >= b:
            continue
        parts.append(VOID * (a - end))
        parts.append(seg[a:b].ljust(b - a, VOID))
        end = b
    parts.append(VOID * (width - end))
    out = "".join(parts)
    return out.replace("\x00", VOID) if "\x00" in out else out


def dense_line_reference(line: str, y: int, x0: int, width: int, sheets: Sequence[Any]) -> str:
    """The dense row as the index built it with numpy before (reference for :func:`_dense_line`):
    the row's code points in a ``width`` array, zero outside every sheet and for ``-``."""
    import numpy as np

    codes = np.zeros(width, dtype=np.uint32)
    seg = line[:width]
    if seg:
        codes[:len(seg)] = np.frombuffer(seg.encode("utf-32-le", "surrogatepass"), dtype="<u4")
    inside = np.zeros(width, dtype=bool)
    for s in sheets:
        if s.y0 <= y < s.y0 + s.rows:
            inside[max(0, s.x0 - x0):max(0, s.x0 - x0 + s.cols)] = True
    codes[~inside | (codes == _VOID_CODE)] = 0
    return np.where(codes == 0, _VOID_CODE, codes).astype("<u4").tobytes().decode("utf-32-le", "surrogatepass")


class TerrainIndex:
    """Dense, read-only terrain lookup of one map state (see the module docstring).

    The arrays cover the sheets' bounding box *clipped to the terrain text* (rows past the
    last line and columns past the longest line are no hex anyway), so a sheet declared far
    larger than its rows, or sheets placed far apart, cost nothing. When even that box would
    dwarf the text, the index is *ragged*: ``codes`` and ``sheet_of_cell`` are ``None``, the
    lines keep their own lengths and the whole-map methods loop in Python (as fast as the
    text is small).
    """

    # Identity comparison on purpose: HexMap.__eq__ (pydantic) first compares instance
    # dicts, where this index lives as a cached property; numpy arrays must not be compared.
    __slots__ = ("spec", "x0", "y0", "width", "height", "_dense", "_codes", "_sheet_of_cell", "lines", "char",
                 "_hexes", "_axial", "_sheet_idx")

    def __init__(self, spec: GridSpec, rows: Sequence[str]) -> None:
        x0, y0, x1, y1 = spec.bounds()
        height = min(y1 - y0, len(rows))
        width = min(x1 - x0, max((len(line) for line in rows[:height]), default=0))
        self.spec = spec
        self.x0, self.y0, self.width, self.height = x0, y0, width, height
        self._hexes: list[Hex] | None = None
        self._axial: tuple[np.ndarray, np.ndarray] | None = None
        self._sheet_idx: np.ndarray | None = None
        self._codes: np.ndarray | None = None
        self._sheet_of_cell: np.ndarray | None = None

        self._dense = _dense_is_sane(width * height, sum(len(line) for line in rows[:height]))
        if not self._dense:
            self.lines: tuple[str, ...] = tuple(_ragged_line(line, y0 + j, x0, width, spec.sheets)
                                                for j, line in enumerate(rows[:height]))
            self.char: Callable[[Hex], str] = _ragged_lookup(spec, x0, y0, self.lines)
            return
        # The lines are cut from the text with string slices, no numpy: the per-hex look-ups
        # (all that validate and most loads need) then cost no numpy import. The arrays are
        # built from these lines on first use by a whole-map method (:attr:`codes`).
        self.lines = tuple(_dense_line(rows[j], y0 + j, x0, width, spec.sheets) for j in range(height))
        self.char = _char_lookup(spec, x0, y0, width, height, self.lines)

    @property
    def codes(self) -> np.ndarray | None:
        """``uint32`` [row, col]: the code point of each cell that is a hex, 0 elsewhere
        (``None`` in the ragged form). Built from :attr:`lines` on first use."""
        if self._codes is None and self._dense:
            import numpy as np

            codes = np.frombuffer("".join(self.lines).encode("utf-32-le", "surrogatepass"), dtype="<u4")
            codes = np.where(codes == _VOID_CODE, 0, codes).astype(np.uint32).reshape(self.height, self.width)
            codes.flags.writeable = False
            self._codes = codes
        return self._codes

    @property
    def sheet_of_cell(self) -> np.ndarray | None:
        """``int16`` [row, col]: the index of the sheet a cell belongs to (the first sheet
        listed wins, as in :meth:`GridSpec.sheet_of`), -1 for none; ``None`` when ragged."""
        if self._sheet_of_cell is None and self._dense:
            import numpy as np

            sheet_of_cell = np.full((self.height, self.width), -1, dtype=np.int16)
            # Reversed so that the first sheet listed wins where sheets overlap (GridSpec.sheet_of).
            for k in range(len(self.spec.sheets) - 1, -1, -1):
                s = self.spec.sheets[k]
                sheet_of_cell[max(0, s.y0 - self.y0):max(0, s.y0 - self.y0 + s.rows),
                              max(0, s.x0 - self.x0):max(0, s.x0 - self.x0 + s.cols)] = k
            sheet_of_cell.flags.writeable = False
            self._sheet_of_cell = sheet_of_cell
        return self._sheet_of_cell

    @property
    def dense(self) -> bool:
        return self._dense

    def __deepcopy__(self, memo: dict[int, Any]) -> "TerrainIndex":
        return self  # immutable: copies of the map share it

    def __copy__(self) -> "TerrainIndex":
        return self

    def __reduce__(self) -> tuple[type, tuple[GridSpec, tuple[str, ...]]]:
        # Pickled as what builds it (the lookup is a closure, which pickle cannot carry): the
        # lines already hold ``-`` wherever no sheet holds a cell, so rebuilding from them gives
        # the same index. A bundle sent to a spawned analysis worker needs this (issue #22).
        return TerrainIndex, (self.spec, self.lines)

    # --- per hex -----------------------------------------------------------------------------

    def contains(self, h: Hex) -> bool:
        return self.char(h) != VOID

    def cell(self, h: Hex) -> tuple[int, int] | None:
        """(row, col) of a hex in the lines (and arrays), or None outside them."""
        x, y = self.spec.offset(h)
        i, j = x - self.x0, y - self.y0
        if 0 <= j < len(self.lines) and 0 <= i < len(self.lines[j]):
            return j, i
        return None

    # --- whole map ---------------------------------------------------------------------------

    def count(self) -> int:
        return len(self.axial()[0])

    def axial(self) -> tuple[np.ndarray, np.ndarray]:
        """``(q, r)`` int64 arrays of every hex, row-major offset order (cached)."""
        if self._axial is None:
            import numpy as np

            if self.codes is not None:
                ys, xs = np.nonzero(self.codes)  # C order: row-major, as HexMap.hexes() promises
            else:
                cells = [(j, i) for j, line in enumerate(self.lines) for i, ch in enumerate(line) if ch != VOID]
                ys = np.array([c[0] for c in cells], dtype=np.int64)
                xs = np.array([c[1] for c in cells], dtype=np.int64)
            x = xs.astype(np.int64) + self.x0
            y = ys.astype(np.int64) + self.y0
            if self.spec.orientation == "flat":
                shift = (x - (x & 1)) >> 1 if self.spec.stagger == "odd" else (x + (x & 1)) >> 1
                q, r = x, y - shift
            else:
                shift = (y - (y & 1)) >> 1 if self.spec.stagger == "odd" else (y + (y & 1)) >> 1
                q, r = x - shift, y
            q.flags.writeable = False
            r.flags.writeable = False
            self._axial = (q, r)
        return self._axial

    def hexes(self) -> list[Hex]:
        """Every hex, row-major offset order; a new list each call (callers may mutate it)."""
        if self._hexes is None:
            q, r = self.axial()
            # Half a million new tuples would trigger many full cyclic-GC passes over the
            # whole loaded bundle (0.38 s vs 0.10 s measured on 700×700); tuples of ints
            # cannot form cycles, so collection is paused while the list is built.
            was_enabled = gc.isenabled()
            gc.disable()
            try:
                self._hexes = list(map(_make_hex, zip(q.tolist(), r.tolist())))
            finally:
                if was_enabled:
                    gc.enable()
        return list(self._hexes)

    def sheet_indices(self) -> np.ndarray:
        """The sheet index of every hex of :meth:`hexes`, in the same order (cached)."""
        if self._sheet_idx is None:
            import numpy as np

            if self.codes is not None and self.sheet_of_cell is not None:
                idx = self.sheet_of_cell[self.codes != 0]
            else:
                q, r = self.axial()
                idx = self.sheets_of(q, r)
            idx = np.array(idx, dtype=np.int16)
            idx.flags.writeable = False
            self._sheet_idx = idx
        return self._sheet_idx

    def chars_of(self, qs: np.ndarray, rs: np.ndarray) -> np.ndarray:
        """Vectorised :attr:`char`: the code point per hex (0 = no hex) of axial arrays."""
        import numpy as np

        q = np.asarray(qs, dtype=np.int64)
        r = np.asarray(rs, dtype=np.int64)
        if self.codes is None:
            chars = [self.char(_make_hex((a, b))) for a, b in zip(q.tolist(), r.tolist())]
            return np.array([0 if c == VOID else ord(c) for c in chars], dtype=np.uint32)
        x, y = _offsets(self.spec, q, r)
        i, j = x - self.x0, y - self.y0
        inside = (i >= 0) & (i < self.width) & (j >= 0) & (j < self.height)
        out = np.zeros(len(i), dtype=np.uint32)
        out[inside] = self.codes[j[inside], i[inside]]
        return out

    def sheets_of(self, qs: np.ndarray, rs: np.ndarray) -> np.ndarray:
        """Vectorised sheet index per hex of axial arrays (-1: in no sheet), whether or not
        the terrain rows reach the hex."""
        import numpy as np

        x, y = _offsets(self.spec, np.asarray(qs, dtype=np.int64), np.asarray(rs, dtype=np.int64))
        out = np.full(len(x), -1, dtype=np.int16)
        # Reversed so that the first sheet listed wins where sheets overlap (GridSpec.sheet_of).
        for k in range(len(self.spec.sheets) - 1, -1, -1):
            s = self.spec.sheets[k]
            out[(x >= s.x0) & (x < s.x0 + s.cols) & (y >= s.y0) & (y < s.y0 + s.rows)] = k
        return out


def _ragged_lookup(spec: GridSpec, x0: int, y0: int, lines: Sequence[str]) -> Callable[[Hex], str]:
    """``hex → character`` over lines of their own lengths (the ragged form)."""

    def char(h: Hex) -> str:
        x, y = spec.offset(h)
        j = y - y0
        if 0 <= j < len(lines):
            line = lines[j]
            i = x - x0
            if 0 <= i < len(line):
                return line[i]
        return VOID

    return char


def _offsets(spec: GridSpec, q: np.ndarray, r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Vectorised :func:`model.labels.hex_to_offset`."""
    if spec.orientation == "flat":
        shift = (q - (q & 1)) >> 1 if spec.stagger == "odd" else (q + (q & 1)) >> 1
        return q, r + shift
    shift = (r - (r & 1)) >> 1 if spec.stagger == "odd" else (r + (r & 1)) >> 1
    return q + shift, r


__all__ = ["TerrainIndex", "VOID"]
