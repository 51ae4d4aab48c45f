"""TKG-SCH-007."""

from __future__ import annotations

from collections import defaultdict
from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.tkg._tkg import nation_group, param, scen_param, schedule_units
from validators.rule import Rule


class LandingBoxes(Rule):
    """A Landing Box holds one unit of its own nation per turn, and a Mulberry's LB2 stays closed below level 5.

    Digest §8: SCH-07.

    Rule case: TKG [18.1.2]

    Why: "Only one unit can occupy each landing box. British/Canadian units can only be placed
    in landing boxes at the Juno, Gold and Mulberry B Beach Landing Displays, and U.S. units may
    be placed only in Landing Boxes at the Omaha, Utah and Mulberry A Beach Landing Displays"
    [18.1.2]; a Mulberry's Landing Box 2 opens at level 5: "When a Mulberry's Construction
    Level reaches 5, Landing Box 2 is open" (L1754; an unnumbered paragraph: the draft has no
    20.4 case).

    Violating example:
        schedule: [{turn: 5, units: [us_8_inf, us_12_inf], entry: {box: omaha_lb1}}]

    Correct example:
        schedule: [{turn: 5, units: [us_8_inf], entry: {box: omaha_lb1}}]

    Policy: Mulberry levels are ``params.mulberry_levels.<box>`` (start level; absent =
    0, so LB2 is closed). Setup entries in landing boxes count for the first turn.
    """

    code = "TKG-SCH-007"
    name = "landing-boxes"
    severity = Severity.ERROR
    groups = ("schedule", "dday")
    rule_case = "TKG [18.1.2]"
    systems = ("tkg",)

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        s = ctx.scenario
        assert s is not None
        opens = int(param(ctx, "mulberry_lb2_opens_at", default=5))
        levels = scen_param(ctx, "mulberry_levels", default={}) or {}
        load: dict[tuple[object, str], list[str]] = defaultdict(list)
        for e in s.schedule:
            if e.entry is None or e.entry.box is None:
                continue
            box = ctx.bundle.box(e.entry.box)
            if box is None or box.kind != "landing_box":
                continue
            load[(e.turn, box.id)].extend(e.units)
            for c in schedule_units(ctx, e):
                if nation_group(c) not in box.flags:
                    yield ctx.finding(self, f"{c.name} ({nation_group(c)}) may not use {box.name} [18.1.2]",
                                      e.entry, "box", units=(c.id,))
            if "mulberry" in box.flags and "lb2" in box.flags:
                mul = box.connects[0] if box.connects else ""
                level = int(levels.get(mul, 0))
                if level < opens:
                    yield ctx.finding(self, f"{box.name} is closed: {mul} is at level {level}, below {opens} (L1754)",
                                      e.entry, "box", units=tuple(e.units))
        for (turn, box_id), units in sorted(load.items(), key=lambda kv: str(kv[0])):
            box = ctx.bundle.box(box_id)
            cap = box.capacity if box is not None and box.capacity else 1
            if len(units) > cap:
                yield ctx.finding(self, f"{box_id} receives {len(units)} units on turn {turn}; it holds {cap}",
                                  s, "schedule", units=tuple(units))
