"""The SFN playtest script (combat + airdrop) runs green headless and deterministically."""

from __future__ import annotations

from conftest import FIXTURES

from play.script import run_script

SCRIPT = FIXTURES / "playtests" / "sfn_combat_airdrop.yaml"


def test_sfn_playtest_passes_and_repeats_byte_for_byte() -> None:
    a, b = run_script(SCRIPT), run_script(SCRIPT)
    assert a.ok, a.failures
    assert a.game is not None and b.game is not None
    assert a.game.log_json() == b.game.log_json()
    types = {e["type"] for e in a.game.log}
    assert {"sfn_battle", "sfn_shot", "sfn_battle_end", "plot_drop", "airdrop"} <= types
