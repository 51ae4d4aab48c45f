"""Utah naval leftovers on the beach-landing sample (ILLUSTRATIVE ships and CRT): the Naval chit
every daylight turn [Excl 4.1.8], Landing Craft markers in NSoP step 5 [Excl 4.5.4(2),
4.5.6(1)], and Barrage markers from ship fire [Excl 4.4.4, GTS 16.6.2]."""

from __future__ import annotations


from gts_helpers import game
from play.game import Game
from play.gts import barrage, beach, naval
from play.gts.params import BarrageParams, Cited
from play.gts.state import PendingEvent, gts_state
from loaded_dice import LoadedDice


def _nsop(seed: int = 1) -> Game:
    g = game(seed=seed, at="activation")  # chits are drawn in the Activation Phase [GTS 4.0 H]
    r = g.apply({"do": "draw_chit"})
    assert r.ok and r.data["chit"] == "chit-naval"
    return g


def _mug(g: Game) -> list[str]:
    return list(gts_state(g).chits.mug)


def _to_turn(g: Game, n: int) -> None:
    g.last_turn = max(g.last_turn, n)
    while g.state.turn < n:
        assert g.apply({"do": "end_turn"}).ok


# --- the Naval chit every daylight turn [Excl 4.1.8] ------------------------------------------------


def _without_naval_after_0700(g: Game) -> None:
    """Scenario mug data that no longer lists the Naval chit after 0700 6 June."""
    g.scenario.params["mug"] = list(g.scenario.params["mug"]) + [
        {"turn": "0900 6 June", "chits": ["chit-event", "chit-divact-4", "chit-divact-709"]}]


def test_naval_chit_added_at_step_g_of_a_daylight_turn_without_the_mug_data() -> None:
    g = game()
    _without_naval_after_0700(g)
    _to_turn(g, 3)                                                   # 0900 6 June
    assert "chit-naval" in _mug(g)
    add = [e for e in g.log if e["type"] == "mug_add" and e.get("chits") == ["chit-naval"]]
    assert len(add) == 1 and add[0]["rule"] == "Excl 4.1.8" and add[0]["turn"] == 3


def test_no_naval_chit_on_a_night_turn_and_back_at_dawn() -> None:
    g = game()
    _without_naval_after_0700(g)
    _to_turn(g, 10)                                                  # Night 6 June
    assert g.system.calendar.all_turns[9].night
    assert "chit-naval" not in _mug(g)
    _to_turn(g, 11)                                                  # 0700 7 June
    assert "chit-naval" in _mug(g)


def test_night_turn_removes_a_naval_chit_the_mug_data_lists() -> None:
    g = game()                                                       # the sample's mug lists it every turn
    _to_turn(g, 10)
    assert "chit-naval" not in _mug(g)
    ev = next(e for e in g.log if e["type"] == "mug_remove")
    assert ev["turn"] == 10 and ev["rule"] == "Excl 4.1.8"


def test_naval_chit_keeps_coming_after_the_beach_is_cleared() -> None:
    g = game()
    _without_naval_after_0700(g)
    beach.state(g, g.scenario.beach_overlays[0]).cleared = True
    _to_turn(g, 3)
    add = next(e for e in g.log if e["type"] == "mug_add" and e.get("chits") == ["chit-naval"])
    assert "naval-chit-after-overlay" in add["policy"]
    assert g.apply({"do": "next_phase", "to": "activation"}).ok   # chits are drawn in 4.0 H [10.0]
    for _ in range(10):                                              # draw until the Naval chit comes
        r = g.apply({"do": "draw_chit"})
        if not r.ok or r.data.get("chit") == "chit-naval":
            break
    assert r.ok and r.data["chit"] == "chit-naval"
    g.apply({"do": "naval_step", "step": 9})
    skipped = [e["step"] for e in g.log if e["type"] == "nsop_step" and e.get("skipped") and e["turn"] == 3]
    assert skipped == [1, 4, 5, 6]                                   # the "greatly reduced" NSoP [4.6]


def test_step_g_is_data_switching_it_off_keeps_the_old_behaviour() -> None:
    g = game()
    _without_naval_after_0700(g)
    g.procedures[-1].naval.every_daylight_turn = Cited(value=False, rule="Excl 4.1.8")  # type: ignore[attr-defined]
    _to_turn(g, 3)
    assert "chit-naval" not in _mug(g)


def test_first_turn_is_left_to_the_first_chit_rule() -> None:
    g = game()
    assert not [e for e in g.log if e["type"] in ("mug_add", "mug_remove") and e.get("chits") == ["chit-naval"]]
    assert g.apply({"do": "draw_chit"}).data["chit"] == "chit-naval"


