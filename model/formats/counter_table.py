"""Counter manifests as spreadsheet rows: a stable CSV column layout that round-trips.

Publishers keep their counter data in spreadsheets. The layout (documented in
``docs/counters-csv.md``) is one row per counter: identity columns, then ``front.<field>``
and ``back.<field>`` for every printed value (the system's ``counter_fields`` first, in
their order, then any others alphabetically). When any counter has a sheet position, the
columns ``sheet``, ``row``, ``col``, ``back_row``, ``back_col`` follow the identity columns. Empty cells mean "not printed"; the text
``unknown`` means the rules we hold do not give the value. ``flags`` are joined with ``;``.
The XLSX form (model/formats/counter_xlsx.py) has the same columns and shares the reading
of rows (:func:`read_table`).

Import accepts a column mapping (their header → our column) and is strict: every cell is
checked against its column's type (model/counter_fields.py: whole numbers, a number or
``unknown``, the system's sides and other ids), ids must be present and unique, and every
problem is a :class:`Rejected` located ``file:row:column`` — all of them, never only the
first, and never a row dropped silently.

Spreadsheet safety (OWASP "CSV injection"): a cell that a spreadsheet would run as a
formula — one starting with ``=``, ``+``, ``-``, ``@``, tab or CR — is written with a ``'``
in front, and so is a cell that itself starts with ``'``; a cell that is a plain number
(``-1``, ``+2``, ``-0.5``) is not a formula and is written as it is. Import removes one
leading ``'`` from every cell, so export → import gives back the exact text. Rows past
:data:`~model.limits.MAX_CSV_ROWS` and cells longer than :data:`~model.limits.MAX_CSV_FIELD`
are rejected.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator, Sequence

from pydantic import ValidationError

from model.counter_fields import ColumnType, column_type, parse_cell
from model.counters import Counter
from model.limits import MAX_CSV_FIELD, MAX_CSV_ROWS
from model.system import GameSystem

IDENTITY = ["id", "name", "side", "category", "nationality", "army", "division", "formation", "battalion",
            "size", "movement_class", "steps", "count", "parent", "leader_of", "flags"]
TRAILER = ["illustrative", "rule", "note"]
# Where a counter is printed (model/counter_sheets.py). Written after the identity columns
# only when some counter has a position, so a manifest without sheets keeps its layout.
POSITION = ["sheet", "row", "col", "back_row", "back_col"]


def columns_for(counters: list[Counter], system: GameSystem | None = None, *, positions: bool = False) -> list[str]:
    """The stable column order for these counters. The sheet position columns are included
    when some counter has a position, or when ``positions`` asks for them (the counter
    editor does when game.yaml declares ``counter_sheets``, so a first position can be typed)."""
    declared = [f.id for f in system.counter_fields] if system else []
    cols = list(IDENTITY)
    if positions or any(getattr(c, p) is not None for c in counters for p in POSITION):
        cols += POSITION
    for side in ("front", "back"):
        seen = {k for c in counters for s in [getattr(c, side)] if s is not None for k in s.values}
        ordered = [k for k in declared if k in seen or side == "front"] + sorted(seen - set(declared))
        cols += [f"{side}.designation", f"{side}.state"]
        cols += [f"{side}.{k}" for k in ordered]
    return cols + TRAILER


def format_value(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"[+-]?\d+(?:\.\d+)?")


def neutralise(cell: str) -> str:
    """The cell as written to CSV: formula-like text gets a leading ``'`` (and so does text
    that already starts with one, so that :func:`unneutralise` is exact)."""
    if cell.startswith("'") or (cell.startswith(_FORMULA_START) and not _PLAIN_NUMBER.fullmatch(cell)):
        return "'" + cell
    return cell


def unneutralise(cell: str) -> str:
    """Undo :func:`neutralise`: drop one leading ``'``."""
    return cell[1:] if cell.startswith("'") else cell


