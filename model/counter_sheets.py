"""Counter sheets as printed: which counter is in which slot, front and back.

A counter names its ``sheet`` and the 1-based ``row`` and ``col`` of its front. A sheet is
printed on both faces; turned over left to right (duplex, long-edge flip), column ``c`` of
the front face lies behind column ``cols + 1 - c`` of the back face, in the same row. So a
counter's back is, unless ``back_row``/``back_col`` say otherwise, in the *mirror slot*
``(row, cols + 1 - col)``.

Policies (docs/counters-csv.md, "Counter sheets"):

* *sheet-width-declared*: ``cols`` comes from the sheet's entry in ``counter_sheets:`` of
  game.yaml;
* *sheet-width-from-max-col*: a sheet the game file does not declare is as wide as the
  largest column its counters use (fronts and explicit backs); the mirror slot then depends
  on that guess, and findings that use it say so;
* *sheet-copies-along-row*: a counter with ``count: n`` fills ``n`` slots along its row,
  from ``col`` rightwards on the front (leftwards from the back's slot on the back), one per
  copy in the counter mix.

Everything here is pure data: the rules PROOF-SHEET-001..003 and the proof PDF read it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from model.counters import Counter, CounterSheet

DECLARED = "sheet-width-declared"
INFERRED = "sheet-width-from-max-col"
COPIES = "sheet-copies-along-row"


@dataclass(frozen=True, order=True)
class Slot:
    """One printed position: 1-based row and column of one face of a sheet."""

    row: int
    col: int


@dataclass(frozen=True)
class Placed:
    """One copy of a counter in a slot (``copy`` counts from 0)."""

    counter: Counter
    copy: int
    slot: Slot


@dataclass
class SheetLayout:
    """One sheet: its size, how the width was found, and what each face holds."""

    id: str
    cols: int
    rows: int | None  # declared rows; None when game.yaml does not say
    policy: str       # DECLARED or INFERRED
    fronts: list[Placed] = field(default_factory=list)
    backs: list[Placed] = field(default_factory=list)

    @property
    def declared(self) -> bool:
        return self.policy == DECLARED

    @property
    def used_rows(self) -> int:
        """Rows to lay out: the declared rows, or the last row any face uses."""
        last = max((p.slot.row for p in self.fronts + self.backs), default=0)
        return max(self.rows or 0, last)

    def mirror(self, slot: Slot) -> Slot:
        """The slot behind ``slot`` on the other face (same row, column mirrored)."""
        return Slot(slot.row, self.cols + 1 - slot.col)

    def expected_back(self, counter: Counter) -> Slot:
        """Where the back of ``counter``'s first copy belongs: the mirror of its front."""
        assert counter.row is not None and counter.col is not None
        return self.mirror(Slot(counter.row, counter.col))

    def on_sheet(self, slot: Slot) -> bool:
        return 1 <= slot.col <= self.cols and (self.rows is None or 1 <= slot.row <= self.rows)

    def gaps(self) -> list[Slot]:
        """Empty front slots between filled ones, in reading order (row by row, left to
        right): every empty slot before the last filled one. Trailing blanks are no gap."""
        filled = {p.slot for p in self.fronts if self.on_sheet(p.slot)}
        if not filled:
            return []
        last = max(filled)
        return [Slot(r, c) for r in range(1, last.row + 1) for c in range(1, self.cols + 1)
                if Slot(r, c) not in filled and Slot(r, c) < last]


def positioned(counter: Counter) -> bool:
    """Whether the counter has a complete front position (sheet, row and col)."""
    return counter.sheet is not None and counter.row is not None and counter.col is not None


def missing_position_fields(counter: Counter) -> list[str]:
    """The position fields a partly positioned counter lacks ([] when none or all are set)."""
    given = {name: getattr(counter, name) is not None for name in ("sheet", "row", "col", "back_row", "back_col")}
    if not any(given.values()):
        return []
    missing = [n for n in ("sheet", "row", "col") if not given[n]]
    if given["back_row"] != given["back_col"]:
        missing.append("back_col" if given["back_row"] else "back_row")
    return missing


def front_slots(counter: Counter) -> list[Slot]:
    """The front slot of each copy (policy *sheet-copies-along-row*)."""
    assert counter.row is not None and counter.col is not None
    return [Slot(counter.row, counter.col + i) for i in range(counter.count)]


def back_slots(counter: Counter, sheet: SheetLayout) -> list[Slot]:
    """The back slot of each copy: explicit when ``back_row``/``back_col`` are given, else
    the mirror of each front slot (copy ``i`` sits ``i`` columns left of the first back)."""
    if counter.back_row is not None and counter.back_col is not None:
        return [Slot(counter.back_row, counter.back_col - i) for i in range(counter.count)]
    return [sheet.mirror(s) for s in front_slots(counter)]


def layouts(counters: Iterable[Counter], declared: Iterable[CounterSheet]) -> dict[str, SheetLayout]:
    """Every sheet that a declaration or a fully positioned counter names, in order: the
    declared sheets first (as game.yaml lists them), then the others by first use."""
    counters = [c for c in counters if positioned(c)]
    out: dict[str, SheetLayout] = {}
    for d in declared:
        out.setdefault(d.id, SheetLayout(d.id, d.cols, d.rows, DECLARED))
    widths: dict[str, int] = {}
    for c in counters:
        assert c.sheet is not None and c.col is not None
        width = max(c.col + c.count - 1, c.back_col or 0)
        widths[c.sheet] = max(widths.get(c.sheet, 0), width)
    for sheet_id, width in widths.items():
        out.setdefault(sheet_id, SheetLayout(sheet_id, width, None, INFERRED))
    for c in counters:
        assert c.sheet is not None
        sheet = out[c.sheet]
        sheet.fronts += [Placed(c, i, s) for i, s in enumerate(front_slots(c))]
        sheet.backs += [Placed(c, i, s) for i, s in enumerate(back_slots(c, sheet))]
    return out
