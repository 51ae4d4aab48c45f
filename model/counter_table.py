"""Counter manifests as spreadsheet rows: a stable CSV column layout that round-trips.

Publishers keep their counter data in spreadsheets. The layout (documented in
``docs/counters-csv.md``) is one row per counter: identity columns, then ``front.<field>``
and ``back.<field>`` for every printed value (the system's ``counter_fields`` first, in
their order, then any others alphabetically). Empty cells mean "not printed"; the text
``unknown`` means the rules we hold do not give the value. ``flags`` are joined with ``;``.

Import accepts a column mapping (their header → our column) and reports every rejected
row with its row number and reason instead of dropping it silently.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from model.counters import Counter
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


def export_csv(counters: list[Counter], system: GameSystem | None = None) -> str:
    cols = columns_for(counters, system)
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
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
        writer.writerow(row)
    return buf.getvalue()


@dataclass
class Rejected:
    row: int  # 1-based line number in the file, header = 1
    reason: str


@dataclass
class ImportResult:
    counters: list[Counter] = field(default_factory=list)
    rejected: list[Rejected] = field(default_factory=list)
    unmapped_columns: list[str] = field(default_factory=list)


def import_csv(text: str, mapping: dict[str, str] | None = None) -> ImportResult:
    """Rows → counters. ``mapping`` renames their headers to ours (``{"Unit": "name"}``)."""
    mapping = mapping or {}
    result = ImportResult()
    reader = csv.reader(io.StringIO(text))
    try:
        header = next(reader)
    except StopIteration:
        result.rejected.append(Rejected(1, "the file is empty: no header row"))
        return result
    cols = [mapping.get(h.strip(), h.strip()) for h in header]
    known = set(IDENTITY) | set(TRAILER)
    for col in cols:
        if col not in known and not col.startswith(("front.", "back.")):
            result.unmapped_columns.append(col)
    seen_ids: set[str] = set()
    for line_no, row in enumerate(reader, start=2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(cols):
            result.rejected.append(Rejected(line_no, f"has {len(row)} cells, the header has {len(cols)}"))
            continue
        data: dict[str, Any] = {"front": {"values": {}}}
        back: dict[str, Any] = {"values": {}}
        for col, cell in zip(cols, row):
            cell = cell.strip()
            if col in result.unmapped_columns or cell == "":
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
            reasons = "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" if e["type"] != "missing"
                                else f"missing {'.'.join(str(p) for p in e['loc'])}" for e in exc.errors(include_url=False))
            result.rejected.append(Rejected(line_no, reasons))
            continue
        if counter.id in seen_ids:
            result.rejected.append(Rejected(line_no, f"duplicate id {counter.id!r}"))
            continue
        seen_ids.add(counter.id)
        result.counters.append(counter)
    return result
