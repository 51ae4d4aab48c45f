"""Rulebook text lint: each check on small texts that pass and fail, the real rulebooks,
the CLI, and that the committed docs/proofing reports are current."""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

import pytest

from conftest import RULES_DIR, rulebook_path, rulebook_text
from hexproof.commands import lint_rules
from model.diagnostics import Diagnostic, Severity
from validators.proofing.textlint import lint_rules_text

REPO = Path(__file__).resolve().parents[2]
RULES = RULES_DIR  # ../shared/rules: absent in a plain clone (the tests that need it skip)
RULE_FILES = ("second-front-now.txt", "the-killing-ground-draft.txt", "gts-utah-beach.txt")


def lint(text: str, **kwargs: object) -> list[Diagnostic]:
    return lint_rules_text(text, file="t.txt", **kwargs)  # type: ignore[arg-type]


def codes(text: str, **kwargs: object) -> list[str]:
    return [d.code for d in lint(text, **kwargs)]


def _rules(name: str) -> str:
    return rulebook_text(name)


def _at(findings: list[Diagnostic], code: str, line: int) -> list[Diagnostic]:
    return [d for d in findings if d.code == code and d.location.line == line]


# --------------------------------------------------------------------------- 001 notes


def test_designer_notes_fail() -> None:
    found = lint("[1.1.1] Units move. KG: do we need this?\n\nMJ: check this rule\n")
    assert [(d.code, d.location.line, d.location.column) for d in found] == [
        ("PROOF-TEXT-001", 1, 21),
        ("PROOF-TEXT-001", 3, 1),
    ]
    assert all(d.severity is Severity.WARNING for d in found)
    assert '"KG: do we need this?"' in found[0].message


def test_designer_notes_pass_and_tags_are_configurable() -> None:
    assert codes("KG units are considered to be regiments. KG = Kampfgruppe.\n") == []
    assert codes("XY: a note\n") == []
    assert codes("XY: a note\n", tags=("XY:",)) == ["PROOF-TEXT-001"]
    assert codes("KG: a note\n", tags=("XY:",)) == []


def test_signed_notes_arrows_and_suggestions() -> None:
    text = "Printed on it. (← let's not do this -KG)\nSee map W ← Still?\nSuggested rewording for clarity – x\n"
    assert codes(text) == ["PROOF-TEXT-001"] * 4  # line 1: arrow aside and -KG signature


# --------------------------------------------------------------------------- 002 placeholders


@pytest.mark.parametrize(
    "text",
    [
        "<Insert Table...>",
        "< Insert Naval Bombardment Marker... >",
        "(Insert examples here...)",
        "Insert Graphics here...",
        "[7.7.3] To be described...",
        "• A major operation ends if ……. ?????",
        "• N????: Maisy",
        "may not double per [x.x.x]",
        "reducing its allowance first (see x.x).",
        "• Improve Mulberry construction [19.x]",
        "from the track (see xxx).",
        "• +#: per combat strength",
        "• N charts & tables",
    ],
)
def test_placeholders_fail(text: str) -> None:
    assert "PROOF-TEXT-002" in codes(text + "\n")


@pytest.mark.parametrize(
    "text",
    [
        "along the 24xx hexrow to E2409",
        "south of N41xx",
        "XXX = Corps; XXXX = Army",
        "Move 2 x Nachhut markers",
        'The rule is in effect if "A wheeled Unit…" applies.',
        "Map N holds the beaches.",
    ],
)
def test_placeholders_pass(text: str) -> None:
    assert codes(text + "\n") == []


# --------------------------------------------------------------------------- 003 markup


def test_markup_residue() -> None:
    found = lint("(see %%Flak Movement%%)\nPlain (see Flak Movement) text.\n")
    assert [(d.code, d.location.line, d.location.column) for d in found] == [("PROOF-TEXT-003", 1, 6)]
    assert "%%Flak Movement%%" in found[0].message


# --------------------------------------------------------------------------- 004 references

REFS = """1.0 Introduction

1.1 In General

Units obey (see 1.2), rule 3.1 and [1.1]. Each hex is 9.4 miles across; version 2.0c.

1.2 Scale

Also see 1.1 and 1.3, and section 4.0 (1.1).
"""


