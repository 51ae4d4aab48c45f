"""CORE-UNIT-003."""

from __future__ import annotations

from typing import Iterable

from model.counter_fields import CHOICES, check_value
from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.rule import Rule


class CounterValuesTyped(Rule):
    """Every counter's side, category, nationality and movement class is one the system defines, and every printed value of a numeric field is a number or ``unknown``.

    Rule case: Hexproof bundle format (counter manifest; system ``sides``, ``unit_categories``,
    ``nationalities``, ``movement_classes``, ``counter_fields``)

    Why: A counter of side ``martians`` belongs to no player, and a Troop Quality of ``abc``
    cannot be rolled against; both used to load without a word. The spreadsheet importers and
    the counter editor refuse such cells with the same check (model/counter_fields.py); this
    rule reports those written into the manifest by hand. A list the system leaves empty
    (no nationalities, say) does not restrict.

    Violating example:
        counters:
        - {id: a1, name: 1st Inf, side: martians, category: inf}
        - {id: g1, name: 1/919, side: german, category: infantry, front: {values: {tq: abc}}}

    Correct example:
        counters:
        - {id: a1, name: 1st Inf, side: allied, category: inf}
        - {id: g1, name: 1/919, side: german, category: infantry, front: {values: {tq: unknown}}}
    """

    code = "CORE-UNIT-003"
    name = "counter-values-typed"
    severity = Severity.ERROR
    groups = ("units",)
    rule_case = "Hexproof bundle format"
    scope = "bundle"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        system = ctx.system
        for c in ctx.bundle.counters:
            for column in CHOICES:
                problem = check_value(column, getattr(c, column), system)
                if problem is not None:
                    yield ctx.finding(self, f"counter {c.id}: {problem}", c, column, units=(c.id,))
            for side_name in ("front", "back"):
                side = getattr(c, side_name)
                if side is None:
                    continue
                for key, value in side.values.items():
                    problem = check_value(f"{side_name}.{key}", value, system)
                    if problem is not None:
                        yield ctx.finding(self, f"counter {c.id}: {problem}", c, side_name, "values", key,
                                          units=(c.id,))
