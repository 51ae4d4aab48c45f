"""GTS-CTR-003: zero-step counters really have 0 steps and no Assault Rating."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.gts._gts import SYSTEMS, steps_of, sys_param
from validators.rule import Rule


class ZeroStepFields(Rule):
    """A zero-step type (flag ``zero_step``, or a category in ``zero_step_types``) prints 0
    steps and no Assault Rating (warning).

    Rule case: 18.1 (which units can assault; errata Bastogne/Mercury: HQ Def 28 ID and
    1 C Hvy AA RM are 0-step, no AR)

    Why: a 0-step unit with steps or an AR counts toward stacking and can assault, which the
    rules do not allow (errata K5, K8).

    Violating example: a counter flagged ``zero_step`` with ``steps: 1`` or ``ar: 2``.

    Correct example: ``steps: 0`` and no ``ar``.
    """

    code = "GTS-CTR-003"
    name = "zero-step-fields"
    severity = Severity.WARNING
    groups = ("counters", "gts")
    rule_case = "18.1"
    systems = SYSTEMS
    scope = "bundle"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        types = set(sys_param(ctx, "zero_step_types", []) or [])
        for c in ctx.bundle.counters:
            if "zero_step" not in c.flags and c.category not in types:
                continue
            s = steps_of(c)
            if s not in (0, None):
                yield ctx.finding(self, f"zero-step counter {c.id} prints {s} steps", c, units=(c.id,))
            ar = c.front.values.get("ar")
            if ar not in (None, "", "unknown"):
                yield ctx.finding(self, f"zero-step counter {c.id} prints an Assault Rating ({ar})", c.front, "values",
                                  units=(c.id,))
