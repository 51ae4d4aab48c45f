"""GTS-VIC-001: a scenario's victory conditions give every task tier, or say where it is inherited from."""

from __future__ import annotations

from typing import Any, Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.gts._gts import SYSTEMS, param, sys_param, unwrap
from validators.rule import Rule


def tier_given(entry: Any) -> bool:
    return isinstance(entry, str) and bool(entry.strip()) or isinstance(entry, dict) and bool(entry.get("text"))


class VictoryComplete(Rule):
    """``params.victory_tasks`` gives each task tier of ``victory_task_tiers`` (Primary,
    Secondary, Tertiary) as text, or as ``{inherited_from: scenario}`` naming a scenario of the
    bundle that gives that tier itself.

    Rule case: Err SB#1 Learning ("only the Primary Task changes, the Secondary and Tertiary
    remain the same from 'The Battle for Brécourt Manor' scenario")

    Why: "The Battle for the Batteries" printed only its Primary task (errata S2); a tier that
    is neither given nor explicitly inherited leaves the victory check undefined.

    Policy: a scenario with no ``victory_tasks`` at all is reported once; inheritance is one
    level deep (the named scenario must give the tier, not inherit it again).

    Violating example: ``victory_tasks: {primary: Take the batteries}``.

    Correct example: ``victory_tasks: {primary: Take the batteries, secondary: {inherited_from:
    brecourt-manor}, tertiary: {inherited_from: brecourt-manor}}``.
    """

    code = "GTS-VIC-001"
    name = "victory-complete"
    severity = Severity.WARNING
    groups = ("victory", "gts")
    rule_case = "Err SB#1 Learning"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        tiers = [str(t) for t in sys_param(ctx, "victory_task_tiers", []) or []]
        if not tiers:
            return
        tasks = param(ctx, "victory_tasks")
        if not isinstance(tasks, dict):
            yield ctx.finding(self, f"no victory_tasks: the {', '.join(tiers)} tasks are not given", scen, "victory")
            return
        for tier in tiers:
            entry = tasks.get(tier)
            if tier_given(entry):
                continue
            src = entry.get("inherited_from") if isinstance(entry, dict) else None
            if src is None:
                yield ctx.finding(self, f"the {tier} task is neither given nor inherited", scen, "params", "victory_tasks")
                continue
            other = ctx.bundle.scenarios.get(str(src))
            other_tasks = unwrap(other.params.get("victory_tasks")) if other is not None else None
            if not isinstance(other_tasks, dict) or not tier_given(other_tasks.get(tier)):
                yield ctx.finding(self, f"the {tier} task is inherited from {src!r}, which does not give it",
                                  scen, "params", "victory_tasks", tier)
