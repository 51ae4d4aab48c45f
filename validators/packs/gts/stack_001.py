"""GTS-STACK-001: one Column unit per hex; more than 8 steps is overstacked."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.gts._gts import SYSTEMS, counter, steps_of
from validators.rule import Rule


class Stacking(Rule):
    """At setup, no hex holds two units in Column (error) and no hex holds more than 8
    steps of units that count for stacking (warning: overstacking is legal but penalised).

    Rule case: 14.7 (up to 8 steps when not in Column, and one Unit in Column)

    Why: two Column units in a hex are illegal; more than 8 steps is allowed but every unit
    leaving takes a Cohesion Hit, which a designer should mean.

    Policy: units whose step count is ``unknown`` are left out of the step total (and the
    message says how many were skipped); leaders and markers never count [14.7].

    Violating example: two setup entries in 33.040, both with ``state: [column]``.

    Correct example: one Column unit per hex.
    """

    code = "GTS-STACK-001"
    name = "stacking"
    severity = Severity.ERROR
    groups = ("stacking", "gts")
    rule_case = "14.7"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        limit = ctx.system.stacking.max_steps or 8
        max_col = int(ctx.system.stacking.limits.get("column_units", 1))
        cats = ctx.system.category_by_id
        by_hex: dict = {}
        for e in scen.setup:
            if e.hex is not None:
                by_hex.setdefault(e.hex, []).append(e)
        for h, entries in by_hex.items():
            column = [e for e in entries if "column" in e.state]
            if len(column) > max_col:
                yield ctx.finding(self, f"{len(column)} units in Column at {ctx.label(h)} (at most {max_col})",
                                  column[-1], "state", hexes=(h,), units=tuple(e.unit for e in column))
            total, unknown = 0, 0
            for e in entries:
                c = counter(ctx, e.unit)
                if c is None or (c.category in cats and not cats[c.category].counts_for_stacking):
                    continue
                s = steps_of(c)
                if s is None:
                    unknown += 1
                else:
                    total += s
            if total > limit:
                yield ctx.finding(self, f"{total} steps at {ctx.label(h)}: overstacked (limit {limit})"
                                  + (f"; {unknown} unit(s) with unknown steps not counted" if unknown else ""),
                                  entries[-1], "hex", hexes=(h,), severity=Severity.WARNING)
