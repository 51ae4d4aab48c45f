"""SFN-STACK-002."""

from __future__ import annotations

from collections import defaultdict
from typing import Iterable

from model.diagnostics import Diagnostic
from model.hexes import Hex
from model.scenario import SetupEntry
from validators.context import RuleContext
from validators.packs.sfn._sfn import SYSTEMS, nationality_group
from validators.rule import Rule


class NoUsWithCommonwealth(Rule):
    """US (and Free French) units never stack with Commonwealth units.

    Rule case: SFN 10.2
    Why: "US and Commonwealth units may not stack together"; Free French stack as US and
    Canadian, Polish and Belgian-Netherlands units as British (2.8, 10.2).
    Violating example: the US 45th and the British 5th both set up in 2006.
    Correct example: the Free French 2nd Armored with the US 4th Armored; the Poles with the Canadians.
    """

    code = "SFN-STACK-002"
    name = "no-us-with-commonwealth"
    groups = ("setup", "stacking")
    rule_case = "SFN 10.2"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        stacks: dict[Hex, list[SetupEntry]] = defaultdict(list)
        for entry in scen.setup:
            if entry.hex is not None:
                stacks[entry.hex].append(entry)
        for h, entries in stacks.items():
            groups = {nationality_group(ctx, ctx.counters.get(e.unit)) for e in entries} - {None}
            if len(groups) > 1:
                yield ctx.finding(self, f"{ctx.label(h)} stacks {' and '.join(sorted(str(g) for g in groups))} units",
                                  entries[-1], "hex", hexes=[h], units=[e.unit for e in entries])
