"""GTS land Indirect Fire [16.0–16.7]: weapons classes, spotting, Parks, contact, barrage
markers and their effects, counter-battery fire. Night-drop turn 1 is a Night turn, so LOS is
short: a firer 6 hexes off sees nothing and an adjacent spotter sees its target. Counter
values the sample does not print are patched in memory, ILLUSTRATIVE."""

from __future__ import annotations

from typing import Any

from gts_helpers import game
from play.game import Game
from play.gts import barrage, indirect
from play.gts import crt as crt_mod
from play.gts.state import Park, gts_state
from loaded_dice import LoadedDice


def _arm(g: Game, uid: str, colour: str, fr: int = 5, rng: int = 12) -> None:
    # ILLUSTRATIVE: the sample's counter sheets are not in the rules file.
    g.counters[uid].front.values.update({"fr_colour": colour, "fr": fr, "fire_range": rng})


def _with_brown(g: Game) -> None:
    """The sample's illustrative CRT has no brown (Organic Artillery) line: a copy of the orange
    one, ILLUSTRATIVE, goes in the scenario params (``params.crt`` wins [crt.py])."""
    table = dict(crt_mod.crt_for(g) or {})
    table["lines"] = {**table["lines"], "brown": table["lines"]["orange"]}
    g.scenario.params["crt"] = table


def _setup(seed: int = 1, colour: str = "green", fr: int = 5, at: str = "activation") -> Game:
    g = game("night-drop", seed, at=at)
    _with_brown(g)
    for uid, h in (("a-1-8", "40.026"), ("b-1-8", "40.019"), ("c5-ii-919", "40.020"), ("c-1-8", "40.025")):
        assert g.apply({"do": "place", "unit": uid, "to": h}).ok
    _arm(g, "a-1-8", colour, fr)
    return g


def _last(g: Game, kind: str) -> dict[str, Any]:
    return [e for e in g.log if e["type"] == kind][-1]


def test_mortar_needs_a_spotter_of_its_formation_without_los() -> None:
    g = _setup()
    r = g.apply({"do": "indirect_fire", "unit": "a-1-8", "target": "c5-ii-919"})
    assert not r.ok and "name a 'spotter'" in r.message
    g.apply({"do": "place", "unit": "a-1-502", "to": "41.019"})  # 101st, 502nd PIR: another Formation
    r = g.apply({"do": "indirect_fire", "unit": "a-1-8", "target": "c5-ii-919", "spotter": "a-1-502"})
    assert not r.ok and "Formation" in r.message
    r = g.apply({"do": "indirect_fire", "unit": "a-1-8", "target": "c5-ii-919", "spotter": "b-1-8"})
    assert r.ok and r.rule == "GTS 16.5"
    ev = _last(g, "indirect_fire")
    assert ev["spotter"] == "b-1-8" and ev["weapons_class"] == "mortar" and ev.get("self_spotted") is None


def test_suppressed_or_out_of_command_spotter_is_refused() -> None:
    g = _setup()
    g.unit("b-1-8").markers.append("suppressed")
    r = g.apply({"do": "indirect_fire", "unit": "a-1-8", "target": "c5-ii-919", "spotter": "b-1-8"})
    assert not r.ok and "Unsuppressed" in r.message
    g.unit("b-1-8").markers.clear()
    g.unit("a-1-8").markers.append("out_of_command")
    r = g.apply({"do": "indirect_fire", "unit": "a-1-8", "target": "c5-ii-919", "spotter": "b-1-8"})
    assert not r.ok and "Out of Command" in r.message


def test_non_mortar_under_four_hexes_uses_direct_fire_and_orange_needs_a_park() -> None:
    g = _setup(colour="orange")
    g.apply({"do": "place", "unit": "a-1-8", "to": "40.023"})
    r = g.apply({"do": "indirect_fire", "unit": "a-1-8", "target": "c5-ii-919", "spotter": "b-1-8"})
    assert not r.ok and "Direct Fire" in r.message and r.rule == "GTS 16.1"
    g.apply({"do": "place", "unit": "a-1-8", "to": "40.026"})
    r = g.apply({"do": "indirect_fire", "unit": "a-1-8", "target": "c5-ii-919", "spotter": "b-1-8"})
    assert not r.ok and "Artillery Park" in r.message


