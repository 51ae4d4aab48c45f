"""PROOF-CTR-005: every counter prints the fields its unit category requires."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.rule import Rule


class RequiredFields(Rule):
    """A counter prints every value its unit category requires.

    Rule case: GTS 2.0 (what is printed on a counter); SFN 2.0 (unit values); TKG CTR-06 (artillery OBS/DBS/range)

    Why: a counter that lacks a value the rules rely on (an artillery unit with no range, a
    division with no movement) cannot be played; the system definition lists the required
    fields per category (``unit_categories[].required_fields``).

    Violating example: category ``artillery`` requires ``range``; a counter prints only ``attack``.

    Correct example: the counter prints ``attack`` and ``range`` (``unknown`` counts as
    present: the value exists but the rules we hold do not give it).
    """

    code = "PROOF-CTR-005"
    name = "required-fields"
    severity = Severity.ERROR
    groups = ("proof", "counters")
    rule_case = "GTS 2.0; SFN 2.0"
    scope = "bundle"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        categories = ctx.system.category_by_id
        for c in ctx.bundle.counters:
            cat = categories.get(c.category)
            if cat is None:
                continue  # unknown categories are a reference error reported elsewhere
            for field_name in cat.required_fields:
                if field_name in type(c).model_fields:
                    if getattr(c, field_name) is None:
                        yield ctx.finding(self, f"counter {c.id} ({cat.name}) has no {field_name}", c, units=(c.id,))
                elif c.front.values.get(field_name) is None:
                    yield ctx.finding(self, f"counter {c.id} ({cat.name}) prints no {field_name}", c.front, "values",
                                      units=(c.id,))
