"""TKG-CTR-003."""

from __future__ import annotations

import re
from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.tkg._tkg import param
from validators.packs.tkg.ctr_001 import exponents
from validators.rule import Rule


class SetupExponents(Rule):
    """Setup exponents are one of +U0, +U1, +U2, 1, 2, E, 1E, 2E, and step losses leave the unit at least one step.

    Digest §8: CTR-03.

    Rule case: TKG [25.1.6]

    Why: [25.1.6] defines exactly these exponents: Untried (+U0/+U1/+U2), 1 or 2 step
    losses, and E for one Effectiveness lower. Any other mark, or losses that would
    eliminate the unit, cannot be set up.

    Violating example:
        setup: [{unit: us_8_inf, hex: W3826, state: ['exponent:3E']}]

    Correct example:
        setup: [{unit: us_8_inf, hex: W3826, state: ['exponent:1E']}]
    """

    code = "TKG-CTR-003"
    name = "setup-exponents"
    severity = Severity.ERROR
    groups = ("counters", "setup")
    rule_case = "TKG [25.1.6]"
    systems = ("tkg",)

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        assert ctx.scenario is not None
        allowed = set(param(ctx, "exponents", default=[]) or [])
        for e in ctx.scenario.setup:
            c = ctx.counters.get(e.unit)
            for x in exponents(e.state):
                if x not in allowed:
                    yield ctx.finding(self, f"exponent {x!r} on {e.unit} is not one of {', '.join(sorted(allowed))}",
                                      e, "state", units=(e.unit,))
                    continue
                m = re.match(r"^(\d)", x)
                if m and c is not None and c.steps is not None and int(m.group(1)) >= c.steps:
                    yield ctx.finding(self, f"{c.name} has {c.steps} steps; exponent {x} would leave none",
                                      e, "state", units=(e.unit,))
