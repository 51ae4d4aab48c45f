"""GTS-REF-002: every rule a scenario cites exists in the rulebook index, under the right title."""

from __future__ import annotations

from typing import Iterable, Iterator

from model.base import Node
from model.diagnostics import Diagnostic, Severity
from model.formats.rulebook import title_matches
from validators.context import RuleContext
from validators.packs.gts._gts import SYSTEMS
from validators.rule import Rule


def cited(ctx: RuleContext) -> Iterator[tuple[str, Node, tuple[str | int, ...]]]:
    scen = ctx.scenario
    assert scen is not None
    for r in scen.special_rules:
        for i, ref in enumerate(r.refs):
            yield ref, r, ("refs", i)
    for v in scen.victory:
        for i, ref in enumerate(v.refs):
            yield ref, v, ("refs", i)
    for s in scen.schedule:
        if s.rule:
            yield s.rule, s, ("rule",)
    for key in scen.optional_rules:
        yield key, scen, ("optional_rules", key)


def lookup(cases: dict[str, str | None], ref: str) -> tuple[str | None, list[str]]:
    """(key found, other books' keys with the same number) for a reference like "Excl 4.7.2"."""
    number = ref.strip()
    for prefix in ("GTS ", "Utah "):
        if number.startswith(prefix):
            number = number[len(prefix):]
    if number in cases:
        bare = number[len("Excl "):] if number.startswith("Excl ") else number
        others = [k for k in (bare, f"Excl {bare}") if k != number and k in cases]
        return number, others
    return None, []


class RuleXref(Rule):
    """Every rule case a scenario cites (special rules, victory, schedule ``rule:``,
    optional rules) is in the bundle's rulebook index, and a title written after it
    ("17.1: Allied Air Power") matches the case's title.

    Rule case: Excl 4.7.2 (errata Intro#1: "the rule reference should be 4.7.2"; Intro#2:
    "17.1 Allied Air Power instead of 16.1")

    Why: GTS has two books with overlapping numbers: "16.1" and "17.1" exist in both the
    series and the exclusive rules. A bare number with the wrong title is exactly the errata's
    wrong cross-reference (S3, S5); naming the title catches it.

    Policy: errata scenario-book entries ("Err …") are not rule cases and are skipped. A
    title that matches the same number in the other book gets a hint to add or drop "Excl".

    Violating example: ``refs: ['16.1: Allied Air Power']`` (16.1 is Phone Lines).

    Correct example: ``refs: ['Excl 17.1: Allied Air Power']``.
    """

    code = "GTS-REF-002"
    name = "rule-xref"
    severity = Severity.ERROR
    groups = ("references", "gts")
    rule_case = "Excl 4.7.2"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        book = ctx.bundle.game.rulebook
        if book is None or not book.cases:
            return
        cases = book.cases
        for ref, node, fields in cited(ctx):
            if ref.strip().startswith("Err "):
                continue
            number, _, title = ref.partition(":")
            key, others = lookup(cases, number)
            if key is None:
                yield ctx.finding(self, f"rule {number.strip()!r} is not in the rulebook index", node, *fields)
                continue
            title = title.strip()
            if title and not title_matches(title, cases.get(key)):
                hint = [o for o in others if title_matches(title, cases.get(o))]
                more = f"; {hint[0]} is {cases[hint[0]]!r}" if hint else ""
                yield ctx.finding(self, f"rule {key} is {cases.get(key)!r}, not {title!r}{more}", node, *fields)
