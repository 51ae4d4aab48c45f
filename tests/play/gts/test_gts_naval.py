"""Utah naval forces [Excl 4.4] and the Naval Sequence of Play [Excl 4.6, 4.7] on the
beach-landing sample (ILLUSTRATIVE ships, range boxes and CRT)."""

from __future__ import annotations


import pytest

from gts_helpers import game
from play.game import Game
from play.gts import beach, naval
from play.gts.params import Cited
from play.gts.state import gts_state
from loaded_dice import LoadedDice


def _nsop(seed: int = 1) -> Game:
    g = game(seed=seed, at="activation")  # chits are drawn in the Activation Phase [GTS 4.0 H]
    r = g.apply({"do": "draw_chit"})
    assert r.ok and r.data["chit"] == "chit-naval" and r.rule == "Excl 4.1.8"
    return g


def _types(g: Game) -> list[str]:
    return [e["type"] for e in g.log]


# --- the rule's own example [Excl 4.4.7] -----------------------------------------------------------


def test_range_example_of_4_4_7() -> None:
    g = game()
    naval.markers(g)["UtS"] = "20.025"
    bty = g.hex_of("30.027")
    assert g.unit("st-martin-bty").hex == bty
    assert naval.landing_wave_range(g, bty) == 10
    assert naval.ship_range(g, "UtS", "range-uts-short", bty) == 20     # the Destroyers
    assert naval.ship_range(g, "UtS", "range-uts-medium", bty) == 30    # the Cruisers
    assert naval.ship_range(g, "UtS", "range-uts-long", bty) == 40      # "range would be 40"
    assert naval.ship_range(g, "UtS", "range-uts-close", bty) is None   # no number in the file


def test_battery_in_example_may_reach_the_long_box_but_not_beyond() -> None:
    g = _nsop()
    naval.markers(g)["UtS"] = "20.025"
    g.apply({"do": "naval_next"})                       # step 3
    g.unit("ca-star-1").box = "range-uts-long"           # range 40 = the battery's 40
    LoadedDice.on(g, [9], zero_is_max=True)                             # a miss
    r = g.apply({"do": "battery_fire", "unit": "st-martin-bty", "target": "ca-star-1"})
    assert r.ok and "(range 40)" in r.message


# --- the NSoP as a sequence -------------------------------------------------------------------------


def test_naval_chit_is_first_at_0700_and_nsop_stops_at_step_2() -> None:
    g = _nsop()
    assert naval.at_step(g, 2)
    steps = [e["step"] for e in g.log if e["type"] == "nsop_step"]
    assert steps == [1, 2]
    assert next(e for e in g.log if e["type"] == "nsop_start")["first_play"] is True


def test_nsop_without_the_chit_is_refused() -> None:
    g = game()
    r = g.apply({"do": "naval_next"})
    assert not r.ok and r.rule == "Excl 4.6"
    r = g.apply({"do": "ship_fire", "ship": "dd-uts-1", "target": "st-martin-bty"})
    assert not r.ok and "no NSoP is running" in r.message


def test_steps_run_forward_only_and_step_9_returns_the_chit_on_first_play() -> None:
    g = _nsop()
    r = g.apply({"do": "naval_step", "step": 1})
    assert not r.ok and "never back" in r.message
    r = g.apply({"do": "naval_step", "step": 9})
    assert r.ok and not naval.nsop(g).active
    assert [e["step"] for e in g.log if e["type"] == "nsop_step"] == list(range(1, 10))
    assert "chit_returned" in _types(g)
    assert "chit-naval" in gts_state(g).chits.mug
    # The second play this turn is not the first: the chit is set aside [4.6 step 9].
    for _ in range(10):
        r = g.apply({"do": "draw_chit"})
        if not r.ok or r.data.get("chit") == "chit-naval":
            break
    if r.ok and r.data.get("chit") == "chit-naval":
        assert naval.nsop(g).first_play is False
        g.apply({"do": "naval_step", "step": 9})
        assert "chit_set_aside" in _types(g)


def test_step_4_lands_what_is_left_mandatory() -> None:
    g = _nsop(seed=5)
    g.apply({"do": "naval_step", "step": 4})
    assert naval.at_step(g, 4)
    r = g.apply({"do": "land_craft", "unit": "lcvp-1", "to": "19.025"})   # in the NSoP: any phase
    assert r.ok, r
    g.apply({"do": "naval_next"})
    landed = [e for e in g.log if e["type"] == "mandatory_landing"]
    assert [e["unit"] for e in landed] == ["a-70-dd"] and "nsop-landing" in landed[0]["policy"]


