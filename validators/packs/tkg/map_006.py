"""TKG-MAP-006."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.tkg._tkg import param
from validators.rule import Rule


class KeyHexesExist(Rule):
    """Every key hex the draft names (N1410 ... E0332) is on the map and is a named location.

    Digest §8: MAP-06.

    Rule case: TKG [14.2.2]

    Why: Supply sources (W6021, W5735 [14.2.2]; N1410 Cherbourg), the Cherbourg HQ leash
    (N1511 [11.2.1]), the boundary anchors ([22.3.1-2]), D-Day objectives (N2828, N3551,
    N3648/N3749) and Mulberry B (N3139) are all referred to by hex id; a map without them
    cannot support the rules that use them.

    Violating example:
        locations: []            # W6021 not named

    Correct example:
        locations:
        - {id: us_supply_source, name: U.S. supply source, hex: W6021, kind: key_hex}

    Policy: The list is the system param ``key_hexes``; a hex on a sheet the map does not
    have (e.g. a W-only map) is skipped.
    """

    code = "TKG-MAP-006"
    name = "key-hexes-exist"
    severity = Severity.ERROR
    groups = ("map",)
    rule_case = "TKG [14.2.2]"
    systems = ("tkg",)
    scope = "bundle"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        keys = [k for k in (param(ctx, "key_hexes", default={}) or {}) if k != "rule"]
        for hmap in ctx.bundle.maps.values():
            sheets = {s.id for s in hmap.grid.sheets}
            named = {h for loc in hmap.locations for h in loc.all_hexes()}
            for label in keys:
                if label[:1] not in sheets:
                    continue
                h = hmap.spec.try_parse(label)
                if h is None or not hmap.contains(h):
                    yield ctx.finding(self, f"key hex {label} is not on map {hmap.id!r}", hmap, "grid", hexes=(label,))
                elif h not in named:
                    yield ctx.finding(self, f"key hex {label} is not a named location on map {hmap.id!r}",
                                      hmap, "locations", hexes=(label,))
