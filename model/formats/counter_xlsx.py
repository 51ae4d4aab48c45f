"""Counter manifests as an XLSX workbook (openpyxl): the CSV layout, cell for cell.

Export writes one sheet, ``counters``, with the same columns as the CSV
(model/formats/counter_table.py ``columns_for``). Numbers the model holds as numbers are
number cells; everything else is a text cell, *forced* to text: openpyxl would otherwise
store a value starting with ``=`` as a formula, which a spreadsheet runs when the file is
opened. Text cells hold the exact text (no ``'`` escape, unlike the CSV: a text cell can
never be a formula), so export → import gives back the exact counters.

Import reads the sheet named ``counters`` (else the first), header in row 1, through the
same strict row reader as the CSV (``read_table``). A cell the reader cannot take as a value
is refused where it is: a formula (its result is not stored by every program, and we do not
compute it), a date or time, an error value (``#DIV/0!``). Locations are
``file:row:column-letter`` (``counters.xlsx:7:C``), as the spreadsheet shows them.

The file is checked before openpyxl unpacks it: a zip whose members would unpack to more
than :data:`~model.limits.MAX_XLSX_UNPACKED` bytes, or compress by more than
:data:`~model.limits.MAX_XLSX_RATIO` to one, is refused (a small file must not fill memory).
openpyxl parses the XML through defusedxml, a declared dependency.
"""

from __future__ import annotations

import datetime as dt
import io
import re
import zipfile
from typing import Any, Iterator

from model.counters import Counter
from model.formats.counter_table import (BadCell, Cell, ImportResult, Rejected, columns_for, counter_value,
                                         read_table, format_value)
from model.limits import MAX_XLSX_RATIO, MAX_XLSX_UNPACKED
from model.system import GameSystem

SHEET = "counters"
# Characters XML 1.0 (so an XLSX cell) cannot hold: C0 controls other than tab, LF and CR.
_NOT_IN_XML = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")


class XlsxExportError(ValueError):
    """A counter value an XLSX cell cannot hold; says which counter and column."""


def export_xlsx(counters: list[Counter], system: GameSystem | None = None) -> bytes:
    """The workbook's bytes: header row, then one row per counter. Raises
    :class:`XlsxExportError` for a value no XLSX cell can hold (checked before the workbook
    is begun)."""
    from openpyxl import Workbook
    from openpyxl.cell import WriteOnlyCell

    cols = columns_for(counters, system)
    rows: list[list[int | float | str | None]] = []
    for c in counters:
        row: list[int | float | str | None] = []
        for col in cols:
            value = counter_value(c, col)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                row.append(value)
                continue
            text = format_value(value)
            if (bad := _NOT_IN_XML.search(text)) is not None:
                raise XlsxExportError(f"counter {c.id!r}, column {col}: holds the control character "
                                      f"U+{ord(bad.group()):04X}, which an XLSX cell cannot store "
                                      "(export as CSV, or remove it)")
            row.append(text or None)  # empty: no cell at all
        rows.append(row)
    wb = Workbook(write_only=True)
    ws = wb.create_sheet(SHEET)
    ws.append([_text(ws, WriteOnlyCell, col) for col in cols])
    for row in rows:
        ws.append([_text(ws, WriteOnlyCell, v) if isinstance(v, str) else v for v in row])
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def _text(ws: Any, cell_type: Any, text: str) -> Any:
    cell = cell_type(ws, value=text)
    cell.data_type = "s"  # never "f": text that starts with "=" stays text
    return cell


