"""VASSAL's hex grid and hex numbering, ported to Python (flat-top grids, ``sideways=false``).

The formulas are VASSAL's own, from ``VASSAL/build/module/map/boardPicker/board/HexGrid.java``
(``getRawColumn``, ``getRawRow``) and ``mapgrid/HexGridNumbering.java`` (``getColumn``, ``getRow``,
``getCenterPoint``, ``getMaxRows``, ``getMaxColumns``) with ``mapgrid/RegularGridNumbering.java``
(``getName``) and ``mapgrid/Zone.java`` (``locationFormat`` with ``$gridLocation$``, the zone's
bounding box as the numbering's container). Java's integer casts and ``Math.round`` /
``Math.floor`` are kept, including VASSAL's quirk that ``getMaxColumns`` divides the container
width by ``dy`` (``getHexSize``) and ``getMaxRows`` its height by ``dx`` (``getHexWidth``):
descending numbering depends on it.

Export uses it to choose ``hOff``/``vOff`` so that VASSAL prints Hexproof's labels; import and
:mod:`model.formats.vassal_check` use it to read labels back exactly as VASSAL would.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

GRID_LOCATION = "$gridLocation$"


def java_round(value: float) -> int:
    """``Math.round``: floor(x + 0.5)."""
    return math.floor(value + 0.5)


@dataclass(frozen=True)
class VHexGrid:
    """A non-sideways VASSAL HexGrid: ``dx`` between columns, ``dy`` between hexes of a column."""

    dx: float
    dy: float
    x0: int
    y0: int

    def raw_column(self, x: int, y: int) -> int:
        return math.floor((x - self.x0) / self.dx + 0.5)

    def raw_row(self, x: int, y: int) -> int:
        nx = java_round((x - self.x0) / self.dx)
        if nx % 2 == 0:
            return java_round((y - self.y0) / self.dy)
        return java_round((y - self.y0 - self.dy / 2) / self.dy)

    def raw_centre(self, col: int, row: int) -> tuple[int, int]:
        """Board pixel of raw column/row (getCenterPoint without numbering), Java int casts."""
        x = int(col * self.dx) + self.x0
        y = int(row * self.dy) if col % 2 == 0 else int(row * self.dy + self.dy / 2)
        return x, y + self.y0


@dataclass(frozen=True)
class VNumbering:
    """HexGridNumbering attributes (``hType``/``vType`` numeric only, ``stagger`` false)."""

    first: str = "H"
    sep: str = ""
    h_off: int = 0
    v_off: int = 0
    h_leading: int = 1
    v_leading: int = 1
    h_descend: bool = False
    v_descend: bool = False

    def attributes(self) -> dict[str, object]:
        """Keyword arguments for pywargame's ``addNumbering`` (VASSAL attribute names)."""
        return {"first": self.first, "sep": self.sep, "hType": "N", "vType": "N",
                "hLeading": self.h_leading, "vLeading": self.v_leading, "hOff": self.h_off, "vOff": self.v_off,
                "hDescend": self.h_descend, "vDescend": self.v_descend, "stagger": False, "visible": False}


def number_name(value: int, leading: int) -> str:
    """RegularGridNumbering.getName(int, 'N', leading)."""
    text = "-" if value < 0 else ""
    value = abs(value)
    while leading > 0 and value < 10 ** leading:
        leading -= 1
        text += "0"
    return text + str(value)


@dataclass(frozen=True)
class VZoneGrid:
    """A hex grid with its numbering inside a rectangular zone (the container of the numbering)."""

    grid: VHexGrid
    numbering: VNumbering
    bounds: tuple[int, int, int, int]  # x, y, width, height of the zone polygon
    location_format: str = GRID_LOCATION

    def max_rows(self) -> int:
        return math.floor(self.bounds[3] / self.grid.dx + 0.5)

    def max_columns(self) -> int:
        return math.floor(self.bounds[2] / self.grid.dy + 0.5)

    def column(self, x: int, y: int) -> int:
        """HexGridNumbering.getColumn (before hOff)."""
        col = self.grid.raw_column(x, y)
        return self.max_columns() - col if self.numbering.h_descend else col

    def row(self, x: int, y: int) -> int:
        """HexGridNumbering.getRow (before vOff; stagger false)."""
        row = self.grid.raw_row(x, y)
        return self.max_rows() - row if self.numbering.v_descend else row

    def printed(self, x: int, y: int) -> tuple[int, int]:
        """(column, row) numbers VASSAL prints at a board point, offsets added."""
        return self.column(x, y) + self.numbering.h_off, self.row(x, y) + self.numbering.v_off

    def grid_location(self, x: int, y: int) -> str:
        n = self.numbering
        col, row = self.printed(x, y)
        c, r = number_name(col, n.h_leading), number_name(row, n.v_leading)
        return c + n.sep + r if n.first == "H" else r + n.sep + c

    def location_name(self, x: int, y: int) -> str:
        """Zone.locationName: the location format with ``$gridLocation$`` substituted."""
        return self.location_format.replace(GRID_LOCATION, self.grid_location(x, y))

    def contains(self, x: float, y: float) -> bool:
        bx, by, w, h = self.bounds
        return bx <= x < bx + w and by <= y < by + h

    def prefix(self) -> str:
        """Text of the location format before ``$gridLocation$`` (Hexproof's label prefix)."""
        head, _, _ = self.location_format.partition(GRID_LOCATION)
        return head
