"""CORE-UNIT-001."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.core._scan import unit_key
from validators.rule import Rule


class UnitSetUpOnce(Rule):
    """No unit is listed twice in a scenario's setup, by id or by name.

    Rule case: Hexproof bundle format (one setup line per counter)

    Why: A counter can be in one place at a time. Setup lists copied from a rulebook often
    repeat a unit under a slightly different spelling ("6. gem Flak 153" and "6 Gem. Flak
    153"), so names are compared with ``normalize_name`` as well as ids.

    Policy: a counter with ``count`` N (N identical copies in the mix) may be listed N times.

    Violating example:
        setup:
        - {unit: x1, hex: '0402'}
        - {unit: 91st Inf, hex: '0502'}   # the name of x1 again

    Correct example:
        setup:
        - {unit: x1, hex: '0402'}
        - {unit: a1, hex: '0502'}
    """

    code = "CORE-UNIT-001"
    name = "unit-set-up-once"
    severity = Severity.ERROR
    groups = ("units",)
    rule_case = "Hexproof bundle format"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        assert ctx.scenario is not None
        seen: dict[str, int] = {}
        for e in ctx.scenario.setup:
            key = unit_key(ctx, e.unit)
            seen[key] = seen.get(key, 0) + 1
            counter = ctx.counters.get(key)
            allowed = counter.count if counter is not None else 1
            if seen[key] == allowed + 1:
                yield ctx.finding(self, f"unit {e.unit!r} is set up more than {allowed} time(s)", e, "unit",
                                  units=(key.lstrip("?"),))
