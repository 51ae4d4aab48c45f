"""TKG-CTR-001."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.tkg._tkg import param
from validators.rule import Rule

UNTRIED = {"+U0", "+U1", "+U2"}


def exponents(state: list[str]) -> list[str]:
    return [s.split(":", 1)[1] for s in state if s.startswith("exponent:")]


class ChitsOnlyOnRegiments(Rule):
    """Strength and Untried chits (setup exponents) go only on regiments and brigades, and Untried chits only on Allied units.

    Digest §8: CTR-01.

    Rule case: TKG [9.5.1]

    Why: Battalions, artillery and HQs use their printed strength and never take chits
    [9.5.1]; Untried Effectiveness chits are Allied only [9.3.1]. A setup exponent
    ([25.1.6]) on any other unit has no meaning.

    Violating example:
        setup: [{unit: de_916_gr, hex: W3826, state: ['exponent:+U1']}]

    Correct example:
        setup: [{unit: us_8_inf, hex: W3826, state: ['exponent:+U1']}]

    Policy: A setup exponent is the state word ``exponent:<value>``; the chit-bearing
    categories are the system param ``chit_units``.
    """

    code = "TKG-CTR-001"
    name = "chits-only-on-regiments"
    severity = Severity.ERROR
    groups = ("counters", "setup")
    rule_case = "TKG [9.5.1]"
    systems = ("tkg",)

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        assert ctx.scenario is not None
        chit_units = set(param(ctx, "chit_units", default=["regiment", "brigade"]) or [])
        for e in ctx.scenario.setup:
            c = ctx.counters.get(e.unit)
            exps = exponents(e.state)
            if c is None or not exps:
                continue
            if c.category not in chit_units:
                yield ctx.finding(self, f"{c.name} is a {c.category}: only {', '.join(sorted(chit_units))} take "
                                        "strength/Untried chits [9.5.1]", e, "state", units=(e.unit,))
            elif c.side != "allied" and any(x in UNTRIED for x in exps):
                yield ctx.finding(self, f"{c.name}: Untried chits are Allied only [9.3.1]", e, "state", units=(e.unit,))
