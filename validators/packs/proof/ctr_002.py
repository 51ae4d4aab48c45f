"""PROOF-CTR-002: reduced-side values are not above full-side values."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.proof._values import is_reduced_back, monotone_fields, numeric
from validators.rule import Rule


class ReducedNotAboveFull(Rule):
    """A reduced side never prints a higher combat value than the full side.

    Rule case: GTS 19.2.4 (reduced side: FR, AR and TQ each −1); SFN 3.4 (reduced units)

    Why: a step loss weakens a unit. A reduced side with a higher attack, Fire Rating or TQ
    than its full side is a transposed row in the counter spreadsheet.

    Policy: the fields compared are ``params.proofing.reduced_not_above`` in the system
    definition when given; otherwise every numeric value both sides print except movement,
    range and defence ratings, which some systems raise on purpose ("reduced-side policy").

    Violating example: front ``{attack: 6}``, reduced back ``{attack: 7}``.

    Correct example: front ``{attack: 6}``, reduced back ``{attack: 3}``.
    """

    code = "PROOF-CTR-002"
    name = "reduced-not-above-full"
    severity = Severity.ERROR
    groups = ("proof", "counters")
    rule_case = "GTS 19.2.4; SFN 3.4"
    scope = "bundle"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        for c in ctx.bundle.counters:
            if c.back is None or not is_reduced_back(c):
                continue
            for key in monotone_fields(ctx.system, c.front.values, c.back.values):
                full, reduced = numeric(c.front.values.get(key)), numeric(c.back.values.get(key))
                if full is not None and reduced is not None and reduced > full:
                    yield ctx.finding(self, f"counter {c.id}: reduced {key} {c.back.values[key]} is above full {c.front.values[key]}",
                                      c.back, "values", key, units=(c.id,), policy="reduced-side policy")