def check_archive(data: bytes) -> str | None:
    """Why ``data`` is not a workbook we will unpack, or None."""
    if not data.startswith(b"PK\x03\x04"):
        return "not an XLSX workbook (an .xlsx file is a zip archive; this file is not one)"
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            total = 0
            for info in zf.infolist():
                total += info.file_size
                if info.file_size > MAX_XLSX_RATIO * max(info.compress_size, 1) and info.file_size > 1 << 20:
                    return (f"part {info.filename!r} would unpack {info.file_size // max(info.compress_size, 1):,} "
                            f"times larger than it is stored; refusing it (at most {MAX_XLSX_RATIO} times)")
            if total > MAX_XLSX_UNPACKED:
                return f"the workbook unpacks to {total:,} bytes; the limit is {MAX_XLSX_UNPACKED:,}"
    except zipfile.BadZipFile as exc:
        return f"not a readable XLSX workbook: {exc}"
    return None


def _open(data: bytes, result: ImportResult) -> Any:
    """The worksheet to read, or None after a file-level :class:`Rejected` (row 0)."""
    problem = check_archive(data)
    if problem is not None:
        result.rejected.append(Rejected(0, problem))
        return None
    from openpyxl import load_workbook

    try:
        wb = load_workbook(io.BytesIO(data), read_only=True, data_only=False)
    except Exception as exc:  # noqa: BLE001 - openpyxl raises many kinds for a damaged file
        result.rejected.append(Rejected(0, f"not a readable XLSX workbook: {type(exc).__name__}: {exc}"))
        return None
    if not wb.worksheets:
        result.rejected.append(Rejected(0, "the workbook has no worksheet"))
        return None
    return wb[SHEET] if SHEET in wb.sheetnames else wb.worksheets[0]


def cell_text(cell: Any) -> Cell:
    """A cell as text (numbers plainly, ``3.0`` as ``3``), or a :class:`BadCell`."""
    value = getattr(cell, "value", None)
    kind = getattr(cell, "data_type", None)
    if value is None:
        return ""
    if kind == "f" or (isinstance(value, str) and kind != "s" and value.startswith("=")):
        return BadCell(f"holds a formula ({str(value)[:40]}); Hexproof reads values, not formulas: "
                       "paste the values in (Paste Special ▸ Values)")
    if kind == "e":
        return BadCell(f"holds an error value ({value}); type the value")
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    if isinstance(value, (dt.datetime, dt.date, dt.time, dt.timedelta)):
        return BadCell(f"holds a date or time ({value}); a counter value is a number or text: "
                       "format the cell as text and type it again")
    return str(value).strip()


def _rows(ws: Any) -> Iterator[tuple[int, list[Cell]]]:
    n = 0
    for row in ws.iter_rows(min_row=1):
        # A filled cell knows its row; an empty row (openpyxl fills gaps) is the next number.
        n = next((c.row for c in row if getattr(c, "row", None)), n + 1)
        yield n, [cell_text(c) for c in row]


def read_xlsx_header(data: bytes) -> list[str]:
    """Row 1 of the sheet as text (for a column-mapping dialog); ``[]`` if unreadable."""
    result = ImportResult()
    ws = _open(data, result)
    if ws is None:
        return []
    for _, row in _rows(ws):
        return [c if isinstance(c, str) else "" for c in row]
    return []


def import_xlsx(data: bytes, mapping: dict[str, str] | None = None, system: GameSystem | None = None) -> ImportResult:
    """Rows of the workbook → counters, as strictly as :func:`~model.formats.counter_table.import_csv`."""
    result = ImportResult()
    ws = _open(data, result)
    if ws is None:
        return result
    rows = _rows(ws)
    first = next(rows, None)
    if first is None or first[0] != 1 or not any(first[1]):
        more = first is not None and any(any(cells) for _, cells in [first, *rows])
        result.rejected.append(Rejected(1, "row 1 is empty: the header (id, name, side, category, …) goes in row 1"
                                        if more else "the sheet is empty: no header row"))
        return result
    header = []
    for i, cell in enumerate(first[1]):
        if isinstance(cell, BadCell):
            result.rejected.append(Rejected(1, f"header {cell.reason}", i + 1, letters=True))
            return result
        header.append(cell)
    while header and not header[-1]:
        header.pop()  # a formatted but empty cell after the last header is not a column
    read_table(header, rows, mapping or {}, system, result, letters=True, exact_width=False)
    return result
