"""CORE-STACK-001 follows the system file's ``stacking.limits.overstack`` (the key the play
engine reads too): GTS 14.7 penalises overstacking (a warning), SFN 10.1 and TKG L305 forbid it
(an error); and steps the data does not give (``unknown``) are never counted as 1. Each
system's setting is checked against the text of its case."""

from __future__ import annotations

from pathlib import Path

import pytest

from case_runner import run_case
from conftest import rulebook_text
from model.diagnostics import Severity
from model.system import GameSystem, StackingRules, system_path
from model.formats.yamlio import parse_yaml
from validators.packs.core.stack_001 import overstack_mode

GTS_14_7 = ("Stacking limit: up to 8 steps in a hex when not in Column, and one Unit in Column (regardless of "
            "that Unit's step count).")
GTS_14_7_PENALTY = ("Overstacking is permitted for Units not in Column, but if you exceed 8 steps in a hex:\n"
                    "- You may only move one Unit at a time out of the stack")
SFN_10_1 = ("A maximum of four friendly units may stack in the same hex, but only one of them may be artillery and "
            "no more than three may be non-artillery. In other words, you may never stack two artillery units "
            "together, nor may you stack four divisions together.")
TKG_L305 = ("In all terrain types other than hedgerow, bocage and forest, no more than three units may stack in the "
            "same hex at the end of any Movement Phase.")


def _system(system_id: str) -> GameSystem:
    path = system_path(system_id)
    data, _, errors = parse_yaml(path.read_text(encoding="utf-8"), str(path))
    assert not errors
    return GameSystem.model_validate(data)


@pytest.mark.parametrize(("system_id", "book", "quotes", "mode", "rule"), [
    ("gts-utah", "gts-utah-beach.txt", (GTS_14_7, GTS_14_7_PENALTY), "penalised", "14.7"),
    ("sfn", "second-front-now.txt", (SFN_10_1,), "forbidden", "SFN 10.1"),
    ("tkg", "the-killing-ground-draft.txt", (TKG_L305,), "forbidden", "TKG L305"),
])
def test_each_system_file_says_what_its_case_says(system_id: str, book: str, quotes: tuple[str, ...],
                                                  mode: str, rule: str) -> None:
    text = rulebook_text(book)
    for quote in quotes:
        assert quote in text
    if system_id == "tkg":  # cited by line: the quote is on line 305 of the draft
        assert text.splitlines()[304].startswith(TKG_L305)
    assert overstack_mode(_system(system_id).stacking) == (mode, rule)


def test_overstack_defaults_to_forbidden() -> None:
    assert overstack_mode(StackingRules()) == ("forbidden", None)
    assert overstack_mode(StackingRules(limits={"overstack": "penalized"}))[0] == "penalised"


def test_gts_overstack_is_a_warning_citing_14_7(tmp_path: Path) -> None:
    rulebook_text("gts-utah-beach.txt")
    (d,) = run_case("CORE-STACK-001", "GTS 9 steps in a hex is penalised, not forbidden (a warning) [14.7]", tmp_path)
    assert d.severity == Severity.WARNING
    assert "9 steps (limit 8)" in d.message and "penalise rather than forbid [14.7]" in d.message
    assert run_case("CORE-STACK-001", "GTS 8 steps in a hex is within the limit", tmp_path / "8") == []


def test_forbidden_overstack_stays_an_error(tmp_path: Path) -> None:
    (d,) = run_case("CORE-STACK-001", "TKG two units and two HQs in clear (several HQs all count [6.1.3])", tmp_path)
    assert d.severity == Severity.ERROR and "penalise" not in d.message
    (p,) = run_case("CORE-STACK-001", "a system that penalises overstacking (limits.overstack penalised)", tmp_path / "p")
    assert p.severity == Severity.WARNING and "[MINI 5.2]" in p.message


def test_unknown_steps_are_not_counted_as_one(tmp_path: Path) -> None:
    (d,) = run_case("CORE-STACK-001", "GTS stack whose steps are unknown (an info, not a made-up total)", tmp_path)
    assert d.severity == Severity.INFO and d.policy == "unknown-steps-not-counted"
    assert "its step count is unknown (2 with unknown steps: c7-ii-919, st-martin-bty" in d.message
    assert "2 steps" not in d.message  # the old invented total (1 step a unit)
    assert run_case("CORE-STACK-001", "GTS lone unit with unknown steps (not a stack)", tmp_path / "lone") == []
    # A zero-step unit counts 0, not 1 (the old ``steps or 1``).
    assert run_case("CORE-STACK-001", "zero-step units count 0 steps, not 1", tmp_path / "zero") == []
