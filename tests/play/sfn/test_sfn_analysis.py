"""`hexproof analyze` on SFN (play/sfn/analysis.py): airdrops rolled on their planned turn
[SFN 15.6], Great Storms read by turn [15.2]; the seeded figures against the rules' own odds."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
import yaml

from conftest import REPO
from model.bundle import load_bundle
from play.analysis import summary
from play.analysis.executor import ProcessExecutor, SerialExecutor
from play.analysis.trial import IN_ZONE, play_steps, replay_script, run_seed, seed_task
from play.script import run_script

SFN = REPO / "scenarios" / "second-front-now"
EZOC = "calais-airdrop-ezoc"


@pytest.fixture(scope="module")
def bundle():  # type: ignore[no-untyped-def]
    b = load_bundle(SFN).bundle
    assert b is not None
    return b


def test_the_plan_drops_on_its_planned_turn(bundle) -> None:  # type: ignore[no-untyped-def]
    """"When the drop day arrives, the Allied player may spend one CP per division to activate
    the unit(s) and place it (them) on the drop hex(es)" [SFN 15.6]: the plan for GT 3 gives one
    `airdrop` in GT 3's Allied Command & Action phase, reached by `next_phase` from GT 1."""
    played = play_steps(bundle, EZOC, 4)
    assert [(s.action, s.turn, s.phase) for s in played.steps] == [
        ({"do": "airdrop", "unit": "uk-6-ab"}, 3, "allied_command")]
    assert played.results[0].ok, played.results[0].message
    assert played.game.state.turn == 3 and played.game.phase.id == "allied_command"
    assert all(a == {"do": "next_phase"} or a.get("do") == "airdrop" or "to" in a for a in played.actions)
    out = run_seed(bundle, EZOC, 4)
    assert [u.turn for u in out.units] == ["03 GT 3 (04 Sep 1943)"] and out.units[0].zone == "1413"


def test_ezoc_roll_hits_half_the_time(bundle) -> None:  # type: ignore[no-untyped-def]
    """"If an airborne unit drops in a German ZOC, the German player rolls one die; on a 1-5 the
    airborne unit is hit (reduce the unit if it's at full strength [...])" [SFN 15.6], on a
    decimal die (0 reads 10 [2.2]): P(hit) = 5/10. Over 400 seeds the share's standard error is
    sqrt(0.25/400) = 0.025; the tolerance is 4 of them (0.1). Every hit is one step lost and the
    unit stays on its hex (a full-strength unit is reduced)."""
    n = 400
    outs = SerialExecutor().map(seed_task, (bundle, EZOC, None), list(range(1, n + 1)))
    results = [o.steps[0].result for o in outs]
    assert set(results) == {"hit", "no hit"}
    hits = results.count("hit")
    assert abs(hits / n - 0.5) < 0.1, hits
    for o in outs:
        (u,) = o.units
        assert u.status == IN_ZONE and u.steps_lost == (1 if o.steps[0].result == "hit" else 0)
    rep = summary.summarise(outs)
    assert rep["kinds"]["airdrop"]["results"] == {"hit": hits, "no hit": n - hits}
    assert rep["kinds"]["airdrop"]["by_zone"]["1413"]["steps_lost"]["mean"] == pytest.approx(hits / n)


def test_no_ezoc_no_roll(bundle) -> None:  # type: ignore[no-untyped-def]
    """"If the unit lands outside German ZOCs, it lands without casualties" [SFN 15.6]: the
    optional-rules sample's plan (1913) rolls nothing."""
    outs = [run_seed(bundle, "calais-optional-rules", s) for s in range(1, 6)]
    assert {o.steps[0].result for o in outs} == {"no EZOC"}
    assert all(u.steps_lost == 0 for o in outs for u in o.units)


def test_seed_replays_as_the_playtest_log(bundle, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    for seed in (2, 77):
        played = play_steps(bundle, EZOC, seed)
        script = replay_script(SFN, EZOC, seed, played.steps, tmp_path)
        path = tmp_path / f"sfn-{seed}.yaml"
        path.write_text(yaml.safe_dump(script, sort_keys=False), encoding="utf-8")
        result = run_script(path)
        assert result.ok and result.game is not None, result.report()
        assert result.game.log_json() == played.game.log_json()
        assert hashlib.sha256(result.game.log_json().encode("utf-8")).hexdigest() == run_seed(bundle, EZOC, seed).log_sha256


def test_jobs_do_not_change_results(bundle) -> None:  # type: ignore[no-untyped-def]
    seeds = list(range(1, 33))
    assert ProcessExecutor(2).map(seed_task, (bundle, EZOC, None), seeds) == \
        SerialExecutor().map(seed_task, (bundle, EZOC, None), seeds)


def test_great_storm_check_by_turn(bundle) -> None:  # type: ignore[no-untyped-def]
    """"During his administrative phase of Game Turn 10 (11 September), and every fifth game
    turn thereafter, the German checks for the approach of a great storm. [...] A result of 10
    means a storm is approaching" [SFN 15.2]: read at the end of GT 10, a storm approaches with
    P = 1/10 and none rages before GT 11. Over 300 seeds the standard error is
    sqrt(0.09/300) = 0.017; the tolerance is 4 of them (0.07). Before GT 10 nothing is rolled."""
    n = 300
    outs = SerialExecutor().map(seed_task, (bundle, EZOC, 10), list(range(1, n + 1)))
    lv = summary.summarise(outs)["levels"]
    gt10 = next(t for t in lv["great storm approaching"] if t.startswith("10 "))
    assert abs(lv["great storm approaching"][gt10]["mean"] - 0.1) < 0.07
    assert lv["great storm raging"][gt10]["mean"] == 0
    assert all(d["mean"] == 0 for t, d in lv["great storm approaching"].items() if int(t[:2]) < 10)
    # the seeds that approach are those whose GT 10 check rolled a 10 (the engine's own event)
    approach = [o.seed for o in outs if (gt10, "great storm approaching", 1.0) in o.levels]
    rolled_10 = [s for s in range(1, 41) if any(e["type"] == "storm_approach_check" and e["roll"] == 10
                                                  for e in play_steps(bundle, EZOC, s, 10).game.log)]
    assert [s for s in approach if s <= 40] == rolled_10
