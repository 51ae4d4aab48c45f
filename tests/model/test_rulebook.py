"""Rulebook case index: extraction from each numbering style, references, titles."""

from __future__ import annotations

import pytest

from conftest import rulebook_text
from model.formats.rulebook import (
    RuleCase,
    RulebookIndex,
    extract_rulebook_index,
    parse_reference,
    title_matches,
)

def _rules(name: str) -> str:
    return rulebook_text(name)  # skips when ../shared/rules is absent (a plain clone)


# --------------------------------------------------------------------------- inline texts

SFN_STYLE = """Contents

1.0 Introduction 2.0 Game Components 3.0 Setting Up

• 3.4 German Set Up

1.0 Introduction

1.1 In General

Text mentions 2.5 kilometres and rule 1.1.

3.0 Setting Up

3.4 German Set Up

The German sets up first.

3.4 Allied Set Up
"""

TKG_STYLE = """Intro text with [25.2] reference.

[7.5.1] The boxes with city names are OMM areas.

[7.5.3] There is no combat in Off-map Movement areas.

[22.1.1] The Zones: Units of the Allied armies must operate within zones.

[7.1.5] A U.S. infantry regiment may move as a mech unit.
"""

GTS_STYLE = """Table of Contents

Part One — Grand Tactical Series Rules v2.0c
Part Two — The Greatest Day: Utah Beach Exclusive Rules

Part One — Grand Tactical Series Rules v2.0c

15.4.1 What does and does not block Line of Sight?

Body.

29.1 Action: Something that an Active Unit can perform.

Part Two — The Greatest Day: Utah Beach Exclusive Rules

2.2.2 Ridges

Ridges are sharp rises.

2.3.3(1) Raised Roads Generally. Raised Roads are white.

4.4.4 Ships—Firing at Shore Targets

(c) Ships Spotting Targets—Using Spotters. Any unit can spot.

Errata & Clarifications (v2.3)

Exclusive Rules

2.2.2 Ridges. Replace the first paragraph.

4.2.1 Beach Obstacles and 4.2.5 The Sea State – Reference the Drift rules. Retrofit.
"""


def test_sfn_style_headings_titles_and_duplicates() -> None:
    idx = extract_rulebook_index(SFN_STYLE, source="sfn.txt")
    assert idx.cases["3.4"].title == "German Set Up"
    assert idx.cases["3.4"].line == 15
    assert idx.cases["1.0"].line == 7  # the run-in contents line is not a heading
    assert [d.title for d in idx.duplicates] == ["Allied Set Up"]
    assert "2.5" not in idx  # a measurement in body text is not a case


def test_tkg_style_bracketed_cases_and_implied_sections() -> None:
    idx = extract_rulebook_index(TKG_STYLE, source="tkg.txt")
    assert idx.cases["7.5.3"].line == 5
    assert idx.cases["7.5"].implied and idx.cases["7.0"].implied
    assert not idx.cases["7.5.1"].implied
    assert "25.2" not in idx  # a reference is not a definition
    assert idx.cases["22.1.1"].title == "The Zones"
    assert idx.cases["7.5.3"].title is None  # a rule sentence is not a title
    assert idx.cases["7.1.5"].title is None  # "A U.S." is an abbreviation, not a title


def test_implied_parents_can_be_switched_off() -> None:
    idx = extract_rulebook_index(TKG_STYLE, source="tkg.txt", implied_parents=False)
    assert "7.5" not in idx


def test_gts_style_books_sub_cases_and_errata() -> None:
    idx = extract_rulebook_index(GTS_STYLE, source="gts.txt")
    assert idx.cases["15.4.1"].book == ""
    assert idx.cases["29.1"].title == "Action"
    assert idx.cases["Excl 2.2.2"].title == "Ridges"
    assert "2.2.2" not in idx  # the exclusive rules restart numbering under their own prefix
    assert idx.cases["Excl 2.3.3(1)"].title == "Raised Roads Generally"
    assert idx.cases["Excl 4.4.4(c)"].title == "Ships Spotting Targets—Using Spotters"
    errata = idx.cases["Excl 2.2.2 (errata)"]
    assert errata.errata and errata.title == "Ridges" and errata.line == 30
    assert "Excl 4.2.5 (errata)" in idx  # an entry naming two cases defines both
    assert [r.label for r in idx.regions] == ["series", "exclusive", "series", "exclusive", "errata"]
    assert idx.region_at(12).prefix == "" and idx.region_at(20).prefix == "Excl "
    assert idx.region_at(30).errata


@pytest.mark.parametrize(
    ("ref", "expected"),
    [
        ("GTS 15.4.1", "15.4.1"),
        ("15.4.1", "15.4.1"),
        ("[15.4.1]", "15.4.1"),
        ("Utah Excl 2.2.2", "Excl 2.2.2"),
        ("Excl 2.2.2", "Excl 2.2.2"),
        ("Excl 2.2.2 (errata)", "Excl 2.2.2 (errata)"),
        ("Exclusive Rule #2.2.2 Ridges", "Excl 2.2.2"),
        ("2.2.2", "Excl 2.2.2"),  # unqualified: not in the series, found in the exclusive rules
        ("Excl 4.4.4(c)", "Excl 4.4.4(c)"),
        ("Excl 4.4.4(d)", "Excl 4.4.4"),  # an unindexed sub-item falls back to its case
        ("Excl 2.3.3.(1)", "Excl 2.3.3(1)"),
    ],
)
def test_resolve_accepts_references_as_written(ref: str, expected: str) -> None:
    idx = extract_rulebook_index(GTS_STYLE, source="gts.txt")
    found = idx.resolve(ref)
    assert found is not None and found.case == expected