def test_loading_and_en_route_boxes_move_up_the_conga_line() -> None:
    g = _nsop()
    g.unit("e-2-8").where, g.unit("e-2-8").box = "box", "naval-loading"
    g.unit("f-2-8").where, g.unit("f-2-8").box = "box", "naval-en-route"
    g.apply({"do": "naval_step", "step": 6})
    assert g.unit("e-2-8").box == "lw-tare-green"       # the first Landing Wave box the Loading box connects to
    assert g.unit("f-2-8").box == "naval-loading"
    ev = [e for e in g.log if e["type"] == "naval_transfer"]
    assert ev[0]["rule"] == "Excl 4.7.4" and "loading-to-first-connected-box" in ev[0]["policy"]


def test_overlay_gone_skips_steps_1_4_5_6() -> None:
    g = game()
    beach.state(g, g.scenario.beach_overlays[0]).cleared = True
    g.apply({"do": "draw_chit"})
    g.apply({"do": "naval_step", "step": 9})
    skipped = [e["step"] for e in g.log if e["type"] == "nsop_step" and e.get("skipped")]
    assert skipped == [1, 4, 5, 6]


def test_next_draw_closes_an_open_nsop() -> None:
    g = _nsop()
    r = g.apply({"do": "draw_chit"})
    assert r.ok
    closed = next(e for e in g.log if e["type"] == "nsop_closed")
    assert closed["step"] == 2 and "nsop-closed-by-next-action" in closed["policy"]
    assert not naval.nsop(g).active


# --- step 2: ships fire ------------------------------------------------------------------------------


def test_ship_self_spots_a_coastal_battery_in_range() -> None:
    g = _nsop()
    LoadedDice.on(g, [3], zero_is_max=True)
    r = g.apply({"do": "ship_fire", "ship": "dd-uts-1", "target": "st-martin-bty"})
    assert r.ok and "(range 22)" in r.message                  # 12 hexes to UtS at 18.027 + Short 10
    ev = next(e for e in g.log if e["type"] == "ship_fire")
    assert ev["spotted"] == "Coastal Battery" and ev["line"] == "orange" and ev["range"] == 22
    again = g.apply({"do": "ship_fire", "ship": "dd-uts-1", "target": "st-martin-bty"})
    assert not again.ok and "one-fire-per-nsop" in str(again.policy)


def test_ship_out_of_range_is_refused_with_the_count() -> None:
    g = _nsop()
    g.unit("dd-uts-1").box = "range-uts-long"                   # 12 + 30 = 42 > 25
    r = g.apply({"do": "ship_fire", "ship": "dd-uts-1", "target": "st-martin-bty"})
    assert not r.ok and r.rule == "Excl 4.4.4(a)" and "range 42" in r.message


def test_spotter_needed_and_us_airborne_cannot_spot() -> None:
    g = _nsop()
    g.apply({"do": "place", "unit": "a-1-502", "to": "29.027"})   # 101st: never spots [Err 4.4.4(c)]
    r = g.apply({"do": "ship_fire", "ship": "dd-uts-1", "target": "c7-ii-919", "spotter": "a-1-502"})
    assert not r.ok and r.rule == "Err 4.4.4(c)" and "airborne" in r.message
    r = g.apply({"do": "ship_fire", "ship": "dd-uts-1", "target": "c7-ii-919"})
    assert not r.ok and "no spotter" in r.message
    g.apply({"do": "place", "unit": "a-1-8", "to": "29.026"})
    LoadedDice.on(g, [7], zero_is_max=True)                                    # contact needs 6 or less
    r = g.apply({"do": "ship_fire", "ship": "dd-uts-1", "target": "c7-ii-919", "spotter": "a-1-8"})
    assert r.ok and "no contact" in r.message
    assert not any(e["type"] == "ship_fire" for e in g.log)
    LoadedDice.on(g, [6, 2], zero_is_max=True)                                 # contact, then the CRT roll
    r = g.apply({"do": "ship_fire", "ship": "ca-star-1", "target": "c7-ii-919", "spotter": "a-1-8"})
    assert r.ok and "fires at c7-ii-919" in r.message
    contact = [e for e in g.log if e["type"] == "ship_contact"]
    assert [c["contact"] for c in contact] == [False, True] and contact[0]["rule"] == "Excl 4.4.4(c)"


def test_lcr_fires_once_at_0700_drops_negative_modifiers_and_is_removed() -> None:
    g = _nsop()
    LoadedDice.on(g, [4], zero_is_max=True)
    r = g.apply({"do": "ship_fire", "ship": "lcr-uts-1", "target": "wn-5", "modifiers": {"terrain": -2, "mass": 1}})
    assert r.ok and r.rule == "Excl 4.4.5"
    ev = next(e for e in g.log if e["type"] == "ship_fire")
    assert ev["fr"] == 5 and ev["modifiers"] == {"mass": 1}     # FR 4 + 1; the -2 is dropped
    assert next(e for e in g.log if e["type"] == "modifiers_dropped")["dropped"] == {"terrain": -2}
    assert g.unit("lcr-uts-1").where == "offmap" and "lcr_removed" in _types(g)