def test_not_an_indirect_class() -> None:
    g = _setup(colour="yellow")
    r = g.apply({"do": "indirect_fire", "unit": "a-1-8", "target": "c5-ii-919", "spotter": "b-1-8"})
    assert not r.ok and "not an Indirect Fire Weapons Class" in r.message


def _shots(g: Game, action: dict[str, Any], n: int) -> Any:
    """``n`` shots from the same position: each is undone and the dice moved on one roll."""
    for _ in range(n):
        r = g.apply(action)
        yield r
        g.undo()
        g.dice.roll(1, 10)


def test_barrage_marker_follows_the_die_and_a_nine_places_none() -> None:
    kinds: set[Any] = set()
    g = _setup()
    for r in _shots(g, {"do": "indirect_fire", "unit": "a-1-8", "hex": "40.021", "spotter": "b-1-8"}, 40):
        assert r.ok, r.message
        placed = barrage.at(g, g.hex_of("40.021"))
        assert placed == (None if r.data["die"] == 9 else "light")  # FR 5: light [16.6.2.1]
        kinds.add(placed)
    assert kinds == {None, "light"}
    g = _setup(3, fr=6)
    r = g.apply({"do": "indirect_fire", "unit": "a-1-8", "hex": "40.021", "spotter": "b-1-8"})
    assert barrage.at(g, g.hex_of("40.021")) == (None if r.data["die"] == 9 else "heavy")


def test_empty_hex_with_enemy_is_refused() -> None:
    g = _setup()
    r = g.apply({"do": "indirect_fire", "unit": "a-1-8", "hex": "40.020", "spotter": "b-1-8"})
    assert not r.ok and "name the 'target'" in r.message


def test_stack_effect_spreads_s_query_but_not_from_mortars() -> None:
    seen = {"spread": 0, "mortar": 0}
    for colour in ("brown", "green"):
        g = _setup(1, colour, fr=9)
        g.apply({"do": "place", "unit": "c6-ii-919", "to": "40.020"})
        for r in _shots(g, {"do": "indirect_fire", "unit": "a-1-8", "target": "c5-ii-919", "spotter": "b-1-8"}, 40):
            assert r.ok, r.message
            spread = [e for e in g.log if e["type"] == "stack_effect" and e["units"]]
            effective = r.data["result"] not in (None, "S?")
            if colour == "green":
                assert not spread
                seen["mortar"] += effective
            else:
                assert bool(spread) == effective
                if spread:
                    assert spread[0]["units"] == ["c6-ii-919"] and spread[0]["rule"] == "GTS 16.6.1"
                    seen["spread"] += 1
    assert seen["spread"] and seen["mortar"]


def _to_h(g: Game) -> None:
    """From Step E, where Parks are created and Contact attempted [GTS 4.0 E], on to the
    Activation Phase, where units fire [GTS 4.0 H]."""
    r = g.apply({"do": "next_phase", "to": "activation"})
    assert r.ok, r


def _park_game(seed: int = 1) -> Game:
    """In Step E: "Create/Disband Artillery Parks. Attempt Contact / Drop Contact with Leaders" [GTS 4.0 E]."""
    g = _setup(seed, colour="orange", at="artillery_contact")
    g.apply({"do": "set_points", "division": "4th Infantry Division", "command": 0, "dispatch": 2})
    return g


