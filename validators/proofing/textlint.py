"""Rulebook text lint: editorial defects a publisher must fix before a rules text ships.

:func:`lint_rules_text` runs every check below over a plain-text rulebook and returns
:class:`~model.diagnostics.Diagnostic` objects (file, 1-based line and column, a message
quoting the offending text) in deterministic order. Cross-references are checked against
the case index the text itself defines (:func:`model.formats.rulebook.extract_rulebook_index`).

=============== ======== ==================================================================
Code            Severity Finds
=============== ======== ==================================================================
PROOF-TEXT-001  warning  designer notes left in the text (``KG:``, ``MJ:``; tags are
                         configurable), their ``-KG)`` signatures, ``←`` margin arrows
                         and "Suggested rewording" asides
PROOF-TEXT-002  warning  placeholders: ``<Insert ...>``, "To be described", ``?????``,
                         ``x.x.x``, ``[19.x]``, ``(see xxx)``, ``N????``, ``+#``,
                         ``N charts``
PROOF-TEXT-003  warning  markup residue: ``%%Transition Segment%%``, ``{{...}}``
PROOF-TEXT-004  error    cross-references to rule cases the text does not define, and
                         errata entries amending a case that is not printed
PROOF-TEXT-005  warning  a reference whose title contradicts the case it names (contents
                         entries, ``Rule #21.6.2 Title``, errata entry headings)
PROOF-TEXT-006  warning  a paragraph printed more than once (case numbers ignored)
PROOF-TEXT-007  error    a case number printed twice (references to it are ambiguous)
PROOF-TEXT-008  warning  gaps and disorder in case numbering (7.4 then 7.6)
PROOF-TEXT-009  warning  numbered or lettered lists and step sequences with gaps,
                         repeats or disorder
PROOF-TEXT-010  warning  "step X of the Sequence of Play" naming a step the sequence
                         does not have, or a step whose name conflicts with its gloss
PROOF-TEXT-011  warning  the same rule stated with "may" in one case and "must" in
                         another (a permission contradicting an obligation)
=============== ======== ==================================================================

Severity policy: an error makes the text wrong to play from (a reference a player cannot
follow, an ambiguous case number); a warning is unfinished or untidy text a proof-reader
must look at. Codes are stable and never reused.

GTS-style files hold two books whose numbering restarts (series, exclusive) and an errata
sheet; a bare reference is looked up in its own book first and then in the other, and
"Series Rule #" / "Exclusive Rule #" pin it to one book.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from model.diagnostics import Diagnostic, Location, Severity, sort_diagnostics
from model.formats.rulebook import (
    DEFAULT_PREFIX_SECTIONS,
    EXCL,
    NUMBER_RE,
    SUB_RE,
    PrefixSection,
    RuleCase,
    RulebookIndex,
    extract_rulebook_index,
    match_case_heading,
    title_matches,
)

__all__ = ["CHECKS", "DEFAULT_TAGS", "lint_rules_text"]

DEFAULT_TAGS: tuple[str, ...] = ("KG:", "MJ:")
QUOTE_LEN = 60


@dataclass(frozen=True)
class _Text:
    """What every check needs: the lines, the file name and the case index."""

    lines: list[str]
    file: str
    index: RulebookIndex
    tags: tuple[str, ...]

    def diag(self, code: str, severity: Severity, line: int, column: int, message: str,
             related: Iterable[int] = ()) -> Diagnostic:
        return Diagnostic(
            code=code,
            severity=severity,
            message=message,
            location=Location(file=self.file, line=line, column=column),
            related=tuple(Location(file=self.file, line=r) for r in related),
        )


def _quote(text: str, limit: int = QUOTE_LEN) -> str:
    text = " ".join(text.split())
    return '"' + (text if len(text) <= limit else text[: limit - 1].rstrip() + "…") + '"'


# --------------------------------------------------------------------------- 001 notes


def check_designer_notes(t: _Text) -> list[Diagnostic]:
    """PROOF-TEXT-001 (warning): designer notes left in the text.

    Finds each configured tag with its colon (``KG:``; "KG" alone also means
    Kampfgruppe, so the colon is required), the same author's signature in an aside
    (``... too much errata potential -KG)``), margin arrows (``← Still?``) and
    "Suggested rewording" asides.

    Fails: ``[23.4.2] ... MJ: This rule needs to be evaluated.``
    Passes: ``KG units are considered to be regiments.``
    """
    patterns: list[tuple[re.Pattern[str], str]] = []
    # A note runs to the end of the line or to the next tagged note on the same line.
    next_tag = "|".join(rf"(?<![\w]){re.escape(tag)}" for tag in t.tags)
    for tag in t.tags:
        name = tag.rstrip(":")
        patterns.append((re.compile(rf"(?<![\w]){re.escape(tag)}.*?(?=\s*(?:{next_tag})|$)"), "designer note"))
        patterns.append((re.compile(rf"[-–]\s?{re.escape(name)}\)"), "signed designer note"))
    patterns.append((re.compile(r"\(?←[^)]*\)?"), "margin annotation"))
    patterns.append((re.compile(r"Suggested rewording\b.*", re.I), "editorial suggestion"))
    out: list[Diagnostic] = []
    for lineno, line in enumerate(t.lines, start=1):
        for pattern, what in patterns:
            for m in pattern.finditer(line):
                quoted = m.group(0)
                if what == "signed designer note":
                    start = line.rfind("(", 0, m.start())
                    quoted = line[start if start >= 0 else m.start(): m.end()]
                out.append(t.diag("PROOF-TEXT-001", Severity.WARNING, lineno, m.start() + 1,
                                  f"{what} left in the text: {_quote(quoted)}"))
    return out


# --------------------------------------------------------------------------- 002 placeholders

_PLACEHOLDERS: tuple[tuple[str, str], ...] = (
    (r"[<(]\s*Insert\b[^>)]*[>)]|^\s*Insert\b.*(?:here|\.\.\.).*$", "insert stub"),
    (r"\bTo be described\b\.*", "unwritten rule"),
    (r"\b(?:TBD|TODO|FIXME)\b", "to-do marker"),
    (r"(?<![\w?])[A-Z]?\?{3,}", "unknown value"),
    (r"(?<![\w.])[xX](?:\.[xX]){1,3}(?![\w.])", "unnumbered reference"),
    (r"(?<![\w.])\d{1,2}(?:\.\d{1,2})*\.[xX](?![\w])", "unnumbered reference"),
    (r"\(\s*see\s+x{2,}\s*\)", "unnumbered reference"),
    (r"(?<!\w)\+#(?!\w)", "missing number"),
    (r"(?<![\w.])N (?:charts|countersheets|counters|maps|markers|pages)\b(?: & \w+)?", "missing count"),
    # A single "…" elides a quotation; "……." or "...." is filler where text is missing.
    (r"…{2,}\.?|\.{4,}", "elided text"),
)


def check_placeholders(t: _Text) -> list[Diagnostic]:
    """PROOF-TEXT-002 (warning): placeholders that stand in for missing text.

    ``<Insert Table...>``, ``(Insert examples here...)``, "To be described...",
    ``?????``, ``N????`` (unknown hex), ``[x.x.x]`` / ``(see x.x)`` / ``[19.x]``
    (reference not yet numbered), ``(see xxx)``, ``+#`` (missing number),
    ``N charts & tables`` (missing count) and typographic ellipses ``……`` left as
    filler. Hex-row wildcards such as ``24xx`` or ``N41xx`` are real notation and pass.

    Fails: ``[7.7.3] To be described...``
    Passes: ``along the 24xx hexrow``
    """
    compiled = [(re.compile(p), what) for p, what in _PLACEHOLDERS]
    out: list[Diagnostic] = []
    for lineno, line in enumerate(t.lines, start=1):
        taken: list[tuple[int, int]] = []
        for pattern, what in compiled:
            for m in pattern.finditer(line):
                if any(a < m.end() and m.start() < b for a, b in taken):
                    continue  # one finding per stretch of text (N???? is not also "?????")
                taken.append((m.start(), m.end()))
                out.append(t.diag("PROOF-TEXT-002", Severity.WARNING, lineno, m.start() + 1,
                                  f"placeholder ({what}): {_quote(m.group(0).strip())}"))
    return out


# --------------------------------------------------------------------------- 003 markup

_MARKUP = re.compile(r"%%[^%\n]*%%|%%|\{\{[^}\n]*\}\}")


def check_markup_residue(t: _Text) -> list[Diagnostic]:
    """PROOF-TEXT-003 (warning): markup from the authoring tool left in the text.

    Fails: ``(see %%Flak Movement%%)``
    Passes: ``(see Flak Movement, 7.6)``
    """
    out: list[Diagnostic] = []
    for lineno, line in enumerate(t.lines, start=1):
        for m in _MARKUP.finditer(line):
            out.append(t.diag("PROOF-TEXT-003", Severity.WARNING, lineno, m.start() + 1,
                              f"markup residue: {_quote(m.group(0))}"))
    return out


# --------------------------------------------------------------------------- references


@dataclass(frozen=True)
class _Ref:
    line: int
    column: int
    text: str  # as printed, e.g. "11.41a"
    number: str
    sub: str
    book: str | None  # None = not pinned to a book
    title: str | None = None


_NUM = rf"(?P<num>{NUMBER_RE})(?P<sub>{SUB_RE})"
_NUM_RE = re.compile(rf"(?<![\w.#/-])#?{_NUM}(?![\d]|\.\d)")
# Words that make a following number a case reference.
_TRIGGER_RE = re.compile(
    r"(?:\b(?:see|See|per|rule|rules|Rule|Rules|section|sections|Section|case|cases|Case|"
    r"reference|under|Under)\b|#)"
    # ...then only capitalised words, numbers and list separators up to the number.
    r"(?:\s|,|&|\band\b|\bor\b|\bto\b|–|-|#|\d|\.|\(|\)|[A-Z][\w'/-]*)*$"
)
# After another reference, a list separator continues the list: "13.1.1 and 13.1.3".
_LIST_GAP_RE = re.compile(r"^(?:\s*(?:,|&|and|or|to|through|–|-|/)\s*|\s+[A-Z][\w'/-]*(?:\s+[A-Z][\w'/-]*)*\s*[,&]?\s*)$")
_UNIT_AFTER_RE = re.compile(r"^\s*(?:miles?|km|kilomet|met|inch|\"|”|%|hexes|MPs?\b|points?\b|VPs?\b|x\b)")
_VERSION_BEFORE_RE = re.compile(r"(?:\bv|version\s|Rulebook\s|GTS\s|Rules\s)$", re.I)
_SERIES_BEFORE_RE = re.compile(r"\bSeries\s+Rules?\s*#?\s*$|\bseries\s+rules?\s*#?\s*$")
_EXCL_BEFORE_RE = re.compile(r"\b(?:Exclusive\s+Rules?|Excl\.?)\s*#?\s*$", re.I)
_TOC_RE = re.compile(rf"^\s*•\s+{_NUM}\s+(?P<title>\S.*?)\s*$")
# A title after "Rule #21.6.2": capitalised words, not running into the next reference.
_TITLE_WORD = r"(?!(?:Rules?|Series|Exclusive|See)\b)[A-Z][\w'/-]*"
_CONNECTOR = r"(?:and|of|the|to|on|for|in|with|a|an)\b"
_TITLED_REF_RE = re.compile(
    rf"(?:Rule\s*#\s*|\breference\s+){_NUM}\s+(?P<title>{_TITLE_WORD}(?:\s+(?:{_TITLE_WORD}|{_CONNECTOR}))*)"
)


def _bracket_spans(line: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in re.finditer(r"\[[^\]\n]{1,80}\]", line)]


def _paren_starts(line: str) -> set[int]:
    """Offsets right after ``(`` or ``(see `` where a parenthesis opens with a number."""
    return {m.end() for m in re.finditer(r"\((?:see\s+)?#?", line)}


def find_references(lines: Sequence[str]) -> list[_Ref]:
    """Every cross-reference to a rule case in the text, in text order.

    A number is a reference when it has three or more levels (``7.5.3``), sits in
    brackets (``[25.2]``, ``[20.4–20.6]``), opens a parenthesis (``(16.1)``), follows
    a trigger (``see``, ``per``, ``rule``, ``section``, ``Rule #``...) across only
    capitalised words and separators, or continues a list of references. Measurements
    (``9.4 miles``), versions (``v2.0c``) and GTS hex ids (``28.048``) are not.
    The number that opens a case heading is a definition, not a reference.
    """
    out: list[_Ref] = []
    for lineno, line in enumerate(lines, start=1):
        head = match_case_heading(line)
        skip_until = 0
        if head is not None:
            m0 = _NUM_RE.search(line)
            skip_until = m0.end() if m0 else 0
        toc = _TOC_RE.match(line)
        brackets = _bracket_spans(line)
        paren_starts = _paren_starts(line)
        prev_end: int | None = None
        for m in _NUM_RE.finditer(line):
            if m.start() < skip_until:
                continue
            start, end = m.start(), m.end()
            before, after = line[:start], line[end:]
            in_brackets = any(a < start and end < b for a, b in brackets)
            is_ref = (
                m["num"].count(".") >= 2
                or in_brackets
                or start in paren_starts
                or bool(_TRIGGER_RE.search(before[-60:]))
                or (prev_end is not None and bool(_LIST_GAP_RE.match(line[prev_end:start])))
                or (toc is not None and start == toc.start("num"))
            )
            if not in_brackets and (_UNIT_AFTER_RE.match(after) or _VERSION_BEFORE_RE.search(before)):
                is_ref = False
            if not is_ref:
                continue
            book: str | None = None
            window = before[-30:]
            if _SERIES_BEFORE_RE.search(window):
                book = ""
            elif _EXCL_BEFORE_RE.search(window):
                book = EXCL
            title = toc["title"] if toc is not None and start == toc.start("num") else None
            out.append(_Ref(lineno, m.start("num") + 1, line[m.start("num"):end], m["num"],
                            m["sub"].replace(".(", "("), book, title))
            prev_end = end
        for m in _TITLED_REF_RE.finditer(line):
            for i, ref in enumerate(out):
                if ref.line == lineno and ref.column == m.start("num") + 1:
                    title = re.sub(rf"(?:\s+{_CONNECTOR})+$", "", m["title"]).strip()
                    out[i] = _Ref(ref.line, ref.column, ref.text, ref.number, ref.sub, ref.book, title)
    return out


def _resolve(index: RulebookIndex, ref: _Ref) -> RuleCase | None:
    if ref.book is not None:
        books = [ref.book]
    else:
        own = index.region_at(ref.line).prefix
        books = [own] + [b for b in index.books if b != own]
    for book in books:
        found = index.lookup(ref.number, book=book, sub=ref.sub)
        if found is not None:
            return found
    return None


def _book_name(book: str | None) -> str:
    return {"": "series rules", EXCL: "exclusive rules"}.get(book or "", book or "")


def check_cross_references(t: _Text) -> list[Diagnostic]:
    """PROOF-TEXT-004 (error): a reference to a rule case the text does not define.

    The index is built from the same text: printed cases plus the sections implied by
    them (``14.0`` exists when ``[14.1.1]`` is printed). A bare reference is looked up
    in its own book and then the other (series/exclusive); ``Series Rule #21.6.2``
    looks only in the series rules. A sub-item (``4.2.4(e)``, ``10.2.1a``) falls back
    to its case. Errata entries must amend a case the rules print.

    Fails: ``(per case 11.41a)`` when no case 11.41 exists.
    Passes: ``(see 15.2)`` when ``15.2 Great Storms`` is printed.
    """
    out: list[Diagnostic] = []
    for ref in find_references(t.lines):
        if _resolve(t.index, ref) is None:
            where = f" in the {_book_name(ref.book)}" if ref.book is not None else ""
            out.append(t.diag("PROOF-TEXT-004", Severity.ERROR, ref.line, ref.column,
                              f"reference to rule case {ref.text}{where}: no such case is printed"))
    for case in t.index.cases.values():
        if case.errata and t.index.lookup(case.number.split("(")[0], book=case.book,
                                          sub=_sub_of(case.number)) is None:
            out.append(t.diag("PROOF-TEXT-004", Severity.ERROR, case.line, 1,
                              f"errata entry amends {case.book}{case.number}"
                              f"{' ' + _quote(case.title) if case.title else ''}: no such case is printed"))
    return out


def check_reference_titles(t: _Text) -> list[Diagnostic]:
    """PROOF-TEXT-005 (warning): a reference's title contradicts the case it names.

    Titled references are contents entries (``• 9.3 Allied Supply Sources``),
    ``Rule #21.6.2 Activating White-Striped Units`` / ``reference 17.1 Allied Air Power``
    and errata entry headings (``18.9 Roaming Units``). The comparison is
    :func:`model.formats.rulebook.title_matches` (case, plurals, articles and extensions
    forgiven). A case printed twice matches either title.

    Fails: errata ``18.9 Roaming Units`` when Excl 18.9 is "Alone and Afraid".
    Passes: errata ``3.3.1 – Drop Table Results Explanation`` for "The Drop Table".
    """
    out: list[Diagnostic] = []

    def titles_of(case: RuleCase) -> list[str | None]:
        return [case.title] + [d.title for d in t.index.duplicates if d.case == case.case]

    for ref in find_references(t.lines):
        if ref.title is None:
            continue
        case = _resolve(t.index, ref)
        if case is None or case.title is None:
            continue
        if not any(title_matches(ref.title, title) for title in titles_of(case)):
            out.append(t.diag("PROOF-TEXT-005", Severity.WARNING, ref.line, ref.column,
                              f"reference {ref.text} {_quote(ref.title)} names case {case.case} "
                              f"printed as {_quote(case.title)} (line {case.line})", related=[case.line]))
    for case in t.index.cases.values():
        if not case.errata or not case.title:
            continue
        target = t.index.lookup(case.number.split("(")[0], book=case.book, sub=_sub_of(case.number))
        if target is None or not target.title or target.number != case.number:
            continue  # an unindexed sub-item fell back to its case: titles differ by design
        parent = t.index.lookup(_parent_number(target.number), book=target.book)
        # "The Landing Subroutine Generally" names 4.5.1 "Generally" under 4.5 "The Landing Subroutine".
        candidates = [target.title] + ([f"{parent.title} {target.title}"] if parent and parent.title else [])
        if not any(title_matches(case.title, c) for c in candidates):
            out.append(t.diag("PROOF-TEXT-005", Severity.WARNING, case.line, 1,
                              f"errata entry {case.book}{case.number} {_quote(case.title)} amends a case "
                              f"printed as {_quote(target.title)} (line {target.line})", related=[target.line]))
    return out


def _parent_number(number: str) -> str:
    if "(" in number:
        return number.split("(")[0]
    return number.rsplit(".", 1)[0] if number.count(".") >= 2 else number


def _sub_of(number: str) -> str:
    i = number.find("(")
    return number[i:] if i >= 0 else ""


# --------------------------------------------------------------------------- 006 duplicates


def check_duplicate_paragraphs(t: _Text, *, min_length: int = 80) -> list[Diagnostic]:
    """PROOF-TEXT-006 (warning): the same paragraph printed more than once.

    Paragraphs are compared without their case number, case or spacing, so the same
    rule printed under two numbers is caught. Ignored on purpose: paragraphs shorter
    than ``min_length`` characters, list items (a turn sequence repeats its steps for
    each player) and repeats inside the same case (parallel property lists).

    Fails: two lines reading "When a unit retreats into ... (long rule text)".
    Passes: the same heading "In General" under several sections.
    """
    first: dict[str, tuple[int, int]] = {}  # text -> (line, line of its case heading)
    out: list[Diagnostic] = []
    section = 0
    for lineno, line in enumerate(t.lines, start=1):
        body = line.strip()
        head = match_case_heading(line)
        if head is not None:
            body, section = head[2], lineno
        elif _item(line) is not None:
            continue  # step lists repeat steps for each player on purpose
        key = " ".join(body.lower().split())
        if len(key) < min_length:
            continue
        if key in first and first[key][1] == section:
            continue  # parallel entries inside one case (GTS lists per weapons class)
        if key in first:
            out.append(t.diag("PROOF-TEXT-006", Severity.WARNING, lineno, 1,
                              f"paragraph repeats line {first[key][0]}: {_quote(body)}",
                              related=[first[key][0]]))
        else:
            first[key] = (lineno, section)
    return out


# --------------------------------------------------------------------------- 007/008 numbering


def check_duplicate_case_numbers(t: _Text) -> list[Diagnostic]:
    """PROOF-TEXT-007 (error): a case number printed twice in the same book.

    A reference to it cannot say which printing it means.

    Fails: ``9.3 German Supply Sources`` and later ``9.3 Allied Supply Sources``.
    Passes: ``9.3`` and ``9.4``; ``2.1.2`` in the series and ``Excl 2.1.2``.
    """
    out: list[Diagnostic] = []
    for dup in t.index.duplicates:
        first = t.index.cases[dup.case]
        names = f" {_quote(dup.title)}" if dup.title else ""
        was = f" as {_quote(first.title)}" if first.title else ""
        out.append(t.diag("PROOF-TEXT-007", Severity.ERROR, dup.line, 1,
                          f"case {dup.case}{names} is already printed at line {first.line}{was}",
                          related=[first.line]))
    return out


def _ordinal_key(case: RuleCase) -> tuple[str, int] | None:
    """(group, ordinal) for numbering checks: ``7.4`` → ("7", 4), ``7.0`` → ("", 7),
    ``2.3.3(2)`` → ("2.3.3", 2); letter/roman sub-items are not checked."""
    number = case.number
    if "(" in number:
        base, _, rest = number.partition("(")
        inner = rest.rstrip(")")
        # The "(" marks a run-in group so that gaps are named 2.3.3(2), not 2.3.3.2.
        return (case.book + base + "(", int(inner)) if inner.isdigit() and ")(" not in rest else None
    if not re.fullmatch(r"\d+(?:\.\d+)+", number):
        return None
    parts = number.split(".")
    if parts[1:] == ["0"]:
        return (case.book, int(parts[0]))
    return (case.book + ".".join(parts[:-1]), int(parts[-1]))


def check_case_numbering(t: _Text) -> list[Diagnostic]:
    """PROOF-TEXT-008 (warning): gaps or disorder in case numbering.

    Siblings (``7.1``, ``7.2``...; sections ``1.0``, ``2.0``...; run-in ``(1)``,
    ``(2)``...) must follow each other in steps of one from 1 in text order. Sections
    known only through their printed sub-cases take part, so a draft that prints
    ``[9.2.1]`` but no 9.1 case shows a gap. Errata entries are not numbered in
    sequence and are skipped. ``x.0.n`` sub-cases may start at 1 under ``x.0``.

    Fails: ``7.4 German Units From Italy`` followed by ``7.6 The Riga-Odessa Option``.
    Passes: ``7.4`` then ``7.5``.
    """
    groups: dict[str, list[tuple[int, int, RuleCase]]] = defaultdict(list)
    for case in t.index.cases.values():
        if case.errata:
            continue
        key = _ordinal_key(case)
        if key is not None:
            groups[key[0]].append((case.line, key[1], case))
    out: list[Diagnostic] = []
    for group, members in groups.items():
        members.sort(key=lambda m: (m[0], m[1]))
        seen: set[int] = set()
        prev: int | None = None
        for line, ordinal, case in members:
            if ordinal in seen:
                continue  # a repeated number is PROOF-TEXT-007's finding
            label = case.case + (" (not printed; implied by its sub-cases)" if case.implied else "")
            if prev is None:
                if ordinal > 1:
                    missing = _span(group, 1, ordinal - 1)
                    out.append(t.diag("PROOF-TEXT-008", Severity.WARNING, line, 1,
                                      f"case numbering starts at {label}: {missing} not printed"))
            elif ordinal < prev:
                out.append(t.diag("PROOF-TEXT-008", Severity.WARNING, line, 1,
                                  f"case {label} is printed after {_name(group, prev)}: out of order"))
            elif ordinal > prev + 1:
                missing = _span(group, prev + 1, ordinal - 1)
                out.append(t.diag("PROOF-TEXT-008", Severity.WARNING, line, 1,
                                  f"gap in case numbering: {missing} missing before {label}"))
            seen.add(ordinal)
            prev = ordinal if prev is None else max(prev, ordinal)
    return out


def _name(group: str, ordinal: int) -> str:
    if group in ("", EXCL):
        return f"{group}{ordinal}.0"
    if group.endswith("("):
        return f"{group}{ordinal})"
    return f"{group}.{ordinal}"


def _span(group: str, first: int, last: int) -> str:
    return _name(group, first) if first == last else f"{_name(group, first)}–{_name(group, last)}"


# --------------------------------------------------------------------------- 009 lists

_ITEM_RE = re.compile(
    r"^(?P<indent>\s*)(?:•\s*)?(?:"
    r"(?P<num>\d{1,2})[.)]\s+(?=\S)"
    r"|(?P<upper>[A-Z])\.\s+(?=[A-Z\"“])"
    r"|(?P<lower>[a-z])[.)]\s+(?=\S)"
    r"|\((?P<plower>[a-z])\)\s+(?=\S)"
    r"|\((?P<pnum>\d{1,2})\)\s+(?=\S)"
    r"|Step\s+(?P<step>\d{1,2})\s+[—–-]\s+"
    r")"
)


def _item(line: str) -> tuple[int, str, int, str] | None:
    """(indent, kind, ordinal, label) of a list item line, else None."""
    m = _ITEM_RE.match(line)
    if m is None:
        return None
    indent = len(m["indent"].expandtabs(4))
    for kind in ("num", "upper", "lower", "plower", "pnum", "step"):
        value = m[kind]
        if value is not None:
            ordinal = int(value) if value.isdigit() else ord(value.lower()) - ord("a") + 1
            return indent, kind, ordinal, value
    return None


_ROMAN_LIKE = {"i", "v", "x"}


def check_list_sequences(t: _Text) -> list[Diagnostic]:
    """PROOF-TEXT-009 (warning): numbered/lettered lists and step sequences out of step.

    Items are ``1.``, ``A.``, ``a.``, ``(a)``, ``(1)`` and ``Step 1 —`` lines; nesting
    follows indentation. Within one list each item must be the previous plus one; a
    list may restart at 1 (a new list after a paragraph), but a repeat or a jump is a
    defect. A case heading ends every open list.

    Fails: ``1.`` ``2.`` ``4.`` (3 missing), or ``A.`` ``B.`` ``B.``
    Passes: ``1.`` ``2.`` then a paragraph then ``1.`` ``2.``
    """
    out: list[Diagnostic] = []
    stack: list[tuple[int, str, int, str]] = []  # (indent, kind, last ordinal, last label)
    for lineno, line in enumerate(t.lines, start=1):
        if not line.strip():
            continue
        if match_case_heading(line) is not None:
            stack.clear()
            continue
        item = _item(line)
        if item is None:
            indent = len(line) - len(line.lstrip())
            while stack and stack[-1][0] > indent:
                stack.pop()  # text left of a nested list closes it
            continue
        indent, kind, ordinal, label = item
        while stack and stack[-1][0] > indent:
            stack.pop()
        if stack and stack[-1][0] == indent and stack[-1][1] != kind:
            stack.pop()  # a different marker style at the same depth is a different list
        if stack and stack[-1][0] == indent:
            _, _, prev, prev_label = stack[-1]
            if kind in ("lower", "plower") and label in _ROMAN_LIKE and ordinal != prev + 1:
                continue  # (i), (v), (x): a roman sub-list, not letter i
            if ordinal == prev + 1 or ordinal == 1:
                pass
            elif ordinal > prev + 1:
                out.append(t.diag("PROOF-TEXT-009", Severity.WARNING, lineno, indent + 1,
                                  f"list skips from {prev_label} to {label}: {_quote(line.strip())}"))
            else:
                out.append(t.diag("PROOF-TEXT-009", Severity.WARNING, lineno, indent + 1,
                                  f"list item {label} follows {prev_label}: {_quote(line.strip())}"))
            stack[-1] = (indent, kind, ordinal, label)
        else:
            stack.append((indent, kind, ordinal, label))
    return out


# --------------------------------------------------------------------------- 010 steps

_SOP_TITLE_RE = re.compile(r"^(?:the\s+)?sequence of play$", re.I)
_STEP_REF_RE = re.compile(
    r"\b[Ss]tep\s+(?P<label>[A-Z]|\d{1,2})\s+of\s+the\s+[Ss]equence\s+of\s+[Pp]lay(?P<gloss>\s*\([^)]*\))?"
)


def _sequence_of_play(t: _Text) -> tuple[RuleCase, dict[str, str]] | None:
    """The case titled "Sequence of Play" and its labelled steps (``A`` → ``Weather. ...``)."""
    for case in t.index.cases.values():
        if case.title and _SOP_TITLE_RE.match(case.title.strip()):
            steps: dict[str, str] = {}
            for line in t.lines[case.line:]:
                if match_case_heading(line) is not None:
                    break
                m = re.match(r"^\s*(?:•\s*)?([A-Z]|\d{1,2})\.\s+(.*)$", line)
                if m:
                    steps[m[1]] = m[2].strip()
            if steps:
                return case, steps
    return None


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z]+", text.lower()) if len(w) > 3}


def check_step_references(t: _Text) -> list[Diagnostic]:
    """PROOF-TEXT-010 (warning): a step reference that does not fit the Sequence of Play.

    Finds "step X of the Sequence of Play" where the sequence (the case titled
    "Sequence of Play", with steps ``A.``, ``B.``... or ``1.``, ``2.``...) has no step
    X, or where a gloss in parentheses after it shares no word with step X. When a
    gloss is given, the step it describes is suggested.

    Fails: "During step 6 of the sequence of play (when you put the eligible chits into
    the mug...)" when the steps are lettered A–J and G is "The mug".
    Passes: "during Step E of the Sequence of Play" when step E exists.
    """
    sop = _sequence_of_play(t)
    if sop is None:
        return []
    case, steps = sop
    labels = list(steps)
    span = f"{labels[0]}–{labels[-1]}" if len(labels) > 1 else labels[0]
    out: list[Diagnostic] = []
    for lineno, line in enumerate(t.lines, start=1):
        for m in _STEP_REF_RE.finditer(line):
            label, gloss = m["label"], m["gloss"] or ""
            best = None
            if gloss:
                score = {lab: len(_words(gloss) & _words(text)) for lab, text in steps.items()}
                best = max(score, key=lambda lab: score[lab])
                best = best if score[best] > 0 else None
            hint = f"; the gloss describes step {best} {_quote(steps[best], 30)}" if best else ""
            if label not in steps:
                out.append(t.diag("PROOF-TEXT-010", Severity.WARNING, lineno, m.start() + 1,
                                  f"{_quote(m.group(0).split('(')[0].strip())}: the Sequence of Play "
                                  f"({case.case}) has steps {span}, no step {label}{hint}", related=[case.line]))
            elif gloss and best is not None and best != label and not (_words(gloss) & _words(steps[label])):
                out.append(t.diag("PROOF-TEXT-010", Severity.WARNING, lineno, m.start() + 1,
                                  f"step {label} of the Sequence of Play is {_quote(steps[label], 30)}{hint}",
                                  related=[case.line]))
    return out


# --------------------------------------------------------------------------- 011 may/must

_MODAL_RE = re.compile(r"\b(may|must)\s+(?!not\b|only\b)(?:(?:now|also|then|always|still)\s+)?(?P<verb>[a-z]+)", re.I)
_SENTENCE_RE = re.compile(r"[^.!?]+[.!?]?")
_STOP = frozenset("a an the of to on in onto into his her its their all any each this that these those with "
                  "and or for by at as be is are from".split())


def _content(text: str) -> frozenset[str]:
    return frozenset(w for w in re.findall(r"[a-z][a-z']+", text.lower()) if w not in _STOP)


def check_modal_contradictions(t: _Text, *, min_words: int = 5, similarity: float = 0.6) -> list[Diagnostic]:
    """PROOF-TEXT-011 (warning): the same rule stated with "may" in one place and "must" in another.

    Two sentences in different cases contradict when one says "<subject> may <verb> ..." and
    the other "<subject> must <verb> ...", with the same verb and at least ``similarity``
    (Jaccard) of the content words after the modal in common (at least ``min_words`` each).
    "may not" / "must not" / "may only" are left alone: they are prohibitions, not permissions.
    A sentence holding both "may <verb>" and "must <verb>" qualifies itself and is skipped, and
    an errata entry under the number of the case it amends is the fix, not a contradiction.

    Fails: "the Allied player may land all of his Units in Landing Wave boxes on to Beach
    hexes" (4.5.1) and "The Allied Player must now land all Units in Landing Wave boxes on
    eligible Beach hexes" (4.7.3).
    Passes: "may land" and "must land" in unrelated sentences.
    """
    found: list[tuple[int, int, str, str, frozenset[str], str, str]] = []  # line, col, modal, verb, words, case, text
    case = ""
    for lineno, line in enumerate(t.lines, start=1):
        head = match_case_heading(line)
        if head is not None:
            case = head[0] + head[1]
        for s in _SENTENCE_RE.finditer(line):
            pairs = {(m.group(1).lower(), m.group("verb").lower()) for m in _MODAL_RE.finditer(s.group(0))}
            for m in _MODAL_RE.finditer(s.group(0)):
                if {("may", m.group("verb").lower()), ("must", m.group("verb").lower())} <= pairs:
                    continue  # "may attack … but must attack all": both in one sentence is not a contradiction
                words = _content(s.group(0)[m.start():])
                if len(words) < min_words:
                    continue
                found.append((lineno, s.start() + m.start() + 1, m.group(1).lower(), m.group("verb").lower(),
                              words, case, s.group(0).strip()))
    by_verb: dict[str, list[tuple[int, int, str, str, frozenset[str], str, str]]] = defaultdict(list)
    for f in found:
        by_verb[f[3]].append(f)
    out: list[Diagnostic] = []
    reported: set[tuple[int, int]] = set()
    for group in by_verb.values():
        mays = [f for f in group if f[2] == "may"]
        musts = [f for f in group if f[2] == "must"]
        for a in mays:
            for b in musts:
                if a[0] == b[0] or (a[5] and a[5] == b[5]) or (a[0], b[0]) in reported:
                    continue
                if len(a[4] & b[4]) / len(a[4] | b[4]) < similarity:
                    continue
                reported.add((a[0], b[0]))
                first, second = sorted((a, b))
                where = f" ({second[5]})" if second[5] else ""
                out.append(t.diag("PROOF-TEXT-011", Severity.WARNING, first[0], first[1],
                                  f"{_quote(first[6])} says {first[2]!r}, line {second[0]}{where} says "
                                  f"{second[2]!r}: {_quote(second[6])}", related=[second[0]]))
    return out


# --------------------------------------------------------------------------- entry point

CHECKS = (
    check_designer_notes,
    check_placeholders,
    check_markup_residue,
    check_cross_references,
    check_reference_titles,
    check_duplicate_paragraphs,
    check_duplicate_case_numbers,
    check_case_numbering,
    check_list_sequences,
    check_step_references,
    check_modal_contradictions,
)


def lint_rules_text(
    text: str,
    *,
    file: str,
    tags: Sequence[str] = DEFAULT_TAGS,
    prefix_sections: Sequence[PrefixSection] = DEFAULT_PREFIX_SECTIONS,
    index: RulebookIndex | None = None,
) -> list[Diagnostic]:
    """Lint a rulebook text; findings sorted by line, column and code.

    ``file`` is the name reported in each location (use a stable relative name);
    ``tags`` are the designer-note tags (with their colon); ``index`` defaults to the
    index extracted from ``text`` itself with ``prefix_sections``.
    """
    lines = text.splitlines()
    if index is None:
        index = extract_rulebook_index(text, source=file, prefix_sections=prefix_sections)
    t = _Text(lines=lines, file=file, index=index, tags=tuple(tag for tag in tags if tag))
    findings: list[Diagnostic] = []
    for check in CHECKS:
        findings.extend(check(t))
    return sort_diagnostics(findings)
