"""CORE-CFG-001."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.config import code_matches
from validators.context import RuleContext
from validators.registry import default_registry
from validators.rule import Rule

# Codes raised outside the registry: the loader and the engine itself.
NON_RULE_PREFIXES = ("LOAD", "INTERNAL")


class SuppressNamesKnownCodes(Rule):
    """Every entry of a scenario's ``suppress:`` list names a known diagnostic code or code prefix.

    Rule case: Hexproof bundle format (scenario suppress)

    Why: A suppression that names no rule (a typo, or a rule renamed since) silently does
    nothing, while the reader believes a finding was reviewed and accepted.

    Violating example:
        suppress: [CORE-HEX-999]

    Correct example:
        suppress: [CORE-HEX-003]
    """

    code = "CORE-CFG-001"
    name = "suppress-names-known-codes"
    severity = Severity.WARNING
    groups = ("config",)
    rule_case = "Hexproof bundle format"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        assert ctx.scenario is not None
        codes = [r.code for r in default_registry().rules()]
        for i, entry in enumerate(ctx.scenario.suppress):
            if entry.split("-", 1)[0].upper() in NON_RULE_PREFIXES:
                continue
            if not any(code_matches(c, entry) for c in codes):
                yield ctx.finding(self, f"suppress entry {entry!r} names no known rule code", ctx.scenario,
                                  "suppress", i)
