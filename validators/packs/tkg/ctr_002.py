"""TKG-CTR-002."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.tkg._tkg import param
from validators.rule import Rule

CLASSES = {"A", "B", "C", "D", "E", "unknown"}
EFFECTIVENESS = {1, 2, 3, "unknown"}


class ChitValuesMatchCounter(Rule):
    """Chit-bearing regiments have a Combat Class A-E and Effectiveness 1-3, and 2- or 4-step units use the shaded chit.

    Digest §8: CTR-02.

    Rule case: TKG [9.2.1]

    Why: A Strength Chit is matched to its regiment's Combat Class and best Effectiveness
    [9.2.1]; chits with a shaded centre box serve units with 2 or 4 steps (L473). A
    manifest with other values cannot be given a chit.

    Violating example:
        - {id: de_2ss_pz, category: regiment, steps: 4, flags: [ss], front: {values: {combat_class: F}}}

    Correct example:
        - {id: de_2ss_pz, category: regiment, steps: 4, flags: [ss, shaded_chit], front: {values: {combat_class: A}}}

    Policy: ``unknown`` is accepted (the draft prints no counter values); the shaded chit
    is the counter flag ``shaded_chit``.
    """

    code = "TKG-CTR-002"
    name = "chit-values-match-counter"
    severity = Severity.ERROR
    groups = ("counters",)
    rule_case = "TKG [9.2.1]"
    systems = ("tkg",)
    scope = "bundle"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        chit_units = set(param(ctx, "chit_units", default=["regiment", "brigade"]) or [])
        for c in ctx.bundle.counters:
            if c.category not in chit_units:
                continue
            cls, eff = c.front.values.get("combat_class"), c.front.values.get("effectiveness")
            if cls not in CLASSES:
                yield ctx.finding(self, f"{c.name}: Combat Class {cls!r} is not A-E", c, "front", "values", units=(c.id,))
            if eff not in EFFECTIVENESS:
                yield ctx.finding(self, f"{c.name}: Effectiveness {eff!r} is not 1-3", c, "front", "values", units=(c.id,))
            shaded = "shaded_chit" in c.flags
            if c.steps in (2, 4) and not shaded:
                yield ctx.finding(self, f"{c.name} has {c.steps} steps and needs the shaded-centre chit (L473)", c, "flags", units=(c.id,))
            if c.steps == 3 and shaded:
                yield ctx.finding(self, f"{c.name} has 3 steps but is marked for the shaded chit (L473)", c, "flags", units=(c.id,))