def counter_value(counter: Counter, col: str) -> Any:
    """What ``counter`` holds in layout column ``col``, as the model holds it (a number stays
    a number: the XLSX export writes it as a number cell). ``flags`` are joined with ``;``
    and ``illustrative`` is ``"true"`` or nothing, as in the CSV."""
    if col == "flags":
        return ";".join(counter.flags)
    if col == "illustrative":
        return "true" if counter.illustrative else None
    if "." in col:
        side_name, key = col.split(".", 1)
        side = getattr(counter, side_name, None)
        if side is None:
            return None
        return getattr(side, key) if key in ("designation", "state") else side.values.get(key)
    return getattr(counter, col, None)


def counter_cells(counter: Counter, cols: list[str]) -> list[str]:
    """One counter as the text of each layout column (before formula neutralising): the
    row :func:`export_csv` writes, and what the dry run compares."""
    return [format_value(counter_value(counter, col)) for col in cols]


def export_csv(counters: list[Counter], system: GameSystem | None = None) -> str:
    cols = columns_for(counters, system)
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    # csv quotes a cell holding "\n" but not one holding a lone "\r", which a reader then
    # takes for a line end: rows with a CR are written fully quoted.
    quoted = csv.writer(buf, lineterminator="\n", quoting=csv.QUOTE_ALL)
    writer.writerow(cols)
    for c in counters:
        cells = [neutralise(cell) for cell in counter_cells(c, cols)]
        (quoted if any("\r" in cell for cell in cells) else writer).writerow(cells)
    return buf.getvalue()


def read_header(text: str) -> list[str]:
    """The header row of a CSV text, read by the csv module (quoted commas stay inside their
    cell), stripped; ``[]`` for an empty or unreadable text. For a column-mapping dialog."""
    try:
        return [h.strip() for h in next(csv.reader(io.StringIO(text)))]
    except (StopIteration, csv.Error):
        return []


def known_column(col: str) -> bool:
    """Whether ``col`` (after mapping) is part of the layout."""
    return col in _KNOWN or (col.startswith(("front.", "back.")) and len(col.split(".", 1)[1]) > 0)


_KNOWN = frozenset(IDENTITY) | frozenset(POSITION) | frozenset(TRAILER)
REQUIRED = ("id", "name", "side", "category")


def column_letter(n: int) -> str:
    """Spreadsheet column letters of a 1-based column number: 1 → A, 27 → AA."""
    out = ""
    while n > 0:
        n, rem = divmod(n - 1, 26)
        out = chr(65 + rem) + out
    return out


@dataclass(frozen=True)
class BadCell:
    """A cell the file reader already refused (an XLSX formula, a date): ``read_table``
    reports it at its row and column instead of reading it."""

    reason: str

    def __len__(self) -> int:
        return 1  # a refused cell is not an empty cell


Cell = str | BadCell


@dataclass
class Rejected:
    """One refused cell, row or header, located ``file:row:column``.

    ``row`` is the row as the user's program numbers it (CSV: the row's first line in the
    file; XLSX: the sheet's row number; the header is row 1). ``column`` is the 1-based cell
    number, shown as a number for CSV (``file:line:col``) and as the column letter for a
    spreadsheet (``letters``), where the user sees letters."""

    row: int  # 0: the file as a whole (not a readable workbook, no sheet)
    reason: str
    column: int | None = None  # None: the whole row is to blame
    letters: bool = False

    @property
    def column_label(self) -> str | None:
        if self.column is None:
            return None
        return column_letter(self.column) if self.letters else str(self.column)

    def where(self, file: str) -> str:
        if self.row <= 0:
            return file
        label = self.column_label
        return f"{file}:{self.row}:{label}" if label else f"{file}:{self.row}"


@dataclass
class ImportResult:
    """What an import read. ``counters`` holds the rows that passed; apply them only when
    ``rejected`` is empty (:attr:`ok`): an import is all rows or nothing."""

    counters: list[Counter] = field(default_factory=list)
    rejected: list[Rejected] = field(default_factory=list)
    unmapped_columns: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.rejected


