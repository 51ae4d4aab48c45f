"""SFN 15.5 airborne withdrawal, 15.7 Operation Blue Point and 15.8 aerial supply in test play."""

from __future__ import annotations

from test_sfn_optional_helpers import events, game, place, to_phase, to_turn

from play.game import Game
from play.sfn.optional.great_storms import GreatStorms
from play.sfn.state import sfn_state
from loaded_dice import LoadedDice


def _no_storm(g: Game) -> None:
    next(p for p in g.procedures if isinstance(p, GreatStorms)).set_storm(g, False)


# --- 15.5 ---------------------------------------------------------------------------------


def _turn_25() -> Game:
    g = game()
    place(g, {"uk-1-ab": "2106", "us-82-ab": "2104"})
    to_turn(g, 25)
    _no_storm(g)
    to_phase(g, "allied", "reinforcement")
    return g


def test_withdrawal_needs_turn_25_and_the_admin_phase() -> None:
    g = game()
    place(g, {"uk-1-ab": "2106"})
    to_phase(g, "allied", "reinforcement")
    r = g.apply({"do": "airborne_withdraw", "unit": "uk-1-ab"})
    assert not r.ok and r.rule == "SFN 15.5" and "Game Turn 25" in r.message
    g = _turn_25()
    to_phase(g, "allied", "movement")
    r = g.apply({"do": "airborne_withdraw", "unit": "uk-1-ab"})
    assert not r.ok and r.rule == "SFN 15.5" and r.policy and r.policy.startswith("sfn-admin-phase")


def test_withdrawal_to_england_then_30_days_rest() -> None:
    g = _turn_25()
    r = g.apply({"do": "airborne_withdraw", "unit": "uk-1-ab"})
    assert r.ok and r.rule == "SFN 15.5", r
    u = g.unit("uk-1-ab")
    assert (u.where, u.box) == ("box", "england")
    assert events(g, "airborne_withdraw")[-1]["rests_until"] == 55
    r = g.apply({"do": "plot_drop", "unit": "uk-1-ab", "hex": "1913", "turn": 40})
    assert not r.ok and r.rule == "SFN 15.5" and "from turn 55" in r.message
    r = g.apply({"do": "plot_drop", "unit": "uk-1-ab", "hex": "1913", "turn": 55})
    assert r.ok, r  # after the rest the 15.6 plan is accepted


def test_withdrawal_refusals() -> None:
    g = _turn_25()
    for uid, rule, why in [("cw-51-inf", "SFN 15.5", "not one of the airborne"),
                           ("us-101-ab", "SFN 15.5", "not on the map"),
                           ("us-82-ab", "SFN 15.5", "no traced overland supply")]:
        r = g.apply({"do": "airborne_withdraw", "unit": uid})
        assert not r.ok and r.rule == rule and why in r.message, (uid, r)
    sfn_state(g).airdrops.dropped["uk-1-ab"] = 10  # dropped on turn 10
    r = g.apply({"do": "airborne_withdraw", "unit": "uk-1-ab"})
    assert not r.ok and r.rule == "SFN 15.6" and "25 days" in r.message
    sfn_state(g).airdrops.dropped["uk-1-ab"] = 0
    next(p for p in g.procedures if isinstance(p, GreatStorms)).set_storm(g, True)
    r = g.apply({"do": "airborne_withdraw", "unit": "uk-1-ab"})
    assert not r.ok and r.rule == "SFN 15.2"


# --- 15.7 ---------------------------------------------------------------------------------


def test_blue_point_roll_9_chaos_day_and_cp_minus_one_on_2_to_4() -> None:
    g = game()
    LoadedDice.on(g, then_seeded=True, faces=[9])
    r = g.apply({"do": "blue_point", "launch": True})
    assert r.ok and r.rule == "SFN 15.7" and r.data["result"] == 4, r
    assert r.policy and r.policy.startswith("blue-point-example-count")
    for uid in ("de-1-para", "de-2-para"):
        assert (g.unit(uid).where, g.unit(uid).box) == ("eliminated", "oos-dead-german")
    r = g.apply({"do": "replace", "unit": "de-1-para"})
    assert not r.ok and "may never be recreated" in r.message, r  # permanently in the OOS dead pile
    place(g, {"de-276-inf": "2107"}, reduce=("de-276-inf",))
    to_phase(g, "allied", "movement")
    for act in ({"do": "move", "unit": "us-36-inf", "to": "2109"},
                {"do": "move", "unit": "cw-51-inf", "to": "2008"},
                {"do": "strategic_move", "unit": "us-36-inf", "to": "2110"},
                {"do": "attack", "attackers": ["cw-1-cdn-inf"], "target": "2107"}):
        res = g.apply(act)
        assert not res.ok and res.rule == "SFN 15.7" and "chaos day" in res.message, (act, res)
    allied_cp = {}
    for turn in (2, 3, 4, 5):
        to_turn(g, turn)
        to_phase(g, "allied", "reinforcement")
        allied_cp[turn] = sfn_state(g).command_points.points["allied"]
    assert allied_cp == {2: 1, 3: 1, 4: 1, 5: 2}
    to_phase(g, "allied", "movement")
    assert g.apply({"do": "move", "unit": "us-36-inf", "to": "2109"}).ok


