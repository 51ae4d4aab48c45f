"""GTS-DZ-004: every straggler battalion named exists, once."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.gts._gts import SYSTEMS, param
from validators.rule import Rule


class StragglerBattalions(Rule):
    """Each battalion in ``params.straggler_battalions`` is a battalion of the counter
    manifest, and none is listed twice.

    Rule case: Excl 3.4 (Stragglers are tracked per battalion; errata Adv#3: the stragglers are
    1st–3rd Bn **502nd**)

    Why: straggler points belong to a battalion's track; a wrong regiment number (errata S18)
    puts them on a track no unit can use.

    Violating example: ``straggler_battalions: [1/502, 1/520]``.

    Correct example: ``straggler_battalions: [1/502, 2/502, 3/506, 1/501]``.
    """

    code = "GTS-DZ-004"
    name = "straggler-battalions"
    severity = Severity.ERROR
    groups = ("airborne", "gts")
    rule_case = "Excl 3.4"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        battalions = {c.battalion for c in ctx.bundle.counters if c.battalion}
        seen: set[str] = set()
        for i, bn in enumerate(param(ctx, "straggler_battalions", []) or []):
            bn = str(bn)
            if bn in seen:
                yield ctx.finding(self, f"straggler battalion {bn} is listed twice", scen, "params",
                                  "straggler_battalions")
            seen.add(bn)
            if bn not in battalions:
                yield ctx.finding(self, f"straggler battalion {bn} is not a battalion of any counter", scen, "params",
                                  "straggler_battalions")