def test_dangling_references_fail_and_pass() -> None:
    found = [d for d in lint(REFS) if d.code == "PROOF-TEXT-004"]
    lines = REFS.splitlines()
    assert [(d.location.line, d.location.column, d.severity) for d in found] == [
        (5, lines[4].index("3.1") + 1, Severity.ERROR),  # rule 3.1
        (9, lines[8].index("1.3") + 1, Severity.ERROR),  # 1.3 continues the "see" list
        (9, lines[8].index("4.0") + 1, Severity.ERROR),  # section 4.0
    ]
    assert "3.1" in found[0].message


def test_references_to_implied_sections_and_hex_ids_pass() -> None:
    text = "[7.5.1] Boxes.\n\n[7.5.2] See 7.5 and 7.0, hex 28.048 and [7.5.1].\n"
    assert "PROOF-TEXT-004" not in codes(text)


def test_cross_book_references() -> None:
    text = (
        "Part One — Series Rules\n\n21.6.2 Activating White-Striped Units\n\nText.\n\n"
        "Part Two — Game Exclusive Rules\n\n1.0 Night\n\nText (see 21.6.2) and Series Rule #1.0 here.\n"
    )
    found = [d for d in lint(text) if d.code == "PROOF-TEXT-004"]
    # the bare 21.6.2 falls back to the series book; "Series Rule #1.0" is pinned there and missing
    assert [(d.location.line, "series rules" in d.message) for d in found] == [(11, True)]


def test_errata_entry_for_missing_case() -> None:
    text = (
        "Part Two — Game Exclusive Rules\n\n16.7 Wurfgerat\n\nText.\n\n"
        "Errata & Clarifications\n\n16.7 Wurfgerat. Change it.\n\n16.8 Flak Units. Clarification: x.\n"
    )
    found = [d for d in lint(text) if d.code == "PROOF-TEXT-004"]
    assert [d.location.line for d in found] == [11]
    assert "Excl 16.8" in found[0].message


# --------------------------------------------------------------------------- 005 titles


def test_reference_titles() -> None:
    text = (
        "• 1.1 General Things\n• 1.2 Wrong Title\n\n1.0 Intro\n\n1.1 General Thing\n\n1.2 Scale\n\n"
        "Per Rule #1.2 Scale and Rule #1.1 Other Stuff.\n"
    )
    found = [d for d in lint(text) if d.code == "PROOF-TEXT-005"]
    assert [d.location.line for d in found] == [2, 10]
    assert '"Wrong Title"' in found[0].message and '"Scale"' in found[0].message


def test_errata_title_mismatch() -> None:
    text = (
        "Part Two — Game Exclusive Rules\n\n18.0 Optional\n\n18.1 Alone and Afraid\n\n18.2 Roaming Units\n\n"
        "Errata & Clarifications\n\n18.2 Roaming Units. Fine.\n\n18.1 Roaming Units. Clarification.\n"
    )
    found = [d for d in lint(text) if d.code == "PROOF-TEXT-005"]
    assert [d.location.line for d in found] == [13]


# --------------------------------------------------------------------------- 006 duplicates

LONG = "When a unit retreats into a hex containing enemy units it is eliminated instead of retreating."


def test_duplicate_paragraphs() -> None:
    found = lint(f"[1.1.1] {LONG}\n\n[2.1.1] {LONG}\n")
    assert [(d.code, d.location.line) for d in found] == [("PROOF-TEXT-006", 3)]
    assert found[0].related[0].line == 1


def test_duplicate_paragraphs_pass() -> None:
    assert codes(f"[1.1.1] {LONG}\n\n[2.1.1] {LONG[:-1]} at once.\n") == []
    assert codes(f"1. {LONG}\n2. Next.\n\nThen\n\n1. {LONG}\n") == []  # list steps repeat on purpose
    assert codes("In General\n\nIn General\n") == []  # short


# --------------------------------------------------------------------------- 007/008 numbering


