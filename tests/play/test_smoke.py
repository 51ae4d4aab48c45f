"""The smoke playtest: every problem kind is found, located and cited; clean scenarios stay clean."""

from __future__ import annotations

import json

import pytest

from conftest import FIXTURES, REPO
from hexproof.cli import main
from model.bundle import load_bundle
from play.smoke import comparison_table, smoke, smoke_all

DUEL = FIXTURES / "playtests" / "duel"
SAMPLES = ["utah-beach", "second-front-now", "killing-ground"]


def test_clean_scenario_has_no_findings() -> None:
    bundle = load_bundle(DUEL).bundle
    assert bundle is not None
    report = smoke(bundle, "meeting")
    assert report.diagnostics == []
    assert report.arrivals == 4 and report.turns == 4


def test_broken_variant_finds_every_problem_with_location() -> None:
    bundle = load_bundle(DUEL).bundle
    assert bundle is not None
    report = smoke(bundle, "broken")
    codes = {d.code: d for d in report.diagnostics}
    assert sorted(codes) == [f"PLAY-SMOKE-{n:03d}" for n in (2, 3, 4, 5, 6, 7, 8, 10)]
    assert codes["PLAY-SMOKE-002"].rule_case == "DUEL 2.4"
    assert codes["PLAY-SMOKE-004"].rule_case == "DUEL 5.0"
    assert codes["PLAY-SMOKE-007"].rule_case == "DUEL 2.3" and codes["PLAY-SMOKE-007"].location.hexes == ("0703",)
    assert codes["PLAY-SMOKE-008"].location.units == ("b2",)
    assert codes["PLAY-SMOKE-003"].policy  # no rule case: a named policy instead
    for d in report.diagnostics:
        assert d.location.file and d.location.file.endswith("broken.yaml") and d.location.line
    assert (report.blocked, report.overstacks) == (3, 1)  # sea, enemy, marsh drop


def test_unknown_entry_point_and_setup_problems(tmp_path) -> None:
    import shutil

    root = tmp_path / "duel"
    shutil.copytree(DUEL, root)
    scen = root / "scenarios" / "meeting.yaml"
    text = scen.read_text().replace("{location: blue_entry}", "{location: nowhere}")
    text = text.replace("- {unit: r1, hex: '0702'}", "- {unit: r1, hex: '0101'}\n- {unit: b3, hex: '0202'}\n"
                        "- {unit: b4, hex: '0202'}")
    scen.write_text(text)
    bundle = load_bundle(root).bundle
    assert bundle is not None
    codes = sorted(d.code for d in smoke(bundle, "meeting").diagnostics)
    assert codes == ["PLAY-SMOKE-002", "PLAY-SMOKE-004", "PLAY-SMOKE-009"]


def test_cli_all_variants_table_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["smoke", str(DUEL), "--all-variants"]) == 1
    out = capsys.readouterr().out
    assert "PLAY-SMOKE-007" in out and "scenario  turns  arrivals" in out
    assert main(["smoke", str(DUEL), "--scenario", "meeting", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["diagnostics"] == [] and data["reports"][0]["arrivals"] == 4
    assert main(["smoke", str(DUEL), "--scenario", "nope"]) == 2


def test_comparison_table_lines() -> None:
    bundle = load_bundle(DUEL).bundle
    assert bundle is not None
    table = comparison_table(smoke_all(bundle))
    assert table.splitlines()[2].split() == ["meeting", "4", "4", "0", "0", "0", "0"]
    assert table.splitlines()[3].split() == ["broken", "4", "2", "3", "1", "4", "0"]


@pytest.mark.parametrize("name", SAMPLES)
def test_smoke_runs_on_sample(name: str) -> None:
    path = REPO / "scenarios" / name
    if not (path / "game.yaml").exists():
        pytest.skip(f"sample bundle {name} not there yet")
    result = load_bundle(path)
    if result.bundle is None:
        pytest.skip(f"sample bundle {name} does not load yet")
    for report in smoke_all(result.bundle):
        assert report.turns >= 1
        for d in report.diagnostics:
            assert d.code.startswith("PLAY-SMOKE-") and (d.rule_case or d.policy)
