"""GTS-CTR-004: each leader's formation is a formation of the manifest."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.gts._gts import SYSTEMS
from validators.rule import Rule


class LeaderFormation(Rule):
    """A leader's formation (``leader_of``) names a formation that some unit counter belongs to.

    Rule case: 2.0 (a leader's counter names his Formation; errata Bastogne: COL Roberts → CCB)

    Why: the leader commands the units of his formation; a formation no unit carries means
    a leader with nobody to command (errata K7).

    Violating example: ``{id: ldr-moseley, leader_of: 520th PIR}``.

    Correct example: ``leader_of: 502nd PIR`` (the formation of A/1/502 …).
    """

    code = "GTS-CTR-004"
    name = "leader-formation"
    severity = Severity.ERROR
    groups = ("counters", "leaders", "gts")
    rule_case = "2.0"
    systems = SYSTEMS
    scope = "bundle"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        formations = {c.formation for c in ctx.bundle.counters if c.formation and c.category not in ("leader", "marker")}
        for c in ctx.bundle.counters:
            if c.category != "leader":
                continue
            if not c.leader_of:
                yield ctx.finding(self, f"leader {c.id} names no formation", c, units=(c.id,))
            elif c.leader_of not in formations:
                yield ctx.finding(self, f"leader {c.id} commands {c.leader_of!r}, which no unit counter belongs to",
                                  c, "leader_of", units=(c.id,))