def test_duplicate_case_number() -> None:
    found = lint("9.0 Supply\n\n9.3 German Supply Sources\n\n9.3 Allied Supply Sources\n")
    dup = [d for d in found if d.code == "PROOF-TEXT-007"]
    assert [(d.location.line, d.severity) for d in dup] == [(5, Severity.ERROR)]
    assert '"German Supply Sources"' in dup[0].message


def test_case_numbering_gaps() -> None:
    text = "1.0 Reinforcements\n\n1.1 A\n\n1.2 B\n\n1.4 D\n\n3.0 Later\n\n3.1 X\n"
    found = [d for d in lint(text) if d.code == "PROOF-TEXT-008"]
    assert [(d.location.line, d.message) for d in found] == [
        (7, "gap in case numbering: 1.3 missing before 1.4"),
        (9, "gap in case numbering: 2.0 missing before 3.0"),
    ]
    assert codes("1.0 A\n\n1.1 B\n\n1.2 C\n\n2.0 D\n\n2.1 E\n") == []


def test_run_in_sub_case_gaps() -> None:
    text = "1.0 A\n\n1.1 B\n\n1.1(1) One. x\n\n1.1(3) Three. y\n"
    found = [d for d in lint(text) if d.code == "PROOF-TEXT-008"]
    assert [d.message for d in found] == ["gap in case numbering: 1.1(2) missing before 1.1(3)"]


def test_case_numbering_counts_implied_sections() -> None:
    found = [d for d in lint("[5.1.1] A.\n\n[5.3.1] B.\n") if d.code == "PROOF-TEXT-008"]
    messages = [d.message for d in found]
    assert any("5.2 missing before 5.3" in m for m in messages)


# --------------------------------------------------------------------------- 009 lists


def test_numbered_list_gap_and_repeat() -> None:
    text = "1. One\n2. Two\n4. Four\n\nA. Alpha\nB. Beta\nB. Beta again\n"
    found = [d for d in lint(text) if d.code == "PROOF-TEXT-009"]
    assert [(d.location.line, d.message.split(":")[0]) for d in found] == [
        (3, "list skips from 2 to 4"),
        (7, "list item B follows B"),
    ]


def test_numbered_lists_pass() -> None:
    text = (
        "1. One\n2. Two\n\nGerman phase\n\n1. One\n2. Two\n   1. Nested\n   2. Nested\n3. Three\n\n"
        "Step 1 — Announce.\nStep 2 — Check.\n\n(a) first\n(b) second\n(i) roman\n(ii) roman\n"
    )
    assert codes(text) == []


# --------------------------------------------------------------------------- 010 steps

SOP = """4.0 The sequence of play

A. Weather. Check Weather.
B. Airpower. Determine Airpower.
C. The mug. Put the eligible chits into the coffee mug.

5.0 Later

During step 6 of the sequence of play (when you put the eligible chits into the mug), add it.
During Step B of the Sequence of Play, roll.
During Step A of the Sequence of Play (when you put chits into the mug), roll.
"""


def test_step_references() -> None:
    found = [d for d in lint(SOP) if d.code == "PROOF-TEXT-010"]
    assert [d.location.line for d in found] == [9, 11]
    assert "no step 6" in found[0].message and "step C" in found[0].message


# --------------------------------------------------------------------------- determinism


def test_output_is_sorted_and_deterministic() -> None:
    text = "MJ: note\n<Insert Table...>\n%%x%% KG: y\n"
    first, second = lint(text), lint(text)
    assert first == second
    assert [d.sort_key() for d in first] == sorted(d.sort_key() for d in first)


# --------------------------------------------------------------------------- real rulebooks


def _lint_real(name: str) -> list[Diagnostic]:
    return lint_rules_text(_rules(name), file=f"rules/{name}")


def test_real_sfn_defects() -> None:
    found = _lint_real("second-front-now.txt")
    assert _at(found, "PROOF-TEXT-007", 567)  # 9.3 printed twice
    assert _at(found, "PROOF-TEXT-008", 483)  # 7.4 then 7.6
    assert len(_at(found, "PROOF-TEXT-004", 481)) == 1  # "(see 7.5)"
    assert _at(found, "PROOF-TEXT-009", 705)  # combat sequence: 7 then 9
    assert not [d for d in found if d.code in ("PROOF-TEXT-001", "PROOF-TEXT-002")]