def test_park_costs_a_dispatch_point_and_orange_only() -> None:
    g = game("night-drop", at="artillery_contact")
    g.apply({"do": "place", "unit": "a-1-8", "to": "40.026"})
    _arm(g, "a-1-8", "orange")
    r = g.apply({"do": "artillery_park", "units": ["a-1-8"]})
    assert not r.ok and "Dispatch Points" in r.message
    g.apply({"do": "set_points", "division": "4th Infantry Division", "command": 0, "dispatch": 1})
    r = g.apply({"do": "artillery_park", "units": ["a-1-8"]})
    assert r.ok and r.data["park"] == "park-1"
    assert gts_state(g).activation.points["4th Infantry Division"].dispatch == 0
    g.apply({"do": "place", "unit": "c-1-8", "to": "40.026"})
    r = g.apply({"do": "artillery_park", "units": ["c-1-8"]})
    assert not r.ok and "Orange" in r.message
    _arm(g, "c-1-8", "orange")
    r = g.apply({"do": "artillery_park", "units": ["c-1-8"]})  # joins, no DP [16.2.2]
    assert r.ok and indirect.state(g).parks["park-1"].units == ["a-1-8", "c-1-8"]
    r = g.apply({"do": "move", "unit": "a-1-8", "to": "40.027"})
    assert not r.ok and "not an action of GTS 4.0 E" in r.message  # units move in 4.0 H
    _to_h(g)
    r = g.apply({"do": "move", "unit": "a-1-8", "to": "40.027"})
    assert not r.ok and r.rule == "GTS 16.2.3"


def test_contact_then_spotted_park_fire_flips_the_park_and_cleanup_unflips() -> None:
    for seed in range(1, 30):
        g = _park_game(seed)
        assert g.apply({"do": "artillery_park", "units": ["a-1-8"]}).ok
        r = g.apply({"do": "contact", "unit": "a-1-8", "leader": "ldr-van-fleet"})
        assert not r.ok and "contact_value" in r.message
        r = g.apply({"do": "contact", "unit": "a-1-8", "leader": "ldr-van-fleet", "contact_value": 9})
        assert r.ok
        if not r.data["success"]:
            continue  # a 9 on the d10 fails
        r = g.apply({"do": "contact", "unit": "a-1-8", "leader": "ldr-moseley", "contact_value": 9})
        assert not r.ok and "next turn" in r.message  # one attempt per turn [16.3]
        _to_h(g)
        r = g.apply({"do": "indirect_fire", "unit": "a-1-8", "target": "c5-ii-919", "spotter": "b-1-8"})
        assert r.ok, r.message
        assert indirect.state(g).parks["park-1"].fired is True
        if r.data["die"] == 9:
            assert "a-1-8" not in indirect.state(g).contacts
            assert _last(g, "contact_lost")["rule"] == "GTS 16.3.1"
        else:
            assert indirect.state(g).contacts["a-1-8"] == "ldr-van-fleet"
        g.apply({"do": "end_turn"})
        assert indirect.state(g).parks["park-1"].fired is False
        return
    raise AssertionError("no seed made contact")


def test_other_division_contact_is_three_harder() -> None:
    g = _park_game()
    g.apply({"do": "artillery_park", "units": ["a-1-8"]})
    g.apply({"do": "contact", "unit": "a-1-8", "leader": "ldr-moseley", "contact_value": 5})
    assert _last(g, "contact")["need"] == 2


def test_park_unit_may_not_self_spot_and_spotter_must_be_of_contact_formation() -> None:
    g = _park_game()
    g.apply({"do": "place", "unit": "a-1-8", "to": "40.024"})  # 4 hexes: LOS at night? no: still no self-spot
    g.apply({"do": "artillery_park", "units": ["a-1-8"]})
    _to_h(g)
    r = g.apply({"do": "indirect_fire", "unit": "a-1-8", "target": "c5-ii-919"})
    assert not r.ok and "spotter" in r.message
    r = g.apply({"do": "indirect_fire", "unit": "a-1-8", "target": "c5-ii-919", "spotter": "b-1-8"})
    assert not r.ok and "in contact with no Leader" in r.message
    indirect.state(g).contacts["a-1-8"] = "ldr-moseley"  # 502nd PIR holds the marker
    r = g.apply({"do": "indirect_fire", "unit": "a-1-8", "target": "c5-ii-919", "spotter": "b-1-8"})
    assert not r.ok and "502nd PIR" in r.message


