"""TKG-SCH-005."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.tkg._tkg import nation_group, schedule_units
from validators.rule import Rule


class ReinforcementEntryBox(Rule):
    """German arrivals through a box name an OMM, Transit or Rail box; Allied arrivals through a box name their own nation's Floating Reserve.

    Digest §8: SCH-05.

    Rule case: TKG [18.4.1]

    Why: German reinforcements enter "into the OMM box named on the TRT" or, in single-map
    play, the Transit Display or the Rail box [18.4.1]; Allied units pass through the
    Floating Reserve, U.S. and Commonwealth separately [18.1.2].

    Violating example:
        schedule: [{turn: 31, side: german, units: [de_2ss_d], entry: {box: fr_us}}]

    Correct example:
        schedule: [{turn: 31, side: german, units: [de_2ss_d], entry: {box: E2}}]

    Policy: Allied entries may also name a landing box (checked by TKG-SCH-007) or hold
    a hex (TKG-SCH-008).
    """

    code = "TKG-SCH-005"
    name = "reinforcement-entry-box"
    severity = Severity.ERROR
    groups = ("schedule",)
    rule_case = "TKG [18.4.1]"
    systems = ("tkg",)

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        assert ctx.scenario is not None
        for e in ctx.scenario.schedule:
            if e.entry is None or e.entry.box is None or e.kind != "reinforcement":
                continue
            box = ctx.bundle.box(e.entry.box)
            if box is None:
                continue  # CORE-REF-002 reports unknown boxes
            for c in schedule_units(ctx, e):
                if c.side == "german" and box.kind not in ("omm", "transit", "rail"):
                    yield ctx.finding(self, f"German {c.name} enters through {box.kind} box {box.id!r}; use an OMM, "
                                            "Transit or Rail box", e.entry, "box", units=(c.id,))
                if c.side == "allied" and box.kind not in ("floating_reserve", "landing_box"):
                    yield ctx.finding(self, f"Allied {c.name} enters through {box.kind} box {box.id!r}; use the "
                                            "Floating Reserve", e.entry, "box", units=(c.id,))
                elif c.side == "allied" and nation_group(c) not in box.flags:
                    yield ctx.finding(self, f"{c.name} ({nation_group(c)}) may not use {box.name} [18.1.2]",
                                      e.entry, "box", units=(c.id,))