def import_csv(text: str, mapping: dict[str, str] | None = None, system: GameSystem | None = None) -> ImportResult:
    """Rows → counters. ``mapping`` renames their headers to ours (``{"Unit": "name"}``).

    With ``system``, cells are checked against it too (sides, categories, nationalities and
    movement classes it declares; its ``type: int`` fields hold a number or ``unknown``;
    model/counter_fields.py). Every problem is a :class:`Rejected` cell or row; callers
    apply the counters only when there is none (all rows or nothing)."""
    result = ImportResult()
    reader = csv.reader(io.StringIO(text))
    try:
        header = next(reader)
    except StopIteration:
        result.rejected.append(Rejected(1, "the file is empty: no header row"))
        return result
    except csv.Error as exc:
        result.rejected.append(Rejected(reader.line_num or 1, f"cannot read the header: {exc}"))
        return result

    def rows() -> Iterator[tuple[int, list[str]]]:
        while True:
            start = reader.line_num + 1  # the row's first physical line (quoted cells may span lines)
            try:
                row = next(reader)
            except StopIteration:
                return
            except csv.Error as exc:
                # Python's csv refuses a cell over csv.field_size_limit() (131,072): a cell far
                # over our own limit; the reader cannot go on past it.
                result.rejected.append(Rejected(start, f"cannot read this row ({exc}); a cell may hold at "
                                                f"most {MAX_CSV_FIELD:,} characters"))
                return
            yield start, [unneutralise(cell.strip()) for cell in row]

    read_table([h.strip() for h in header], rows(), mapping or {}, system, result, letters=False, exact_width=True)
    return result


def read_table(header: list[str], rows: Iterable[tuple[int, Sequence[Cell]]], mapping: dict[str, str],
               system: GameSystem | None, result: ImportResult, *, letters: bool, exact_width: bool) -> None:
    """Counters from a header and numbered rows of cell texts (CSV or XLSX), into ``result``.

    Cells arrive stripped and with any format escape removed (or as a :class:`BadCell` the
    reader refused). ``exact_width``: a row must
    have as many cells as the header (CSV); otherwise short rows are padded and a value
    beyond the last header is refused (a spreadsheet row ends at its last filled cell)."""
    cols = [mapping.get(h, h) for h in header]
    for col in cols:
        if col and not known_column(col) and col not in result.unmapped_columns:
            result.unmapped_columns.append(col)
    if not _header_ok(cols, header, result, letters):
        return
    types = [column_type(col, system) if known_column(col) else None for col in cols]
    system_name = system.name if system is not None else None
    first_row_of: dict[str, int] = {}
    id_col = cols.index("id")
    count = 0
    for row_no, cells in rows:
        row = list(cells)
        if not any(row):
            continue
        count += 1
        if count > MAX_CSV_ROWS:
            result.rejected.append(Rejected(row_no, f"more than {MAX_CSV_ROWS:,} counter rows; the limit is "
                                            f"{MAX_CSV_ROWS:,}; nothing past this row was read"))
            return
        if len(row) != len(cols):
            extra = next((i for i in range(len(cols), len(row)) if row[i]), None)
            if exact_width:
                result.rejected.append(Rejected(row_no, f"has {len(row)} cells, the header has {len(cols)}"))
                continue
            if extra is not None:
                cell = row[extra]
                shown = cell[:40] if isinstance(cell, str) else "a refused cell"
                result.rejected.append(Rejected(row_no, f"a value ({shown!r}) in a column with no header",
                                                extra + 1, letters))
                continue
            row = (row + [""] * len(cols))[:len(cols)]
        counter = _row_counter(row_no, row, cols, header, types, system_name, result, letters)
        if counter is None:
            continue
        if counter.id in first_row_of:
            result.rejected.append(Rejected(row_no, f"duplicate id {counter.id!r}: row {first_row_of[counter.id]} "
                                            "has it too", id_col + 1, letters))
            continue
        first_row_of[counter.id] = row_no
        result.counters.append(counter)


