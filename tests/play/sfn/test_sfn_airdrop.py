"""SFN Allied airdrops [15.6]."""

from __future__ import annotations

from test_sfn_helpers import sfn_game, to_phase
from play.sfn.state import sfn_state
from loaded_dice import LoadedDice

VARIANT = "calais-riga-odessa"  # airdrops on, two drops plotted for turn 3


def test_scenario_plans_load_and_plot_refusals_cite_15_6() -> None:
    g = sfn_game(VARIANT)
    assert [(p.unit, p.turn) for p in sfn_state(g).airdrops.plots] == [("uk-6-ab", 3), ("us-82-ab", 3)]
    to_phase(g, "allied", "movement")
    for act, why in [({"unit": "uk-1-ab", "hex": "1913", "turn": 2}, "2 game turns ahead"),
                     ({"unit": "cw-51-inf", "hex": "1913", "turn": 4}, "not one of the divisions"),
                     ({"unit": "uk-1-ab", "hex": "2210", "turn": 4}, "City"),
                     ({"unit": "uk-6-ab", "hex": "1914", "turn": 3}, "never changed")]:
        r = g.apply({"do": "plot_drop", **act})
        assert not r.ok and r.rule == "SFN 15.6" and why in r.message, r
    assert g.apply({"do": "plot_drop", "unit": "uk-1-ab", "hex": "1914", "turn": 3}).ok
    r = g.apply({"do": "plot_drop", "unit": "us-101-ab", "hex": "1915", "turn": 3})
    assert not r.ok and "no more than 3" in r.message


def test_airdrops_are_optional() -> None:
    g = sfn_game("calais-landing")
    to_phase(g, "allied", "movement")
    r = g.apply({"do": "plot_drop", "unit": "uk-1-ab", "hex": "1913", "turn": 4})
    assert not r.ok and r.rule == "SFN 15.0"


def drop_day():  # type: ignore[no-untyped-def]
    g = sfn_game(VARIANT)
    g.apply({"do": "set_cp_bonus", "side": "allied", "bonus": 3})
    while g.state.turn < 3:
        g.apply({"do": "next_phase"})
    to_phase(g, "allied", "movement")
    return g


def test_drop_on_plan_day_costs_one_cp_and_blocks_move_and_attack() -> None:
    g = drop_day()
    assert not g.apply({"do": "airdrop", "unit": "uk-6-ab", "hex": "1914"}).ok  # not the written plan
    r = g.apply({"do": "airdrop", "unit": "uk-6-ab"})
    assert r.ok, r
    assert g.label(g.unit("uk-6-ab").hex) == "1913"
    assert sfn_state(g).command_points.points["allied"] == 4
    r = g.apply({"do": "move", "unit": "uk-6-ab", "to": "1912"})
    assert not r.ok and r.rule == "SFN 15.6"
    assert not g.apply({"do": "airdrop", "unit": "uk-1-ab"}).ok  # no plan for today


def test_no_drop_onto_german_units_and_ezoc_roll() -> None:
    g = drop_day()
    g.apply({"do": "place", "unit": "de-276-inf", "to": "1913"})
    r = g.apply({"do": "airdrop", "unit": "uk-6-ab"})
    assert not r.ok and r.rule == "SFN 15.6" and g.unit("uk-6-ab").box == "england"
    g.apply({"do": "place", "unit": "de-276-inf", "to": "2114"})  # next to 2113
    LoadedDice.on(g, [5])
    r = g.apply({"do": "airdrop", "unit": "us-82-ab"})
    assert r.ok and r.data["hit"] and g.unit("us-82-ab").reduced  # 1-5 hits [15.6]
