"""GTS-REINF-002: every reinforcement hex the schedule uses is declared by the scenario."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.gts._gts import SYSTEMS, location, param
from validators.rule import Rule


class ReinforcementHexDeclared(Rule):
    """Each reinforcement hex used as an entry in the schedule is declared in the scenario's
    special rules (``params.entry_hexes``).

    Rule case: Err Adv#1 ("Under Scenario Special Rule 1, add German Reinforcement F (52.063)")

    Why: the errata had to add German Reinforcement F to SSR 1 of Advanced #1 because the
    schedule used it without the scenario declaring it (errata S12).

    Violating example: German units enter at ``location: de-reinf-f`` while
    ``params.entry_hexes`` lists only ``us-reinf-1``.

    Correct example: ``entry_hexes: {value: [de-reinf-f, us-reinf-1]}``.
    """

    code = "GTS-REINF-002"
    name = "reinf-hex-declared"
    severity = Severity.ERROR
    groups = ("reinforcements", "gts")
    rule_case = "Err Adv#1"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        declared = set(param(ctx, "entry_hexes", []) or [])
        for s in scen.schedule:
            if s.entry is None or not s.entry.location:
                continue
            loc = location(ctx, s.entry.location)
            if loc is None or loc.kind != "reinforcement_hex":
                continue
            if loc.id not in declared:
                yield ctx.finding(self, f"entry at {loc.name} ({s.entry.location}) is not declared in the scenario's "
                                  "special rules (params.entry_hexes)", s.entry, "location")
