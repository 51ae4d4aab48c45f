"""Issue 17 audit items in GTS play, each test quoting its case: the impassable portion refusal
[Excl 2.1.14], hill reciprocity [Excl 2.1.10], overstacking penalised [GTS 14.7]. Utah sample;
MAs and terrain costs ILLUSTRATIVE (gts_helpers)."""

from __future__ import annotations

from typing import Any

from gts_helpers import game, to_phase
from play.game import Game


def _events(g: Game, kind: str) -> list[dict[str, Any]]:
    return [e for e in g.log if e["type"] == kind]


# --- Impassable portions [Utah Excl 2.1.14] ------------------------------------------------


def test_a_move_across_a_grey_portion_is_refused_by_the_portion_case() -> None:
    """Excl 2.1.14: "If only part of a hex is Impassable, the Impassable portion is gray, meaning
    that no Unit can enter and/or leave the hex by passing over the Impassable portion." The sample
    map's 28.049 has its grey portion toward 28.050."""
    for costs in (True, False):  # with and without illustrative play costs
        g = game("night-drop", 2, ma=6)
        if not costs:
            g.scenario.params["play_costs"] = None
        to_phase(g, "movement", "allied")
        assert g.apply({"do": "place", "unit": "a-1-8", "to": "28.050"}).ok
        r = g.apply({"do": "move", "unit": "a-1-8", "to": "28.049"})
        assert not r.ok
        assert "grey impassable portion" in r.message and "unknown" not in r.message
        assert r.rule == g.system.cited(g.system.citations.cases.impassable) == "Utah Excl 2.1.14"


# --- Hill reciprocity [Utah Excl 2.1.10] --------------------------------------------------

HILL_CASE = ("Visibility to the Hill is reciprocal. This means that a player whose Unit can be seen from a Hill, "
             "using the LOS exceptions above, can in turn see the Hill itself and place a Barrage on that Hill, "
             "using the Indirect Fire rules. However, the Barrage would be the same as firing on an empty hex, "
             "no damage will be caused to the Unit occupying the Hill.")


def _hill(firer_hex: str) -> Game:
    from test_gts_indirect import _arm, _with_brown

    g = game("beach-landing", 1)
    _with_brown(g)
    assert g.apply({"do": "place", "unit": "a-1-8", "to": firer_hex}).ok
    assert g.apply({"do": "place", "unit": "c5-ii-919", "to": "60.022"}).ok  # Hill 60.022
    _arm(g, "a-1-8", "brown", 5)
    return g


def test_the_sample_line_is_reciprocal_only() -> None:
    """The test's premise: 57.020 sees the Hill in 60.022 only because the Hill sees it."""
    from model.los import line_of_sight
    from play.gts.fire import sight

    g = _hill("57.020")
    res = line_of_sight(g.hmap, g.system, g.hex_of("57.020"), g.hex_of("60.022"))
    assert res.visible and "reciprocal" in res.policies and "Hill" in HILL_CASE
    assert sight(g, g.hex_of("57.020"), g.hex_of("60.022")) == (True, "Excl 2.1.10")
    assert sight(g, g.hex_of("60.022"), g.hex_of("57.020")) == (True, None)  # the Hill's own sight


def test_no_direct_fire_on_a_unit_seen_only_by_hill_reciprocity() -> None:
    """Excl 2.1.10: the reciprocal sight lets the player "place a Barrage on that Hill, using the
    Indirect Fire rules" — Direct Fire is not among them."""
    g = _hill("57.020")
    r = g.apply({"do": "fire", "unit": "a-1-8", "target": "c5-ii-919", "fire_rating": 5, "line": "white",
                 "range": 5})
    assert not r.ok and r.rule == "Excl 2.1.10" and "reciprocal" in r.message
    assert r.policy is not None and r.policy.startswith("reciprocal-sight-barrage-only")


def test_indirect_fire_on_the_hill_places_the_barrage_but_does_no_damage() -> None:
    """Excl 2.1.10: "the Barrage would be the same as firing on an empty hex, no damage will be
    caused to the Unit occupying the Hill." Die 0 always hits [15.5]."""
    from play.gts.fire import sight

    g = _hill("56.020")  # 4 hexes: beyond the Direct Fire distance of brown fire [16.1]
    assert sight(g, g.hex_of("56.020"), g.hex_of("60.022")) == (True, "Excl 2.1.10")
    g.dice.roll = lambda n, sides: [10] * n  # type: ignore[method-assign]  # d10 reads 0: a hit
    before = (list(g.unit("c5-ii-919").markers), g.unit("c5-ii-919").steps)
    r = g.apply({"do": "indirect_fire", "unit": "a-1-8", "target": "c5-ii-919"})
    assert r.ok, r.message
    assert (g.unit("c5-ii-919").markers, g.unit("c5-ii-919").steps) == before
    (e,) = _events(g, "no_damage")
    assert e["rule"] == "Excl 2.1.10" and e["target"] == "c5-ii-919"
    from play.gts import barrage

    assert barrage.at(g, g.hex_of("60.022")) is not None  # the Barrage is placed [16.6.2.1]


