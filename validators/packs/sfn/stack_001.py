"""SFN-STACK-001."""

from __future__ import annotations

from collections import defaultdict
from typing import Iterable

from model.diagnostics import Diagnostic
from model.hexes import Hex
from model.scenario import SetupEntry
from validators.context import RuleContext
from validators.packs.sfn._sfn import SYSTEMS
from validators.rule import Rule


class StackingLimits(Rule):
    """At set-up no hex holds more than four units, more than one artillery or more than three non-artillery.

    Rule case: SFN 10.1
    Why: "A maximum of four friendly units may stack in the same hex, but only one of them
    may be artillery and no more than three may be non-artillery."
    Violating example: four divisions set up with ``hex: '2006'``.
    Correct example: three divisions and the I Corps artillery in one hex.
    Policy: exact-hex-only — only entries with an exact ``hex`` are counted; ``adjacent_to``
    entries are the player's choice; holding boxes are unstacked (10.1).
    """

    code = "SFN-STACK-001"
    name = "stacking-limits"
    groups = ("setup", "stacking")
    rule_case = "SFN 10.1"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        limits = ctx.system.stacking.limits
        arty = set(limits.get("artillery_categories", []))
        exempt = set(limits.get("exempt_categories", []))
        stacks: dict[Hex, list[SetupEntry]] = defaultdict(list)
        for entry in scen.setup:
            unit = ctx.counters.get(entry.unit)
            if entry.hex is not None and unit is not None and unit.category not in exempt:
                stacks[entry.hex].append(entry)
        checks = (("max_units", lambda c: True, "units"), ("max_artillery", lambda c: c in arty, "artillery units"),
                  ("max_non_artillery", lambda c: c not in arty, "non-artillery units"))
        for h, entries in stacks.items():
            cats = [ctx.counters[e.unit].category for e in entries]
            for key, pred, what in checks:
                cap = limits.get(key)
                n = sum(1 for c in cats if pred(c))
                if cap is not None and n > int(cap):
                    yield ctx.finding(self, f"{ctx.label(h)} holds {n} {what} at set-up; the limit is {cap}",
                                      entries[-1], "hex", hexes=[h], units=[e.unit for e in entries],
                                      policy="exact-hex-only")
