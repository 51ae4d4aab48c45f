"""GTS-BEACH-002: eligible landing hexes are Beach hexes of the overlay in use."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.gts._gts import SYSTEMS
from validators.rule import Rule


class LandingHexes(Rule):
    """Every eligible landing hex of a sub-beach is a Beach hex of its overlay; landings use them.

    Rule case: Excl 4.5.2 (List of Landing Wave Boxes and Their Corresponding "Eligible" Beach Hexes)

    Why: units in a Landing Wave box land only on the eligible hexes listed for that
    sub-beach and overlay version (Planned or Actual). A landing hex that is not Beach, or not
    on the overlay, cannot be landed on.

    Violating example: Tare Green ``actual: ['18.026', '30.027']`` (30.027 is inland clear).

    Correct example: Tare Green ``actual: ['18.026', '19.025']``, both Beach hexes of the overlay.
    """

    code = "GTS-BEACH-002"
    name = "landing-hexes"
    severity = Severity.ERROR
    groups = ("beach", "gts")
    rule_case = "Excl 4.5.2"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        beach_types = {t.id for t in ctx.system.terrain if "beach" in t.tags}
        eligible: dict[str, set] = {}
        for o in scen.beach_overlays:
            ohexes = set(o.hexes)
            for sb in o.sub_beaches:
                for version in ("planned", "actual"):
                    for i, h in enumerate(getattr(sb.landing, version)):
                        if h not in ohexes or ctx.hmap.terrain_at(h) not in beach_types:
                            yield ctx.finding(self, f"{sb.name} {version} landing hex {ctx.label(h)} is not a Beach hex "
                                              f"of overlay {o.name!r}", sb.landing, version, i, hexes=(h,))
                current = getattr(sb.landing, o.version or "actual", None) or []
                eligible[sb.id] = set(current)
                eligible[f"{o.id}/{sb.id}"] = set(current)
        for s in scen.schedule:
            if s.kind != "landing" or s.entry is None or s.entry.beach is None:
                continue
            allowed = eligible.get(s.entry.beach)
            if allowed is None:
                continue
            for h in ([s.entry.hex] if s.entry.hex is not None else []) + list(s.entry.hexes):
                if h not in allowed:
                    yield ctx.finding(self, f"landing at {ctx.label(h)}, which is not an eligible hex of {s.entry.beach}",
                                      s.entry, "hex", hexes=(h,))
