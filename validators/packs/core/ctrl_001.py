"""CORE-CTRL-001."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.rule import Rule


class ScenarioAreas(Rule):
    """A scenario's own start lines and control areas are on the map, name a system side, and have distinct ids.

    Rule case: TKG [25.1.5] ("Each scenario will specify the front lines separating the opposing forces as well as control of various map areas and terrain features")

    Why: ``start_lines:`` and ``control_areas:`` on a scenario replace the map's for that
    scenario (model/scenario_areas.py). A hex that is not on the map, a side the game does
    not have, or two areas with one id make the scenario's front line or control wrong, and
    the rules that read them (TKG-SET-001: no unit starts in enemy-controlled areas) with it.

    Violating example:
        control_areas:
        - {id: lodgement, name: Allied lodgement, side: americans, hexes: ['0909']}

    Correct example:
        control_areas:
        - {id: lodgement, name: Allied lodgement, side: allied, hexes: ['0402']}

    Policy: scenario-areas-replace: a scenario's list replaces the map's areas of that kind
    (``start_line`` / ``control``) whole; an empty list means none in this scenario.
    """

    code = "CORE-CTRL-001"
    name = "scenario-areas"
    severity = Severity.ERROR
    groups = ("hexes", "references")
    rule_case = "TKG [25.1.5]"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        sides = ctx.system.side_by_id
        for field_name in ("start_lines", "control_areas"):
            seen: set[str] = set()
            for area in getattr(scen, field_name) or []:
                what = "start line" if field_name == "start_lines" else "control area"
                if area.id in seen:
                    yield ctx.finding(self, f"two scenario {what}s have the id {area.id!r}", area, "id")
                seen.add(area.id)
                if area.side is not None and area.side not in sides:
                    yield ctx.finding(self, f"{what} {area.id!r}: side {area.side!r} is not a side of "
                                            f"{ctx.system.name} ({', '.join(sides)})", area, "side")
                for i, h in enumerate(area.hexes):
                    if not ctx.hmap.contains(h):
                        yield ctx.finding(self, f"{what} {area.id!r}: hex {ctx.label(h)} is not on map "
                                                f"{ctx.hmap.id!r}", area, "hexes", i, hexes=(h,))
