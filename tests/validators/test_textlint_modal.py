"""PROOF-TEXT-011: a rule stated with "may" in one case and "must" in another (errata R9)."""

from __future__ import annotations

from conftest import FIXTURES, rulebook_text
from validators.proofing.textlint import check_modal_contradictions, lint_rules_text


def _codes(text: str) -> list[tuple[int, str]]:
    return [(d.location.line, d.message) for d in lint_rules_text(text, file="t.txt") if d.code == "PROOF-TEXT-011"]


def test_fixture_text_may_vs_must() -> None:
    found = _codes((FIXTURES / "proofing" / "may-must.txt").read_text(encoding="utf-8"))
    assert len(found) == 1, found
    line, message = found[0]
    assert line == 5 and "line 11 (4.7.3)" in message and "'may'" in message and "'must'" in message


def test_same_sentence_and_unrelated_sentences_pass() -> None:
    text = ("1.1 Reserves\n\nReserve units that moved may attack adjacent units but must attack all enemy units.\n\n"
            "1.2 Supply\n\nReserve units that moved may attack adjacent units but must attack all enemy units.\n\n"
            "1.3 Movement\n\nUnits may move two hexes along a road.\n\n"
            "1.4 Supply\n\nUnits out of supply must move toward a supply source.\n")
    assert _codes(text) == []


def test_prohibitions_are_not_permissions() -> None:
    text = ("1.1 A\n\nThe German player may not land units in Landing Wave boxes on Beach hexes.\n\n"
            "1.2 B\n\nThe German player must land units in Landing Wave boxes on Beach hexes.\n")
    assert _codes(text) == []


def test_real_gts_excl_4_5_1_vs_4_7_3() -> None:
    text = rulebook_text("gts-utah-beach.txt")
    found = _codes(text)
    assert [line for line, _ in found] == [2171], found  # the errata's own "must" (l.2806) is the fix
    assert check_modal_contradictions.__doc__ and "PROOF-TEXT-011" in check_modal_contradictions.__doc__
