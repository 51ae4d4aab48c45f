"""PROOF-CTR-003: sibling outliers — a counter that differs from all its siblings."""

from __future__ import annotations

from collections import Counter as Tally
from typing import Iterable

from model.counters import Counter
from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.rule import Rule

MIN_GROUP = 4
SHARE = 0.75


class SiblingOutliers(Rule):
    """A counter lacks a value (such as a range superscript) that its siblings print.

    Rule case: GTS 15.1 (no printed range means range 1); Utah errata (Counters, SJG)

    Why: counters of the same type in the same formation are printed from one template; when
    one of them lacks the range superscript that all the others carry, or prints a different
    value on the same side, it is usually a printing error (the Utah errata correct several).

    Policy: "sibling policy": siblings are counters with the same side, category and
    formation (or division when no formation is given), and zero-step counters are siblings
    only of zero-step counters — a Zero-Step Unit may not Assault [GTS 18.1] and legally
    prints no Assault value (Utah errata: "HQ Def 28 ID is a zero-step unit with no Assault
    value"), so it is no outlier among stepped units. A group needs at least 4 counters, and a
    value is an outlier when at least 75 % of the others agree on something else. Values
    written ``unknown`` are never outliers and never make one: a sibling printing ``unknown``
    does not count as printing the value.

    Violating example: four 101st parachute battalions print ``range: 2`` and a fifth has no range.

    Correct example: all five print ``range: 2``.
    """

    code = "PROOF-CTR-003"
    name = "sibling-outliers"
    severity = Severity.WARNING
    groups = ("proof", "counters")
    rule_case = "GTS 15.1; GTS 18.1; Utah errata (Counters)"
    scope = "bundle"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        groups: dict[tuple[str, str, str, bool], list[Counter]] = {}
        for c in ctx.bundle.counters:
            key = (c.side, c.category, c.formation or c.division or "", c.steps == 0)
            groups.setdefault(key, []).append(c)
        for members in groups.values():
            if len(members) < MIN_GROUP:
                continue
            for side_name in ("front", "back"):
                sides = [(c, getattr(c, side_name)) for c in members if getattr(c, side_name) is not None]
                keys = sorted({k for _, s in sides for k in s.values})
                for key in keys:
                    # "unknown" means the rules we hold do not give the value: nothing to compare.
                    present = [(c, s.values[key]) for c, s in sides
                               if s.values.get(key) is not None and s.values[key] != "unknown"]
                    missing = [c for c, s in sides if s.values.get(key) is None]
                    for c in missing:
                        if len(present) >= SHARE * (len(sides) - 1) and len(present) >= MIN_GROUP - 1:
                            yield ctx.finding(self, f"counter {c.id} prints no {side_name} {key}, which "
                                              f"{len(present)} of its {len(sides) - 1} siblings print",
                                              getattr(c, side_name), "values", units=(c.id,), policy="sibling policy")
                    tally = Tally(repr(v) for _, v in present)
                    if len(tally) < 2:
                        continue
                    mode, count = tally.most_common(1)[0]
                    for c, v in present:
                        if repr(v) != mode and count >= SHARE * (len(present) - 1) and count >= MIN_GROUP - 1:
                            yield ctx.finding(self, f"counter {c.id} prints {side_name} {key} {v} where {count} of its "
                                              f"{len(present) - 1} siblings print {mode.strip(chr(39))}",
                                              getattr(c, side_name), "values", key, units=(c.id,), policy="sibling policy")
