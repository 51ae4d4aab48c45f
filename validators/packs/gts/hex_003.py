"""GTS-HEX-003: every hex a scenario uses lies on that scenario's map."""

from __future__ import annotations

from typing import Iterable, Iterator

from model.base import Node
from model.diagnostics import Diagnostic, Severity
from model.hexes import Hex
from model.mapdata import NamedLocation
from validators.context import RuleContext
from validators.packs.core._scan import playable_area
from validators.packs.gts._gts import SYSTEMS, location, on_scenario_map
from validators.rule import Rule


def used_hexes(ctx: RuleContext) -> Iterator[tuple[Hex, str, Node, tuple[str | int, ...]]]:
    """Setup, entry, event, zone, Rally Point and area hexes of the scenario."""
    scen = ctx.scenario
    assert scen is not None
    for e in scen.setup:
        for name in ("hex", "adjacent_to"):
            h = getattr(e, name)
            if h is not None:
                yield h, f"setup of {e.unit}", e, (name,)
        for i, h in enumerate(e.alternatives):
            yield h, f"setup of {e.unit}", e, ("alternatives", i)
    for s in scen.schedule:
        if s.entry is None:
            continue
        if s.entry.hex is not None:
            yield s.entry.hex, f"{s.kind} entry", s.entry, ("hex",)
        for i, h in enumerate(s.entry.hexes):
            yield h, f"{s.kind} entry", s.entry, ("hexes", i)
        if s.entry.location:
            loc = location(ctx, s.entry.location)
            if loc is not None:
                for h in loc.all_hexes():
                    yield h, f"{s.kind} entry at {loc.name}", s.entry, ("location",)
    for z in scen.drop_zones:
        for i, h in enumerate(z.hexes):
            yield h, f"zone {z.name}", z, ("hexes", i)
    for loc in scen.locations:
        for h in loc.all_hexes():
            yield h, f"{loc.kind} {loc.name}", loc, ("hex",)


class HexOnScenarioMap(Rule):
    """Every setup, entry, event, drop-zone, Rally Point and area hex lies on the scenario's map.

    Rule case: Err Adv#1 (52.067 and 34.067 "are off the playable map for this scenario")

    Why: a GTS scenario plays on part of the full map, stated once as the core ``playable``
    area (``bounds``, the offset rectangle, with ``exclude`` and the rest). A reinforcement
    hex that exists in the grid but lies off the scenario's map leaves its units with no way
    in (errata S16).

    Policy: *one-playable-area* — this rule reports the hexes CORE-HEX-002 does not see:
    entries at a named location and the scenario's own locations (Rally Points), and, for old
    data, hexes outside the deprecated ``params.scenario_map`` rectangle (GTS-MAP-003).
    Setup, entry and zone hexes outside ``playable`` are CORE-HEX-002's, reported once.

    Violating example: a reinforcement entering at 265.ID Reinforcement Hex A (52.067) in a
    scenario whose map ends at row 066.

    Correct example: the same units enter at German Reinforcement F (52.063).
    """

    code = "GTS-HEX-003"
    name = "hex-on-scenario-map"
    severity = Severity.ERROR
    groups = ("hexes", "gts")
    rule_case = "Err Adv#1"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        area = playable_area(ctx)
        for h, what, node, fields in used_hexes(ctx):
            via_location = isinstance(node, NamedLocation) or fields == ("location",)
            if not via_location and area is not None and h not in area:
                continue  # CORE-HEX-002 reports placements and zones outside the playable area
            if ctx.hmap.contains(h) and not on_scenario_map(ctx, h):
                yield ctx.finding(self, f"{what}: hex {ctx.label(h)} is off this scenario's map", node, *fields,
                                  hexes=(h,))
