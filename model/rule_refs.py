"""Checking a rule reference against the bundle's rulebook index (``game.yaml`` ``rulebook.cases``).

One check, used in two places: the validator CORE-REF-008 (validators/packs/core/ref_008.py)
reports references that name no case, and the Scenario Properties panel marks them inline as
they are typed (editor/scenario/properties.py). Both read :func:`reference_problem`, so the
panel and the diagnostics dock never disagree.

Policy *free-text-refs*: a reference without a case number ("scenario rule") is free text and
is not checked. Titles after the number are compared leniently
(:func:`model.formats.rulebook.title_matches`).
"""

from __future__ import annotations

from typing import Any

from model.formats.rulebook import ParsedRef, RuleCase, RulebookIndex, parse_reference, title_matches


def index_from_cases(source: str | None, cases: dict[str, str | None]) -> RulebookIndex:
    """A :class:`RulebookIndex` of the cases a bundle lists (case key → title)."""
    index = RulebookIndex(source=source or "")
    for key, title in cases.items():
        parsed = parse_reference(key)
        if parsed is None:
            continue
        index.cases[key] = RuleCase(case=key, title=title, line=0, number=parsed.number + parsed.sub,
                                    book=parsed.book or "", errata=parsed.errata)
    return index


def bundle_index(bundle: Any) -> RulebookIndex | None:
    """The bundle's rulebook index, or None when ``game.yaml`` has none (nothing to check)."""
    rb = bundle.game.rulebook
    if rb is None or not rb.cases:
        return None
    return index_from_cases(rb.source, rb.cases)


def parse_with_book(text: str) -> ParsedRef | None:
    """``parse_reference`` with the book-name fallback: "TKG [7.5]" names a book before a
    bracketed case, which the parser wants first."""
    parsed = parse_reference(text)
    if parsed is None and " " in text.strip():
        parsed = parse_reference(text.strip().split(" ", 1)[1])
    return parsed


def problem_of(text: str, parsed: ParsedRef | None, case: RuleCase | None) -> str | None:
    """What is wrong with reference ``text`` once parsed and resolved (None: nothing)."""
    if parsed is None:
        return None  # free text (policy free-text-refs)
    if case is None:
        return f"rule reference {text!r} is not a case of the rulebook index"
    if parsed.title and not title_matches(parsed.title, case):
        return f"rule reference {text!r}: case {case.case} is titled {case.title!r}"
    return None


def reference_problem(index: RulebookIndex | None, text: str) -> str | None:
    """Why ``text`` does not name a case of ``index`` (None: it does, it is free text, or there
    is no index to check against)."""
    if index is None:
        return None
    parsed = parse_with_book(text)
    return problem_of(text, parsed, index.resolve_parsed(parsed) if parsed is not None else None)
