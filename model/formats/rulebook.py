"""Rulebook case index: which rule cases a rules text defines, and how references resolve.

A *rule case* is a numbered piece of a rulebook (``15.4.1``, ``[7.5.3]``, ``2.3.3(1)``).
:func:`extract_rulebook_index` reads a plain-text rulebook and builds a
:class:`RulebookIndex` (a pydantic model, so a game bundle can store it with
``model_dump()`` and load it with ``RulebookIndex.model_validate``). Scenario files and
validator docstrings cite cases the way people write them (``"GTS 15.4.1"``,
``"Utah Excl 2.2.2"``, ``"Excl 2.2.2 (errata)"``, ``"[7.5.3]"``);
:meth:`RulebookIndex.resolve` turns such a reference into the :class:`RuleCase` it names.

How the three shipped rulebooks number their cases (and so what the extractor accepts):

* SFN: a heading line ``3.4 German Set Up``; the table of contents repeats headings as
  ``• 3.4 German Set Up`` bullets, which are *references*, not definitions.
* TKG draft: cases open a paragraph, ``[7.5.3] There is no combat...``. Sections and
  major cases (``7.5``, ``7.0``) are never printed, so they are added as *implied* cases
  (``implied=True``) whenever a printed case lies under them.
* GTS + Utah: series rules, then exclusive rules that restart at ``1.0``, then an errata
  sheet whose entries open with the case they amend (``2.2.2 Ridges. Replace...``).
  Regions are told apart by marker lines (:data:`DEFAULT_PREFIX_SECTIONS`): exclusive
  cases get the book prefix ``"Excl "`` and errata entries the suffix ``" (errata)"``,
  so the keys are ``"15.4.1"``, ``"Excl 2.2.2"`` and ``"Excl 2.2.2 (errata)"``.
  Run-in sub-cases such as ``2.3.3(1)`` are cases too.

Pure Python: no Qt, no validators.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from pydantic import BaseModel, Field

__all__ = [
    "BookRegion",
    "DEFAULT_PREFIX_SECTIONS",
    "ParsedRef",
    "PrefixSection",
    "RuleCase",
    "RulebookIndex",
    "extract_rulebook_index",
    "normalise_title",
    "parse_reference",
    "title_matches",
]

EXCL = "Excl "
ERRATA_SUFFIX = " (errata)"


class PrefixSection(BaseModel):
    """A marker line that starts a region of the rules text with its own case numbering.

    ``pattern`` is a regular expression matched (``re.match``) against each stripped
    line; from that line on, cases get ``prefix`` (``""`` for series rules, ``"Excl "``
    for exclusive rules) and, when ``errata`` is true, the ``" (errata)"`` suffix.
    """

    pattern: str
    prefix: str = ""
    errata: bool = False
    label: str = ""


#: Marker lines of the GTS + Utah Beach file; harmless for files without them. A table of
#: contents that names "Part Two" before "Part One" is fine: the last marker wins.
DEFAULT_PREFIX_SECTIONS: tuple[PrefixSection, ...] = (
    PrefixSection(pattern=r"Part One\b", prefix="", label="series"),
    PrefixSection(pattern=r"Part Two\b.*Exclusive Rules", prefix=EXCL, label="exclusive"),
    PrefixSection(pattern=r"Errata & Clarifications\b", prefix=EXCL, errata=True, label="errata"),
)


class RuleCase(BaseModel):
    """One rule case of the index.

    ``case`` is the index key and the canonical citation (``"15.4.1"``, ``"Excl 2.2.2"``,
    ``"Excl 2.2.2 (errata)"``, ``"Excl 2.3.3(1)"``); ``number`` is the bare number with
    any sub-item (``"2.3.3(1)"``); ``book`` is ``""`` or ``"Excl "``; ``line`` is the
    1-based line that defines it (for an implied case, the line of its first printed
    descendant); ``implied`` marks a section that is not printed but has printed cases
    under it (TKG prints ``[7.5.1]`` but never ``7.5``).
    """

    case: str
    title: str | None = None
    line: int
    number: str = ""
    book: str = ""
    errata: bool = False
    implied: bool = False


class BookRegion(BaseModel):
    """Lines ``start_line``.. (1-based, up to the next region) number cases in ``prefix``."""

    start_line: int
    prefix: str = ""
    errata: bool = False
    label: str = ""


class ParsedRef(BaseModel):
    """A rule reference split into parts (see :func:`parse_reference`).

    ``book`` is ``None`` when the reference does not say which book (``"3.4"``),
    ``""`` for an explicit series reference (``"Series Rule #21.6.2"``) and ``"Excl "``
    for an exclusive one. ``sub`` holds run-in sub-items (``"(2)"``, ``"(iii)"``, ``"a"``).
    """

    number: str
    sub: str = ""
    book: str | None = None
    errata: bool = False
    title: str | None = None


class RulebookIndex(BaseModel):
    """The rule cases one rules text defines, keyed by :attr:`RuleCase.case`.

    API: ``resolve(ref)`` finds the case a reference names; ``region_at(line)`` gives
    the numbering region (series, exclusive, errata) of a line; ``duplicates`` lists
    cases printed again under a number already used (the first printing is the one in
    ``cases``). Serialise with ``model_dump()`` / ``model_validate()``.
    """

    source: str = ""
    cases: dict[str, RuleCase] = Field(default_factory=dict)
    duplicates: list[RuleCase] = Field(default_factory=list)
    regions: list[BookRegion] = Field(default_factory=list)

    def __contains__(self, key: object) -> bool:
        return key in self.cases

    def __len__(self) -> int:
        return len(self.cases)

    @property
    def books(self) -> list[str]:
        """Book prefixes that have cases, series (``""``) first."""
        return sorted({c.book for c in self.cases.values()}, key=lambda b: (b != "", b))

    def region_at(self, line: int) -> BookRegion:
        """The numbering region containing ``line`` (series with no prefix if none)."""
        current = BookRegion(start_line=1)
        for region in self.regions:
            if region.start_line <= line:
                current = region
        return current

    def lookup(self, number: str, *, book: str = "", errata: bool = False, sub: str = "") -> RuleCase | None:
        """Exact look-up, then without the sub-item (``4.2.4(e)`` falls back to ``4.2.4``:
        lettered run-in items are not all indexed)."""
        suffix = ERRATA_SUFFIX if errata else ""
        for candidate in ([number + sub] if sub else []) + [number]:
            found = self.cases.get(f"{book}{candidate}{suffix}")
            if found is not None:
                return found
        return None

    def resolve(self, ref: str, *, prefer: str | None = None) -> RuleCase | None:
        """The case a reference names, or ``None``.

        Accepts ``"SFN 3.4"``, ``"3.4"``, ``"[7.5.3]"``, ``"GTS 15.4.1"``,
        ``"Utah Excl 2.2.2"``, ``"Excl 2.2.2 (errata)"``, ``"Series Rule #21.6.2"``;
        a title after the number is ignored (check it with :func:`title_matches`).
        A reference naming a book looks only there; an unqualified one tries ``prefer``
        (default: the series, ``""``) and then the other books, so ``"2.2.2"`` finds
        ``Excl 2.2.2`` in a file whose series rules have no 2.2.2. An ``(errata)``
        reference resolves only to an errata entry.
        """
        parsed = parse_reference(ref)
        if parsed is None:
            return None
        return self.resolve_parsed(parsed, prefer=prefer)

    def resolve_parsed(self, parsed: ParsedRef, *, prefer: str | None = None) -> RuleCase | None:
        """:meth:`resolve` for an already parsed reference."""
        if parsed.book is not None:
            books = [parsed.book]
        else:
            first = prefer if prefer is not None else ""
            books = [first] + [b for b in self.books if b != first]
        for book in books:
            found = self.lookup(parsed.number, book=book, errata=parsed.errata, sub=parsed.sub)
            if found is not None:
                return found
        return None


# --------------------------------------------------------------------------- references

# A case number: 2-4 levels of 1-2 digits (GTS hex ids like 28.048 have a 3-digit part,
# so they never match), an optional letter (10.2.1a) and run-in sub-items ((2), .(iii)).
NUMBER_RE = r"\d{1,2}(?:\.\d{1,2}){1,3}"
SUB_RE = r"(?:[a-z](?![a-z])|(?:\.?\((?:\d{1,2}|[a-z]|[ivx]{1,4})\))+)?"

_REF_RE = re.compile(
    rf"^\s*\[?\s*(?P<words>(?:[A-Za-z][\w&.'-]*\s*)*?)#?\s*(?P<num>{NUMBER_RE})(?P<sub>{SUB_RE})\]?"
    rf"\s*(?P<tail>.*?)\s*$"
)
_EXCL_WORDS = {"excl", "excl.", "exclusive", "exclusives"}
_SERIES_WORDS = {"series"}


def parse_reference(ref: str) -> ParsedRef | None:
    """Split a reference as scenarios write it into book, number, sub-item and title.

    ``"Utah Excl 2.2.2"`` → book ``"Excl "``, number ``"2.2.2"``; ``"[7.5.3]"`` →
    number ``"7.5.3"``; ``"Excl 3.4.2.(iii) (errata)"`` → sub ``"(iii)"``, errata;
    ``"GTS 21.6.2 Activating White-Striped Units"`` → title ``"Activating..."``.
    Returns ``None`` when there is no case number in it.
    """
    match = _REF_RE.match(ref)
    if match is None:
        return None
    words = {w.lower().rstrip("#") for w in match["words"].split()}
    tail = match["tail"].strip()
    errata = bool({"err", "err.", "errata"} & words)
    if re.fullmatch(r"\(?errata\)?", tail, flags=re.I):
        errata, tail = True, ""
    elif re.search(r"\(errata\)\s*$", tail, flags=re.I):
        errata, tail = True, re.sub(r"\s*\(errata\)\s*$", "", tail, flags=re.I)
    book: str | None = None
    if words & _EXCL_WORDS:
        book = EXCL
    elif words & _SERIES_WORDS:
        book = ""
    elif errata:
        book = EXCL  # the only errata sheet shipped amends the exclusive rules
    sub = match["sub"].replace(".(", "(")
    title = tail.strip(" –—-:.") or None
    return ParsedRef(number=match["num"], sub=sub, book=book, errata=errata, title=title)


# --------------------------------------------------------------------------- titles

_ARTICLES = {"the", "a", "an"}


def normalise_title(title: str) -> list[str]:
    """Lower-case words without accents, punctuation, articles or plural ``s``."""
    text = unicodedata.normalize("NFKD", title)
    text = "".join(ch for ch in text if not unicodedata.combining(ch)).lower()
    text = text.replace("&", " and ")
    words = re.findall(r"[a-z0-9]+", text)
    out: list[str] = []
    for word in words:
        if word in _ARTICLES:
            continue
        if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
            word = word[:-1]
        out.append(word)
    return out


def title_matches(ref_title: str | None, case: RuleCase | str | None) -> bool:
    """Whether a title written next to a reference fits the case's printed title.

    Forgiving on purpose: case, accents, punctuation, articles and plurals are ignored,
    and one title may extend the other (``"Drop Table Results Explanation"`` fits
    ``"The Drop Table"``) or share most of its words. Returns ``True`` when either title
    is missing, because there is then nothing that contradicts the reference.
    """
    case_title = case.title if isinstance(case, RuleCase) else case
    if not ref_title or not case_title:
        return True
    a, b = normalise_title(_strip_asides(ref_title)), normalise_title(_strip_asides(case_title))
    if not a or not b:
        return True
    if a == b:
        return True
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    if long_[: len(short)] == short:
        return True
    sa, sb = set(a), set(b)
    return len(sa & sb) / len(sa | sb) >= 0.6


# --------------------------------------------------------------------------- extraction

_BRACKET_HEAD_RE = re.compile(rf"^\[(?P<num>{NUMBER_RE})(?P<sub>[a-z]?)\]\s*(?P<rest>.*)$")
_PLAIN_HEAD_RE = re.compile(
    rf"^(?P<num>{NUMBER_RE})(?P<sub>(?:\.?\((?:\d{{1,2}}|[a-z]|[ivx]{{1,4}})\))*)\.?\s+"
    r"(?:[–—-]\s+)?(?P<rest>\S.*)$"
)
_ANOTHER_HEADING_RE = re.compile(rf"\b{NUMBER_RE} [A-Z]")
_ERRATA_AND_RE = re.compile(rf"\s+and\s+(?P<num>{NUMBER_RE})(?P<sub>{SUB_RE})\s+(?P<rest>[A-Z].*)$")


def match_case_heading(line: str) -> tuple[str, str, str] | None:
    """``(number, sub, rest)`` when a line opens a rule case, else ``None``.

    A run-in contents line (``1.0 Introduction 2.0 Game Components 3.0 ...``) and
    bullet lines (``• 3.4 German Set Up``, a table of contents) are not headings.
    """
    stripped = line.rstrip()
    if not stripped or stripped[0].isspace():
        return None
    m = _BRACKET_HEAD_RE.match(stripped) or _PLAIN_HEAD_RE.match(stripped)
    if m is None:
        return None
    rest = m["rest"]
    # A heading's text starts with a capital, a digit (16.6 17.SS Procured Transportation)
    # or a quote; "2.5 miles of..." does not.
    if not (rest[0].isupper() or rest[0].isdigit() or rest[0] in "\"“'‘–—-["):
        return None
    # "1.0 Introduction 2.0 Game Components 3.0 ..." is a run-in contents line: several
    # headings and no sentence punctuation.
    if len(_ANOTHER_HEADING_RE.findall(rest)) >= 2 and not re.search(r"[.:;]\s", rest):
        return None
    return m["num"], m["sub"].replace(".(", "("), rest


def _is_title_case(text: str) -> bool:
    long_words = [w for w in re.findall(r"[A-Za-z][\w'’/-]*", text) if len(w) > 3]
    if not long_words:
        return bool(text[:1].isupper())
    upper = sum(1 for w in long_words if w[0].isupper())
    return upper / len(long_words) >= 0.6


def extract_title(rest: str) -> str | None:
    """The title of a case from the text after its number, or ``None``.

    A whole short line without closing punctuation is a title (``German Set Up``,
    ``What is a Line of Sight?``); otherwise a run-in title ends at the first ``". "``,
    ``": "`` or ``" – "`` + lower-case word, and must be short and title-cased, so that
    a plain rule sentence (``[7.2.1] A unit may never enter...``) has no title.
    """
    rest = rest.strip()
    if not rest:
        return None
    # ". " after a short abbreviation ("Îles St. Marcouf Assault") does not end a sentence.
    sentence_break = re.search(r"(?<!\b\w)(?<!\b\w\w)(?<!\bSt)\.\s", rest)
    if len(rest) <= 100 and not re.search(r"[.:;!,]$", rest) and sentence_break is None:
        return rest
    m = re.match(r"^(?P<t>.+?)(?:\.\s|:\s|\s[–—-]\s(?=[a-z]))", rest)
    if m is None:
        return None
    title = _strip_asides(m["t"])
    if len(title) > 80 or len(title.split()) > 14 or not _is_title_case(title):
        return None
    # "A U.S. infantry regiment..." splits after an abbreviation; "A Sub-Beach is a
    # division of the Beach" is a sentence, not a title.
    if re.search(r"\b[A-Z]\.[A-Z]$", title) or re.search(r"\s(?:is|are|may|must)\s", title):
        return None
    return title


def _strip_asides(title: str) -> str:
    """Drop parenthetical asides that start lower-case: ``Roaming Units (as titled...)``."""
    return re.sub(r"\s*\((?=[a-z])[^)]*\)", "", title).strip()


def _parents(number: str) -> list[str]:
    """Implied ancestors of a case number: ``7.5.3`` → ``7.5``, ``7.0``."""
    parts = number.split(".")
    out: list[str] = []
    for n in range(len(parts) - 1, 1, -1):
        out.append(".".join(parts[:n]))
    if parts[1:] != ["0"]:
        out.append(f"{parts[0]}.0")
    return list(dict.fromkeys(out))


def extract_rulebook_index(
    text: str,
    *,
    source: str,
    prefix_sections: Sequence[PrefixSection] = DEFAULT_PREFIX_SECTIONS,
    implied_parents: bool = True,
) -> RulebookIndex:
    """Build the case index of a plain-text rulebook.

    ``source`` names the file in the index (a stable relative name such as
    ``rules/gts-utah-beach.txt``). ``prefix_sections`` are the marker lines that start
    regions with their own numbering (series / exclusive / errata); the default suits
    the shipped files. With ``implied_parents``, unprinted sections above printed cases
    are added with ``implied=True`` (they never replace a printed case).

    A number printed twice in the same region keeps its first printing in ``cases`` and
    records the others in ``duplicates``. An errata entry naming two cases
    (``4.2.1 ... and 4.2.5 ...``) defines both.
    """
    compiled = [(re.compile(s.pattern), s) for s in prefix_sections]
    index = RulebookIndex(source=source)
    region = BookRegion(start_line=1)
    last_case: str | None = None  # the case that lettered run-in items belong to
    for lineno, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        for pattern, section in compiled:
            if pattern.match(stripped):
                region = BookRegion(
                    start_line=lineno, prefix=section.prefix, errata=section.errata, label=section.label
                )
                index.regions.append(region)
                break
        else:
            head = match_case_heading(raw)
            if head is None:
                sub_case = _run_in_sub_case(raw, last_case)
                if sub_case is not None:
                    _add_case(index, region, last_case, sub_case[0], sub_case[1], lineno)
                continue
            number, sub, rest = head
            entries = [(number, sub, rest)]
            if region.errata:
                # "4.2.1 Beach Obstacles ... and 4.2.5 The Sea State ..." amends both cases.
                more = _ERRATA_AND_RE.search(rest)
                if more is not None:
                    entries = [(number, sub, rest[: more.start()]), (more["num"], more["sub"], more["rest"])]
            for num, sb, rst in entries:
                _add_case(index, region, num, sb.replace(".(", "("), extract_title(rst), lineno)
            last_case = number if not sub and not region.errata else None
    if implied_parents:
        _add_implied(index)
    return index


_RUN_IN_SUB_RE = re.compile(r"^\((?P<label>[a-z]|\d{1,2})\)\s+(?P<rest>\S.*)$")


def _run_in_sub_case(line: str, parent: str | None) -> tuple[str, str] | None:
    """``("(c)", title)`` for a titled run-in item ``(c) Ships Spotting Targets. ...``
    under a case (errata cite ``4.4.4(c)``); untitled items are not cases."""
    if parent is None:
        return None
    m = _RUN_IN_SUB_RE.match(line.rstrip())
    if m is None:
        return None
    title = extract_title(m["rest"])
    if title is None or title == m["rest"].strip():
        return None  # a whole-line item is list text, not a titled sub-case
    return f"({m['label']})", title


def _add_case(index: RulebookIndex, region: BookRegion, number: str, sub: str, title: str | None, line: int) -> None:
    suffix = ERRATA_SUFFIX if region.errata else ""
    key = f"{region.prefix}{number}{sub}{suffix}"
    case = RuleCase(
        case=key, title=title, line=line, number=number + sub, book=region.prefix, errata=region.errata
    )
    if key in index.cases:
        index.duplicates.append(case)
    else:
        index.cases[key] = case


def _add_implied(index: RulebookIndex) -> None:
    printed = sorted(index.cases.values(), key=lambda c: c.line)
    for case in printed:
        if case.errata:
            continue  # an errata entry amends a case; it does not create sections
        base = case.number.split("(")[0].rstrip("abcdefghijklmnopqrstuvwxyz")
        for parent in _parents(base):
            key = f"{case.book}{parent}"
            if key not in index.cases:
                index.cases[key] = RuleCase(case=key, line=case.line, number=parent, book=case.book, implied=True)
    # Keep the dict in text order so dumps and reports are stable and readable.
    index.cases = dict(sorted(index.cases.items(), key=lambda kv: (kv[1].line, kv[1].implied is False, kv[0])))
