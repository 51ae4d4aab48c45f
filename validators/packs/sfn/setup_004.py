"""SFN-SETUP-004."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic
from validators.context import RuleContext
from validators.packs.sfn._sfn import SYSTEMS, active_area, hex_code, param
from validators.rule import Rule


class DieppeGarrisonShift(Rule):
    """When the Allies land at Dieppe, the German unit printed 1510 sets up in 1511.

    Rule case: SFN 3.4
    Why: "If the Allies invade the Dieppe area, the German unit deployed in the town of
    Dieppe (1510) retreats to (sets up in) hex 1511."
    Violating example: Dieppe landing with the garrison ``adjacent_to: '1510'`` or ``hex: '1512'``.
    Correct example: Dieppe landing with ``{unit: de-dieppe-garrison, hex: '1511'}``.
    """

    code = "SFN-SETUP-004"
    name = "dieppe-garrison-shift"
    groups = ("setup",)
    rule_case = "SFN 3.4"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        shift = param(ctx, "dieppe_garrison_shift")
        if active_area(ctx) != shift.get("area"):
            return
        src, dst = str(shift.get("from")), ctx.hmap.parse(str(shift.get("to")))
        for entry in scen.setup:
            code = hex_code(ctx.counters.get(entry.unit))
            if code is None or code[0] != src:
                continue
            if entry.hex != dst or entry.alternatives:
                yield ctx.finding(self, f"{entry.unit} (printed {src}) must set up in {ctx.label(dst)} when the Allies "
                                  f"land at Dieppe", entry, units=[entry.unit], hexes=[dst])