def test_lcr_must_self_spot() -> None:
    g = _nsop()
    r = g.apply({"do": "ship_fire", "ship": "lcr-uts-1", "target": "c6-ii-919"})
    assert not r.ok and "self-spot" in r.message and r.rule == "Excl 4.4.5"


def test_lcr_not_after_the_first_play() -> None:
    g = _nsop()
    naval.nsop(g).first_play = False
    r = g.apply({"do": "ship_fire", "ship": "lcr-uts-1", "target": "wn-5"})
    assert not r.ok and "0700" in r.message


def test_lcs_fires_at_beach_defences_as_a_landing_craft_and_ships_may_not() -> None:
    g = _nsop()
    r = g.apply({"do": "ship_fire", "ship": "dd-uts-1", "track": "obstacles"})
    assert not r.ok and "LCS" in r.message
    r = g.apply({"do": "ship_fire", "ship": "lcs-uts-1", "track": "obstacles", "by": 1})
    assert r.ok and beach.state(g, g.scenario.beach_overlays[0]).tracks["obstacles"] == 2


# --- step 3: Coastal Batteries -----------------------------------------------------------------------


def _step3(seed: int = 1) -> Game:
    g = _nsop(seed)
    g.apply({"do": "naval_next"})
    assert naval.at_step(g, 3)
    return g


def test_battery_effective_fire_eliminates_a_ship() -> None:
    g = _step3()
    LoadedDice.on(g, [3], zero_is_max=True)                                     # black armored 3: S -> effective
    r = g.apply({"do": "battery_fire", "unit": "st-martin-bty", "target": "dd-uts-1"})
    assert r.ok and r.data["effective"] is True
    assert g.unit("dd-uts-1").where == "eliminated"
    ev = next(e for e in g.log if e["type"] == "battery_fire")
    assert ev["line"] == "black" and ev["armored"] is True and ev["barrage"] is False and ev["range"] == 22


def test_battery_defensive_modifier_of_the_ship() -> None:
    g = _step3()
    LoadedDice.on(g, [5], zero_is_max=True)                                     # FR 5 - 1 (cruiser's dr) = 4: a miss
    r = g.apply({"do": "battery_fire", "unit": "st-martin-bty", "target": "ca-star-1"})
    assert r.ok and r.data["hit"] is False and g.unit("ca-star-1").where == "box"
    assert next(e for e in g.log if e["type"] == "battery_fire")["defensive_modifier"] == -1


def test_battery_s_question_needs_a_declared_failed_check() -> None:
    g = _step3()
    LoadedDice.on(g, [5], zero_is_max=True)                                     # black armored 5: S?
    r = g.apply({"do": "battery_fire", "unit": "st-martin-bty", "target": "dd-uts-1"})
    assert r.ok and r.data["result"] == "S?" and r.data["effective"] is False and "s?-check-declared" in r.policy
    g2 = _step3()
    LoadedDice.on(g2, [5], zero_is_max=True)
    r = g2.apply({"do": "battery_fire", "unit": "st-martin-bty", "target": "dd-uts-1", "s_check": "failed"})
    assert r.data["effective"] is True and g2.unit("dd-uts-1").where == "eliminated"


def test_battery_sinks_a_landing_craft_with_its_passengers() -> None:
    g = _step3()
    LoadedDice.on(g, [1], zero_is_max=True)
    r = g.apply({"do": "battery_fire", "unit": "st-martin-bty", "target": "lcvp-1"})
    assert r.ok and "(range 12)" in r.message                    # hexes to the UtS marker only
    assert g.unit("lcvp-1").where == "offmap"
    for uid in ("a-1-8", "b-1-8", "c-1-8", "d-1-8", "ldr-van-fleet"):
        assert g.unit(uid).where == "eliminated", uid


