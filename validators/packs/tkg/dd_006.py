"""TKG-DD-006."""

from __future__ import annotations

import re
from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.rule import Rule

LETTER = re.compile(r"^[A-Z]$")


class LetteredDropZones(Rule):
    """Drop zones are lettered Airborne Landing Hexes (one capital letter) with at least one hex.

    Digest §8: DD-06.

    Rule case: TKG L185

    Why: Airborne units drop on "the scenario's lettered drop zones" via the Airborne
    Landing Table (L185); a zone that is not lettered cannot be named by the table, and
    one with no hexes cannot be landed on.

    Violating example:
        drop_zones: [{id: dz-north, name: North, hexes: [N2420]}]

    Correct example:
        drop_zones: [{id: E, name: Drop zone E, hexes: [N2420]}]
    """

    code = "TKG-DD-006"
    name = "lettered-drop-zones"
    severity = Severity.ERROR
    groups = ("dday",)
    rule_case = "TKG L185"
    systems = ("tkg",)

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        assert ctx.scenario is not None
        for z in ctx.scenario.drop_zones:
            if not LETTER.match(z.id):
                yield ctx.finding(self, f"drop zone {z.id!r} is not lettered (A-Z)", z, "id")
            if not z.hexes:
                yield ctx.finding(self, f"drop zone {z.id!r} has no hexes", z)
