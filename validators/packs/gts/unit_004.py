"""GTS-UNIT-004: counters a rule introduces appear in some scenario's setup or schedule."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.gts._gts import SYSTEMS
from validators.rule import Rule

FLAG = "rule_introduced"


class OrphanCounters(Rule):
    """Every counter flagged ``rule_introduced`` (brought into play by a rule, e.g. Tross
    trucks for Excl 12.0) is set up or scheduled in at least one scenario of the bundle.

    Rule case: Excl 12.0 (errata CG#2/3/5: "Add 4 x Tross(s)/Flak 30 and 4 x Tross(le)/Flak 30
    units … in accordance with Exclusive Rule #12.0")

    Why: the Tross counters were printed and their rule written, yet no scenario brought them
    in (errata S23); a counter no scenario uses is either dead weight or a missing event.

    Policy: a warning — a counter may be meant for a scenario the bundle does not hold.

    Violating example: ``{id: tross-s-1, flags: [rule_introduced], rule: Excl 12.0}`` and no
    scenario naming ``tross-s-1``.

    Correct example: a schedule ``{turn: 1100 7 June, kind: event, units: [tross-s-1, …]}``.
    """

    code = "GTS-UNIT-004"
    name = "orphan-counters"
    severity = Severity.WARNING
    groups = ("units", "schedule", "gts")
    rule_case = "Excl 12.0"
    systems = SYSTEMS
    scope = "bundle"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        flagged = [c for c in ctx.bundle.counters if FLAG in c.flags]
        if not flagged:
            return
        used: set[str] = set()
        for sid in ctx.bundle.scenarios:
            try:
                scen = ctx.bundle.resolved(sid)
            except ValueError:
                scen = ctx.bundle.scenarios[sid]
            used.update(e.unit for e in scen.setup)
            for s in scen.schedule:
                used.update(s.units)
        for c in flagged:
            if c.id not in used and c.name not in used:
                yield ctx.finding(self, f"{c.name} is introduced by {c.rule or 'a rule'} but no scenario sets it up or "
                                  "schedules it", c, units=(c.id,))
