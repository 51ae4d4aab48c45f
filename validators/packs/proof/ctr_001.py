"""PROOF-CTR-001: both sides of a counter carry the same designation."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.proof._values import base_designation
from validators.rule import Rule


class FrontBackDesignation(Rule):
    """The front and back of a counter name the same unit.

    Rule case: GTS 2.0 (designation printed on each counter); Utah errata "Mercury" counters

    Why: a counter whose back names another unit ("II/506" on the front, "III/506" on the
    back) was printed from two rows of the spreadsheet; the Utah errata sheet corrects such
    counters after print. Compared after normalising case, accents, punctuation and spaces.

    Violating example: ``front: {designation: "1/502"}`` with ``back: {designation: "2/502"}``.

    Correct example: ``front: {designation: "1/502"}`` with ``back: {designation: "1/502"}``, or
    a back with no designation of its own (the front's applies).
    """

    code = "PROOF-CTR-001"
    name = "front-back-designation"
    severity = Severity.ERROR
    groups = ("proof", "counters")
    rule_case = "GTS 2.0; Utah errata (Mercury counters)"
    scope = "bundle"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        for c in ctx.bundle.counters:
            if c.back is None or not c.back.designation:
                continue
            front = c.front.designation or c.name
            if base_designation(front) != base_designation(c.back.designation):
                yield ctx.finding(self, f"counter {c.id}: front reads {front!r} but back reads {c.back.designation!r}",
                                  c.back, "designation", units=(c.id,))