def _header_ok(cols: list[str], header: list[str], result: ImportResult, letters: bool) -> bool:
    """Header problems, each reported once (not once per row): a required column missing, a
    column given twice. False when rows cannot be read against this header."""
    ok = True
    seen: dict[str, int] = {}
    for i, col in enumerate(cols):
        if not col:
            continue
        if col in seen and known_column(col):
            first = column_letter(seen[col] + 1) if letters else str(seen[col] + 1)
            result.rejected.append(Rejected(1, f"column {col!r} appears twice (also column {first}){_was(header[i], col)}",
                                            i + 1, letters))
            ok = False
        seen.setdefault(col, i)
    for col in REQUIRED:
        if col not in seen:
            result.rejected.append(Rejected(1, f"no {col!r} column: every counter needs one (name a column "
                                            f"{col!r}, or map one of yours to it)"))
            ok = False
    return ok


def _was(theirs: str, ours: str) -> str:
    return f" (header {theirs!r})" if theirs != ours else ""


def _row_counter(row_no: int, row: list[Cell], cols: list[str], header: list[str], types: list[ColumnType | None],
                 system_name: str | None, result: ImportResult, letters: bool) -> Counter | None:
    """The counter one row describes, or None after adding every problem of the row."""
    problems: list[Rejected] = []
    blamed: set[int] = set()

    def refuse(i: int, reason: str) -> None:
        problems.append(Rejected(row_no, reason + _was(header[i], cols[i]), i + 1, letters))
        blamed.add(i + 1)

    data: dict[str, Any] = {"front": {"values": {}}}
    back: dict[str, Any] = {"values": {}}
    for i, (col, cell, ctype) in enumerate(zip(cols, row, types)):
        if ctype is None:
            continue  # not part of the layout: reported once as an unmapped column
        if isinstance(cell, BadCell):
            refuse(i, f"{col}: {cell.reason}")
            continue
        if len(cell) > MAX_CSV_FIELD:
            refuse(i, f"cell {col!r} holds {len(cell):,} characters; the limit is {MAX_CSV_FIELD:,}")
            continue
        if col == "id" and cell == "":
            refuse(i, "missing id: the id cell is empty; every counter needs one")
            continue
        if cell == "" and ctype.kind != "flag":
            continue
        value, problem = parse_cell(ctype, cell, system_name)
        if problem is not None:
            refuse(i, problem)
            continue
        if col == "flags":
            data["flags"] = [f for f in cell.split(";") if f]
        elif col == "illustrative":
            if value:
                data["illustrative"] = True
        elif col.startswith(("front.", "back.")):
            side_name, key = col.split(".", 1)
            target = data["front"] if side_name == "front" else back
            if key in ("designation", "state"):
                target[key] = cell
            else:
                # Typed columns carry their parsed value; text keeps the cell, which the
                # model turns into a number where it reads as one (model/counters.py).
                target["values"][key] = value if ctype.kind == "number" else cell
        else:
            data[col] = value if ctype.kind == "whole" else cell
    if back["values"] or "designation" in back or "state" in back:
        data["back"] = back
    counter = None
    try:
        counter = Counter.model_validate(data)
    except ValidationError as exc:
        for err in exc.errors(include_url=False):
            column = _column_of(err["loc"], cols)
            if column is not None and column in blamed:
                continue  # the cell's own problem is already reported
            where = ".".join(str(p) for p in err["loc"])
            reason = f"missing {where}" if err["type"] == "missing" else f"{where}: {err['msg']}"
            if err["type"] == "missing" and column is not None:
                reason += f": the {where} cell is empty"
            problems.append(Rejected(row_no, reason, column, letters))
    if problems:
        result.rejected.extend(problems)
        return None
    return counter


def _column_of(loc: tuple[Any, ...], cols: list[str]) -> int | None:
    """1-based cell number of a pydantic error location (``("front", "values", "attack")``
    → column ``front.attack``), or None when no single column holds it."""
    parts = [str(p) for p in loc if p != "values"]
    for name in (".".join(parts[:2]), parts[0] if parts else ""):
        if name in cols:
            return cols.index(name) + 1
    return None
