"""SFN 15.2 Great Storms in test play (seeded and rigged dice)."""

from __future__ import annotations

from test_sfn_optional_helpers import events, game, to_phase, to_turn

from play.sfn.optional.base import storm_raging
from loaded_dice import LoadedDice


def test_no_check_before_turn_10_and_a_10_means_approaching() -> None:
    g = game()
    to_turn(g, 9)
    assert not events(g, "storm_approach_check")
    g2 = game()
    to_turn(g2, 9)
    LoadedDice.on(g2, then_seeded=True, faces=[10, 1])  # turn 10: approaching; turn 11: arrives on 1-2
    to_turn(g2, 10)
    check = events(g2, "storm_approach_check")
    assert check[-1]["roll"] == 10 and check[-1]["approaching"] and check[-1]["rule"] == "SFN 15.2"
    assert not storm_raging(g2)
    to_turn(g2, 11)
    assert events(g2, "storm_arrival_check")[-1]["arrives"]
    assert storm_raging(g2)


def test_arrival_windows_widen_then_the_storm_changes_course() -> None:
    g = game()
    to_turn(g, 9)
    LoadedDice.on(g, then_seeded=True, faces=[10, 3, 5, 7, 9])  # 3 > 2, 5 > 4, 7 > 6, 9 > 8
    to_turn(g, 14)
    checks = events(g, "storm_arrival_check")
    assert [(c["roll"], c["needed"], c["arrives"]) for c in checks] == \
        [(3, "1-2", False), (5, "1-4", False), (7, "1-6", False), (9, "1-8", False)]
    assert events(g, "storm_changes_course") and not storm_raging(g)


def test_departure_checks_and_the_fifth_day_limit() -> None:
    g = game()
    to_turn(g, 9)
    LoadedDice.on(g, then_seeded=True, faces=[10, 2, 3, 5, 7, 9])  # arrives turn 11; departure rolls fail four times
    to_turn(g, 16)
    dep = events(g, "storm_departure_check")
    assert [(d["roll"], d["needed"], d["departs"]) for d in dep] == \
        [(3, "1-2", False), (5, "1-4", False), (7, "1-6", False), (9, "1-8", False)]
    assert events(g, "storm_departs")[-1]["automatic"] is True  # end of its fifth day (turn 15)
    assert not storm_raging(g)
    # Turn 15 was a check day while the storm raged: skipped [15.2].
    assert events(g, "storm_check_skipped")[0]["turn"] == 15


def test_storm_refusals_cite_15_2() -> None:
    g = game()
    to_turn(g, 9)
    LoadedDice.on(g, then_seeded=True, faces=[10, 1])
    to_turn(g, 11)
    assert storm_raging(g)
    to_phase(g, "allied", "movement")
    r = g.apply({"do": "move", "unit": "cw-51-inf", "to": "2008"})
    assert not r.ok and r.rule == "SFN 15.2" and "england" in r.message
    r = g.apply({"do": "airdrop", "unit": "uk-6-ab"})
    assert not r.ok and r.rule == "SFN 15.2"
    # A unit already in France still moves.
    assert g.apply({"do": "move", "unit": "us-36-inf", "to": "2109"}).ok


def test_storms_are_optional() -> None:
    from test_sfn_helpers import sfn_game

    g = sfn_game("calais-landing-playtest")
    LoadedDice.on(g, then_seeded=True, faces=[10] * 20)
    to_turn(g, 12)
    assert not events(g, "storm_approach_check") and not storm_raging(g)


def test_same_seed_same_storms() -> None:
    a, b = game(7), game(7)
    for g in (a, b):
        to_turn(g, 30)
    assert a.log_json() == b.log_json()
