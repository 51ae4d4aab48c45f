"""Shared for the PROOF-SHEET rules: the bundle's sheet layouts, and where a sheet is written."""

from __future__ import annotations

from model.base import Node
from model.counter_sheets import SheetLayout, layouts
from validators.context import RuleContext

# Cited by every PROOF-SHEET rule: the rules say counters come on printed sheets, not how a
# sheet is laid out; the layout checks are print production (docs/counters-csv.md).
SHEET_CASE = 'Utah Components L1456 ("Sixteen full color counter sheets"); TKG L32 ("four die-cut countersheets")'


def sheet_layouts(ctx: RuleContext) -> dict[str, SheetLayout]:
    return layouts(ctx.bundle.counters, ctx.bundle.game.counter_sheets)


def sheet_node(ctx: RuleContext, sheet: SheetLayout) -> Node | None:
    """The node to locate a whole-sheet finding at: its game.yaml declaration, else the
    first counter printed on it."""
    declared = next((s for s in ctx.bundle.game.counter_sheets if s.id == sheet.id), None)
    if declared is not None:
        return declared
    return sheet.fronts[0].counter if sheet.fronts else None


def slot_text(sheet: SheetLayout, row: int, col: int) -> str:
    return f"sheet {sheet.id} row {row} col {col}"
