"""PROOF-SHEET-001: every printed slot holds one counter, on the sheet."""

from __future__ import annotations

from typing import Iterable

from model.counter_sheets import COPIES, Placed, SheetLayout, missing_position_fields
from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.proof._sheets import SHEET_CASE, sheet_layouts, slot_text
from validators.rule import Rule


class SheetSlots(Rule):
    """Each slot of a counter sheet holds one counter, inside the sheet, fully positioned.

    Rule case: Utah Components L1456 ("Sixteen full color counter sheets"); TKG L32 ("four die-cut countersheets")

    Why: a publisher proofs counter sheets as printed. Two counters given the same slot
    (``sheet``, ``row``, ``col``) cannot both be printed: one of them is missing from the
    sheet. The same holds on the back face (two backs in one slot). A slot outside the
    sheet's declared ``rows``/``cols`` (game.yaml ``counter_sheets:``) falls off the paper,
    a position with only some of ``sheet``/``row``/``col`` (or ``back_row`` without
    ``back_col``) cannot be placed at all, and two ``counter_sheets`` entries with one id
    give the sheet two sizes (the first applies).

    Violating example:
        counters:
        - {id: a1, ..., sheet: A, row: 1, col: 1}
        - {id: x1, ..., sheet: A, row: 1, col: 1}

    Correct example:
        counters:
        - {id: a1, ..., sheet: A, row: 1, col: 1}
        - {id: x1, ..., sheet: A, row: 1, col: 2}

    Policy: sheet-copies-along-row: a counter with ``count: n`` fills ``n`` slots along its
    row, from ``col`` rightwards; findings about a copy past the first carry this policy.
    """

    code = "PROOF-SHEET-001"
    name = "sheet-slots"
    severity = Severity.ERROR
    groups = ("proof", "counters", "sheets")
    rule_case = SHEET_CASE
    scope = "bundle"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        declared: set[str] = set()
        for sheet in ctx.bundle.game.counter_sheets:
            if sheet.id in declared:
                yield ctx.finding(self, f"two counter_sheets entries have the id {sheet.id!r}: the first one's "
                                        "size applies", sheet, "id")
            declared.add(sheet.id)
        for c in ctx.bundle.counters:
            missing = missing_position_fields(c)
            if missing:
                yield ctx.finding(self, f"counter {c.id}: a sheet position needs {', '.join(missing)} as well "
                                        "(sheet, row and col together; back_row with back_col)", c, missing[0],
                                  units=(c.id,))
        for sheet in sheet_layouts(ctx).values():
            yield from self._face(ctx, sheet, sheet.fronts, "front")
            yield from self._face(ctx, sheet, sheet.backs, "back")

    def _face(self, ctx: RuleContext, sheet: SheetLayout, placed: list[Placed], face: str) -> Iterable[Diagnostic]:
        fields = ("row", "col") if face == "front" else ("back_row", "back_col")
        first: dict[tuple[int, int], Placed] = {}
        for p in placed:
            c, where = p.counter, slot_text(sheet, p.slot.row, p.slot.col)
            copy = f" (copy {p.copy + 1} of {c.count})" if c.count > 1 else ""
            policy = COPIES if p.copy else None
            node_field = fields[1] if c.back_col is not None or face == "front" else "col"
            if not sheet.on_sheet(p.slot):
                size = f"{sheet.rows or '?'} rows × {sheet.cols} columns"
                yield ctx.finding(self, f"counter {c.id}{copy}: its {face} at {where} is off the sheet ({size})",
                                  c, node_field, units=(c.id,), policy=policy)
                continue
            key = (p.slot.row, p.slot.col)
            other = first.get(key)
            if other is None:
                first[key] = p
                continue
            what = f"counter {other.counter.id}" + (f" (copy {other.copy + 1})" if other.counter.count > 1 else "")
            yield ctx.finding(self, f"counter {c.id}{copy}: its {face} is at {where}, where {what} already is "
                                    f"({face} face)", c, node_field, units=(c.id, other.counter.id),
                              policy=policy or (COPIES if other.copy else None))
