"""PROOF-SHEET-002: a counter's back is printed in the mirror slot of its front."""

from __future__ import annotations

from typing import Iterable

from model.counter_sheets import positioned
from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.proof._sheets import SHEET_CASE, sheet_layouts
from validators.rule import Rule


class BackInMirrorSlot(Rule):
    """An explicit back position is the mirror of the front: same row, column ``cols + 1 - col``.

    Rule case: Utah Components L1456 ("Sixteen full color counter sheets"); TKG L32 ("four die-cut countersheets")

    Why: a counter sheet is printed on both faces and turned over left to right (duplex,
    long-edge flip), so the back of the counter in column ``c`` is in column ``cols + 1 - c``
    of the back face, in the same row. A back given anywhere else (``back_row``/``back_col``)
    is printed behind another counter: the unit's reduced side ends up on someone else's
    cardboard.

    Violating example:
        # game.yaml: counter_sheets: [{id: A, rows: 2, cols: 4}]
        - {id: a1, ..., sheet: A, row: 1, col: 1, back_row: 1, back_col: 1}

    Correct example:
        - {id: a1, ..., sheet: A, row: 1, col: 1, back_row: 1, back_col: 4}

    Policy: sheet-width-declared: ``cols`` is the sheet's ``counter_sheets:`` entry in
    game.yaml (an error when wrong). sheet-width-from-max-col: a sheet game.yaml does not
    declare is as wide as the largest column its counters use; the mirror then rests on
    that guess, so the finding is a warning and names the policy.
    """

    code = "PROOF-SHEET-002"
    name = "back-in-mirror-slot"
    severity = Severity.ERROR
    groups = ("proof", "counters", "sheets")
    rule_case = SHEET_CASE
    scope = "bundle"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        sheets = sheet_layouts(ctx)
        for c in ctx.bundle.counters:
            if not positioned(c) or c.back_row is None or c.back_col is None:
                continue
            assert c.sheet is not None
            sheet = sheets[c.sheet]
            want = sheet.expected_back(c)
            if (c.back_row, c.back_col) == (want.row, want.col):
                continue
            width = (f"{sheet.cols} columns, declared" if sheet.declared
                     else f"{sheet.cols} columns, the largest col used on it")
            yield ctx.finding(self, f"counter {c.id}: its back is at row {c.back_row} col {c.back_col} of sheet "
                                    f"{sheet.id}, but the mirror of its front (row {c.row} col {c.col}) is row "
                                    f"{want.row} col {want.col} (sheet {width})",
                              c, "back_col" if c.back_col != want.col else "back_row", units=(c.id,),
                              severity=None if sheet.declared else Severity.WARNING, policy=sheet.policy)
