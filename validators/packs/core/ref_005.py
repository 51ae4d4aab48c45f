"""CORE-REF-005."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.core._scan import entries
from validators.rule import Rule


class DropZoneReferenceResolves(Rule):
    """Every drop or landing zone named by an entry, a drop order or another zone is defined in the scenario.

    Rule case: Hexproof bundle format (scenario drop_zones)

    Why: Airborne arrivals are scattered around a named zone; a drop that names an undefined
    zone (or a zone that extends one) cannot be resolved.

    Violating example:
        schedule:
        - {turn: 2, kind: drop, units: [a1], entry: {drop_zone: dz-x}}   # no zone dz-x

    Correct example:
        drop_zones:
        - {id: dz-a, name: DZ A, hexes: ['0502']}
        schedule:
        - {turn: 2, kind: drop, units: [a1], entry: {drop_zone: dz-a}}
    """

    code = "CORE-REF-005"
    name = "drop-zone-reference-resolves"
    severity = Severity.ERROR
    groups = ("references",)
    rule_case = "Hexproof bundle format"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        zones = {z.id for z in scen.drop_zones}
        for entry, _ in entries(scen):
            if entry.drop_zone is not None and entry.drop_zone not in zones:
                yield ctx.finding(self, f"drop zone {entry.drop_zone!r} is not defined", entry, "drop_zone")
        for e in scen.schedule:
            if e.drop is not None and e.drop.zone not in zones:
                yield ctx.finding(self, f"drop zone {e.drop.zone!r} is not defined", e.drop, "zone")
        for z in scen.drop_zones:
            if z.extends is not None and z.extends not in zones:
                yield ctx.finding(self, f"zone {z.id!r} extends undefined zone {z.extends!r}", z, "extends")
