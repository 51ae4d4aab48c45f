"""TKG-MAP-003."""

from __future__ import annotations

from typing import Iterable

from model.base import hexside_between
from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.rule import Rule

RIVERS = {"stream", "minor_river", "major_river"}
ROADS = {"primary_road", "secondary_road", "minor_road"}


class RiversRoadsBridges(Rule):
    """Rivers are stream/minor/major, roads primary/secondary/minor and connected, and bridges sit where a road crosses a river.

    Digest §8: MAP-03.

    Rule case: TKG [7.2.7]

    Why: Movement, supply and combat depend on the river class ([7.2.7], [14.3.1]) and on
    whether a road bridges it ("road hexside", L460; destroyed bridges [7.2.9]). A bridge
    with no road through it, or a road with a gap, breaks supply tracing and movement.

    Violating example:
        hexsides:
          bridge: [W4020/NE]        # no road crosses W4020/NE

    Correct example:
        hexsides:
          major_river: [N3648/SE]
          bridge: [N3648/SE]        # the primary road runs N3648 -> N3749

    Policy: Hexside types other than the three river classes and ``bridge`` are errors
    (the draft has no crest, ridge or wall hexsides); railroads are paths too but are
    not checked for road class.
    """

    code = "TKG-MAP-003"
    name = "rivers-roads-bridges"
    severity = Severity.ERROR
    groups = ("map",)
    rule_case = "TKG [7.2.7]"
    systems = ("tkg",)
    scope = "bundle"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        for hmap in ctx.bundle.maps.values():
            crossings = set()
            for i, path in enumerate(hmap.paths):
                if path.type not in ROADS and path.type != "railroad":
                    yield ctx.finding(self, f"path type {path.type!r} is not a road class (primary, secondary, "
                                            "minor) or railroad", path, "type")
                for a, b in zip(path.hexes, path.hexes[1:]):
                    if a.distance(b) != 1:
                        yield ctx.finding(self, f"{path.type} {path.name or i} jumps from {hmap.label(a)} to "
                                                f"{hmap.label(b)}: consecutive road hexes must be adjacent",
                                          path, "hexes", hexes=(hmap.label(a), hmap.label(b)))
                    elif path.type in ROADS:
                        crossings.add(hexside_between(a, b))
            for kind, keys in hmap.hexsides.items():
                if kind not in RIVERS | {"bridge"}:
                    yield ctx.finding(self, f"hexside type {kind!r} is not a TKG river class (stream, minor "
                                            "river, major river) or bridge", hmap, "hexsides", kind)
            for j, key in enumerate(hmap.hexsides.get("bridge", [])):
                kinds = set(hmap.hexside_features(key))
                where = f"{hmap.label(key.hex)}-{hmap.label(key.other())}"
                if not kinds & RIVERS:
                    yield ctx.finding(self, f"bridge at {where} crosses no river", hmap, "hexsides", "bridge", j,
                                      hexes=(hmap.label(key.hex), hmap.label(key.other())))
                if key not in crossings:
                    yield ctx.finding(self, f"bridge at {where} has no road crossing it", hmap, "hexsides",
                                      "bridge", j, hexes=(hmap.label(key.hex), hmap.label(key.other())))
