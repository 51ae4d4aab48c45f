"""CORE-UNIT-002."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.rule import Rule


class CounterIdsUnique(Rule):
    """Every counter in the manifest has its own id.

    Rule case: Hexproof bundle format (counter manifest)

    Why: Scenarios name counters by id; two counters with one id make every setup and
    schedule line naming it ambiguous, and the second definition silently wins in look-ups.

    Violating example:
        counters:
        - {id: a1, name: 1st Inf, side: allied, category: inf}
        - {id: a1, name: 2nd Inf, side: allied, category: inf}

    Correct example:
        counters:
        - {id: a1, name: 1st Inf, side: allied, category: inf}
        - {id: a2, name: 2nd Inf, side: allied, category: inf}
    """

    code = "CORE-UNIT-002"
    name = "counter-ids-unique"
    severity = Severity.ERROR
    groups = ("units",)
    rule_case = "Hexproof bundle format"
    scope = "bundle"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        seen: set[str] = set()
        for c in ctx.bundle.counters:
            if c.id in seen:
                yield ctx.finding(self, f"counter id {c.id!r} is used by more than one counter", c, "id", units=(c.id,))
            seen.add(c.id)
