"""SFN-SETUP-002."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic
from validators.context import RuleContext
from validators.packs.sfn._sfn import SYSTEMS, active_area, hex_code, param
from validators.rule import Rule


class GermanHexSetup(Rule):
    """A German unit with a printed hex code sets up in that hex or a hex adjacent to it.

    Rule case: SFN 3.4
    Why: "the LXXXI Corps sets up in hex 1414 ... or 1313, 1314, 1413, 1415, 1513 or 1514".
    Violating example: LXXXI Corps (printed 1414) with ``alternatives: ['1616']``.
    Correct example: ``{unit: de-lxxxi-corps, adjacent_to: '1414', alternatives: ['1313', '1514']}``.
    Policy: dieppe-shift-exempt — the Dieppe garrison's move to 1511 is checked by SFN-SETUP-004.
    """

    code = "SFN-SETUP-002"
    name = "german-hex-setup"
    groups = ("setup",)
    rule_case = "SFN 3.4"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        shift = param(ctx, "dieppe_garrison_shift")
        for entry in scen.setup:
            unit = ctx.counters.get(entry.unit)
            code = hex_code(unit)
            if unit is None or unit.side != "german" or code is None:
                continue
            if active_area(ctx) == shift.get("area") and code[0] == str(shift.get("from")):
                continue
            printed = ctx.hmap.parse(code[0])
            if entry.box is not None or entry.area is not None or entry.location is not None:
                yield ctx.finding(self, f"{entry.unit} is printed {code[0]}: it sets up on the map in or adjacent "
                                  f"to {code[0]}", entry, units=[entry.unit], hexes=[printed])
                continue
            for h in entry.hexes():
                if h.distance(printed) > 1:
                    yield ctx.finding(self, f"{entry.unit} is printed {code[0]} but may set up in {ctx.label(h)}, "
                                      f"which is neither that hex nor adjacent to it", entry,
                                      "alternatives" if h in entry.alternatives else ("hex" if entry.hex else "adjacent_to"),
                                      hexes=[h], units=[entry.unit])
