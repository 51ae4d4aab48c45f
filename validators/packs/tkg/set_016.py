"""TKG-SET-016."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.tkg._tkg import box_side, nation_group
from validators.rule import Rule


class OmmBoxEntitlement(Rule):
    """Only British/Canadian units go in British-flag OMM boxes, and no German unit is in an Allied-controlled box.

    Digest §8: SET-16.

    Rule case: TKG L404

    Why: "Only British/Canadian units may enter OMM areas marked with a British flag"
    (L404); Germans may not enter an Allied box [7.5.1].

    Violating example:
        setup: [{unit: us_8_inf, box: E3}]        # E3 has the british_flag flag

    Correct example:
        setup: [{unit: br_231_bde, box: E3}]

    Policy: Box control comes from ``params.box_control`` (OMM boxes start German).
    Schedule entries entering through a box are checked the same way.
    """

    code = "TKG-SET-016"
    name = "omm-box-entitlement"
    severity = Severity.ERROR
    groups = ("setup", "boxes")
    rule_case = "TKG L404"
    systems = ("tkg",)

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        s = ctx.scenario
        assert s is not None
        uses = [(e, e.box, [e.unit]) for e in s.setup if e.box]
        uses += [(x.entry, x.entry.box, x.units) for x in s.schedule if x.entry is not None and x.entry.box]
        for node, box_id, units in uses:
            box = ctx.bundle.box(box_id or "")
            if box is None or box.kind != "omm":
                continue
            for uid in units:
                c = ctx.counters.get(uid)
                if c is None:
                    continue
                if "british_flag" in box.flags and c.side == "allied" and nation_group(c) != "commonwealth":
                    yield ctx.finding(self, f"{c.name} is not British/Canadian and may not be in British-flag box "
                                            f"{box.id!r}", node, "box", units=(uid,))
                if c.side == "german" and box_side(ctx, box) == "allied":
                    yield ctx.finding(self, f"{c.name} is in Allied-controlled box {box.id!r} [7.5.1]", node, "box",
                                      units=(uid,))
