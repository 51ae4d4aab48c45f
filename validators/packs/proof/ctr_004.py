"""PROOF-CTR-004: zero-step counters are consistent."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.rule import Rule

ASSAULT_KEYS = ("ar", "assault", "assault_rating")


class ZeroStepConsistent(Rule):
    """Zero-step counters have no assault value, no reduced side, and their whole category
    agrees on having zero steps.

    Rule case: GTS 18.1 (zero-step units); Utah errata (Bastogne, Mercury: "HQ Def 28 ID", "1 C Hvy AA RM")

    Why: the errata sheets correct counters printed with steps and an Assault Rating that
    the rules treat as zero-step units (Rearguards, some HQ defence units).

    Violating example: a Rearguard with ``steps: 0`` and ``ar: 2``; or two Rearguards, one
    with 0 steps and one with 1.

    Correct example: every Rearguard has ``steps: 0`` and no AR.
    """

    code = "PROOF-CTR-004"
    name = "zero-step-consistent"
    severity = Severity.WARNING
    groups = ("proof", "counters")
    rule_case = "GTS 18.1; Utah errata (Bastogne, Mercury)"
    scope = "bundle"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        by_category: dict[str, list] = {}
        for c in ctx.bundle.counters:
            if c.steps is not None:
                by_category.setdefault(c.category, []).append(c)
            if c.steps == 0:
                for key in ASSAULT_KEYS:
                    if c.front.values.get(key) not in (None, "", "none"):
                        yield ctx.finding(self, f"zero-step counter {c.id} prints an assault value ({key} {c.front.values[key]})",
                                          c.front, "values", key, units=(c.id,))
                if c.back is not None and (c.back.state or "").lower() == "reduced":
                    yield ctx.finding(self, f"zero-step counter {c.id} has a reduced side", c.back, units=(c.id,))
        for category, members in sorted(by_category.items()):
            zero = [c for c in members if c.steps == 0]
            if zero and len(zero) != len(members):
                others = [c for c in members if c.steps != 0]
                minority = zero if len(zero) < len(others) else others
                for c in minority:
                    yield ctx.finding(self, f"category {category}: {c.id} has {c.steps} step(s) while "
                                      f"{len(members) - len(minority)} others of its category have "
                                      f"{'0' if c.steps else 'some'}", c, "steps", units=(c.id,))
