"""TKG-SCH-005 (the box a reinforcement arrives in) and TKG-SET-021 (artillery released from
the German Holding Box), each against the text of the case it enforces. The quotes are checked
against the draft in ../shared/rules (skipped when absent); the rule runs on its fixture cases."""

from __future__ import annotations

from pathlib import Path

from case_runner import run_case
from conftest import rulebook_text
from model.diagnostics import Severity

TKG = "the-killing-ground-draft.txt"

CASE_18_6_2 = ("[18.6.2] Until V Panzer Army is Committed, German artillery reinforcements may be placed in "
               "the German Holding Box upon their arrival (as indicated on the Turn Record Track).")
COMMITTED_L947 = ("German artillery reinforcements no longer go to the Holding Box and no SPs are spent to place "
                  "them on map (see 18.6)")
CASE_18_3_1 = ("[18.3.1] British AGRA units either begin the scenarios in the Allied Holding Box or arrive as "
               "reinforcements where they are placed into the holding box. (Exception: The 9th AGRA arrives as a "
               "normal reinforcement in the Commonwealth Floating Reserve).")
RELEASE_18_6_2 = ("When German artillery units are placed on the map from the Holding Box:\n\n"
                  "• Corps artillery units are placed on or adjacent their parent HQ.\n"
                  "• Non-Corps artillery may be placed on or adjacent to any German HQ.\n"
                  "• German Corps designated artillery (except for the XXV Corps) must have their parent HQ on map "
                  "before they can be placed on the map.")
SETUP_25_1_6 = ("[25.1.6] Unit Setup: Both players will place their available units on the map or Turn Record "
                "Track depending on the scenario instructions.")


def _quoted(text: str) -> None:
    """The quote is the draft's own text (whitespace aside)."""
    assert " ".join(text.split()) in " ".join(rulebook_text(TKG).split())


def test_sch_005_german_artillery_may_wait_in_the_holding_box(tmp_path: Path) -> None:
    _quoted(CASE_18_6_2)
    _quoted(COMMITTED_L947)
    ok = "German artillery into the German Holding Box until V Panzer Army is Committed [18.6.2]"
    assert run_case("TKG-SCH-005", ok, tmp_path / "ok") == []
    late = run_case("TKG-SCH-005", "German artillery into the Holding Box once V Panzer Army is Committed (L947)",
                    tmp_path / "late")
    assert [d.policy for d in late] == ["holding-box-until-committed"]
    assert "no longer go to the Holding Box (L947)" in late[0].message
    # Only artillery may wait there: a regiment still enters through an OMM, Transit or Rail box.
    (regiment,) = run_case("TKG-SCH-005", "German non-artillery into the German Holding Box", tmp_path / "rgt")
    assert "use an OMM, Transit or Rail box [18.4.1]" in regiment.message


def test_sch_005_agra_arrives_in_the_allied_holding_box(tmp_path: Path) -> None:
    _quoted(CASE_18_3_1)
    ok = "AGRA into the Allied Holding Box, the 9th AGRA into the Commonwealth Floating Reserve [18.3.1]"
    assert run_case("TKG-SCH-005", ok, tmp_path / "ok") == []
    (fr,) = run_case("TKG-SCH-005", "AGRA through the Floating Reserve", tmp_path / "fr")
    assert "7th AGRA is an AGRA unit: it arrives in the Allied Holding Box" in fr.message
    assert fr.policy == "agra-by-flag"
    (ninth,) = run_case("TKG-SCH-005", "the 9th AGRA into the Holding Box (it arrives as a normal reinforcement)",
                        tmp_path / "ninth")
    assert "use the Floating Reserve [18.1.3]" in ninth.message


def test_sch_005_still_refuses_what_it_refused(tmp_path: Path) -> None:
    (german,) = run_case("TKG-SCH-005", "German through a Floating Reserve", tmp_path / "g")
    assert "floating_reserve box 'fr_us'" in german.message
    (brigade,) = run_case("TKG-SCH-005", "British brigade through the U.S. Floating Reserve", tmp_path / "b")
    assert "[18.1.2]" in brigade.message


def test_set_021_does_not_apply_to_the_initial_set_up(tmp_path: Path) -> None:
    _quoted(RELEASE_18_6_2)
    _quoted(SETUP_25_1_6)
    for name in ("corps artillery set up away from its HQ (the initial set-up has no such requirement [25.1.6])",
                 "corps artillery set up with no HQ on the map"):
        assert run_case("TKG-SET-021", name, tmp_path / str(len(name))) == []


def test_set_021_release_on_or_adjacent_to_the_parent_hq(tmp_path: Path) -> None:
    _quoted(RELEASE_18_6_2)
    assert run_case("TKG-SET-021", "corps artillery released next to its HQ (set up on the release turn's hex)",
                    tmp_path / "ok") == []
    (far,) = run_case("TKG-SET-021", "corps artillery released four hexes from its HQ", tmp_path / "far")
    assert "not on or adjacent to its parent HQ LXXXIV Corps HQ (W3826) [18.6.2]" in far.message
    # The HQ's hex on a later turn is a play-time fact: nothing is invented for it.
    assert run_case("TKG-SET-021", "a later release, when the HQ's hex is a play-time fact (not checked)",
                    tmp_path / "later") == []


def test_set_021_parent_hq_on_map_and_the_xxv_corps_exemption(tmp_path: Path) -> None:
    _quoted(RELEASE_18_6_2)
    for name in ("corps artillery released with its parent HQ not on the map",
                 "corps artillery released after its parent HQ withdrew"):
        (d,) = run_case("TKG-SET-021", name, tmp_path / str(len(name)))
        assert "must be on the map before it is placed on the map from the Holding Box" in d.message
        assert d.severity == Severity.ERROR
    # XXV Corps is exempt from the third point only ...
    (xxv,) = run_case("TKG-SET-021",
                      "XXV Corps artillery released with its HQ not on the map (exempt; reported as info)",
                      tmp_path / "xxv")
    assert xxv.severity == Severity.INFO and xxv.policy == "xxv-corps-artillery-placement"
    # ... so with its HQ on the map it is placed on or adjacent to it like any corps artillery.
    (far,) = run_case("TKG-SET-021", "XXV Corps artillery released far from its HQ on the map "
                                     "(only the HQ-on-map point is exempt)", tmp_path / "xxv-far")
    assert far.severity == Severity.ERROR and "XXV Corps HQ (W3826)" in far.message


def test_set_021_non_corps_artillery_goes_to_any_german_hq(tmp_path: Path) -> None:
    _quoted(RELEASE_18_6_2)
    assert run_case("TKG-SET-021", "non-corps artillery released next to a German HQ", tmp_path / "ok") == []
    (d,) = run_case("TKG-SET-021", "non-corps artillery released away from every German HQ", tmp_path / "far")
    assert "not on or adjacent to any German HQ [18.6.2]" in d.message
