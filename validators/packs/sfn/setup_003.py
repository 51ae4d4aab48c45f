"""SFN-SETUP-003."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic
from validators.context import RuleContext
from validators.packs.sfn._sfn import SYSTEMS, active_area, beachheads
from validators.rule import Rule


class NoGermanOnActiveBeachhead(Rule):
    """No German unit begins play in an active Allied beachhead hex.

    Rule case: SFN 3.4
    Why: "no German unit may begin play in any of the active Allied Beachhead hexes".
    Violating example: Dieppe landing with the garrison ``hex: '1510'``.
    Correct example: Dieppe landing with the garrison ``hex: '1511'``; Calais landing with it in 1510.
    Policy: listed-hexes — a hex, an adjacent_to centre or a listed alternative that is an
    active beachhead is reported; unlisted neighbours of an adjacent_to centre are the player's choice.
    """

    code = "SFN-SETUP-003"
    name = "no-german-on-active-beachhead"
    groups = ("setup",)
    rule_case = "SFN 3.4"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        area = active_area(ctx)
        if area is None:
            return
        active = set(beachheads(ctx, area))
        for entry in scen.setup:
            unit = ctx.counters.get(entry.unit)
            if unit is None or unit.side != "german":
                continue
            hexes = entry.hexes()
            for h in hexes:
                if h in active:
                    # The wrong value first: where the unit is set up; then what the case requires.
                    where = f"begins play in {ctx.label(h)}" if len(hexes) == 1 else \
                        f"has {ctx.label(h)} among its set-up hexes"
                    yield ctx.finding(self, f"German {entry.unit} {where}, an active {area} beachhead hex; no German "
                                            f"unit may begin play in one",
                                      entry, hexes=[h], units=[entry.unit], policy="listed-hexes")
