"""GTS-CTR-005: a value a scenario's text quotes for a counter equals the counter's value."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.gts._gts import SYSTEMS, counter, param
from validators.rule import Rule


def same(a: object, b: object) -> bool:
    return str(a).strip().casefold() == str(b).strip().casefold()


class ScenarioValueVsCounter(Rule):
    """Each entry of ``params.quoted_values`` (a special rule quoting counter values:
    ``{special_rule, unit, values: {field: value}}``) names an existing special rule and
    counter, and each quoted value equals the counter's front value.

    Rule case: Err General (Scenario Books, p.2: Bomber Support units "attack with a 5 orange
    … instead of yellow. The counters are correct.")

    Why: scenario text that restates a counter value drifts from the counter (errata G2);
    a player cannot tell which one to use.

    Policy: a counter value of ``unknown`` (not printed in the rules file) cannot be compared
    and is skipped; the counter is the reference, as the errata say.

    Violating example: ``quoted_values: [{special_rule: ssr-bombers, unit: bomber-1,
    values: {fr: '5', fr_colour: yellow}}]`` with the counter's ``fr_colour: orange``.

    Correct example: ``values: {fr: '5', fr_colour: orange}``.
    """

    code = "GTS-CTR-005"
    name = "scenario-value-vs-counter"
    severity = Severity.ERROR
    groups = ("counters", "scenario-text", "gts")
    rule_case = "Err General"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        rules = {r.id for r in scen.special_rules}
        for i, q in enumerate(param(ctx, "quoted_values", []) or []):
            if not isinstance(q, dict):
                continue
            where = ("params", "quoted_values", i)
            sr = q.get("special_rule")
            if sr is not None and str(sr) not in rules:
                yield ctx.finding(self, f"quoted value {i}: special rule {sr!r} is not in this scenario", scen, *where)
            c = counter(ctx, str(q.get("unit")))
            if c is None:
                yield ctx.finding(self, f"quoted value {i}: no counter {q.get('unit')!r}", scen, *where)
                continue
            for field, quoted in sorted((q.get("values") or {}).items()):
                actual = c.front.values.get(field)
                if actual is None or same(actual, "unknown"):
                    continue
                if not same(actual, quoted):
                    yield ctx.finding(self, f"{sr or 'scenario text'} quotes {c.name} {field} = {quoted!r}; the counter "
                                      f"says {actual!r}", scen, *where, "values", field, units=(c.id,))
