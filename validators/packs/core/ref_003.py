"""CORE-REF-003."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.core._scan import entries
from validators.rule import Rule


class LocationReferenceResolves(Rule):
    """Every named location a setup line or schedule entry uses is defined on the map or in the scenario.

    Rule case: Hexproof bundle format (map and scenario locations)

    Why: Rulebooks place units "at Carentan" or bring them in "at the north edge road"; a
    reference to a location nobody defined cannot be turned into hexes.

    Violating example:
        setup:
        - {unit: x1, location: paris}     # neither the map nor the scenario defines paris

    Correct example:
        locations:
        - {id: ville, name: Ville, hex: '0502'}
        setup:
        - {unit: x1, location: ville}
    """

    code = "CORE-REF-003"
    name = "location-reference-resolves"
    severity = Severity.ERROR
    groups = ("references",)
    rule_case = "Hexproof bundle format"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        assert ctx.scenario is not None
        known = {loc.id for loc in ctx.bundle.locations(ctx.scenario)}
        for e in ctx.scenario.setup:
            if e.location is not None and e.location not in known:
                yield ctx.finding(self, f"location {e.location!r} is not defined", e, "location", units=(e.unit,))
        for entry, _ in entries(ctx.scenario):
            if entry.location is not None and entry.location not in known:
                yield ctx.finding(self, f"location {entry.location!r} is not defined", entry, "location")
