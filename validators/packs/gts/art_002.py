"""GTS-ART-002: Artillery Parks: one per hex, orange units, of the park's division."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.gts._gts import SYSTEMS, counter, param, sys_param
from validators.rule import Rule


class ArtilleryParkLegal(Rule):
    """At most one Artillery Park per hex; each park holds orange-FR units of its own
    division; independent artillery may join any division's park.

    Rule case: 16.2.1 (Artillery Parks; errata Excl 13.6: independent artillery with any division)

    Why: the series rule says "same Division" while Excl 13.6 lets independents join any
    park (R14); the check applies the exclusive rule, which takes precedence [1.0].

    Violating example: ``artillery_parks: [{hex: '40.045', division: 4th Infantry Division,
    units: [c5-ii-919]}]``.

    Correct example: a park of 4th ID artillery, or of independent (VII Corps) artillery.
    """

    code = "GTS-ART-002"
    name = "artillery-park-legal"
    severity = Severity.ERROR
    groups = ("artillery", "gts")
    rule_case = "16.2.1"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        colour = sys_param(ctx, "artillery_park_fr_colour", "orange")
        seen: dict[str, int] = {}
        for i, park in enumerate(param(ctx, "artillery_parks", []) or []):
            if not isinstance(park, dict):
                continue
            place = str(park.get("hex") or park.get("box") or "")
            if park.get("hex") is not None:
                if place in seen:
                    yield ctx.finding(self, f"two Artillery Parks in hex {place}", scen, "params", "artillery_parks", i,
                                      hexes=(place,))
                seen[place] = i
            for j, u in enumerate(park.get("units", []) or []):
                c = counter(ctx, str(u))
                if c is None:
                    continue
                fr = c.front.values.get("fr_colour")
                if c.category != "artillery" or (fr not in (None, "unknown") and fr != colour):
                    yield ctx.finding(self, f"{u} in an Artillery Park is not {colour}-FR artillery", scen, "params",
                                      "artillery_parks", i, "units", j, units=(c.id,))
                elif c.division != park.get("division") and "independent" not in c.flags:
                    yield ctx.finding(self, f"{u} ({c.division}) is in the {park.get('division')} Artillery Park",
                                      scen, "params", "artillery_parks", i, "units", j, units=(c.id,))
