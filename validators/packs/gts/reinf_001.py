"""GTS-REINF-001: the reinforcement-hex registry is consistent with the map markers."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.gts._gts import SYSTEMS
from validators.rule import Rule


class ReinforcementHexRegistry(Rule):
    """Each reinforcement hex has a side, owner and label, the key (side, owner, label) is
    unique, and a reinforcement-hex marker of the same name sits on its hex.

    Rule case: 8.0 (reinforcement hexes marked by the Divisional symbol; errata Intro#3 renamed
    "Eastern Reinforcement Hex A (29.030)" to "American Reinforcement Hex 1")

    Why: the label "A" names two different hexes (52.067 for 265.ID, and the old name of
    29.030); a registry keyed on the label alone confuses them (errata S8).

    Violating example: location ``us-reinf-1`` named "Eastern Reinforcement Hex A" while the
    marker on 29.030 reads "American Reinforcement Hex 1".

    Correct example: location and marker both "American Reinforcement Hex 1", side allied,
    owner US, label 1.
    """

    code = "GTS-REINF-001"
    name = "reinf-hex-registry"
    severity = Severity.ERROR
    groups = ("reinforcements", "gts")
    rule_case = "8.0"
    systems = SYSTEMS
    scope = "bundle"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        for hmap in ctx.bundle.maps.values():
            seen: dict[tuple[str, str, str], str] = {}
            markers = {}
            for f in hmap.features:
                if f.type == "reinforcement_hex":
                    markers.setdefault(f.hex, []).append(f.name or "")
            for loc in hmap.locations:
                if loc.kind != "reinforcement_hex":
                    continue
                missing = [n for n in ("side", "owner", "label") if not getattr(loc, n)]
                if missing:
                    yield ctx.finding(self, f"reinforcement hex {loc.name!r} has no {', '.join(missing)}", loc)
                    continue
                key = (str(loc.side), str(loc.owner), str(loc.label))
                if key in seen:
                    yield ctx.finding(self, f"reinforcement hexes {seen[key]!r} and {loc.id!r} share side/owner/label "
                                      f"{'/'.join(key)}", loc, "label")
                seen[key] = loc.id
                if loc.hex is None:
                    continue
                names = markers.get(loc.hex, [])
                if loc.name not in names:
                    yield ctx.finding(self, f"reinforcement hex {loc.name!r} at {hmap.label(loc.hex)}: the map marker there "
                                      f"reads {', '.join(repr(n) for n in names) or 'nothing'}", loc, "name",
                                      hexes=(hmap.label(loc.hex),))
