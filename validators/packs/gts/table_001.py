"""GTS-TABLE-001: every d10 table in the data covers each face 0–9 exactly once."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.gts._data import data_param, roll_faces
from validators.packs.gts._gts import SYSTEMS
from validators.rule import Rule

FACES = tuple(range(10))


class D10Coverage(Rule):
    """Each table of ``die_tables`` with ``die: d10`` gives exactly one row for every face
    0–9 (GTS dice read 0–9).

    Rule case: Excl 6.0 (errata 6.0: "Roll 6 Allied Troops are Lost and Roll 7 German Troops
    are Lost" — the printed table lists rolls 0–5 only)

    Why: a d10 roll with no row stops play; the printed Random Events table covers 0–5 while
    the errata cite results 6 and 7 (errata R10).

    Policy: a row whose result is the word ``unknown`` covers its faces — the data then says
    openly that the rules do not give the result, which is the project's convention.

    Violating example: ``random_events`` rows for rolls 0–5 only.

    Correct example: rows 0–1, 2, 3, 4, 5, 6, 7 (errata) and ``{roll: 8-9, result: unknown}``.
    """

    code = "GTS-TABLE-001"
    name = "d10-coverage"
    severity = Severity.ERROR
    groups = ("tables", "gts")
    rule_case = "Excl 6.0"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        tables, node, fields = data_param(ctx, "die_tables")
        if not isinstance(tables, dict):
            return
        for tid, table in sorted(tables.items()):
            if not isinstance(table, dict) or str(table.get("die", "d10")) != "d10":
                continue
            count = {f: 0 for f in FACES}
            for i, row in enumerate(table.get("rows", []) or []):
                faces = roll_faces(row.get("roll")) if isinstance(row, dict) else None
                if faces is None or any(f not in count for f in faces):
                    yield ctx.finding(self, f"die table {tid}: row {i} has roll {row.get('roll') if isinstance(row, dict) else row!r}, "
                                      "not faces 0-9", node, *fields, tid, "rows", i)
                    continue
                for f in faces:
                    count[f] += 1
            missing = [str(f) for f in FACES if count[f] == 0]
            twice = [str(f) for f in FACES if count[f] > 1]
            if missing:
                yield ctx.finding(self, f"die table {tid}: no row for roll {', '.join(missing)}", node, *fields, tid)
            if twice:
                yield ctx.finding(self, f"die table {tid}: several rows for roll {', '.join(twice)}", node, *fields, tid)
