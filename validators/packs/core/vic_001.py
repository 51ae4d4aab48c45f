"""CORE-VIC-001."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.rule import Rule


class VictoryHexOnGrid(Rule):
    """Every hex a victory condition names (``hex``, ``hexes``) is on the scenario's map.

    Rule case: TKG [25.1.1] ("All scenarios will contain the following information: … Victory Determination"); SFN 4.2 ("VP hexes on the map represent areas of political and/or strategic significance")

    Why: a victory condition about a hex that is not on the map (a typo, 2412 for 2421, or a
    hex of another map) can never be met or denied: the scenario cannot be won as written.

    Violating example:
        victory:
        - {side: allied, text: Hold the crossroads, hex: '0909'}   # the mini map has rows 01-04

    Correct example:
        victory:
        - {side: allied, text: Hold the crossroads, hex: '0402'}
    """

    code = "CORE-VIC-001"
    name = "victory-hex-on-grid"
    severity = Severity.ERROR
    groups = ("victory", "hexes")
    rule_case = "TKG [25.1.1]; SFN 4.2"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        assert ctx.scenario is not None
        hmap = ctx.hmap
        for v in ctx.scenario.victory:
            places: list[tuple[object, tuple[str | int, ...]]] = []
            if v.hex is not None:
                places.append((v.hex, ("hex",)))
            places += [(h, ("hexes", i)) for i, h in enumerate(v.hexes)]
            for h, fields in places:
                if not hmap.contains(h):  # type: ignore[arg-type]
                    yield ctx.finding(self, f"victory condition hex {ctx.label(h)} is not on map {hmap.id!r}",  # type: ignore[arg-type]
                                      v, *fields, hexes=(h,))  # type: ignore[arg-type]
