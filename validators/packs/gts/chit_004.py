"""GTS-CHIT-004: every Formation chit in the mug belongs to a formation with units in the scenario."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.gts._gts import SYSTEMS, counter, is_unit, mug_turns
from validators.rule import Rule


class FormationHasUnits(Rule):
    """A Formation chit placed in the mug (``params.mug``) belongs to a formation that has
    units set up or scheduled in the scenario.

    Rule case: 7.1 (one chit per Formation; errata CG#4: "Add the following KG Simon setup")

    Why: the Campaign Game #4 file had KG Simon's chit and leader but none of its units
    (errata S33): drawing that chit activates nothing.

    Violating example: ``chit-kg-simon`` in the mug with the seven KG Simon setup lines removed.

    Correct example: the KG Simon setup of the errata (105.031, 100.039, …).
    """

    code = "GTS-CHIT-004"
    name = "formation-has-units"
    severity = Severity.ERROR
    groups = ("chits", "gts")
    rule_case = "7.1"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        in_play = set()
        for ref in [e.unit for e in scen.setup] + [u for s in scen.schedule for u in s.units]:
            c = counter(ctx, ref)
            if c is not None and is_unit(c, ctx):
                in_play.add((c.division, c.formation))
        for chit_id, n in sorted(mug_turns(ctx).items()):
            chit = ctx.counters.get(chit_id)
            if chit is None or "formation_chit" not in chit.flags:
                continue
            if (chit.division, chit.formation) not in in_play:
                yield ctx.finding(self, f"Formation chit {chit_id} ({chit.formation}) is in the mug but no unit of "
                                  f"{chit.formation} is set up or scheduled", scen, "params", "mug", units=(chit_id,))
