"""TKG-CTR-006."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.tkg._tkg import tags
from validators.rule import Rule


class ArtilleryValues(Rule):
    """Artillery counters give OBS, DBS and range on both sides, and a corps (or the flag independent).

    Digest §8: CTR-06.

    Rule case: TKG [10.6.5]

    Why: Artillery support uses OBS and DBS, full and reduced (L599), and range; a
    non-corps unit must stay within 6 hexes of its HQ [10.6.5], so the corps must be known.

    Violating example:
        - {id: de_84_arty, category: artillery, front: {values: {obs: 4, range: 3}}}

    Correct example:
        - {id: de_84_arty, category: artillery, front: {values: {obs: 4, dbs: 3, range: 3, corps: LXXXIV}},
           back: {values: {obs: 2, dbs: 2, range: 3}}}

    Policy: ``unknown`` counts as given (the draft prints no values); a missing key does not.
    """

    code = "TKG-CTR-006"
    name = "artillery-values"
    severity = Severity.ERROR
    groups = ("counters",)
    rule_case = "TKG [10.6.5]"
    systems = ("tkg",)
    scope = "bundle"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        for c in ctx.bundle.counters:
            if "artillery" not in tags(ctx, c):
                continue
            for side_name, side in (("front", c.front), ("back", c.back)):
                if side is None:
                    yield ctx.finding(self, f"{c.name} has no reduced (back) side values", c, units=(c.id,))
                    continue
                missing = [k for k in ("obs", "dbs", "range") if side.values.get(k) is None]
                if missing:
                    yield ctx.finding(self, f"{c.name} {side_name} lacks {', '.join(missing)}", c, side_name, units=(c.id,))
            if c.front.values.get("corps") is None and "independent" not in c.flags:
                yield ctx.finding(self, f"{c.name} names no corps and is not flagged independent", c, units=(c.id,))
