"""TKG-SET-001."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from model.scenario_areas import CONTROL, POLICY, control_areas, from_scenario
from validators.context import RuleContext
from validators.packs.tkg._tkg import box_side, placed
from validators.rule import Rule


class NoStartInEnemyArea(Rule):
    """No unit starts in an area or box controlled by the enemy.

    Digest §8: SET-01.

    Rule case: TKG [25.1.5]

    Why: "No unit may ever start in enemy controlled areas" [25.1.5]. A German regiment
    set up behind the Allied start line, or an Allied unit in a German OMM box, breaks
    the scenario before play begins.

    Violating example:
        # map area {id: allied_lodgement, kind: control, side: allied, hexes: [W5021]}
        setup: [{unit: de_916_gr, hex: W5021}]

    Correct example:
        setup: [{unit: us_8_inf, hex: W5021}]

    Policy: Control areas are the scenario's ``control_areas`` when it gives them, else the
    map areas of kind ``control`` (scenario-areas-replace, model/scenario_areas.py); only
    those with a ``side`` count. Boxes use the scenario's ``params.box_control`` or their own
    side (OMM boxes start German, [7.5]).
    """

    code = "TKG-SET-001"
    name = "no-start-in-enemy-area"
    severity = Severity.ERROR
    groups = ("setup",)
    rule_case = "TKG [25.1.5]"
    systems = ("tkg",)

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        assert ctx.scenario is not None
        areas = [a for a in control_areas(ctx.hmap, ctx.scenario) if a.side]
        policy = POLICY if from_scenario(ctx.scenario, CONTROL) else None
        for e, c, h in placed(ctx):
            if c is None:
                continue
            for a in areas:
                if a.side != c.side and h in a.hexes:
                    yield ctx.finding(self, f"{c.name} starts in {ctx.label(h)}, inside {a.side}-controlled area "
                                            f"{a.id!r}", e, units=(e.unit,), hexes=(h,), policy=policy)
        for e in ctx.scenario.setup:
            c = ctx.counters.get(e.unit)
            box = ctx.bundle.box(e.box) if e.box else None
            if c is None or box is None:
                continue
            owner = box_side(ctx, box)
            if owner is not None and owner != c.side:
                yield ctx.finding(self, f"{c.name} starts in box {box.id!r}, controlled by {owner}", e, "box",
                                  units=(e.unit,))
