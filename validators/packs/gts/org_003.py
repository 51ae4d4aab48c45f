"""GTS-ORG-003: every independent unit in play names the division it is attached to."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.gts._gts import SYSTEMS, counter, param
from validators.rule import Rule


class IndependentAttached(Rule):
    """An independent unit (counter flag ``independent``) in a setup or schedule names the
    division it is attached to: ``attached_to`` on the entry or an ``params.attachments`` entry.

    Rule case: 8.0 (independents arrive already attached; Excl 13.0; errata Intro#3 adds a
    709.ID unit "attached to 91.LL")

    Why: an independent unit with no division has no DivAct chit to activate on (errata S7).

    Violating example: the 70th Tank Bn DD tanks land with no ``attached_to``.

    Correct example: ``attached_to: 4th Infantry Division`` on their landing entries.
    """

    code = "GTS-ORG-003"
    name = "independent-attached"
    severity = Severity.ERROR
    groups = ("organisation", "gts")
    rule_case = "8.0"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        attached = {str(a.get("name")) for a in (param(ctx, "attachments", []) or []) if isinstance(a, dict)}
        for e in scen.setup:
            c = counter(ctx, e.unit)
            if c is not None and "independent" in c.flags and not e.attached_to and not ({c.id, c.battalion, c.formation} & attached):
                yield ctx.finding(self, f"independent unit {e.unit} is set up without naming its division", e, "unit",
                                  units=(c.id,))
        for s in scen.schedule:
            for j, u in enumerate(s.units):
                c = counter(ctx, u)
                if c is not None and "independent" in c.flags and not s.attached_to \
                        and not ({c.id, c.battalion, c.formation} & attached):
                    yield ctx.finding(self, f"independent unit {u} arrives without naming its division", s, "units", j,
                                      units=(c.id,))
