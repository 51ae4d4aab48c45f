"""GTS-MAP-001: Bridges sit on River hexsides only."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.gts._gts import SYSTEMS
from validators.rule import Rule


class BridgeOnRiver(Rule):
    """A Bridge hexside is also a River hexside; road art over a stream is not a Bridge.

    Rule case: Excl 2.4 (Bridges: a road or rail segment crossing a River; streams Excl 2.2.3)

    Why: bridges carry the Column-only crossing, the +2 fire modifier and LOS blocking; a
    bridge recorded on a stream or plain hexside would give those effects where the rules
    give none.

    Violating example: ``hexsides: {bridge: [31.045/N]}`` where 31.045/N is a stream.

    Correct example: ``hexsides: {river: [..., 33.050/N], bridge: [33.050/N]}``. Hexside types
    tagged ``requires_river`` in the system must coincide with a type whose id is ``river``.
    """

    code = "GTS-MAP-001"
    name = "bridge-on-river"
    severity = Severity.ERROR
    groups = ("map", "gts")
    rule_case = "Excl 2.4"
    systems = SYSTEMS
    scope = "bundle"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        needs = [t.id for t in ctx.system.hexsides if "requires_river" in t.tags]
        for hmap in ctx.bundle.maps.values():
            for kind in needs:
                for i, key in enumerate(hmap.hexsides.get(kind, [])):
                    if "river" not in hmap.hexside_features(key):
                        a, b = key.hexes()
                        others = [k for k in hmap.hexside_features(key) if k != kind]
                        yield ctx.finding(self, f"{kind} at {hmap.label(a)}/{hmap.label(b)} is not on a River hexside"
                                          + (f" (it is a {', '.join(others)})" if others else ""),
                                          hmap, "hexsides", kind, i, hexes=(hmap.label(a), hmap.label(b)))