def test_real_tkg_defects() -> None:
    found = _lint_real("the-killing-ground-draft.txt")
    by_code = Counter(d.code for d in found)
    assert by_code["PROOF-TEXT-001"] >= 100  # the digest counts about 100 KG:/MJ: notes
    assert _at(found, "PROOF-TEXT-001", 17)  # "KG: Do we still want to support this micro-scenario?"
    assert _at(found, "PROOF-TEXT-003", 219) and _at(found, "PROOF-TEXT-003", 339)  # %%...%%
    assert _at(found, "PROOF-TEXT-002", 424)  # [7.7.3] To be described...
    assert _at(found, "PROOF-TEXT-002", 1021)  # [19.x]
    assert _at(found, "PROOF-TEXT-002", 864)  # [x.x.x]
    assert _at(found, "PROOF-TEXT-002", 2171)  # N????: Maisy
    assert _at(found, "PROOF-TEXT-002", 575)  # <Insert Table...> (combined arms table)
    assert _at(found, "PROOF-TEXT-004", 1212)  # "per case 11.41a"
    # [7.3.5] at column 2 defines a case; only its "(20.7 German)" reference dangles
    assert [d.location.column for d in _at(found, "PROOF-TEXT-004", 381)] == [501]
    assert by_code["PROOF-TEXT-004"] >= 100  # roughly half the numeric references dangle


def test_real_gts_defects() -> None:
    found = _lint_real("gts-utah-beach.txt")
    assert _at(found, "PROOF-TEXT-005", 2844)  # errata "18.9 Roaming Units" vs "Alone and Afraid"
    assert _at(found, "PROOF-TEXT-004", 2826)  # errata amends Excl 16.8, which does not exist
    assert _at(found, "PROOF-TEXT-010", 2330)  # "step 6 of the sequence of play" (steps are A–J)
    # Hex ids (28.048), versions (v2.0c) and cross-book references are not false positives.
    assert len([d for d in found if d.code == "PROOF-TEXT-004"]) == 1


# --------------------------------------------------------------------------- CLI


def _run_cli(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    lint_rules.register(parser)
    return lint_rules.run(parser.parse_args(argv))


def test_cli_exit_codes_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    clean = tmp_path / "clean.txt"
    clean.write_text("1.0 Intro\n\n1.1 In General\n\nKG: note\n", encoding="utf-8")
    assert _run_cli([str(clean)]) == 0  # warnings only
    bad = tmp_path / "bad.txt"
    bad.write_text("1.0 Intro\n\nSee 4.4.\n", encoding="utf-8")
    out = tmp_path / "report.json"
    assert _run_cli([str(bad), "--format", "json", "--output", str(out), "--relative-to", str(tmp_path)]) == 1
    payload = json.loads(out.read_text(encoding="utf-8"))
    assert payload["files"] == ["bad.txt"]
    assert payload["summary"]["by_code"] == {"PROOF-TEXT-004": 1}
    assert _run_cli([str(tmp_path / "missing.txt")]) == 2
    err = capsys.readouterr().err
    assert err.strip().count("\n") == 0 and "cannot read" in err and "Traceback" not in err


def test_cli_custom_tags(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "r.txt"
    f.write_text("AB: note\nKG: other\n", encoding="utf-8")
    assert _run_cli([str(f), "--tags", "AB:"]) == 0
    out = capsys.readouterr().out
    assert "AB: note" in out and "KG: other" not in out


# --------------------------------------------------------------------------- committed reports


@pytest.mark.parametrize("name", RULE_FILES)
def test_committed_reports_are_current(name: str, tmp_path: Path) -> None:
    """docs/proofing/<name> must equal what `hexproof lint-rules` prints today."""
    source = rulebook_path(name)
    fresh = tmp_path / name
    _run_cli([str(source), "--relative-to", str(RULES.parent), "--output", str(fresh)])
    committed = REPO / "docs" / "proofing" / name
    assert committed.read_text(encoding="utf-8") == fresh.read_text(encoding="utf-8"), (
        f"regenerate with: hexproof lint-rules ../shared/rules/{name} --relative-to ../shared "
        f"--output docs/proofing/{name}"
    )
