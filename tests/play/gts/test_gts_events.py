"""The Event! chit and the Random Events table [Excl 6.0] on the beach-landing sample."""

from __future__ import annotations

from typing import Any

from gts_helpers import game
from model.calendar import resolve_turn
from play.game import Game
from play.gts import activation, events
from play.gts.state import gts_state
from loaded_dice import LoadedDice


def _draw_event(dice: list[int], turn: str | None = None) -> Game:
    """A game in which the next chit out of the mug is the Event! chit, with these d10 faces."""
    g = game()
    if turn is not None:
        g.state.turn = resolve_turn(turn, g.system.calendar.all_turns)
    gts_state(g).chits.mug = ["chit-event", "chit-divact-4"]
    g.dice.choice_index = lambda n: 0  # type: ignore[method-assign]
    LoadedDice.on(g, dice, zero_is_max=True)
    r = g.apply({"do": "draw_chit"})
    assert r.ok and r.data["chit"] == "chit-event"
    return g


def _event(g: Game) -> dict[str, Any]:
    return next(e for e in g.log if e["type"] == "random_event")


def test_the_table_is_the_system_data() -> None:
    g = game()
    tbl = events.table(g, "random_events")
    assert tbl.rule == "Excl 6.0"
    assert events.row_for(tbl, 1).roll == "0-1"                              # type: ignore[union-attr]
    assert "Naval Support" in str(events.row_for(tbl, 4).result)             # type: ignore[union-attr]
    assert events.row_for(tbl, 9).result == "unknown"                        # type: ignore[union-attr]


def test_event_chit_is_in_the_mug() -> None:
    g = game()
    assert "chit-event" in gts_state(g).chits.mug


def test_allied_nco_adds_four_command_points_to_a_chosen_division() -> None:
    g = _draw_event([2])
    ev = _event(g)
    assert ev["kind"] == "allied_cp" and ev["rule"] == "Excl 6.0" and "division" in ev["needs"]
    r = g.apply({"do": "resolve_event", "division": "709.ID"})
    assert not r.ok and "Allied Division" in r.message
    r = g.apply({"do": "resolve_event", "division": "4th Infantry Division"})
    assert r.ok and activation._st(g).points["4th Infantry Division"].command == 4
    assert not g.apply({"do": "resolve_event", "division": "4th Infantry Division"}).ok   # nothing pending


def test_cp_limits_of_10_0_4() -> None:
    g = _draw_event([3])
    g.apply({"do": "set_points", "division": "709.ID", "command": 17, "dispatch": 0})
    r = g.apply({"do": "resolve_event", "division": "709.ID"})
    assert r.ok and activation._st(g).points["709.ID"].command == 19


def test_battalion_commander_costs_four_cp_floored_at_zero() -> None:
    g = _draw_event([0, 3])
    ev = _event(g)
    assert ev["kind"] == "battalion_commander" and ev["die2"] == 3
    g.apply({"do": "set_points", "division": "4th Infantry Division", "command": 2, "dispatch": 1})
    assert g.apply({"do": "resolve_event", "division": "4th Infantry Division"}).ok
    assert activation._st(g).points["4th Infantry Division"].command == 0


def test_zero_is_no_event_from_0700_9_june() -> None:
    g = _draw_event([0], turn="0700 9 June")
    ev = _event(g)
    assert ev["result"] == "No Event" and ev["die"] == 0
    assert events.state(g).pending is None


def test_formation_leader_flips_and_the_chit_is_blocked() -> None:
    g = _draw_event([1, 9])
    assert _event(g)["kind"] == "formation_leader"
    gts_state(g).chits.mug.append("chit-8ir")
    r = g.apply({"do": "resolve_event", "formation": "8th IR"})
    assert r.ok
    assert g.unit("ldr-van-fleet").reduced is True
    assert "chit-8ir" not in gts_state(g).chits.mug
    until = events.blocked_chit(g, "chit-8ir")
    assert until == g.state.turn + 3
    # Formation chits are bought in Step D [GTS 4.0 D]: next turn's, within the three turns
    del g.dice.roll  # the game's seeded dice again for the rest of the turn
    assert g.apply({"do": "end_turn"}).ok and g.apply({"do": "next_phase", "to": "dispatch"}).ok
    g.apply({"do": "set_points", "division": "4th Infantry Division", "command": 0, "dispatch": 5})
    r = g.apply({"do": "buy_chit", "division": "4th Infantry Division", "chit": "chit-8ir", "when": "next"})
    assert not r.ok and r.rule == "Excl 6.0"


def test_naval_support_two_ships_fire_in_contact_through_an_airborne_unit() -> None:
    g = _draw_event([4, 2, 2])
    r = g.apply({"do": "resolve_event", "ships": ["dd-uts-1", "ca-star-1"], "targets": ["c7-ii-919", "c7-ii-919"]})
    assert not r.ok and "Airborne" in r.message                   # no airborne unit sees it yet
    assert not any(e["type"] == "ship_fire" for e in g.log)
    g.apply({"do": "place", "unit": "a-1-502", "to": "29.027"})
    r = g.apply({"do": "resolve_event", "ships": ["dd-uts-1", "ca-star-1"], "targets": ["c7-ii-919", "c7-ii-919"]})
    assert r.ok, r
    shots = [e for e in g.log if e["type"] == "ship_fire"]
    assert len(shots) == 2 and all(s["rule"] == "Excl 6.0" for s in shots)
    assert not any(e["type"] == "ship_contact" for e in g.log)    # automatically in contact


def test_minefield_hex_restriction() -> None:
    g = _draw_event([5])
    g.apply({"do": "place", "unit": "a-1-8", "to": "40.040"})
    r = g.apply({"do": "resolve_event", "hex": "41.040"})
    assert not r.ok and "adjacent to the American unit a-1-8" in r.message and r.rule == "Excl 6.0"
    r = g.apply({"do": "resolve_event", "hex": "50.040"})
    assert r.ok and events.state(g).minefields == ["50.040"]
    assert next(e for e in g.log if e["type"] == "minefield")["marker"] == "minen"


def test_lost_troops_are_logged_with_a_policy() -> None:
    g = _draw_event([6])
    ev = _event(g)
    assert ev["kind"] == "lost" and "lost-event-logged" in ev["policy"]
    assert events.state(g).pending is None


def test_a_row_not_in_the_file_is_no_event() -> None:
    g = _draw_event([8])
    ev = _event(g)
    assert ev["result"] == "no event: table row not in the rules file" and "event-row-not-in-file" in ev["policy"]


def test_event_chit_left_last_is_no_event_and_goes_back_in_the_mug() -> None:
    g = game()
    gts_state(g).chits.mug = ["chit-event"]
    g.apply({"do": "end_turn"})
    assert any(e["type"] == "no_event" and e["rule"] == "Excl 6.0" for e in g.log)
    chits = gts_state(g).chits
    assert "chit-event" in chits.mug and "chit-event" not in chits.drawn


def test_naval_support_needs_the_airborne_line_of_sight_even_for_a_battery() -> None:
    g = _draw_event([4, 2, 2])
    r = g.apply({"do": "resolve_event", "ships": ["dd-uts-1", "ca-star-1"], "targets": ["st-martin-bty", "st-martin-bty"]})
    assert not r.ok and "Airborne" in r.message