def test_direct_fire_at_a_park_unit_disbands_it_and_contact_is_lost() -> None:
    g = _park_game()
    g.apply({"do": "artillery_park", "units": ["a-1-8"]})
    _to_h(g)
    indirect.state(g).contacts["a-1-8"] = "ldr-van-fleet"
    g.apply({"do": "place", "unit": "c6-ii-919", "to": "40.027"})
    r = g.apply({"do": "fire", "unit": "c6-ii-919", "target": "a-1-8", "fire_rating": 3, "line": "white"})
    assert r.ok
    assert indirect.state(g).parks == {} and "a-1-8" not in indirect.state(g).contacts
    assert _last(g, "park_disbanded")["rule"] == "GTS 16.2.4"


def test_counter_battery_needs_a_fired_enemy_park_and_spreads_s_query() -> None:
    hits = 0
    g = _park_game()
    g.apply({"do": "artillery_park", "units": ["a-1-8"]})
    _to_h(g)
    indirect.state(g).contacts["a-1-8"] = "ldr-van-fleet"
    # an enemy Park 6 hexes off with two units (set up as data: the German side's Division Display)
    for uid in ("c6-ii-919", "c7-ii-919"):
        g.apply({"do": "place", "unit": uid, "to": "40.032"})
    indirect.state(g).parks["park-g"] = Park(hex="40.032", division="709.ID", side="german",
                                             units=["c6-ii-919", "c7-ii-919"], fired=False)
    r = g.apply({"do": "indirect_fire", "unit": "a-1-8", "target": "c6-ii-919", "counter_battery": True})
    assert not r.ok and "Fired side" in r.message
    indirect.state(g).parks["park-g"].fired = True
    shot = {"do": "indirect_fire", "unit": "a-1-8", "target": "c6-ii-919", "counter_battery": True}
    for r in _shots(g, shot, 30):
        assert r.ok and r.rule == "GTS 16.7"
        ev = _last(g, "indirect_fire")
        assert ev["modifiers"]["counter_battery"] == -2 and ev["fr"] == 3 and ev.get("spotter") is None
        if r.data["result"] not in (None, "S?"):
            hits += 1
            assert _last(g, "stack_effect")["units"] == ["c7-ii-919"]
    assert hits


def test_barrage_in_the_firers_hex_cuts_range_and_fire_rating() -> None:
    g = _setup(colour="brown")
    barrage.state(g)["40.026"] = "heavy"
    r = g.apply({"do": "indirect_fire", "unit": "a-1-8", "target": "c5-ii-919", "spotter": "b-1-8"})
    assert not r.ok and "beyond Fire Range 1" in r.message
    # Direct Fire from a barraged hex: range 1, Fire Rating -1 (light) [16.6.2.2]
    g.apply({"do": "place", "unit": "c-1-8", "to": "40.021"})
    barrage.state(g)["40.021"] = "light"
    r = g.apply({"do": "fire", "unit": "c-1-8", "target": "c5-ii-919", "fire_rating": 4, "line": "white"})
    assert r.ok and _last(g, "fire")["modifiers"] == {"barrage": -1} and _last(g, "fire")["fr"] == 3
    g.apply({"do": "place", "unit": "c-1-8", "to": "40.022"})
    barrage.state(g)["40.022"] = "light"
    r = g.apply({"do": "fire", "unit": "c-1-8", "target": "c5-ii-919", "fire_rating": 4, "line": "white",
                 "range": 3})
    assert not r.ok and "beyond Fire Range 1" in r.message


def test_emplaced_spotted_fire_keeps_range_in_a_barrage() -> None:
    g = _setup(colour="black")
    indirect.state(g).contacts["a-1-8"] = "ldr-van-fleet"
    barrage.state(g)["40.026"] = "light"
    r = g.apply({"do": "indirect_fire", "unit": "a-1-8", "target": "c5-ii-919", "spotter": "b-1-8"})
    assert r.ok and _last(g, "indirect_fire")["modifiers"] == {"barrage": -1}


