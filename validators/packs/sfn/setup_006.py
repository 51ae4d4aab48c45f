"""SFN-SETUP-006."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic
from validators.context import RuleContext
from validators.packs.sfn._sfn import SYSTEMS, active_area, param, setup_code
from validators.rule import Rule


class LandingUnitsOnTheirBeaches(Rule):
    """The eight Allied units with beachhead codes start on their beaches in the active area.

    Rule case: SFN 3.2
    Why: the Allied player "places the eight starting US and Commonwealth units indicated
    with a beachhead codes directly on those specified hexes"; US units use Utah and Omaha,
    Commonwealth units Gold, Juno and Sword (7.3).
    Violating example: 1st Canadian (code J) set up in 2006 (Sword, Calais) or left in England.
    Correct example: Calais landing with 1st Canadian in 2007 (Juno, Calais); Dieppe landing with it in 1510.
    Policy: beach-locations — the hex of beach X in area A is the map location ``x-a``
    (``juno-dieppe`` = 1510); which hex is Utah, Omaha or Gold is illustrative (README).
    """

    code = "SFN-SETUP-006"
    name = "landing-units-on-their-beaches"
    groups = ("setup",)
    rule_case = "SFN 3.2"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        area = active_area(ctx)
        codes = param(ctx, "beach_codes")
        names: dict[str, str] = codes.get("names", {})
        if area is None:
            return
        by_unit = {e.unit: e for e in scen.setup}
        landing = [c for c in ctx.counters.values() if c.side == "allied" and setup_code(c) in names]
        count = param(ctx, "starting_landing_units").get("count")
        if count is not None and len(landing) != int(count):
            yield ctx.finding(self, f"the counter mix has {len(landing)} Allied units with beachhead codes; the rules "
                              f"give {count}", scen, units=[c.id for c in landing], policy="beach-locations")
        for unit in landing:
            beach = names[setup_code(unit)]
            loc = ctx.hmap.location(f"{beach.lower()}-{area}")
            entry = by_unit.get(unit.id)
            if loc is None or loc.hex is None:
                yield ctx.finding(self, f"no map location '{beach.lower()}-{area}' for {beach} beach", scen,
                                  units=[unit.id], policy="beach-locations")
                continue
            if entry is None or entry.hex != loc.hex:
                where = ("is not set up" if entry is None
                         else f"is set up at {', '.join(ctx.labels(entry.hexes())) or 'no hex'}")
                yield ctx.finding(self, f"{unit.id} (code {setup_code(unit)}) {where}; it lands on {beach} beach, "
                                  f"{ctx.label(loc.hex)}", entry if entry is not None else scen,
                                  *(("hex",) if entry is not None and entry.hex is not None else ()),
                                  hexes=[loc.hex], units=[unit.id], policy="beach-locations")