# --- Overstacking penalised, not refused [GTS 14.7] ---------------------------------------

CASE_14_7 = ("Overstacking is permitted for Units not in Column, but if you exceed 8 steps in a hex: "
             "You may only move one Unit at a time out of the stack — no moving \"stacks\" out of an overstacked "
             "hex. You may never Assault out of an overstacked hex. Any attempt to leave an overstacked hex by any "
             "method, successful or not, makes the leaving Unit suffer a Cohesion Hit.")

STACK = ["a-1-8", "b-1-8", "c-1-8", "d-1-8", "e-2-8"]


def _stacked(steps: int | None) -> Game:
    g = game("night-drop", 2, ma=6)
    to_phase(g, "movement", "allied")
    for uid in STACK:
        assert g.apply({"do": "place", "unit": uid, "to": "40.026"}).ok
        if steps is not None:
            g.counters[uid].steps = steps  # ILLUSTRATIVE: the sample prints no steps
            g.unit(uid).steps = g.unit(uid).max_steps = steps
    return g


def test_the_system_data_says_overstacking_is_penalised() -> None:
    g = game()
    assert g.system.stacking.limits["overstack"] == "penalised" and g.system.cite(g.system.stacking.rule) == "GTS 14.7"
    assert "Overstacking is permitted" in CASE_14_7


def test_a_move_ending_overstacked_is_accepted_and_logged_with_its_penalty() -> None:
    """14.7: "Overstacking is permitted for Units not in Column" — 10 steps is a penalty, not a refusal."""
    g = _stacked(2)
    g.unit("e-2-8").hex = g.hex_of("40.027")
    r = g.apply({"do": "move", "unit": "e-2-8", "to": "40.026"})
    assert r.ok, r.message
    (e,) = _events(g, "overstack_penalty")
    assert e["message"] == "10 steps (limit 8)" and e["rule"] == "GTS 14.7"
    assert "one Unit at a time" in e["penalty"] and "running away" in e["penalty"] and "not_applied" not in e


def test_leaving_an_overstacked_hex_one_unit_at_a_time_with_a_cohesion_hit() -> None:
    """14.7: "You may only move one Unit at a time out of the stack" and "Any attempt to leave an
    overstacked hex ... makes the leaving Unit suffer a Cohesion Hit"."""
    g = _stacked(2)
    r = g.apply({"do": "move", "units": ["a-1-8", "b-1-8"], "to": "40.027"})
    assert not r.ok and "one Unit at a time" in r.message and r.rule == "GTS 14.7"
    r = g.apply({"do": "move", "unit": "a-1-8", "to": "40.027"})
    assert r.ok
    assert g.unit("a-1-8").markers.count("cohesion_hit") == 1
    (e,) = _events(g, "overstack_exit")
    assert e["unit"] == "a-1-8" and e["policy"].startswith("overstack-exit-hit-on-accepted-move")
    r = g.apply({"do": "move", "unit": "b-1-8", "to": "40.027"})  # now 6 steps: no hit
    assert r.ok and "cohesion_hit" not in g.unit("b-1-8").markers


def test_unknown_steps_are_not_counted_as_one() -> None:
    """The sample's counters give ``steps: unknown``: the count is unknown, never 1 per unit."""
    from play import rules

    g = _stacked(None)
    for uid in ("f-2-8", "g-2-8", "h-2-8", "a-1-502"):
        g.apply({"do": "place", "unit": uid, "to": "40.026"})  # nine units of unknown steps
    here = g.state.at(g.hex_of("40.026"))
    assert all(rules.known_steps(u, g.counters) is None for u in here)
    p = rules.overstack_penalty(g.hmap, g.system, g.hex_of("40.026"), here, g.counters)
    assert p is not None and p.code == "overstack_unknown" and "step count unknown: 0 known steps" in p.message
    assert p.policy is not None and p.policy.startswith("stack-steps-unknown")
    g.unit("a-1-502").hex = g.hex_of("40.027")  # eight units: no warning (8 steps if each had one)
    here = g.state.at(g.hex_of("40.026"))
    assert rules.overstack_penalty(g.hmap, g.system, g.hex_of("40.026"), here, g.counters) is None
    # and never a refusal, whatever the count
    assert rules.stacking_problem(g.hmap, g.system, g.hex_of("40.026"), here, g.counters) is None
