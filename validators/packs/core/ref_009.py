"""CORE-REF-009."""

from __future__ import annotations

import difflib
from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.rule import Rule


class OptionalRuleKnown(Rule):
    """Every optional rule a scenario switches on or off is one its game system defines.

    Rule case: Hexproof bundle format (system ``optional_rules``)

    Why: The play engine and the validators look optional rules up by their id in the
    system file. An id the system does not define (a typo such as ``great_storm``, or a
    rule of another game) is silently ignored: the scenario is played and checked without
    the rule its author meant to select.

    Violating example:
        optional_rules: {great_storm: true}        # the SFN system defines great_storms

    Correct example:
        optional_rules: {great_storms: true}
    """

    code = "CORE-REF-009"
    name = "optional-rule-known"
    severity = Severity.ERROR
    groups = ("references",)
    rule_case = "Hexproof bundle format"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        known = ctx.system.optional_rules
        for key in scen.optional_rules:
            if key in known:
                continue
            close = difflib.get_close_matches(key, list(known), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else (
                f"; it defines: {', '.join(sorted(known))}" if known else "; it defines none")
            yield ctx.finding(self, f"optional rule {key!r} is not defined by system {ctx.system.id!r}{hint}",
                              scen, "optional_rules", key)
