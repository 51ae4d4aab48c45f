"""CORE-ZONE-001."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.rule import Rule


class ZonePartsComplete(Rule):
    """Every overlay, sub-beach, drop zone and scenario location has hexes; sub-beaches lie on their overlay and landing hexes in their sub-beach.

    Rule case: Hexproof bundle format (beach overlays, sub-beaches and landing hexes; drop zones; locations)

    Why: An overlay part with no hexes loads and validates clean, yet nothing can land,
    drop or enter there; a landing hex outside its own sub-beach sends the craft of that
    Landing Wave box to another beach (GTS: craft land "on any eligible sub-beach Beach hex"
    [Utah Excl 4.7.3], the hexes listed per sub-beach in Excl 4.5.2).

    Policy: *parts-have-hexes* — a drop zone that ``extends`` another may list no hexes of
    its own (it is the other zone plus its own). A sub-beach is checked against its
    overlay's hexes only when the overlay lists some (an overlay with none is reported
    itself). Landing hexes (planned and actual) must be hexes of their sub-beach.

    Violating example:
        beach_overlays:
        - id: utah
          hexes: ['19.025', '18.026']
          sub_beaches:
          - {id: tare-green, name: Tare Green, hexes: [], landing: {actual: ['18.026']}}

    Correct example:
        beach_overlays:
        - id: utah
          hexes: ['19.025', '18.026']
          sub_beaches:
          - {id: tare-green, name: Tare Green, hexes: ['18.026', '19.025'], landing: {actual: ['18.026']}}
    """

    code = "CORE-ZONE-001"
    name = "zone-parts-complete"
    severity = Severity.ERROR
    groups = ("hexes", "zones")
    rule_case = "Hexproof bundle format"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        policy = "parts-have-hexes"
        for o in scen.beach_overlays:
            if not o.hexes:
                yield ctx.finding(self, f"beach overlay {o.name!r} has no hexes", o, "hexes", policy=policy)
            on_overlay = set(o.hexes)
            for sb in o.sub_beaches:
                if not sb.hexes:
                    yield ctx.finding(self, f"sub-beach {sb.name!r} of overlay {o.name!r} has no hexes", sb, "hexes",
                                      policy=policy)
                elif on_overlay:
                    for i, h in enumerate(sb.hexes):
                        if h not in on_overlay:
                            yield ctx.finding(self, f"sub-beach {sb.name!r}: hex {ctx.label(h)} is not a hex of "
                                              f"overlay {o.name!r}", sb, "hexes", i, hexes=(h,), policy=policy)
                own = set(sb.hexes)
                if not own:
                    continue
                for version in ("planned", "actual"):
                    for i, h in enumerate(getattr(sb.landing, version)):
                        if h not in own:
                            yield ctx.finding(self, f"{sb.name} {version} landing hex {ctx.label(h)} is not a hex of "
                                              f"sub-beach {sb.name!r}", sb.landing, version, i, hexes=(h,),
                                              policy=policy)
        for z in scen.drop_zones:
            if not z.hexes and z.extends is None:
                yield ctx.finding(self, f"zone {z.name!r} has no hexes", z, "hexes", policy=policy)
        for loc in scen.locations:
            if not loc.all_hexes():
                yield ctx.finding(self, f"{loc.kind} {loc.name!r} names no hex", loc, "hex", policy=policy)
