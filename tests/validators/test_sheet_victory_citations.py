"""The cases the counter-sheet, victory and scenario-area rules cite, checked against the
rulebook texts: each quoted passage is where the citation says it is."""

from __future__ import annotations

import pytest

from conftest import rulebook_text
from validators.registry import default_registry

GTS, TKG, SFN = "gts-utah-beach.txt", "the-killing-ground-draft.txt", "second-front-now.txt"


def _line(book: str, n: int) -> str:
    return rulebook_text(book).splitlines()[n - 1]


def test_the_sheet_rules_cite_the_components_lists_by_line() -> None:
    assert _line(GTS, 1456) == 'Sixteen full color counter sheets (5/8" counters)'
    assert "provided in the game in four die-cut countersheets" in _line(TKG, 32)
    for code in ("PROOF-SHEET-001", "PROOF-SHEET-002", "PROOF-SHEET-003"):
        rule = default_registry().get(code)
        assert rule is not None
        assert "Utah Components L1456" in rule.rule_case and "TKG L32" in rule.rule_case


@pytest.mark.parametrize(("code", "book", "quote"), [
    ("CORE-CTRL-001", TKG, "[25.1.5] Scenario Start Line & Control: Each scenario will specify the front lines "
                           "separating the opposing forces as well as control of various map areas and terrain features."),
    ("CORE-VIC-001", TKG, "[25.1.1] Scenario Information: All scenarios will contain the following information:"),
    ("CORE-VIC-001", SFN, "VP hexes on the map represent areas of political and/or strategic significance."),
    ("CORE-VIC-002", TKG, "[25.1.2] Scenario Length: Each scenario will specify the start and end turns"),
    ("CORE-VIC-002", SFN, "At the end of Game Turn 80, reckon the final number of German VPs"),
    ("CORE-VIC-003", SFN, "If that total is 11 or more, the German player is declared the winner."),
])
def test_the_quoted_cases_are_in_the_rules(code: str, book: str, quote: str) -> None:
    assert quote in rulebook_text(book)
    rule = default_registry().get(code)
    assert rule is not None and rule.sections()["Rule case"]
