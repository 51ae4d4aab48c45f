"""CORE-REF-006."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.core._scan import entries
from validators.rule import Rule


class BeachReferenceResolves(Rule):
    """Every beach an entry names is a beach overlay or sub-beach defined in the scenario.

    Rule case: Hexproof bundle format (scenario beach_overlays)

    Why: Landings come ashore on a named beach or sub-beach; a landing that names an
    overlay the scenario does not define has no landing hexes.

    Violating example:
        schedule:
        - {turn: 2, kind: landing, units: [a1], entry: {beach: omaha}}   # no overlay omaha

    Correct example:
        beach_overlays:
        - {id: utah, name: Utah, hexes: ['0201']}
        schedule:
        - {turn: 2, kind: landing, units: [a1], entry: {beach: utah}}
    """

    code = "CORE-REF-006"
    name = "beach-reference-resolves"
    severity = Severity.ERROR
    groups = ("references",)
    rule_case = "Hexproof bundle format"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        beaches = {o.id for o in scen.beach_overlays} | {sb.id for o in scen.beach_overlays for sb in o.sub_beaches}
        for entry, _ in entries(scen):
            if entry.beach is not None and entry.beach not in beaches:
                yield ctx.finding(self, f"beach {entry.beach!r} is not a beach overlay or sub-beach of this scenario",
                                  entry, "beach")
