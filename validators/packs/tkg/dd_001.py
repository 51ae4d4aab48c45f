"""TKG-DD-001."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.rule import Rule

REQUIRED = {"merville": "N3551", "pointe_du_hoc": "N2828", "maisy": None}


class CoastArtilleryHexes(Rule):
    """The D-Day coast artillery sites are defined: Merville at N3551, Pointe du Hoc at N2828, and a Maisy hex.

    Digest §8: DD-01.

    Rule case: TKG L2169

    Why: The Preliminary Stage reduces the batteries at "N3551 Merville, N2828 Pointe du
    Hoc, N???? Maisy" (L2169-2171) and resolves the Merville and Pointe du Hoc assaults;
    the procedure cannot run without the hexes.

    Violating example:
        locations: [{id: merville, name: Merville, hex: N3550}]

    Correct example:
        locations: [{id: merville, name: Merville, hex: N3551}]

    Policy: The draft prints Maisy as N????; any hex is accepted for Maisy (the sample
    flags its choice illustrative). Checked on maps with an N sheet.
    """

    code = "TKG-DD-001"
    name = "coast-artillery-hexes"
    severity = Severity.ERROR
    groups = ("dday",)
    rule_case = "TKG L2169"
    systems = ("tkg",)
    scope = "bundle"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        for hmap in ctx.bundle.maps.values():
            if not any(s.id == "N" for s in hmap.grid.sheets):
                continue
            for loc_id, want in REQUIRED.items():
                loc = hmap.location(loc_id)
                if loc is None or not loc.all_hexes():
                    yield ctx.finding(self, f"{loc_id.replace('_', ' ')} has no hex on map {hmap.id!r}", hmap, "locations")
                elif want is not None and hmap.label(loc.all_hexes()[0]) != want:
                    yield ctx.finding(self, f"{loc.name} is at {hmap.label(loc.all_hexes()[0])}; the draft puts it at {want}",
                                      loc, "hex", hexes=(want,))
