"""GTS-CTR-002: reduced-side values agree with sibling counters of the same type."""

from __future__ import annotations

from collections import Counter as Tally
from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.gts._gts import SYSTEMS
from validators.rule import Rule

FIELDS = ("fr", "ar", "tq", "fire_range", "ma")


class SiblingOutliers(Rule):
    """Counters of the same category, division and formation with the same front values
    have the same back values; an outlier is reported (warning).

    Rule case: 19.2.4 (reduced side: FR, AR and TQ each −1; errata Counters: 7 × 91.LL backs FR 2, not 3)

    Why: sibling counters are printed from one template; one back that differs from all its
    siblings is most likely a misprint (errata K1, K9, K10).

    Policy: only numeric values are compared; ``unknown`` values are skipped, a value left
    out where the siblings print a number is reported (errata K9/K10: missing range). A group
    needs at least three counters and a clear majority.

    Violating example: three 91.LL companies front FR 3 / back FR 2, a fourth back FR 3.

    Correct example: all four back FR 2.
    """

    code = "GTS-CTR-002"
    name = "sibling-outliers"
    severity = Severity.WARNING
    groups = ("counters", "gts")
    rule_case = "19.2.4"
    systems = SYSTEMS
    scope = "bundle"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        groups: dict[tuple, list] = {}
        for c in ctx.bundle.counters:
            if c.back is None or c.category in ("leader", "marker"):
                continue
            front = tuple(c.front.values.get(f) for f in FIELDS)
            if not any(isinstance(v, (int, float)) for v in front):
                continue
            groups.setdefault((c.category, c.division, c.formation, front), []).append(c)
        for members in groups.values():
            if len(members) < 3:
                continue
            for f in FIELDS:
                vals = [m.back.values.get(f) for m in members]
                nums = [v for v in vals if isinstance(v, (int, float))]
                if len(nums) < 3:
                    continue
                common, count = Tally(nums).most_common(1)[0]
                if count * 2 <= len(nums):
                    continue
                for m, v in zip(members, vals):
                    if v is None or (isinstance(v, (int, float)) and v != common):
                        yield ctx.finding(self, f"counter {m.id}: back {f} {'not printed' if v is None else v}, its {count} "
                                          f"siblings print {common}",
                                          m.back, "values", f, units=(m.id,))