@pytest.mark.parametrize(
    "ref",
    ["Series Rule #2.2.2", "Excl 15.4.1", "Excl 15.4.1 (errata)", "Excl 4.2.2 (errata)", "no number", "99.1"],
)
def test_resolve_rejects_missing_cases(ref: str) -> None:
    idx = extract_rulebook_index(GTS_STYLE, source="gts.txt")
    assert idx.resolve(ref) is None


def test_resolve_prefers_the_given_book() -> None:
    text = "1.1 Series Thing\n\nPart Two — X Exclusive Rules\n\n1.1 Exclusive Thing\n"
    idx = extract_rulebook_index(text, source="x.txt")
    assert idx.resolve("1.1").title == "Series Thing"
    assert idx.resolve("1.1", prefer="Excl ").title == "Exclusive Thing"


def test_parse_reference_parts() -> None:
    parsed = parse_reference("Excl 3.4.2.(iii) (errata)")
    assert parsed is not None
    assert (parsed.number, parsed.sub, parsed.book, parsed.errata) == ("3.4.2", "(iii)", "Excl ", True)
    sfn = parse_reference("SFN 3.4 German Set Up")
    assert sfn is not None and sfn.book is None and sfn.title == "German Set Up"
    assert parse_reference("Series Rule #21.6.2").book == ""
    assert parse_reference("see the map") is None


@pytest.mark.parametrize(
    ("a", "b", "ok"),
    [
        ("How To Win", "How to Win", True),
        ("Effect on Movement", "Effects on Movement", True),
        ("Drop Table Results Explanation", "The Drop Table", True),
        ("Activating white-striped Units", "Activating White-Striped Units", True),
        ("Iles St. Marcouf Assault", "Îles St. Marcouf Assault", True),
        ("Night Restrictions on the US Army", "Night Turn Restrictions on the US Army (but not 101st)", True),
        ("Roaming Units", "Alone and Afraid", False),
        ("German Supply Sources", "Allied Supply Sources", False),
        (None, "Anything", True),
    ],
)
def test_title_matches(a: str | None, b: str, ok: bool) -> None:
    assert title_matches(a, RuleCase(case="1.1", title=b, line=1)) is ok


def test_index_round_trips_through_model_dump() -> None:
    idx = extract_rulebook_index(GTS_STYLE, source="rules/gts.txt")
    again = RulebookIndex.model_validate(idx.model_dump())
    assert again == idx
    assert again.resolve("Excl 2.2.2 (errata)").line == 30


# --------------------------------------------------------------------------- real rulebooks


def test_real_sfn_index() -> None:
    idx = extract_rulebook_index(_rules("second-front-now.txt"), source="rules/second-front-now.txt")
    assert idx.resolve("SFN 3.4").title == "German Set Up"
    assert idx.resolve("15.10").title == "Six-Sided Dice"
    assert idx.resolve("2.13").title == "US Untried & Blooded Units"
    assert idx.resolve("7.5") is None  # the printed rules have no 7.5 heading
    assert [d.case for d in idx.duplicates] == ["9.3"]
    assert idx.cases["1.0"].line == 120  # not the run-in contents line 118


def test_real_tkg_index() -> None:
    idx = extract_rulebook_index(_rules("the-killing-ground-draft.txt"), source="rules/the-killing-ground-draft.txt")
    assert idx.resolve("[7.5.3]").line == 398
    assert idx.resolve("TKG 22.3.5").title == "Allied OMM Control"
    assert idx.resolve("7.5").implied
    assert idx.resolve("10.6.8") is None
    assert idx.resolve("12.2.2") is None  # section 12 is never printed
    assert sum(1 for c in idx.cases.values() if not c.implied) == 326


def test_real_gts_index() -> None:
    idx = extract_rulebook_index(_rules("gts-utah-beach.txt"), source="rules/gts-utah-beach.txt")
    assert idx.resolve("GTS 15.4.1").title == "What does and does not block Line of Sight?"
    assert idx.resolve("GTS 29.7").title == "Artillery Park"
    assert idx.resolve("Utah Excl 2.2.2").title == "Ridges"
    assert idx.resolve("Excl 2.2.2").line == 1607
    assert idx.resolve("Excl 2.2.2 (errata)").line == 2777
    assert idx.resolve("Excl 18.10").title == "Îles St. Marcouf Assault"
    assert idx.resolve("Excl 16.6").title == "17.SS Procured Transportation"
    assert idx.resolve("Excl 4.2.2(2)").title == "Resistance Nest Attacks against Landed Units"
    assert idx.resolve("Excl 3.4.2.(iii) (errata)").line == 2785
    assert idx.resolve("Excl 16.8") is None
    assert idx.cases["1.0"].book == "" and idx.cases["Excl 1.0"].line == 1473
    assert not idx.duplicates
