"""GTS activation details: Command/Dispatch points [10.0.3] (ratings unknown in the sample),
buying Formation chits [7.2], the Direct Command chit [10.0.5]."""

from __future__ import annotations

from gts_helpers import game
from play.gts.state import gts_state

DIV = "4th Infantry Division"


def test_rolling_points_says_the_ratings_are_unknown() -> None:
    g = game()
    r = g.apply({"do": "roll_points", "division": DIV})
    assert not r.ok and "unknown" in r.message and r.rule == "GTS 10.0.3"


def test_buying_formation_chits_costs_dispatch_points() -> None:
    g = game()
    r = g.apply({"do": "buy_chit", "division": DIV, "chit": "chit-8ir"})
    assert not r.ok and "ratings unknown" in r.message and r.rule == "GTS 7.2"
    assert g.apply({"do": "set_points", "division": DIV, "command": 2, "dispatch": 3}).ok
    r = g.apply({"do": "buy_chit", "division": DIV, "chit": "chit-8ir", "when": "this"})
    assert r.ok and "chit-8ir" in gts_state(g).chits.mug
    r = g.apply({"do": "buy_chit", "division": DIV, "chit": "chit-70tk", "when": "next"})
    assert r.ok and "chit-70tk" not in gts_state(g).chits.mug
    r = g.apply({"do": "buy_chit", "division": DIV, "chit": "chit-12ir", "when": "this"})
    assert not r.ok and "0 Dispatch Points" in r.message          # 3 - 2 - 1 = 0
    g.apply({"do": "end_turn"})
    assert "chit-70tk" in gts_state(g).chits.mug
    assert any(e["type"] == "mug_add" for e in g.log)


def test_direct_command_needs_its_chit_and_command_points() -> None:
    g = game()
    r = g.apply({"do": "direct_command", "units": ["c5-ii-919"]})
    assert not r.ok and r.rule == "GTS 10.0.5"
    gts_state(g).chits.drawn.append("chit-direct-de")   # as if drawn
    g.apply({"do": "set_points", "division": "709.Infanterie-Division", "command": 1})
    div = g.counters["c5-ii-919"].division
    g.apply({"do": "set_points", "division": div, "command": 1})
    assert g.apply({"do": "direct_command", "units": ["c5-ii-919"]}).ok
    r = g.apply({"do": "direct_command", "units": ["c5-ii-919"]})
    assert not r.ok and "one activation per unit" in r.message
    r = g.apply({"do": "direct_command", "units": ["c6-ii-919"]})
    assert not r.ok and "Command Points" in r.message
