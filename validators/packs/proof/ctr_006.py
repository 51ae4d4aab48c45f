"""PROOF-CTR-006: every leader's formation exists."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.rule import Rule


class LeaderFormation(Rule):
    """Each leader commands a formation that some counter belongs to.

    Rule case: GTS 2.0 (leader: Formation, Command Range, Attachment Rating); Utah errata (Bastogne)

    Why: a leader whose formation field names nothing (a typo, or a formation dropped from
    the counter mix) can never activate anyone; the errata correct such leaders.

    Violating example: a leader with ``leader_of: 502 PIR`` when no counter has ``formation: 502 PIR``.

    Correct example: the 502nd's battalions carry ``formation: 502 PIR``.
    """

    code = "PROOF-CTR-006"
    name = "leader-formation"
    severity = Severity.ERROR
    groups = ("proof", "counters")
    rule_case = "GTS 2.0; Utah errata (Bastogne)"
    scope = "bundle"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        formations = {c.formation for c in ctx.bundle.counters if c.formation}
        for c in ctx.bundle.counters:
            if c.leader_of and c.leader_of not in formations:
                yield ctx.finding(self, f"leader {c.id} commands formation {c.leader_of!r}, which no counter belongs to",
                                  c, "leader_of", units=(c.id,))
