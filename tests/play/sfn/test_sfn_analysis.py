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
DIEPPE = "dieppe-landing"


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


@pytest.mark.parametrize(("scenario", "seeds"), [(EZOC, (2, 77)), (DIEPPE, (1, 5))])
def test_seed_replays_as_the_playtest_log(bundle, tmp_path: Path, scenario: str, seeds: tuple[int, ...]) -> None:  # type: ignore[no-untyped-def]
    """`--seed K`: the replay script gives the same event log as the trial (Dieppe: no action
    for the set-up roll, the engine makes it again from the same seed), and its sha256 is the
    outcome's."""
    for seed in seeds:
        played = play_steps(bundle, scenario, seed)
        script = replay_script(SFN, scenario, seed, played.steps, tmp_path)
        path = tmp_path / f"{scenario}-{seed}.yaml"
        path.write_text(yaml.safe_dump(script, sort_keys=False), encoding="utf-8")
        result = run_script(path)
        assert result.ok and result.game is not None, result.report()
        assert result.game.log_json() == played.game.log_json()
        assert hashlib.sha256(result.game.log_json().encode("utf-8")).hexdigest() == \
            run_seed(bundle, scenario, seed).log_sha256


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




def test_dieppe_casualties_are_an_at_start_step(bundle) -> None:  # type: ignore[no-untyped-def]
    """3.5 Allied Dieppe Casualties is rolled by the engine at set-up ("Roll one die; an even result
    means the unit lands at full strength; an odd result means it's reduced to one step" [SFN 3.5]):
    the analysis lists it as an ``at_start`` step, applies no action for it and counts the step
    the 1st Canadian lost against its set-up strength. The Calais samples list no such step."""
    played = play_steps(bundle, DIEPPE, 1)
    (step,) = played.steps
    assert step.at_start and step.units == ("cw-1-cdn-inf",) and step.zone == "1510" and step.rule == "SFN 3.5"
    assert all(a.get("do") == "next_phase" for a in played.actions)  # the opening next_phase only
    out = run_seed(bundle, DIEPPE, 1)
    (u,) = out.units
    assert (u.status, u.hex, u.steps_lost, out.steps[0].result) == (IN_ZONE, "1510", 1, "reduced")
    assert "landing_casualties" in u.events
    assert all(s.kind != "landing_casualties" for s in play_steps(bundle, "calais-landing", 1).steps)


def test_dieppe_casualties_reduce_half_the_time(bundle) -> None:  # type: ignore[no-untyped-def]
    """"an odd result means it's reduced to one step" [SFN 3.5] on the decimal die whose 0 reads
    10 [2.2]: odd is 1, 3, 5, 7, 9, P = 5/10. Over 400 seeds the share's standard error is
    sqrt(0.25/400) = 0.025; the tolerance is 4 of them (0.1). Each seed's steps lost is 1 exactly
    when its roll was odd, and the report's steps-lost mean is the share landing reduced."""
    n = 400
    outs = SerialExecutor().map(seed_task, (bundle, DIEPPE, None), list(range(1, n + 1)))
    results = [o.steps[0].result for o in outs]
    assert set(results) == {"reduced", "full strength"}
    reduced = results.count("reduced")
    assert abs(reduced / n - 0.5) < 0.1, reduced
    assert all(o.units[0].steps_lost == (1 if o.steps[0].result == "reduced" else 0) for o in outs)
    rep = summary.summarise(outs)["kinds"]["landing_casualties"]
    assert rep["results"] == {"full strength": n - reduced, "reduced": reduced}
    assert rep["by_zone"]["1510"]["steps_lost"]["mean"] == pytest.approx(reduced / n)
    assert rep["tables"]["landing_casualties"]["results"]["reduced"]["mean"] == pytest.approx(reduced / n)
    # the engine's own event, read directly, agrees with the analysis seed by seed
    odd = [s for s in range(1, 41) if next(e for e in play_steps(bundle, DIEPPE, s).game.log
                                           if e["type"] == "landing_casualties")["roll"] % 2 == 1]
    assert odd == [o.seed for o in outs[:40] if o.steps[0].result == "reduced"]


def test_dieppe_jobs_do_not_change_results(bundle) -> None:  # type: ignore[no-untyped-def]
    seeds = list(range(1, 33))
    assert ProcessExecutor(2).map(seed_task, (bundle, DIEPPE, None), seeds) == \
        SerialExecutor().map(seed_task, (bundle, DIEPPE, None), seeds)
