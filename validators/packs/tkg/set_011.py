"""TKG-SET-011."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.tkg._tkg import declared_missing, nation_group, placed
from validators.rule import Rule


class ArmyZones(Rule):
    """U.S. units start in the American zone and British/Canadian units in the British zone; starts from GT 3 on need a boundary.

    Digest §8: SET-11.

    Rule case: TKG [22.1.5]

    Why: The Army Boundary exists from "June 9 (GT 3)" [22.2.1]; units may not be on the
    wrong side of it and violators must return [22.1.5]. Border hexes belong to both.

    Violating example:
        # areas: american_zone [W3826], british_zone [W5735]
        setup: [{unit: br_231_bde, hex: W3826}]

    Correct example:
        setup: [{unit: br_231_bde, hex: W5735}]

    Policy: Zones are map areas of kind ``army_zone`` with side ``us`` or
    ``commonwealth``; a hex in both is a border hex. A scenario starting on GT 3 or later
    with Allied units on the map and no zones is reported unless it declares
    ``army_boundary`` in ``missing`` (then TKG-SCH-001 reports the gap once).
    """

    code = "TKG-SET-011"
    name = "army-zones"
    severity = Severity.ERROR
    groups = ("setup",)
    rule_case = "TKG [22.1.5]"
    systems = ("tkg",)

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        s = ctx.scenario
        assert s is not None
        zones: dict[str, set] = {}
        for a in ctx.hmap.areas:
            if a.kind == "army_zone" and a.side:
                zones.setdefault(a.side, set()).update(a.hexes)
        allied = [(e, c, h) for e, c, h in placed(ctx) if c is not None and c.side == "allied"]
        if not zones:
            first = s.turns.first if s.turns is not None else None
            if allied and isinstance(first, int) and first >= 3 and not declared_missing(ctx, "army_boundary"):
                yield ctx.finding(self, "Allied units set up on GT 3 or later but no army boundary (army_zone "
                                        "areas) is defined [22.2.1]", s, "setup")
            return
        for e, c, h in allied:
            group = nation_group(c)
            own = zones.get(group or "", set())
            if h not in own:
                yield ctx.finding(self, f"{c.name} ({group}) starts in {ctx.label(h)}, outside its army zone", e,
                                  units=(e.unit,), hexes=(h,))
