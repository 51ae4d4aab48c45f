"""GTS Rally [20.0]: automatic In Command, Troop Quality Check Out of Command (declared TQ: the
sample prints none), Suppression before Cohesion Hits, Men Rallying markers, the daylight Fire
Zone restriction."""

from __future__ import annotations

from gts_helpers import game, to_phase
from loaded_dice import LoadedDice


def _g(rng: int):
    g = game("night-drop")
    g.counters["ldr-moseley"].front.values["command_range"] = rng  # ILLUSTRATIVE: not printed in the sample
    g.apply({"do": "place", "unit": "a-1-502", "to": "49.020"})
    g.apply({"do": "place", "unit": "ldr-moseley", "to": "49.022"})
    return g


def test_in_command_rally_is_automatic_and_suppression_goes_first() -> None:
    g = _g(2)
    u = g.unit("a-1-502")
    r = g.apply({"do": "rally", "unit": "a-1-502"})
    assert not r.ok and r.rule == "GTS 20.0"                      # nothing to rally from
    u.markers += ["cohesion_hit", "suppressed"]
    r = g.apply({"do": "rally", "unit": "a-1-502"})
    assert r.ok and r.data["removed"] == "suppressed" and u.markers == ["cohesion_hit"]
    r = g.apply({"do": "rally", "unit": "a-1-502", "in_fire_zone": False})
    assert r.ok and r.data["removed"] == "cohesion_hit" and u.markers == []
    assert g.log[-1]["type"] == "rally" and g.log[-1]["in_command"] is True


def test_out_of_command_needs_a_tq_check_with_modifiers_and_men_rallying() -> None:
    g = _g(1)
    u = g.unit("a-1-502")
    u.markers += ["suppressed", "cohesion_hit", "cohesion_hit"]
    r = g.apply({"do": "rally", "unit": "a-1-502"})
    assert not r.ok and "declare 'tq'" in r.message               # TQ unknown in the counter data
    LoadedDice.on(g, [5])
    r = g.apply({"do": "rally", "unit": "a-1-502", "tq": 6})
    # 6 - 1 Out of Command - 1 Suppressed - 1 two Cohesion Hits = 3: a 5 fails
    assert r.ok and r.data["passed"] is False and r.data["need"] == 3 and u.markers.count("men_rallying") == 1
    assert "declared-tq" in r.policy
    LoadedDice.on(g, [4])
    r = g.apply({"do": "rally", "unit": "a-1-502", "tq": 6})     # +1 Men Rallying: needs 4
    assert r.data["passed"] is True and r.data["need"] == 4
    assert "suppressed" not in u.markers and "men_rallying" not in u.markers


def test_nine_always_fails_and_declared_outcome() -> None:
    g = _g(1)
    u = g.unit("a-1-502")
    u.markers.append("suppressed")
    LoadedDice.on(g, [10])                                               # the 10 face reads 0: always passes
    r = g.apply({"do": "rally", "unit": "a-1-502", "tq": 0})
    assert r.data["passed"] is True and r.data["die"] == 0
    u.markers.append("suppressed")
    LoadedDice.on(g, [9])
    r = g.apply({"do": "rally", "unit": "a-1-502", "tq": 20})
    assert r.data["passed"] is False
    r = g.apply({"do": "rally", "unit": "a-1-502", "check": "passed"})
    assert r.data["passed"] is True and "suppressed" not in u.markers


def test_no_cohesion_rally_in_enemy_fire_zone_by_day() -> None:
    g = _g(2)
    u = g.unit("a-1-502")
    u.markers += ["cohesion_hit", "suppressed"]
    night = any(t.n == g.state.turn and t.night for t in g.system.calendar.all_turns)
    assert g.apply({"do": "rally", "unit": "a-1-502", "in_fire_zone": True}).ok   # Suppression still goes
    r = g.apply({"do": "rally", "unit": "a-1-502", "in_fire_zone": True})
    if night:
        assert r.ok                                               # at night regardless of Fire Zones
    else:
        assert not r.ok and "Fire Zone" in r.message
    g2 = game("beach-landing")
    g2.counters["ldr-van-fleet"].front.values["command_range"] = 4
    g2.apply({"do": "place", "unit": "a-1-8", "to": "29.026"})
    g2.apply({"do": "place", "unit": "ldr-van-fleet", "to": "29.026"})
    g2.unit("a-1-8").markers.append("cohesion_hit")
    assert not any(t.n == g2.state.turn and t.night for t in g2.system.calendar.all_turns)
    r = g2.apply({"do": "rally", "unit": "a-1-8", "in_fire_zone": True})
    assert not r.ok and r.rule == "GTS 20.0" and "daylight" in r.message


def test_men_rallying_go_when_the_unit_does_another_action() -> None:
    g = game("night-drop", ma=6)
    g.counters["ldr-moseley"].front.values["command_range"] = 1   # ILLUSTRATIVE
    g.apply({"do": "place", "unit": "a-1-502", "to": "49.020"})
    g.apply({"do": "place", "unit": "ldr-moseley", "to": "49.023"})
    u = g.unit("a-1-502")
    u.markers.append("suppressed")
    r = g.apply({"do": "rally", "unit": "a-1-502", "check": "failed"})
    assert r.ok and u.markers.count("men_rallying") == 1
    g.apply({"do": "fire_zone", "unit": "a-1-502", "range": 1})   # a query, not an Action
    assert u.markers.count("men_rallying") == 1
    to_phase(g, "movement", "allied")
    assert g.apply({"do": "move", "unit": "a-1-502", "to": "49.021"}).ok
    assert "men_rallying" not in u.markers and g.log[-1]["type"] == "men_rallying_cleared"


def test_fire_zone_computed_from_an_adjacent_enemy_by_day() -> None:
    g = game("beach-landing")                                     # c5-ii-919 at 24.026, a daylight turn
    g.counters["ldr-van-fleet"].front.values["command_range"] = 4  # ILLUSTRATIVE
    g.apply({"do": "place", "unit": "a-1-8", "to": "24.025"})     # adjacent: range 1 [GTS 15.5]
    g.apply({"do": "place", "unit": "ldr-van-fleet", "to": "24.025"})
    g.unit("a-1-8").markers.append("cohesion_hit")
    r = g.apply({"do": "rally", "unit": "a-1-8"})
    assert not r.ok and "Fire Zone" in r.message and "fire-zone-from-known-ranges" in r.policy
    g.apply({"do": "place", "unit": "a-1-8", "to": "24.020"})
    g.apply({"do": "place", "unit": "ldr-van-fleet", "to": "24.020"})
    r = g.apply({"do": "rally", "unit": "a-1-8"})
    assert r.ok and r.data["removed"] == "cohesion_hit"