# --- Landing Craft markers in step 5 [Excl 4.5.4(2), 4.5.6(1)] --------------------------------------


def _loading(g: Game, units: list[str]) -> None:
    for uid in units:
        u = g.unit(uid)
        u.where, u.box, u.hex = "box", "naval-loading", None


def test_step_5_loads_one_craft_per_battalion_and_independent_unit() -> None:
    g = _nsop()
    g.apply({"do": "naval_step", "step": 4})
    g.apply({"do": "land_craft", "unit": "lcvp-1", "to": "19.025"})   # lcvp-1 goes back to the pool
    _loading(g, ["e-2-8", "f-2-8", "g-2-8", "b-70-dd"])
    g.apply({"do": "naval_step", "step": 5})
    loaded = [e for e in g.log if e["type"] == "lc_loaded"]
    # 2/8 is one battalion: one craft; the DD tank swims [4.5.5]; lcvp-2 waits for its 0900 arrival.
    assert [(e["craft"], e["units"], e["load"]) for e in loaded] == [
        ("lcvp-1", ["e-2-8", "f-2-8", "g-2-8"], "battalion 2/8")]
    assert loaded[0]["rule"] == "Excl 4.5.6(1)"
    assert g.unit("lcvp-1").where == "box" and g.unit("lcvp-1").box == "lw-tare-green"
    assert naval.craft_loads(g) == {"lcvp-1": ["e-2-8", "f-2-8", "g-2-8"]}


def test_independent_units_and_leaders_get_their_craft() -> None:
    g = _nsop()
    g.counters["h-2-8"].flags.append("independent")                  # an Independent unit: a craft of its own
    g.counters["h-2-8"].battalion = None
    _loading(g, ["e-2-8", "h-2-8", "ldr-van-fleet"])
    g.unit("lcvp-1").where, g.unit("lcvp-1").box = "offmap", None     # free markers: lcvp-1, lcvp-3
    g.apply({"do": "naval_step", "step": 5})
    loads = naval.craft_loads(g)
    assert loads == {"lcvp-1": ["e-2-8", "ldr-van-fleet"], "lcvp-3": ["h-2-8"]}
    ev = {e["craft"]: e for e in g.log if e["type"] == "lc_loaded"}
    assert "lc-leader-with-first-battalion-of-command" in ev["lcvp-1"]["policy"]
    assert ev["lcvp-3"]["load"] == "independent h-2-8"


def test_unit_without_battalion_rides_alone_by_policy() -> None:
    g = _nsop()
    g.counters["e-2-8"].battalion = None
    _loading(g, ["e-2-8", "f-2-8"])
    g.unit("lcvp-1").where, g.unit("lcvp-1").box = "offmap", None
    g.apply({"do": "naval_step", "step": 5})
    ev = {e["craft"]: e for e in g.log if e["type"] == "lc_loaded"}
    assert ev["lcvp-1"]["units"] == ["e-2-8"] and ev["lcvp-3"]["units"] == ["f-2-8"]
    assert "lc-one-per-unit-without-battalion" in ev["lcvp-1"]["policy"] and "policy" not in ev["lcvp-3"]


def test_an_eliminated_craft_is_a_free_marker_again() -> None:
    g = _nsop()
    _loading(g, ["e-2-8"])
    g.unit("lcvp-1").where, g.unit("lcvp-1").box = "eliminated", None   # recycled for later use [4.5.4(3)]
    g.unit("lcvp-3").where, g.unit("lcvp-3").box = "box", "naval-interdiction"
    g.apply({"do": "naval_step", "step": 5})
    assert naval.craft_loads(g) == {"lcvp-1": ["e-2-8"]}


def test_no_free_craft_is_logged_and_the_units_wait() -> None:
    g = _nsop()
    _loading(g, ["e-2-8"])                                           # lcvp-2 awaits its 0900 arrival
    for lc in ("lcvp-1", "lcvp-3"):                                  # the others are in use
        g.unit(lc).where, g.unit(lc).box = "box", "naval-interdiction"
    g.apply({"do": "naval_step", "step": 5})
    short = next(e for e in g.log if e["type"] == "lc_short")
    assert short["units"] == ["e-2-8"] and short["rule"] == "Excl 4.1.7(c)" and "lc-short" in short["policy"]