def test_scripted_indirect_playtest_passes() -> None:
    from conftest import FIXTURES
    from play.script import run_script

    result = run_script(FIXTURES / "playtests" / "gts-indirect.yaml")
    assert result.ok, result.failures
    assert result.game is not None
    assert any(e["type"] == "barrages_removed" for e in result.game.log) == any(
        e["type"] == "barrage" for e in result.game.log)


def test_optional_scatter_follows_an_indirect_fire_nine(monkeypatch: Any) -> None:
    from play.gts.optional_leader_losses import optional_procedures
    from play.gts.optional_scatter import IndirectFireScatter

    g = _setup()
    monkeypatch.setitem(g.scenario.optional_rules, "Excl 18.3", True)
    g.procedures.insert(-1, next(p for p in optional_procedures(g) if isinstance(p, IndirectFireScatter)))
    faces = [9, 1]  # CRT die 9 (no barrage, no fire), then d6 1 = north [Excl 18.3]
    LoadedDice.on(g, faces)
    r = g.apply({"do": "indirect_fire", "unit": "a-1-8", "target": "c5-ii-919", "spotter": "b-1-8"})
    assert r.ok and r.data["die"] == 9
    (e,) = [x for x in g.log if x["type"] == "scatter"]
    assert e["target"] == "40.020" and e["marker"] == "light" and barrage.state(g)[e["hex"]] == "light"
    assert barrage.at(g, g.hex_of("40.020")) is None  # the 9 itself places nothing [16.6.2.1]


def _mover(ma: float = 6) -> Game:
    from gts_helpers import to_phase

    g = game("night-drop", 2, ma=ma)  # ILLUSTRATIVE MA and terrain costs (the sample prints none)
    to_phase(g, "movement", "allied")
    assert g.apply({"do": "place", "unit": "a-1-8", "to": "40.026"}).ok
    return g


def test_leaving_a_light_barrage_costs_two_more_mp() -> None:
    g = _mover()
    r = g.apply({"do": "move", "unit": "a-1-8", "to": "40.027"})
    assert r.ok
    plain = g.unit("a-1-8").mp_spent
    g.undo()
    barrage.state(g)["40.026"] = "light"
    r = g.apply({"do": "move", "unit": "a-1-8", "to": "40.027"})
    assert r.ok and g.unit("a-1-8").mp_spent == plain + 2
    assert _last(g, "barrage_exit")["rule"] == "GTS 16.6.2.2"
    g.undo()
    r = g.apply({"do": "move", "unit": "a-1-8", "to": "40.099"})  # refused: the 2 MP come back
    assert not r.ok and g.unit("a-1-8").mp_spent == 0


def test_leaving_a_heavy_barrage_needs_a_tq_check_and_takes_a_cohesion_hit() -> None:
    g = _mover()
    g.apply({"do": "place", "unit": "b-1-8", "to": "40.026"})
    barrage.state(g)["40.026"] = "heavy"
    r = g.apply({"do": "move", "units": ["a-1-8", "b-1-8"], "to": "40.027"})
    assert not r.ok and "declare 'tq'" in r.message and g.unit("a-1-8").markers == []
    passed = failed = 0
    for _ in range(12):
        r = g.apply({"do": "move", "units": ["a-1-8", "b-1-8"], "to": "40.027", "tq": 6})
        check = _last(g, "barrage_exit_check")
        assert check["need"] == 4  # TQ 6, heavy barrage -2
        stay = check.get("stay") or []
        for uid, d in check["rolls"].items():  # d10 read 0-9: 0 passes, 9 fails, else <= need [15.5]
            assert (uid in stay) == (d == 9 or (d != 0 and d > 4))
        for uid in ("a-1-8", "b-1-8"):
            assert "cohesion_hit" in g.unit(uid).markers
            want = "40.026" if uid in stay else "40.027"
            assert g.label(g.unit(uid).hex) == want
            failed += uid in stay
            passed += uid not in stay
        g.undo()
        g.dice.roll(1, 10)
    assert passed and failed


