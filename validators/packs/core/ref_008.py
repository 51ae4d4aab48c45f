"""CORE-REF-008."""

from __future__ import annotations

from typing import Iterable

from model.base import Node
from model.diagnostics import Diagnostic, Severity
from model.formats.rulebook import ParsedRef, RuleCase, RulebookIndex
from model.rule_refs import index_from_cases, parse_with_book, problem_of
from validators.context import RuleContext
from validators.rule import Rule


def bundle_index(ctx: RuleContext) -> RulebookIndex | None:
    """The bundle's rulebook index as a :class:`RulebookIndex`, or None.

    Built once per Validator (``ctx.memo``), keyed by the index's content, so an edit to
    game.yaml's rulebook gives a fresh index even without ``invalidate()``."""
    if "core.rulebook" in ctx.cache:
        return ctx.cache["core.rulebook"]  # type: ignore[return-value]
    rb = ctx.bundle.game.rulebook
    index = None
    if rb is not None and rb.cases:
        index = ctx.memo("core.rulebook", lambda: index_from_cases(rb.source, rb.cases), owner=rb,
                         key=(rb.source, tuple(rb.cases.items())))
    ctx.cache["core.rulebook"] = index
    return index


def _parsed(ctx: RuleContext, text: str) -> ParsedRef | None:
    """``parse_reference`` with the book-name fallback, memoised per Validator (a pure
    function of the text; scenarios repeat the same few references many times)."""
    memo: dict[str, ParsedRef | None] = ctx.memo("core.ref_parse", dict)
    if text not in memo:
        memo[text] = parse_with_book(text)
    return memo[text]


def _resolve(ctx: RuleContext, index: RulebookIndex, parsed: ParsedRef) -> RuleCase | None:
    """``index.resolve_parsed`` memoised per index (``books`` is rebuilt on every call)."""
    memo: dict[tuple[str, str, str | None, bool], RuleCase | None] = ctx.memo("core.ref_resolve", dict, owner=index)
    key = (parsed.number, parsed.sub, parsed.book, parsed.errata)  # what resolve_parsed reads
    if key not in memo:
        memo[key] = index.resolve_parsed(parsed)
    return memo[key]


class RuleReferenceResolves(Rule):
    """Rule references in special rules, victory conditions, setup and schedule lines name real rule cases.

    Rule case: Hexproof bundle format (game.yaml rulebook index)

    Why: Every special rule and arrival cites the rule case it comes from, so a reader can
    check it. A citation of a case the rulebook does not have (or whose title is different)
    is a typo or a stale reference after the rules were renumbered.

    Policy: checked only when the bundle has a rulebook index (``game.rulebook.cases``). A
    reference without a case number ("scenario rule") is free text and is not checked
    (policy *free-text-refs*). Titles are compared leniently with
    ``model.formats.rulebook.title_matches``; a reference written "case: title" must fit the title.

    Violating example:
        special_rules:
        - {id: s1, text: Germans set up first., refs: ['9.9']}      # the index has no 9.9

    Correct example:
        special_rules:
        - {id: s1, text: Germans set up first., refs: ['3.4: German Set Up']}
    """

    code = "CORE-REF-008"
    name = "rule-reference-resolves"
    severity = Severity.ERROR
    groups = ("references", "rulebook")
    rule_case = "Hexproof bundle format"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        index = bundle_index(ctx)
        if index is None:
            return
        refs: list[tuple[str, Node, tuple[str | int, ...]]] = []
        for sr in scen.special_rules:
            refs += [(r, sr, ("refs", i)) for i, r in enumerate(sr.refs)]
        for v in scen.victory:
            refs += [(r, v, ("refs", i)) for i, r in enumerate(v.refs)]
        for e in scen.schedule:
            if e.rule:
                refs.append((e.rule, e, ("rule",)))
        for s in scen.setup:
            if s.rule:
                refs.append((s.rule, s, ("rule",)))
        for text, node, fields in refs:
            parsed = _parsed(ctx, text)
            if parsed is None:
                continue
            # model/rule_refs.py: the same check the Scenario Properties panel marks inline.
            problem = problem_of(text, parsed, _resolve(ctx, index, parsed))
            if problem is not None:
                yield ctx.finding(self, problem, node, *fields)