def test_a_reused_craft_is_back_at_two_steps_and_lands_its_own_load() -> None:
    g = _nsop(seed=3)
    g.unit("lcvp-3").steps, g.unit("lcvp-3").reduced = 1, True
    _loading(g, ["e-2-8", "f-2-8"])
    g.unit("lcvp-1").where, g.unit("lcvp-1").box = "offmap", None
    g.unit("lcvp-3").where = "offmap"
    g.counters["f-2-8"].battalion = "3/8"                            # two battalions: two craft in one box
    g.apply({"do": "naval_step", "step": 5})
    assert naval.craft_loads(g) == {"lcvp-1": ["e-2-8"], "lcvp-3": ["f-2-8"]}
    assert g.unit("lcvp-3").steps == 2 and not g.unit("lcvp-3").reduced   # reused at 2 steps [4.1.7(c)]
    # Two craft wait in lw-tare-green: each lands its own load without naming passengers.
    from play.gts.procedure import GtsProcedure

    proc = next(p for p in g.procedures if isinstance(p, GtsProcedure))
    r = beach.land_craft(g, {"unit": "lcvp-3", "to": "18.026", "nests": "none"}, proc.beach, proc.results,
                         "column", True)
    assert r.ok, r
    landing = next(e for e in g.log if e["type"] == "landing" and e["unit"] == "lcvp-3")
    assert landing["passengers"] == ["f-2-8"]
    assert "lcvp-3" not in naval.craft_loads(g)


def test_battery_fire_uses_the_step_5_load() -> None:
    g = _nsop()
    naval.craft_loads(g)["lcvp-1"] = ["a-1-8", "b-1-8"]              # as step 5 would have loaded it
    g.apply({"do": "naval_next"})                                    # step 3
    LoadedDice.on(g, [1], zero_is_max=True)
    r = g.apply({"do": "battery_fire", "unit": "st-martin-bty", "target": "lcvp-1"})
    assert r.ok and r.data["effective"] is True
    assert g.unit("a-1-8").where == "eliminated" and g.unit("b-1-8").where == "eliminated"
    assert g.unit("c-1-8").where == "box"                            # not aboard that craft
    assert "lcvp-1" not in naval.craft_loads(g)


# --- Barrage markers from ship fire [Excl 4.4.4, GTS 16.6.2] ----------------------------------------


def test_ship_fire_places_a_light_barrage_with_fr_5_and_a_heavy_one_with_6() -> None:
    g = _nsop()
    LoadedDice.on(g, [3], zero_is_max=True)
    r = g.apply({"do": "ship_fire", "ship": "dd-uts-1", "target": "st-martin-bty"})   # FR 5
    assert r.ok and r.data["barrage"] == "light" and "light Barrage on 30.027" in r.message
    assert barrage.state(g) == {"30.027": "light"}
    ev = next(e for e in g.log if e["type"] == "barrage")
    assert ev["rule"] == "GTS 16.6.2.1" and ev["unit"] == "dd-uts-1" and "was" not in ev
    g.counters["ca-star-1"].front.values["fr"] = 6
    LoadedDice.on(g, [8], zero_is_max=True)
    r = g.apply({"do": "ship_fire", "ship": "ca-star-1", "target": "st-martin-bty"})
    assert r.ok and r.data["barrage"] == "heavy"
    assert barrage.state(g) == {"30.027": "heavy"}                  # heavy replaces light


def test_heavy_barrage_is_not_replaced_by_a_light_one() -> None:
    g = _nsop()
    barrage.state(g)["30.027"] = "heavy"
    LoadedDice.on(g, [3], zero_is_max=True)
    r = g.apply({"do": "ship_fire", "ship": "dd-uts-1", "target": "st-martin-bty"})
    assert r.data["barrage"] == "heavy" and barrage.state(g) == {"30.027": "heavy"}


def test_a_roll_of_9_places_no_barrage() -> None:
    g = _nsop()
    LoadedDice.on(g, [9], zero_is_max=True)
    r = g.apply({"do": "ship_fire", "ship": "dd-uts-1", "target": "st-martin-bty"})
    assert r.ok and r.data["barrage"] is None and barrage.state(g) == {}
    assert "barrage" not in [e["type"] for e in g.log]


def test_lcr_and_lcs_never_place_a_barrage() -> None:
    g = _nsop()
    LoadedDice.on(g, [2], zero_is_max=True)
    r = g.apply({"do": "ship_fire", "ship": "lcr-uts-1", "target": "wn-5"})
    assert r.ok and r.data["barrage"] is None and barrage.state(g) == {}       # [4.4.5]
    LoadedDice.on(g, [2], zero_is_max=True)
    r = g.apply({"do": "ship_fire", "ship": "lcs-uts-1", "target": "wn-5"})
    assert barrage.state(g) == {}                                             # Direct Fire [4.7.1(e)]


