"""SFN-BOX-001."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic
from validators.context import RuleContext
from validators.packs.sfn._sfn import SYSTEMS, param, setup_code
from validators.rule import Rule


class HoldingBoxSetup(Rule):
    """Units start in the holding box their set-up code or type names.

    Rule case: SFN 3.2, 3.4, 3.6
    Why: German units coded N, S, It and Rus start in the North, South, Italy and Russia
    boxes (3.4, 3.6); untried US units and Allied units with blank corners start in the
    England box, blooded US counterparts in the US Blooded Replacement box (3.2).
    Violating example: the Hermann Goering division (printed It) set up in the South box.
    Correct example: ``{unit: de-hg-pz, box: italy}``; ``{unit: us-4-armd-untried, box: england}``.
    Policy: blooded-flag — a US division's blooded counter is the one flagged ``blooded``,
    its untried counterpart the one flagged ``untried`` (2.13).
    """

    code = "SFN-BOX-001"
    name = "holding-box-setup"
    groups = ("setup", "boxes")
    rule_case = "SFN 3.4"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        boxes = param(ctx, "setup_boxes")
        german = boxes.get("german", {})
        for entry in scen.setup:
            unit = ctx.counters.get(entry.unit)
            if unit is None:
                continue
            code = setup_code(unit).rstrip("*")
            want: str | None = None
            if unit.side == "german" and code in german:
                want = str(german[code])
            elif unit.side == "allied":
                if "blooded" in unit.flags:
                    want = boxes.get("allied_blooded")
                elif "untried" in unit.flags:
                    want = boxes.get("allied_untried")
                elif code == "":
                    want = boxes.get("allied_blank")
            if want is not None and entry.box != want:
                where = f"box {entry.box}" if entry.box else "on the map"
                yield ctx.finding(self, f"{entry.unit} (code {setup_code(unit) or 'blank'}) starts in box {want}, not "
                                  f"{where}", entry, "box" if entry.box else "unit", units=[entry.unit])
