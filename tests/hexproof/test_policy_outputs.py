"""The named policy a finding or event applied is in every text output, not only in JSON:
``hexproof smoke`` text, ``hexproof playtest`` failure lines and its ``--events`` log (the
proof PDF's validation report: tests/export/test_proof_pdf.py; ``validate``:
tests/validators)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conftest import FIXTURES
from editor.play.describe import policy_names
from hexproof.cli import main
from play.rules import MOVE_PHASE_POLICY
from play.setup_choice import ADJACENT_POLICY

DUEL = FIXTURES / "playtests" / "duel"
PLAYTESTS = FIXTURES / "playtests"


def test_smoke_text_names_each_findings_policy(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A set-up ``adjacent_to`` the engine cannot place is a finding carrying the policy the
    engine applied (setup-adjacent-centre-first), in the text as in the JSON."""
    root = tmp_path / "duel"
    shutil.copytree(DUEL, root)
    scen = root / "scenarios" / "meeting.yaml"
    scen.write_text(scen.read_text(encoding="utf-8").replace(
        "- {unit: bt, hex: '0201'}", "- {unit: bt, hex: '0201'}\n- {unit: b3, adjacent_to: '0101'}\n"
        "- {unit: b4, adjacent_to: '0101'}"), encoding="utf-8")
    assert main(["smoke", str(root), "--scenario", "meeting"]) == 1
    out = capsys.readouterr().out
    (line,) = [x for x in out.splitlines() if "PLAY-SMOKE-003" in x]
    assert "meeting.yaml:" in line and "b4" in line and f"(policy {ADJACENT_POLICY})" in line
    assert main(["smoke", str(root), "--scenario", "meeting", "--format", "json"]) == 1
    (d,) = [d for d in json.loads(capsys.readouterr().out)["diagnostics"] if d["code"] == "PLAY-SMOKE-003"]
    assert d["policy"] == ADJACENT_POLICY


def test_smoke_text_names_the_data_check_policy_of_an_uncited_finding(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["smoke", str(DUEL), "--scenario", "broken"]) == 1
    lines = [x for x in capsys.readouterr().out.splitlines() if "PLAY-SMOKE-003" in x]
    assert lines and all("(policy smoke-engine-policy:" in x for x in lines)


def test_playtest_events_print_every_policy_an_event_applied(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    script = PLAYTESTS / "gts-assault.yaml"
    log = tmp_path / "log.json"
    assert main(["playtest", str(script), "--events", "--log", str(log)]) == 0
    lines = [x for x in capsys.readouterr().out.splitlines() if " · " in x]
    events = json.loads(log.read_text(encoding="utf-8"))  # the event log, as a list
    assert len(lines) == len(events)
    with_policy = [(e, x) for e, x in zip(events, lines) if e.get("policy")]
    assert with_policy  # the script's Assault applies declared-value policies
    for e, x in with_policy:
        assert all(name in x for name in policy_names(e["policy"])) and "(policy " in x, x


def test_a_failed_playtest_step_names_the_policy(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "bad.yaml"
    script.write_text(f"seed: 1\nbundle: {DUEL}\nscenario: meeting\nactions:\n"
                      "- {do: move, unit: b1, to: '0203'}\n", encoding="utf-8")  # not its Movement phase
    assert main(["playtest", str(script)]) == 1
    out = capsys.readouterr().out
    assert "step 1: move was refused" in out and f"(policy {MOVE_PHASE_POLICY})" in out