def test_a_unit_in_a_reinforcement_entry_hex_may_not_spot(monkeypatch: Any) -> None:
    from play.gts import command

    g = _setup()
    monkeypatch.setattr(command, "in_entry_hex", lambda game, u, own=True: u.id == "b-1-8")
    r = g.apply({"do": "indirect_fire", "unit": "a-1-8", "target": "c5-ii-919", "spotter": "b-1-8"})
    assert not r.ok and "reinforcement entry hex" in r.message and "[16.4]" in r.message


def test_heavy_barrage_exit_hit_goes_through_19_2_3() -> None:
    """GTS 16.6.2.2: "+2 movement points, plus a Cohesion Hit and a Troop Quality Check before it
    can move"; GTS 19.2.3: "Zero-Step Unit	The Unit is eliminated" ... "Two Cohesion Hits marker	The
    Unit takes a Step Loss" — the barrage's hit is an ordinary Cohesion Hit (results.py)."""
    g = _mover()
    barrage.state(g)["40.026"] = "heavy"
    u = g.unit("a-1-8")
    u.markers += ["cohesion_hit", "cohesion_hit"]
    steps = u.steps
    g.dice.roll = lambda n, sides: [1] * n  # type: ignore[method-assign]  # the TQ check passes
    r = g.apply({"do": "move", "unit": "a-1-8", "to": "40.027", "tq": 6})
    assert r.ok
    u = g.unit("a-1-8")
    assert u.markers.count("cohesion_hit") == 2  # no raw third marker [19.2.3]
    assert u.steps == steps - 1 or u.where == "eliminated"
    assert any(e["type"] == "result" and e.get("rule") == "GTS 19.2.3" for e in g.log)
    # a refused move gives the Step Loss back (a refusal changes nothing but the dice)
    g.undo()
    g.unit("a-1-8").markers = ["cohesion_hit", "cohesion_hit"]
    r = g.apply({"do": "move", "unit": "a-1-8", "to": "40.099", "tq": 6})
    assert not r.ok and g.unit("a-1-8").steps == steps and g.unit("a-1-8").markers.count("cohesion_hit") == 2


def test_heavy_barrage_exit_eliminates_a_zero_step_unit() -> None:
    """GTS 19.2.3: "Zero-Step Unit	The Unit is eliminated" — it neither rolls nor moves."""
    g = _mover()
    barrage.state(g)["40.026"] = "heavy"
    g.apply({"do": "place", "unit": "b-1-8", "to": "40.026"})
    g.unit("a-1-8").steps = 0
    g.dice.roll = lambda n, sides: [1] * n  # type: ignore[method-assign]
    r = g.apply({"do": "move", "units": ["a-1-8", "b-1-8"], "to": "40.027", "tq": 6})
    assert r.ok and g.unit("a-1-8").where == "eliminated"
    check = _last(g, "barrage_exit_check")
    assert check["eliminated"] == ["a-1-8"] and "a-1-8" not in check["rolls"]
    assert g.label(g.unit("b-1-8").hex) == "40.027"


def test_a_barraged_unit_has_a_one_hex_fire_zone() -> None:
    """GTS 17.3: "Remember: if a Unit has an enemy Unit adjacent to it, or is in a hex with a
    barrage marker, its Fire Range is reduced to one hex — so its Fire Zone is limited to the hexes
    adjacent to it." (15.3: Direct Fire only "Within Fire Range of the firing Unit")."""
    from play.gts import opportunity
    from play.gts.params import gts_params

    g = _setup()
    _arm(g, "c-1-8", "white", 4, 5)
    p = gts_params(g)
    free = g.apply({"do": "fire_zone", "unit": "c-1-8"})
    assert free.ok and free.data["range"] > 1
    barrage.state(g)["40.025"] = "light"
    r = g.apply({"do": "fire_zone", "unit": "c-1-8"})
    assert r.ok and r.data["range"] == 1
    here = g.unit("c-1-8").hex
    assert all(g.hex_of(h).distance(here) <= 1 for h in r.data["hexes"])
    assert opportunity.zone_range(g, g.unit("c-1-8"), p.fire, p.opportunity) == 1
