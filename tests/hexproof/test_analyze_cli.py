"""``hexproof analyze`` and ``hexproof coverage`` on the Utah sample (issue #22)."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import REPO
from hexproof.cli import main

UTAH = str(REPO / "scenarios" / "utah-beach")


def test_analyze_json_has_means_and_percentiles(capsys) -> None:
    assert main(["analyze", UTAH, "--scenario", "night-drop", "--seeds", "30", "--format", "json", "--quiet"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["seeds"] == {"count": 30, "first": 1, "last": 30}
    bn = rep["kinds"]["drop"]["by_group"]["1/502"]
    assert set(bn["share_in_zone"]) >= {"mean", "p5", "p95"}
    assert 0 <= bn["share_in_zone"]["p5"] <= bn["share_in_zone"]["p95"] <= 1
    assert set(rep["kinds"]["drop"]["by_zone"]) == {"dz-a", "dz-c", "dz-d"}


def test_analyze_text_and_jobs_agree(capsys) -> None:
    assert main(["analyze", UTAH, "--scenario", "night-drop", "--seeds", "24", "--quiet"]) == 0
    one = capsys.readouterr().out
    assert main(["analyze", UTAH, "--scenario", "night-drop", "--seeds", "24", "--jobs", "2", "--quiet"]) == 0
    assert capsys.readouterr().out == one
    assert "share in zone" in one and "DZ A" in one


def test_seed_replay_equals_the_playtest_log(tmp_path: Path, capsys) -> None:
    script, log = tmp_path / "k.yaml", tmp_path / "k.json"
    assert main(["analyze", UTAH, "--scenario", "night-drop", "--seed", "17", "--script", str(script),
                 "--log", str(log)]) == 0
    assert "seed 17: 12 random step(s)" in capsys.readouterr().out
    replayed = tmp_path / "replayed.json"
    assert main(["playtest", str(script), "--log", str(replayed)]) == 0
    assert replayed.read_text(encoding="utf-8") == log.read_text(encoding="utf-8")


def test_compare_two_variants(capsys) -> None:
    assert main(["analyze", UTAH, "--compare", "night-drop", "night-drop-leader-losses", "--seeds", "20",
                 "--format", "json", "--quiet"]) == 0
    rep = json.loads(capsys.readouterr().out)
    d = rep["b_minus_a"]["kinds"]["drop"]["by_zone"]["dz-a"]["in_zone"]["b_minus_a"]
    assert d["ci_low"] <= d["mean"] <= d["ci_high"]
    assert "paired-normal-ci" in rep["b_minus_a"]["policy"]


def test_bad_input_is_a_message(capsys) -> None:
    assert main(["analyze", UTAH, "--scenario", "nope", "--seeds", "3"]) == 2
    assert "no scenario 'nope'" in capsys.readouterr().err
    assert main(["analyze", UTAH, "--scenario", "night-drop", "--seeds", "0"]) == 2


def test_coverage_cli(tmp_path: Path, capsys) -> None:
    png = tmp_path / "cov.png"
    assert main(["coverage", UTAH, "--scenario", "beach-landing", "--side", "german", "--format", "json",
                 "--png", str(png)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["hexes_covered"] == len(data["counts"]) and data["max_count"] == max(data["counts"].values())
    assert data["seconds"]["los"] > 0 and "own-hex-covered" in data["policies"][0]
    assert png.stat().st_size > 10_000
    assert main(["coverage", UTAH, "--scenario", "night-drop", "--observers", "strongpoint", "--night"]) == 0
    assert "2 strongpoint features" in capsys.readouterr().out
    assert main(["coverage", UTAH, "--scenario", "night-drop"]) == 2
    assert "--side is required" in capsys.readouterr().err


def test_analyze_plots(tmp_path: Path, capsys) -> None:
    assert main(["analyze", UTAH, "--scenario", "night-drop", "--seeds", "10", "--plots", str(tmp_path),
                 "--quiet"]) == 0
    names = sorted(p.name for p in tmp_path.glob("*.png"))
    assert "night-drop-drop-heatmap.png" in names and "night-drop-drop-drift-1-502.png" in names


def test_later_turn_seed_replay_and_turns(tmp_path: Path, capsys) -> None:
    """`--seed K --script` for the beach landing, whose 0900 6 June wave lands on turn 3: the
    playtest of the script logs what `--log` wrote; `--turns 1` lists no 0900 wave; the report
    gives the landings by turn and the defence tracks by turn, identical for --jobs 1 and 2."""
    script, log, replayed = tmp_path / "k.yaml", tmp_path / "k.json", tmp_path / "r.json"
    assert main(["analyze", UTAH, "--scenario", "beach-landing", "--seed", "5", "--script", str(script),
                 "--log", str(log)]) == 0
    out = capsys.readouterr().out
    assert "turn 0900 6 June" in out
    assert main(["playtest", str(script), "--log", str(replayed)]) == 0
    capsys.readouterr()
    assert replayed.read_text(encoding="utf-8") == log.read_text(encoding="utf-8")
    args = ["analyze", UTAH, "--scenario", "beach-landing", "--seeds", "16", "--format", "json", "--quiet"]
    assert main(args) == 0
    rep = json.loads(capsys.readouterr().out)
    assert list(rep["kinds"]["landing"]["by_turn"]) == ["02 0700 6 June", "03 0900 6 June"]
    assert list(rep["levels"]["utah obstacles"]) == ["02 0700 6 June", "03 0900 6 June"]
    assert main(args + ["--jobs", "2"]) == 0
    assert json.loads(capsys.readouterr().out) == rep
    assert main(args + ["--turns", "1"]) == 0
    one = json.loads(capsys.readouterr().out)
    assert "by_turn" not in one["kinds"]["landing"]
    assert main(["analyze", UTAH, "--scenario", "beach-landing", "--seeds", "2", "--turns", "0"]) == 2
    assert "--turns is 0" in capsys.readouterr().err


def test_no_empty_plots(tmp_path: Path, capsys) -> None:
    """An SFN airdrop never drifts [SFN 15.6] and the Random Events draws land nothing: no empty
    drift histogram, no heatmap of nothing; the airdrop's heatmap is written."""
    sfn = str(REPO / "scenarios" / "second-front-now")
    assert main(["analyze", sfn, "--scenario", "calais-airdrop-ezoc", "--seeds", "4", "--quiet",
                 "--plots", str(tmp_path)]) == 0
    assert main(["analyze", UTAH, "--scenario", "beach-landing", "--seeds", "4", "--quiet",
                 "--plots", str(tmp_path)]) == 0
    names = sorted(p.name for p in tmp_path.iterdir())
    assert "calais-airdrop-ezoc-airdrop-heatmap.png" in names and "beach-landing-landing-heatmap.png" in names
    assert not any("airdrop-drift" in n or "events-heatmap" in n for n in names), names


