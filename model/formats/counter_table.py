"""Counter manifests as spreadsheet rows: a stable CSV column layout that round-trips.

Publishers keep their counter data in spreadsheets. The layout (documented in
``docs/counters-csv.md``) is one row per counter: identity columns, then ``front.<field>``
and ``back.<field>`` for every printed value (the system's ``counter_fields`` first, in
their order, then any others alphabetically). Empty cells mean "not printed"; the text
``unknown`` means the rules we hold do not give the value. ``flags`` are joined with ``;``.

Import accepts a column mapping (their header → our column) and reports every rejected
row with its row number and reason instead of dropping it silently.

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
from typing import Any

from pydantic import ValidationError

from model.counters import Counter
from model.limits import MAX_CSV_FIELD, MAX_CSV_ROWS
from model.system import GameSystem

IDENTITY = ["id", "name", "side", "category", "nationality", "army", "division", "formation", "battalion",
            "size", "movement_class", "steps", "count", "parent", "leader_of", "flags"]
TRAILER = ["illustrative", "rule", "note"]


def columns_for(counters: list[Counter], system: GameSystem | None = None) -> list[str]:
    """The stable column order for these counters."""
    declared = [f.id for f in system.counter_fields] if system else []
    cols = list(IDENTITY)
    for side in ("front", "back"):
        seen = {k for c in counters for s in [getattr(c, side)] if s is not None for k in s.values}
        ordered = [k for k in declared if k in seen or side == "front"] + sorted(seen - set(declared))
        cols += [f"{side}.designation", f"{side}.state"]
        cols += [f"{side}.{k}" for k in ordered]
    return cols + TRAILER


def _cell(value: Any) -> str:
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


def export_csv(counters: list[Counter], system: GameSystem | None = None) -> str:
    cols = columns_for(counters, system)
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    # csv quotes a cell holding "\n" but not one holding a lone "\r", which a reader then
    # takes for a line end: rows with a CR are written fully quoted.
    quoted = csv.writer(buf, lineterminator="\n", quoting=csv.QUOTE_ALL)
    writer.writerow(cols)
    for c in counters:
        row = []
        for col in cols:
            if col == "flags":
                row.append(";".join(c.flags))
            elif col in ("illustrative",):
                row.append("true" if c.illustrative else "")
            elif "." in col:
                side_name, key = col.split(".", 1)
                side = getattr(c, side_name)
                if side is None:
                    row.append("")
                elif key in ("designation", "state"):
                    row.append(_cell(getattr(side, key)))
                else:
                    row.append(_cell(side.values.get(key)))
            else:
                row.append(_cell(getattr(c, col)))
        cells = [neutralise(cell) for cell in row]
        (quoted if any("\r" in cell for cell in cells) else writer).writerow(cells)
    return buf.getvalue()


@dataclass
class Rejected:
    row: int  # 1-based line number in the file, header = 1
    reason: str
    column: int | None = None  # 1-based cell number, when one cell is to blame

    def where(self, file: str) -> str:
        return f"{file}:{self.row}:{self.column}" if self.column else f"{file}:{self.row}"


@dataclass
class ImportResult:
    counters: list[Counter] = field(default_factory=list)
    rejected: list[Rejected] = field(default_factory=list)
    unmapped_columns: list[str] = field(default_factory=list)


def import_csv(text: str, mapping: dict[str, str] | None = None) -> ImportResult:
    """Rows → counters. ``mapping`` renames their headers to ours (``{"Unit": "name"}``).

    Every problem is a :class:`Rejected` row (with its cell number where one cell is to
    blame); callers apply the counters only when there is none (all rows or nothing)."""
    mapping = mapping or {}
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
    cols = [mapping.get(h.strip(), h.strip()) for h in header]
    known = set(IDENTITY) | set(TRAILER)
    for col in cols:
        if col not in known and not col.startswith(("front.", "back.")):
            result.unmapped_columns.append(col)
    unmapped = set(result.unmapped_columns)
    seen_ids: set[str] = set()
    rows = 0
    while True:
        start = reader.line_num + 1  # the row's first physical line (quoted cells may span lines)
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            # Python's csv refuses a cell over csv.field_size_limit() (131,072): a cell far
            # over our own limit; the reader cannot go on past it.
            result.rejected.append(Rejected(start, f"cannot read this row ({exc}); a cell may hold at "
                                            f"most {MAX_CSV_FIELD:,} characters"))
            break
        line_no = start
        if not any(cell.strip() for cell in row):
            continue
        rows += 1
        if rows > MAX_CSV_ROWS:
            result.rejected.append(Rejected(line_no, f"more than {MAX_CSV_ROWS:,} counter rows; the limit is "
                                            f"{MAX_CSV_ROWS:,}; nothing past this row was read"))
            break
        if len(row) != len(cols):
            result.rejected.append(Rejected(line_no, f"has {len(row)} cells, the header has {len(cols)}"))
            continue
        too_long = next((i for i, cell in enumerate(row) if len(cell) > MAX_CSV_FIELD), None)
        if too_long is not None:
            result.rejected.append(Rejected(line_no, f"cell {cols[too_long]!r} holds {len(row[too_long]):,} "
                                            f"characters; the limit is {MAX_CSV_FIELD:,}", too_long + 1))
            continue
        data: dict[str, Any] = {"front": {"values": {}}}
        back: dict[str, Any] = {"values": {}}
        for col, cell in zip(cols, row):
            cell = unneutralise(cell.strip())
            if col in unmapped or cell == "":
                continue
            if col == "flags":
                data["flags"] = [f for f in cell.split(";") if f]
            elif col == "illustrative":
                data["illustrative"] = cell.lower() in ("true", "yes", "1", "y")
            elif col.startswith("front."):
                key = col[6:]
                if key in ("designation", "state"):
                    data["front"][key] = cell
                else:
                    data["front"]["values"][key] = cell
            elif col.startswith("back."):
                key = col[5:]
                if key in ("designation", "state"):
                    back[key] = cell
                else:
                    back["values"][key] = cell
            else:
                data[col] = cell
        if back["values"] or "designation" in back or "state" in back:
            data["back"] = back
        try:
            counter = Counter.model_validate(data)
        except ValidationError as exc:
            errs = exc.errors(include_url=False)
            reasons = "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" if e["type"] != "missing"
                                else f"missing {'.'.join(str(p) for p in e['loc'])}" for e in errs)
            result.rejected.append(Rejected(line_no, reasons, _column_of(errs[0]["loc"], cols)))
            continue
        if counter.id in seen_ids:
            result.rejected.append(Rejected(line_no, f"duplicate id {counter.id!r}", _column_of(("id",), cols)))
            continue
        seen_ids.add(counter.id)
        result.counters.append(counter)
    return result


def _column_of(loc: tuple[Any, ...], cols: list[str]) -> int | None:
    """1-based cell number of a pydantic error location (``("front", "values", "attack")``
    → column ``front.attack``), or None when no single column holds it."""
    parts = [str(p) for p in loc if p != "values"]
    for name in (".".join(parts[:2]), parts[0] if parts else ""):
        if name in cols:
            return cols.index(name) + 1
    return None
