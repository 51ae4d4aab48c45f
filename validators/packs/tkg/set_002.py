"""TKG-SET-002."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.tkg._tkg import by_hex, tags
from validators.rule import Rule


class StackingLimit(Rule):
    """At most 3 units per hex, 2 in hedgerow, bocage or forest (a lone HQ, trucks and EAD units do not count).

    Digest §8: SET-02.

    Rule case: TKG L305

    Why: "no more than three units may stack in the same hex ... In hedgerow, bocage and
    forest type hexes, no more than two units" (L305). A lone HQ is free [6.1.3], trucks
    are free [7.1.5], EAD units do not stack (L2399). Overstacked hexes disorganize [6.1.5].

    Violating example:
        # W5021 is bocage
        setup: [{unit: de_2ss_df, hex: W5021}, {unit: de_2ss_d, hex: W5021}, {unit: de_2ss_recon, hex: W5021}]

    Correct example:
        setup: [{unit: de_2ss_df, hex: W5021}, {unit: de_2ss_recon, hex: W5021}]

    Policy: The limit is the terrain's ``stacking_limit`` or the system ``max_units``;
    a unit with the ``ead`` flag, or whose category has ``counts_for_stacking: false``,
    is not counted; one HQ in a hex is free, two or more all count [6.1.3], [11.1.1]
    (policy *hq-stacking-all-count-when-several*, shared with the engine and CORE-STACK-001).
    """

    code = "TKG-SET-002"
    name = "stacking-limit"
    severity = Severity.ERROR
    groups = ("setup", "stacking")
    rule_case = "TKG L305"
    systems = ("tkg",)

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        default = ctx.system.stacking.max_units or 3
        for h, stack in sorted(by_hex(ctx).items()):
            terrain = ctx.system.terrain_by_id.get(ctx.hmap.terrain_at(h) or "")
            limit = terrain.stacking_limit if terrain is not None and terrain.stacking_limit else default
            counted = []
            hqs = []
            for e, c in stack:
                if c is None:
                    counted.append(e)
                    continue
                cat = ctx.system.category_by_id.get(c.category)
                if "ead" in c.flags or (cat is not None and not cat.counts_for_stacking):
                    continue
                if "hq" in tags(ctx, c):
                    hqs.append(e)
                else:
                    counted.append(e)
            if len(hqs) > 1:
                counted.extend(hqs)
            if len(counted) > limit:
                where = terrain.name if terrain is not None else "this hex"
                yield ctx.finding(self, f"{ctx.label(h)} ({where}) holds {len(counted)} units; the limit is {limit}",
                                  counted[limit], units=tuple(e.unit for e in counted), hexes=(h,))
