"""Citations corrected against the rulebook texts: GTS-TURN-002 cites the sequence of play
(GTS 4.0, not 3.0), and the TKG Mulberry facts cite the draft's unnumbered paragraphs by line,
since the draft has no [20.4.2] (nor any 20.4 case). Each quote is checked against the text,
and each line citation against the line it names."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from case_runner import run_case
from conftest import REPO, rulebook_text
from validators.registry import default_registry

GTS = "gts-utah-beach.txt"
TKG = "the-killing-ground-draft.txt"


def _line(book: str, n: int) -> str:
    """Line ``n`` (1-based, as "TKG L123" cites it) of a rulebook text."""
    return rulebook_text(book).splitlines()[n - 1]


def test_gts_turn_002_cites_the_sequence_of_play(tmp_path: Path) -> None:
    text = rulebook_text(GTS)
    assert "4.0 The sequence of play" in text and "3.0 The time scale" in text
    assert "J. Turn record. Move the turn record marker up one turn." in text
    assert "starting with turn 0700, June 10, 1944" in text  # the errata note for CG#5
    rule = default_registry().get("GTS-TURN-002")
    assert rule is not None and rule.rule_case == "4.0"
    assert '"Move the turn record marker up one turn"' in rule.sections()["Rule case"]
    (d,) = run_case("GTS-TURN-002", "continuation anchored on the wrong turn (errata S29)", tmp_path)
    assert d.rule_case == "4.0"


def test_tkg_draft_has_no_20_4_case() -> None:
    text = rulebook_text(TKG)
    assert "[20.4" not in text and not re.search(r"^20\.4\b", text, re.M)
    # The Mulberry paragraphs stand unnumbered between these two cases.
    assert _line(TKG, 1721).startswith("[20.3.3]") and _line(TKG, 1758).startswith("[20.5.1]")


def test_mulberry_b_hex_is_cited_by_line() -> None:
    assert ("The British Mulberry cannot be used for landing or construction, until the Mulberry B hex (N3139) "
            "has been occupied by an Allied unit") in _line(TKG, 1752)
    assert "Rolls cannot be made for the British Mulberry (B) until the turn hex N3139 is under Allied control" \
        in _line(TKG, 892)
    assert "cannot roll for the British Mulberry (B) until hex N3139 is under Allied control" in _line(TKG, 1740)
    assert "When a Mulberry's Construction Level reaches 5, Landing Box 2 is open" in _line(TKG, 1754)
    assert "Allied-controlled Beach Landing and Mulberry hexes are Allied Supply Sources" in _line(TKG, 839)
    assert "may act as one supported Allied HQ" in _line(TKG, 820)


def test_no_20_4_citation_is_left() -> None:
    """The rules, the system file and the sample cite the lines, and say the case is not in the draft."""
    system = yaml.safe_load((REPO / "resources" / "systems" / "tkg.yaml").read_text(encoding="utf-8"))
    assert system["params"]["key_hexes"]["N3139"]["rule"] == "TKG L1752"
    assert system["params"]["mulberry_lb2_rule"] == "TKG L1754"
    for code in ("TKG-MAP-005", "TKG-SCH-007"):
        rule = default_registry().get(code)
        assert rule is not None
        assert "[20.4" not in rule.sections()["Why"].replace('cited "[20.4.2]"', "")
    why = default_registry().get("TKG-MAP-005").sections()["Why"]  # type: ignore[union-attr]
    assert 'Not in the draft: an earlier version cited "[20.4.2]"' in why
    sample = REPO / "scenarios" / "killing-ground"
    for path in [*sample.rglob("*.yaml"), *sample.rglob("*.py"), sample / "README.md"]:
        assert "[20.4" not in path.read_text(encoding="utf-8"), path


def test_map_005_message_cites_the_line(tmp_path: Path) -> None:
    (d,) = run_case("TKG-MAP-005", "Mulberry B moved off N3139", tmp_path)
    assert "Mulberry B must be N3139 (L1752)" in d.message
