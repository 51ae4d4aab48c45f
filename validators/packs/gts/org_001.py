"""GTS-ORG-001: the division a setup list files a unit under matches the counter manifest."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.gts._gts import SYSTEMS, counter, param
from validators.rule import Rule


class OrgMembership(Rule):
    """Units listed under a division or group heading (``params.org``) belong to it in the
    counter manifest, or are attached to it.

    Rule case: 8.0 (set-up by division; errata CG#2: III/Gren 1058 and 5./Geb.Art. 191 belong to 91.LL)

    Why: a unit filed under the wrong division activates on the wrong chit and draws on the
    wrong Command Points; the errata moved two units between divisions (S26, S27).

    Violating example: ``org: {243.ID: [simon-1-i-921, c5-ii-919]}`` — c5-ii-919 is 709.ID.

    Correct example: ``org: {243.ID: [simon-1-i-921], 709.ID: [c5-ii-919]}`` (or an entry in
    ``params.attachments`` attaching it).
    """

    code = "GTS-ORG-001"
    name = "org-membership"
    severity = Severity.ERROR
    groups = ("organisation", "gts")
    rule_case = "8.0"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        attached = {str(a.get("name")): str(a.get("to")) for a in (param(ctx, "attachments", []) or [])
                    if isinstance(a, dict)}
        for heading, units in (param(ctx, "org", {}) or {}).items():
            for i, u in enumerate(units or []):
                c = counter(ctx, str(u))
                if c is None:
                    continue
                if heading in (c.division, c.formation) or attached.get(c.id) == heading \
                        or attached.get(c.battalion or "") == heading or attached.get(c.formation or "") == heading:
                    continue
                yield ctx.finding(self, f"{u} is listed under {heading} but its counter belongs to {c.division}",
                                  scen, "params", "org", heading, i, units=(c.id,))
