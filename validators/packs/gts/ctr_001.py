"""GTS-CTR-001: both sides of a counter carry the same designation."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from model.counters import normalize_name
from validators.context import RuleContext
from validators.packs.gts._gts import SYSTEMS
from validators.rule import Rule


class FrontBackDesignation(Rule):
    """The front and back of a counter print the same designation.

    Rule case: 2.0 (how to read the counters; errata Mercury: 3.Geb.Pi 95 front, FJR 1/2 backs)

    Why: the back is the same unit reduced (or a leader's replacement); a different
    designation means a misprint (errata K4, K6).

    Violating example: front ``A/1/502``, back ``A/1/505``.

    Correct example: both ``A/1/502``.
    """

    code = "GTS-CTR-001"
    name = "front-back-designation"
    severity = Severity.ERROR
    groups = ("counters", "gts")
    rule_case = "2.0"
    systems = SYSTEMS
    scope = "bundle"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        for c in ctx.bundle.counters:
            if c.back is None or not c.front.designation or not c.back.designation:
                continue
            if normalize_name(c.front.designation) != normalize_name(c.back.designation):
                yield ctx.finding(self, f"counter {c.id}: front reads {c.front.designation!r}, back reads "
                                  f"{c.back.designation!r}", c.back, "designation", units=(c.id,))
