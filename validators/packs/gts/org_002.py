"""GTS-ORG-002: attachments name formations as formations and battalions as battalions."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.gts._gts import SYSTEMS, param
from validators.rule import Rule


class OrgLevel(Rule):
    """Each attachment (``params.attachments``: ``{name, level, to}``) names something of the
    level it claims: a formation of the manifest for ``formation``, a battalion for ``battalion``.

    Rule case: Excl 13.0 (Formation and Battalion Attachment; errata Int#3: "additional formations" → battalions)

    Why: formations and battalions attach under different limits and costs (2 DP vs 1 DP,
    Excl 13.4); calling battalions "formations" (errata S9) changes both.

    Violating example: ``{name: 1/8, level: formation, to: 4th Infantry Division}``.

    Correct example: ``{name: 1/8, level: battalion, to: 8th IR}``.
    """

    code = "GTS-ORG-002"
    name = "org-level"
    severity = Severity.ERROR
    groups = ("organisation", "gts")
    rule_case = "Excl 13.0"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        formations = {c.formation for c in ctx.bundle.counters if c.formation}
        battalions = {c.battalion for c in ctx.bundle.counters if c.battalion}
        for i, a in enumerate(param(ctx, "attachments", []) or []):
            if not isinstance(a, dict) or a.get("level") not in ("formation", "battalion"):
                continue
            name, level = str(a.get("name")), a["level"]
            pool, other = (formations, battalions) if level == "formation" else (battalions, formations)
            if name not in pool:
                hint = f"; it is a {'battalion' if level == 'formation' else 'formation'}" if name in other else ""
                yield ctx.finding(self, f"attachment of {name!r} as a {level}: no {level} has that name{hint}",
                                  scen, "params", "attachments", i, "level")
