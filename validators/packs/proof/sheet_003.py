"""PROOF-SHEET-003: a counter sheet has no empty slot between filled ones."""

from __future__ import annotations

from typing import Iterable

from model.counters import Counter
from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.proof._sheets import SHEET_CASE, sheet_layouts, sheet_node
from validators.rule import Rule

SHOWN = 12  # slots named in the message; the rest are counted


class SheetGaps(Rule):
    """A counter sheet has no empty slot before its last filled one (reading row by row).

    Rule case: Utah Components L1456 ("Sixteen full color counter sheets"); TKG L32 ("four die-cut countersheets")

    Why: die-cut sheets are printed full; an empty slot between filled ones is most often a
    counter left out of the manifest, or one given the wrong row or column. Blank slots
    after the last counter (the end of a part-filled sheet) are not gaps. A warning, not an
    error: a publisher may leave a slot blank on purpose (suppress the code for that sheet's
    bundle, or fill it with a marker).

    Violating example:
        - {id: a1, ..., sheet: A, row: 1, col: 1}
        - {id: x1, ..., sheet: A, row: 1, col: 3}   # row 1 col 2 is empty

    Correct example:
        - {id: a1, ..., sheet: A, row: 1, col: 1}
        - {id: x1, ..., sheet: A, row: 1, col: 2}

    Policy: sheet-width-from-max-col: on a sheet game.yaml does not declare, a row is as
    long as the largest column used, so an empty slot at the end of a shorter row counts.
    """

    code = "PROOF-SHEET-003"
    name = "sheet-gaps"
    severity = Severity.WARNING
    groups = ("proof", "counters", "sheets")
    rule_case = SHEET_CASE
    scope = "bundle"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        for sheet in sheet_layouts(ctx).values():
            gaps = sheet.gaps()
            if not gaps:
                continue
            named = ", ".join(f"row {g.row} col {g.col}" for g in gaps[:SHOWN])
            more = f" and {len(gaps) - SHOWN} more" if len(gaps) > SHOWN else ""
            node = sheet_node(ctx, sheet)
            units = (node.id,) if isinstance(node, Counter) else ()
            yield ctx.finding(self, f"sheet {sheet.id}: {len(gaps)} empty slot{'s' if len(gaps) != 1 else ''} "
                                    f"between filled ones: {named}{more}", node, units=units, policy=sheet.policy)
