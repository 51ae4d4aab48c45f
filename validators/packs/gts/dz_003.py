"""GTS-DZ-003: a Rally Point is possible near every zone used, and declared Rally Points are legal."""

from __future__ import annotations

from typing import Iterable

from model.base import hexside_key
from model.diagnostics import Diagnostic, Severity
from model.hexes import Hex
from validators.context import RuleContext
from validators.packs.gts._gts import SYSTEMS, sys_param, zone_hexes
from validators.rule import Rule


def rally_eligible(ctx: RuleContext, h: Hex) -> bool:
    """A Hill, Bridge, Village or Town hex [Excl 3.3A] (memoised per map and Validator: a
    property of the map and the system only)."""
    verdicts: dict[Hex, bool] = ctx.memo("gts.rally_eligible", dict, owner=ctx.hmap)
    if h not in verdicts:
        verdicts[h] = _rally_eligible(ctx, h)
    return verdicts[h]


def _rally_eligible(ctx: RuleContext, h: Hex) -> bool:
    spec = ctx.system.params.get("rally_point_terrain", {})
    terrain = set(spec.get("value", ["hill", "village", "town"]))
    hmap = ctx.hmap
    if hmap.terrain_at(h) in terrain:
        return True
    if any(f.type in set(spec.get("features", ["hill"])) for f in hmap.features_by_hex.get(h, ())):
        return True
    sides = set(spec.get("hexsides", ["bridge"]))
    return any(sides & set(hmap.hexside_features(hexside_key(h, d))) for d in range(6))


def _zone_has_rally_hex(ctx: RuleContext, hexes: tuple[Hex, ...], radius: int) -> bool:
    """Whether a Rally Point hex lies within ``radius`` of some zone hex (memoised per map,
    keyed by the zone's hexes: zones are scenario data, so they are in the key)."""
    answers: dict[tuple[tuple[Hex, ...], int], bool] = ctx.memo("gts.zone_rally", dict, owner=ctx.hmap)
    key = (hexes, radius)
    if key not in answers:
        near = {n for h in hexes for n in h.range(radius) if ctx.hmap.contains(n)}
        answers[key] = any(rally_eligible(ctx, n) for n in near)
    return answers[key]


class RallyPointPossible(Rule):
    """Each zone used by a drop has a Hill, Bridge, Village or Town hex within 4 hexes, and
    each declared Rally Point (location kind ``rally_point``) is such a hex within 4 hexes
    of a zone its battalion drops into.

    Rule case: Excl 3.3 (A: "Rally Points are placed in any Hill, Bridge, Village or Town hex
    within 4 hexes of the Battalion's DZ")

    Why: a battalion with no legal Rally Point can never recover stragglers.

    Violating example: a Rally Point at 31.030 (clear terrain).

    Correct example: the 1/502 Rally Point at the village 33.031, two hexes from DZ A.
    """

    code = "GTS-DZ-003"
    name = "rally-point-possible"
    severity = Severity.ERROR
    groups = ("airborne", "gts")
    rule_case = "Excl 3.3"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        radius = int(sys_param(ctx, "rally_point_radius", 4))
        used: dict[str, list[Hex]] = {}
        bn_zones: dict[str, set[str]] = {}
        for s in scen.schedule:
            if s.drop is None:
                continue
            hexes = zone_hexes(ctx, s.drop.zone)
            if hexes is None:
                continue
            used[s.drop.zone] = hexes
            for u in s.units:
                c = ctx.counters.get(u)
                if c is not None and c.battalion:
                    bn_zones.setdefault(c.battalion, set()).add(s.drop.zone)
        for zid, hexes in sorted(used.items()):
            if not _zone_has_rally_hex(ctx, tuple(hexes), radius):
                zone = next(z for z in scen.drop_zones if z.id == zid)
                yield ctx.finding(self, f"no Hill, Bridge, Village or Town hex within {radius} hexes of {zone.name}",
                                  zone, "hexes")
        for loc in scen.locations:
            if loc.kind != "rally_point" or loc.hex is None:
                continue
            if not rally_eligible(ctx, loc.hex):
                yield ctx.finding(self, f"Rally Point {loc.name} at {ctx.label(loc.hex)} is not a Hill, Bridge, Village "
                                  "or Town hex", loc, "hex", hexes=(loc.hex,))
                continue
            zones = bn_zones.get(loc.owner or "", set(used))
            if zones and not any(loc.hex.distance(h) <= radius for z in zones for h in used.get(z, [])):
                yield ctx.finding(self, f"Rally Point {loc.name} at {ctx.label(loc.hex)} is more than {radius} hexes "
                                  f"from {', '.join(sorted(zones))}", loc, "hex", hexes=(loc.hex,))