def test_barraged_battery_may_not_fire_in_step_3_and_battery_fire_places_none() -> None:
    g = _nsop()
    LoadedDice.on(g, [3], zero_is_max=True)
    g.apply({"do": "ship_fire", "ship": "dd-uts-1", "target": "st-martin-bty"})
    g.apply({"do": "naval_next"})
    r = g.apply({"do": "battery_fire", "unit": "st-martin-bty", "target": "ca-star-1"})
    assert not r.ok and "Barrage" in r.message and r.rule == "Excl 4.4.7"
    g2 = _nsop()
    g2.apply({"do": "naval_next"})
    LoadedDice.on(g2, [2], zero_is_max=True)
    r = g2.apply({"do": "battery_fire", "unit": "st-martin-bty", "target": "ca-star-1"})
    assert r.ok and barrage.state(g2) == {}                                     # [4.4.7(b)]


def test_barrages_are_removed_at_cleanup() -> None:
    g = _nsop()
    seeded = g.dice.roll
    LoadedDice.on(g, [3], zero_is_max=True)
    g.apply({"do": "ship_fire", "ship": "dd-uts-1", "target": "st-martin-bty"})
    g.dice.roll = seeded                                             # the landings at the turn's end roll too
    assert barrage.state(g)
    g.apply({"do": "end_turn"})
    assert barrage.state(g) == {}
    ev = next(e for e in g.log if e["type"] == "barrages_removed")
    assert ev["hexes"] == ["30.027"] and ev["rule"] == "GTS 4.0 I"
    assert g.undo() and barrage.state(g) == {"30.027": "light"}              # undo restores it


def test_barrage_blocks_the_spotters_line_of_sight() -> None:
    g = _nsop()
    t = g.unit("c7-ii-919").hex
    assert t is not None
    a = g.hex_of("27.026")                                           # 3 hexes away, clear LOS
    assert a.distance(t) == 3 and naval._los(g, a, t)
    middle = [h for h in a.line_to(t) if h not in (a, t)]
    barrage.state(g)[str(g.label(middle[0]))] = "light"              # a barraged hex blocks LOS [16.6.2.2]
    assert not naval._los(g, a, t)
    barrage.state(g).clear()
    barrage.state(g)[str(g.label(t))] = "light"                      # one may see into a barraged hex
    assert naval._los(g, a, t)


def test_barrage_kind_rule_thresholds() -> None:
    cfg = BarrageParams.model_validate({"heavy_from": {"value": 6}, "no_barrage_roll": {"value": 9}})
    assert barrage.kind_for(5, 0, cfg) == "light"
    assert barrage.kind_for(6, 8, cfg) == "heavy"
    assert barrage.kind_for(9, 9, cfg) is None


def test_barrage_stays_in_the_hex_of_an_eliminated_target() -> None:
    g = _nsop()
    LoadedDice.on(g, [0], zero_is_max=True)                                         # orange unarmored 0: E
    r = g.apply({"do": "ship_fire", "ship": "dd-uts-1", "target": "st-martin-bty"})
    assert r.ok and g.unit("st-martin-bty").where == "eliminated"
    assert barrage.state(g) == {"30.027": "light"} and "light Barrage on 30.027" in r.message


def test_a_carried_naval_chit_starts_the_nsop_first_next_turn() -> None:
    g = _nsop()
    g.apply({"do": "naval_step", "step": 9})                         # first play: back in the mug
    gts_state(g).chits.mug = ["chit-naval"]                   # the last chit left in the mug
    g.apply({"do": "end_turn"})                                      # carried [GTS 10.0.6]
    assert g.state.turn == 3 and not naval.nsop(g).active           # Step A: not yet
    assert g.apply({"do": "next_phase", "to": "activation"}).ok     # played first in 4.0 H [10.0.1]
    assert naval.at_step(g, 2)
    start = [e for e in g.log if e["type"] == "nsop_start" and e["turn"] == 3]
    assert len(start) == 1 and "first_play" not in start[0]


def test_random_event_4_ship_fire_leaves_barrages_too() -> None:
    from play.gts import events

    g = game()
    events.state(g).pending = PendingEvent(die=4, result="Naval support", kind="naval_support",
                                           needs="ships and targets", turn=g.state.turn)
    g.apply({"do": "place", "unit": "a-1-502", "to": "29.027"})      # an Airborne unit sees 30.027 [Excl 6.0]
    g.counters["ca-star-1"].front.values["fr"] = 7
    LoadedDice.on(g, [3, 4], zero_is_max=True)
    r = g.apply({"do": "resolve_event", "ships": ["dd-uts-1", "ca-star-1"], "targets": ["c7-ii-919", "c7-ii-919"]})
    assert r.ok, r
    marks = [(e["unit"], e["marker"]) for e in g.log if e["type"] == "barrage"]
    assert marks == [("dd-uts-1", "light"), ("ca-star-1", "heavy")] and barrage.state(g) == {"30.027": "heavy"}