def test_what_cannot_be_analysed_is_reported_unknown_in_text_and_json(capsys) -> None:
    """GTS 26.0: "one of the players rolls on the Weather Table to see what the weather is for
    the upcoming day" and Excl 4.2.6: "the results are applied according to the Firing at Beach
    Defenses section of the Utah Naval & Air Display" -- neither table is in the rules file, so
    the report names both as not analysed (with their cases) instead of showing no randomness.
    The night drop has no Beach Overlay: only the weather is listed there."""
    assert main(["analyze", UTAH, "--scenario", "beach-landing", "--seeds", "3", "--quiet"]) == 0
    text = capsys.readouterr().out
    assert "== not analysed: no distribution, unknown ==" in text
    assert "the weather roll [GTS 5.0, 26.0; Utah Excl 1.2]" in text and "[Utah Excl 4.2.6]" in text
    assert main(["analyze", UTAH, "--scenario", "night-drop", "--seeds", "3", "--format", "json", "--quiet"]) == 0
    gaps = json.loads(capsys.readouterr().out)["not_analysed"]
    assert [g["rule"] for g in gaps] == ["GTS 5.0, 26.0; Utah Excl 1.2"]
    assert all(g["why"] and g["what"] for g in gaps)


def test_compare_on_one_seed_has_no_interval_and_is_valid_json(capsys) -> None:
    """One seed: a difference has a mean but no 95 % interval (s needs two). The JSON says null
    (it printed NaN, which no JSON reader takes) and the text says ``-``."""
    args = ["analyze", UTAH, "--compare", "night-drop", "night-drop-leader-losses", "--seeds", "1", "--quiet"]
    assert main([*args, "--format", "json"]) == 0
    out = capsys.readouterr().out
    assert "NaN" not in out
    data = json.loads(out)
    diffs = [v["b_minus_a"] for block in data["b_minus_a"]["kinds"].values() for table in block.values()
             for entry in table.values() for v in entry.values()]
    assert diffs and all(d["n"] == 1 and d["mean"] is not None and d["ci_low"] is None is d["ci_high"] for d in diffs)
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "nan" not in text.lower() and "[-, -]" in text
