"""TKG-MAP-002."""

from __future__ import annotations

from typing import Iterable, Iterator

from model.base import Node
from model.diagnostics import Diagnostic, Severity
from model.hexes import Hex
from validators.context import RuleContext
from validators.rule import Rule


class HexOnScenarioSheets(Rule):
    """Every hex a scenario uses lies on one of its sheets; units start in half hexes only in single-map play.

    Digest §8: MAP-02.

    Rule case: TKG [25.1.4]

    Why: [25.1.4] makes the map layout part of each scenario (W+E, W only, E only, N) and
    says "For all single map scenarios, half hexes are playable". A setup or entry hex on a
    sheet the scenario does not use is unreachable; one in a half hex is playable only
    when a single sheet is in play.

    Violating example:
        # into-the-cauldron-west plays sheet W only
        setup: [{unit: us_8_inf, hex: E1422}]

    Correct example:
        setup: [{unit: us_8_inf, hex: W3826}]

    Policy: A half hex is a hex in the outermost row or column of its sheet. Off-sheet
    hexes are errors; half-hex use in multi-map play (``playable.half_hexes: false``) is a
    warning, since the draft never says how sheet joins work.
    """

    code = "TKG-MAP-002"
    name = "hex-on-scenario-sheets"
    severity = Severity.ERROR
    groups = ("map", "setup")
    rule_case = "TKG [25.1.4]"
    systems = ("tkg",)

    def _uses(self, ctx: RuleContext) -> Iterator[tuple[Node, str, Hex, bool]]:
        s = ctx.scenario
        assert s is not None
        for e in s.setup:
            for name in ("hex", "adjacent_to"):
                h = getattr(e, name)
                if h is not None:
                    yield e, name, h, True
        for sched in s.schedule:
            if sched.entry is not None:
                if sched.entry.hex is not None:
                    yield sched.entry, "hex", sched.entry.hex, True
                for h in sched.entry.hexes:
                    yield sched.entry, "hexes", h, True
        for dz in s.drop_zones:
            for h in dz.hexes:
                yield dz, "hexes", h, False

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        s = ctx.scenario
        assert s is not None
        spec = ctx.hmap.spec
        sheets = set(s.playable.sheets) if s.playable is not None and s.playable.sheets else None
        half_ok = s.playable.half_hexes if s.playable is not None else True
        for node, fld, h, unit in self._uses(ctx):
            sheet = spec.sheet_of(h)
            if sheet is None or not ctx.hmap.contains(h):
                yield ctx.finding(self, f"{ctx.label(h)} is not on the map", node, fld, hexes=(h,))
                continue
            if sheets is not None and sheet.id not in sheets:
                yield ctx.finding(self, f"{ctx.label(h)} is on sheet {sheet.id}, which this scenario does not use "
                                        f"(sheets {', '.join(sorted(sheets))})", node, fld, hexes=(h,))
                continue
            x, y = spec.offset(h)
            edge = x in (sheet.x0, sheet.x0 + sheet.cols - 1) or y in (sheet.y0, sheet.y0 + sheet.rows - 1)
            if unit and edge and not half_ok:
                yield ctx.finding(self, f"{ctx.label(h)} is a half hex; half hexes are playable only in "
                                        "single-map scenarios", node, fld, hexes=(h,), severity=Severity.WARNING,
                                  policy="half hex = outermost row/column of a sheet")
