"""Scripted playtests: every fixture script runs; a failing one fails with its step; CLI exit codes."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import FIXTURES
from hexproof.cli import main
from play.script import ScriptError, run_script

SCRIPTS = FIXTURES / "playtests"
PASSING = sorted(p for p in SCRIPTS.glob("*.yaml") if p.name != "failing.yaml")


@pytest.mark.parametrize("script", PASSING, ids=lambda p: p.stem)
def test_fixture_script_passes(script: Path) -> None:
    bundle = next(line.split(":", 1)[1].strip() for line in script.read_text().splitlines()
                  if line.startswith("bundle:"))
    if not (script.parent / bundle / "game.yaml").exists():
        pytest.skip(f"sample bundle {bundle} not there yet")
    result = run_script(script)
    assert result.ok, result.failures


def test_there_is_a_script_per_system_sample() -> None:
    names = {p.stem for p in PASSING}
    assert {"mini", "duel", "utah-night-drop", "sfn-calais", "tkg-overlord"} <= names


def test_failing_script_reports_step_and_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    result = run_script(SCRIPTS / "failing.yaml")
    assert result.failures == ["end: assertion {'turn': '3'} failed: turn is 2, expected 3"]
    assert main(["playtest", str(SCRIPTS / "failing.yaml")]) == 1
    assert "turn is 2, expected 3" in capsys.readouterr().out


def test_cli_passes_with_exit_0(tmp_path: Path) -> None:
    log = tmp_path / "log.json"
    assert main(["playtest", str(SCRIPTS / "mini.yaml"), "--log", str(log)]) == 0
    assert log.read_text().startswith("[{")


def test_step_failure_names_the_step(tmp_path: Path) -> None:
    script = tmp_path / "s.yaml"
    script.write_text(f"seed: 1\nbundle: {FIXTURES / 'bundles' / 'mini'}\nscenario: variant\nactions:\n"
                      "- {do: next_phase}\n- {do: move, unit: a1, to: '0101'}\n")
    result = run_script(script)
    assert len(result.failures) == 1 and result.failures[0].startswith("step 2: move was refused")


@pytest.mark.parametrize("text", [
    "seed: 1\nscenario: base\n",                                  # no bundle
    "seed: 1\nbundle: nowhere\nscenario: base\n",                 # bundle missing
    "bundle: BUNDLE\nscenario: nope\n",                           # unknown scenario
    "bundle: BUNDLE\nscenario: base\nactions:\n- {do: fly}\n",     # unknown action
    "bundle: BUNDLE\nscenario: base\nactions: [\n",               # broken YAML
    "bundle: BUNDLE\nscenario: base\nparams: [free]\nactions: []\n",  # params not a mapping
])
def test_unreadable_scripts_exit_2(tmp_path: Path, text: str) -> None:
    script = tmp_path / "bad.yaml"
    script.write_text(text.replace("BUNDLE", str(FIXTURES / "bundles" / "mini")))
    with pytest.raises(ScriptError):
        run_script(script)
    assert main(["playtest", str(script)]) == 2


def test_script_params_go_over_the_scenario_params(tmp_path: Path) -> None:
    """A script's ``params:`` reach the game before its first phase: the GTS opt-out is logged
    on the first turn already (policy activation-before-first-chit-free)."""
    repo = FIXTURES.parents[1]
    script = tmp_path / "p.yaml"
    script.write_text(f"seed: 1\nbundle: {repo / 'scenarios' / 'utah-beach'}\nscenario: night-drop\n"
                      "params: {activation_before_first_chit: free}\nactions:\n- {do: next_phase, to: activation}\n")
    result = run_script(script)
    assert not result.failures and result.game is not None
    assert result.game.scenario.params["activation_before_first_chit"] == "free"
    assert [e["turn"] for e in result.game.log if e["type"] == "activation_opt_out"] == [1]
