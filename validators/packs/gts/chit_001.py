"""GTS-CHIT-001: every formation in play has a Formation chit and every division a DivAct chit."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.gts._gts import SYSTEMS, counter, divact_chits, is_unit
from validators.rule import Rule


class ChitsExist(Rule):
    """Each formation with units in the scenario has a Formation chit, and each division a
    DivAct chit, in the counter manifest.

    Rule case: 7.1 (the chits: one DivAct per division, one per Formation)

    Why: a formation without a chit can never be activated except through its division;
    the errata's KG Simon entry (S33) added a whole formation whose units were missing.

    Violating example: the KG Simon units set up but no counter flagged ``formation_chit``
    with ``formation: KG Simon``.

    Correct example: ``chit-kg-simon`` (formation KG Simon) and ``chit-divact-243`` (243.ID).
    Landing Craft and ships have no formation and are skipped.
    """

    code = "GTS-CHIT-001"
    name = "chits-exist"
    severity = Severity.ERROR
    groups = ("chits", "gts")
    rule_case = "7.1"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        formation_chits = {(c.division, c.formation) for c in ctx.bundle.counters if "formation_chit" in c.flags}
        divacts = divact_chits(ctx)
        reported: set = set()
        names = [e.unit for e in scen.setup] + [u for s in scen.schedule for u in s.units]
        for ref in names:
            c = counter(ctx, ref)
            if c is None or not is_unit(c, ctx) or c.category in ("landing_craft", "ship") or not c.division:
                continue
            if c.division not in divacts and ("div", c.division) not in reported:
                reported.add(("div", c.division))
                yield ctx.finding(self, f"division {c.division} has no DivAct chit in the manifest", scen, "setup",
                                  units=(c.id,))
            if c.formation and (c.division, c.formation) not in formation_chits and ("f", c.formation) not in reported:
                reported.add(("f", c.formation))
                yield ctx.finding(self, f"formation {c.formation} ({c.division}) has no Formation chit in the manifest",
                                  scen, "setup", units=(c.id,))