def test_blue_point_fiasco_and_refusals() -> None:
    g = game()
    to_phase(g, "german", "movement")
    r = g.apply({"do": "blue_point", "launch": True})
    assert not r.ok and r.rule == "SFN 15.7" and r.policy and r.policy.startswith("sfn-admin-phase")
    g = game()
    LoadedDice.on(g, then_seeded=True, faces=[1])
    r = g.apply({"do": "blue_point", "launch": True})
    assert r.ok and r.data["result"] == 0 and "fiasco" in r.message
    r = g.apply({"do": "blue_point", "launch": True})
    assert not r.ok and "once-and-done" in r.message
    to_phase(g, "allied", "movement")
    assert g.apply({"do": "move", "unit": "us-36-inf", "to": "2109"}).ok  # no chaos day
    g = game()
    to_turn(g, 2)
    r = g.apply({"do": "blue_point", "launch": True})
    assert not r.ok and r.rule == "SFN 15.7" and "Game Turn 1" in r.message


def test_blue_point_is_optional() -> None:
    from test_sfn_helpers import sfn_game

    r = sfn_game("calais-landing-playtest").apply({"do": "blue_point", "launch": True})
    assert not r.ok and r.rule == "SFN 15.0"


# --- 15.8 ---------------------------------------------------------------------------------


def _oos_allies() -> Game:
    """Two Allied stacks cut off: German units on two opposite sides put every neighbouring
    hex in a German ZOC [11.3]."""
    g = game()
    place(g, {"cw-51-inf": "2504", "cw-gds-armd": "2504", "de-9-ss-pz": "2605", "de-10-ss-pz": "2404",
              "cw-2-cdn-inf": "2613", "cw-i-corps-arty": "2613", "de-20-30-schnell": "2713", "de-hg-pz": "2512"})
    to_phase(g, "allied", "reinforcement")
    return g


def test_aerial_supply_replaces_oos_until_the_next_supply_check() -> None:
    """SFN 15.8: "During any supply check step the Allied player may provide aerial supply to any
    one, two or three units anywhere on the map that would otherwise be OOS. ... those units'
    supply status is now normal until the next supply check." The next one is the German A.5,
    which checks "all units of both sides" [9.2]; aerial supply may be placed there too."""
    g = _oos_allies()
    assert "OOS" in g.unit("cw-51-inf").markers
    r = g.apply({"do": "aerial_supply", "units": ["cw-51-inf"]})
    assert r.ok and r.rule == "SFN 15.8", r
    assert g.unit("cw-51-inf").markers == ["aerial_supply"]
    to_phase(g, "allied", "movement")
    assert g.unit("cw-51-inf").markers == ["aerial_supply"]
    to_phase(g, "german", "reinforcement")
    assert g.unit("cw-51-inf").markers == ["OOS"]  # the German A.5 check is of both sides [9.2]
    assert events(g, "aerial_supply_ends")[-1]["units"] == ["cw-51-inf"]
    r = g.apply({"do": "aerial_supply", "units": ["cw-51-inf"]})  # the German A.5 is a supply check step
    assert r.ok, r
    assert g.unit("cw-51-inf").markers == ["aerial_supply"]


def test_aerial_supply_refusals() -> None:
    g = _oos_allies()
    oos = [u for u in ("cw-51-inf", "cw-gds-armd", "cw-2-cdn-inf", "cw-i-corps-arty") if "OOS" in g.unit(u).markers]
    assert len(oos) == 4, oos
    r = g.apply({"do": "aerial_supply", "units": oos})
    assert not r.ok and r.rule == "SFN 15.8" and "at most 3" in r.message
    r = g.apply({"do": "aerial_supply", "units": ["us-36-inf"]})
    assert not r.ok and "not out of supply" in r.message
    assert g.apply({"do": "aerial_supply", "units": oos[:2]}).ok
    r = g.apply({"do": "aerial_supply", "units": oos[2:]})
    assert not r.ok and "2 already" in r.message
    to_phase(g, "allied", "movement")
    r = g.apply({"do": "aerial_supply", "units": oos[2:3]})
    assert not r.ok and r.policy and r.policy.startswith("sfn-admin-phase")


def test_no_aerial_supply_in_a_storm_or_after_a_drop() -> None:
    g = _oos_allies()
    next(p for p in g.procedures if isinstance(p, GreatStorms)).set_storm(g, True)
    r = g.apply({"do": "aerial_supply", "units": ["cw-51-inf"]})
    assert not r.ok and r.rule == "SFN 15.2"
    _no_storm(g)
    sfn_state(g).airdrops.dropped["uk-6-ab"] = g.state.turn
    r = g.apply({"do": "aerial_supply", "units": ["cw-51-inf"]})
    assert not r.ok and r.rule == "SFN 15.8" and "airborne drop" in r.message

