"""CORE-REF-001."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.core._scan import attachment_refs, name_index, resolve_unit, unit_refs
from validators.rule import Rule
from model.counters import normalize_name


class UnitReferenceResolves(Rule):
    """Every unit a scenario names (setup, schedule, drop sticks, attachments) is exactly one counter.

    Rule case: Hexproof bundle format (game.yaml counter manifest)

    Why: A setup or reinforcement line that names a unit not in the counter manifest, or a
    name that fits two counters, cannot be placed on the map; the scenario is unplayable as
    written and the error usually hides a typo in a unit id.

    Policy: references resolve by counter id first and then by name compared with
    ``model.counters.normalize_name`` (case, accents and punctuation ignored); a name that fits
    two counters is ambiguous. ``attached_to`` may also name a formation, division, army or
    leader_of value printed on some counter (policy *attach-to-formation*).

    Violating example:
        setup:
        - {unit: zz9, hex: '0402'}     # no counter has id or name zz9

    Correct example:
        setup:
        - {unit: x1, hex: '0402'}
        - {unit: 1st Inf, hex: '0203'}  # the name of counter a1 also resolves
    """

    code = "CORE-REF-001"
    name = "unit-reference-resolves"
    severity = Severity.ERROR
    groups = ("references",)
    rule_case = "Hexproof bundle format"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        assert ctx.scenario is not None
        for ref in unit_refs(ctx.scenario):
            found = resolve_unit(ctx, ref.text)
            if not found:
                yield ctx.finding(self, f"unit {ref.text!r} is not in the counter manifest", ref.node, *ref.fields,
                                  units=(ref.text,))
            elif len(found) > 1:
                ids = ", ".join(sorted(c.id for c in found))
                yield ctx.finding(self, f"unit name {ref.text!r} fits {len(found)} counters ({ids}); use a counter id",
                                  ref.node, *ref.fields, units=(ref.text,))
        counters = ctx.bundle.counters
        formations: set[str] = ctx.memo(
            "core.formations", lambda: {normalize_name(v) for c in counters
                                        for v in (c.formation, c.division, c.army, c.leader_of) if v},
            owner=counters, key=len(counters))
        for ref in attachment_refs(ctx.scenario):
            found = resolve_unit(ctx, ref.text)
            if len(found) == 1 or (not found and normalize_name(ref.text) in formations):
                continue
            what = "is neither a counter nor a formation" if not found else f"fits {len(found)} counters"
            yield ctx.finding(self, f"attached_to {ref.text!r} {what}", ref.node, *ref.fields,
                              policy="attach-to-formation")
        name_index(ctx)  # keep the memo warm for the other core rules