def test_battery_refusals() -> None:
    g = _step3()
    r = g.apply({"do": "battery_fire", "unit": "c7-ii-919", "target": "dd-uts-1"})
    assert not r.ok and "black Fire Rating" in r.message
    g.unit("lcvp-2").where, g.unit("lcvp-2").box = "box", "naval-loading"
    r = g.apply({"do": "battery_fire", "unit": "st-martin-bty", "target": "lcvp-2"})
    assert not r.ok and "never fire at Landing Craft on the Naval Display" in r.message
    g.unit("st-martin-bty").markers.append("barrage")
    r = g.apply({"do": "battery_fire", "unit": "st-martin-bty", "target": "dd-uts-1"})
    assert not r.ok and "Barrage" in r.message and r.rule == "Excl 4.4.7"
    g.unit("st-martin-bty").markers.remove("barrage")
    g.apply({"do": "place", "unit": "a-1-8", "to": "29.027"})
    r = g.apply({"do": "battery_fire", "unit": "st-martin-bty", "target": "dd-uts-1"})
    assert not r.ok and "adjacent to an enemy" in r.message


def test_battery_only_in_step_3() -> None:
    g = _nsop()
    r = g.apply({"do": "battery_fire", "unit": "st-martin-bty", "target": "dd-uts-1"})
    assert not r.ok and "step 3" in r.message


# --- steps 7 and 8 -----------------------------------------------------------------------------------


@pytest.mark.parametrize("hex_, ok, why", [
    ("17.029", True, None),                   # the rule's own example
    ("18.027", True, None),
    ("20.025", True, None),                   # a Beach hex while the overlay is in place
    ("30.016", False, "outside the UtS sector"),
    ("25.025", False, "not an Impassable hex"),
])
def test_move_assault_force(hex_: str, ok: bool, why: str | None) -> None:
    g = _nsop()
    g.apply({"do": "naval_step", "step": 7})
    r = g.apply({"do": "move_assault_force", "force": "UtS", "hex": hex_})
    assert r.ok is ok and r.rule == "Excl 4.4.3"
    if why:
        assert why in r.message
    else:
        assert naval.markers(g)["UtS"] == hex_


def test_assault_force_not_on_a_beach_hex_once_the_overlay_is_gone() -> None:
    g = _nsop()
    g.apply({"do": "naval_step", "step": 7})
    beach.state(g, g.scenario.beach_overlays[0]).cleared = True
    r = g.apply({"do": "move_assault_force", "force": "UtS", "hex": "20.025"})
    assert not r.ok


def test_move_ships_letters_asterisks_and_lcs() -> None:
    g = _nsop()
    r = g.apply({"do": "move_ship", "ship": "dd-uts-1", "box": "range-uts-long"})
    assert not r.ok and "step 8" in r.message
    g.apply({"do": "naval_step", "step": 8})
    assert g.apply({"do": "move_ship", "ship": "dd-uts-1", "box": "range-uts-long"}).ok
    r = g.apply({"do": "move_ship", "ship": "dd-uts-1", "box": "range-utn-short"})
    assert not r.ok and r.rule == "Excl 4.4.2"
    r = g.apply({"do": "move_ship", "ship": "ca-star-1", "box": "range-utn-short"})
    assert not r.ok and r.rule == "Excl 4.6" and "combined" in r.message
    assert g.apply({"do": "move_ship", "ship": "ca-star-1", "box": "range-uts-short"}).ok
    r = g.apply({"do": "move_ship", "ship": "lcs-uts-1", "box": "range-uts-short"})
    assert not r.ok and r.rule == "Excl 4.4.6"


def test_asterisk_ship_changes_group_when_not_utah_only() -> None:
    g = _nsop()
    g.procedures[-1].naval.utah_only = Cited(value=False, rule="Excl 4.6")  # type: ignore[attr-defined]
    g.apply({"do": "naval_step", "step": 8})
    assert g.apply({"do": "move_ship", "ship": "ca-star-1", "box": "range-utn-short"}).ok


def test_undo_restores_the_nsop() -> None:
    g = _nsop()
    g.apply({"do": "naval_step", "step": 7})
    g.apply({"do": "move_assault_force", "force": "UtS", "hex": "17.029"})
    assert g.undo()
    assert naval.markers(g)["UtS"] == "18.027" and naval.at_step(g, 7)


def test_scripted_naval_playtest_runs_clean() -> None:
    from conftest import FIXTURES
    from play.script import run_script

    result = run_script(FIXTURES / "playtests" / "gts-naval.yaml")
    assert result.ok, result.failures
    assert result.game is not None
    refused = [e for e in result.game.log if e["type"] == "refused" and e["action"] == "move_assault_force"]
    assert len(refused) == 1 and refused[0]["rule"] == "Excl 4.4.3"


def test_battery_eliminates_a_dd_tank_in_a_landing_wave_box() -> None:
    g = _step3()
    LoadedDice.on(g, [0], zero_is_max=True)                                     # black armored 0: E
    r = g.apply({"do": "battery_fire", "unit": "st-martin-bty", "target": "a-70-dd"})
    assert r.ok and r.rule == "Excl 4.7.2" and g.unit("a-70-dd").where == "eliminated"
