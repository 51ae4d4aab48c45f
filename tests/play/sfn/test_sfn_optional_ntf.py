"""SFN 15.1 Naval Task Force and 15.9 British 79th Armored in test play."""

from __future__ import annotations

from test_sfn_optional_helpers import events, game, place, shots, to_phase, to_turn

from play.sfn.optional.great_storms import GreatStorms
from play.sfn.state import sfn_state
from loaded_dice import LoadedDice


def test_ntf_supports_an_attack_into_a_coastal_hex() -> None:
    g = game()
    place(g, {"cw-51-inf": "2105", "de-276-inf": "2104"}, reduce=("de-276-inf",))
    to_phase(g, "allied", "movement")
    LoadedDice.on(g, then_seeded=True, faces=[10])  # the defender's shot misses: the 51st keeps its printed values
    r = g.apply({"do": "attack", "attackers": ["cw-51-inf"], "target": "2104", "ntf": True})
    assert r.ok, r
    e = events(g, "ntf")[-1]
    assert e["mode"] == "attacking" and e["modifier"] == 1 and e["rule"] == "SFN 15.1"
    assert shots(g, "cw-51-inf") and all(s["modifiers"].get("ntf") == 1 for s in shots(g, "cw-51-inf"))
    assert not any("ntf" in s["modifiers"] for s in shots(g, "de-276-inf"))


def test_ntf_never_inland_and_once_per_game_turn() -> None:
    g = game()
    place(g, {"cw-51-inf": "2104", "de-276-inf": "2105", "cw-gds-armd": "2106", "de-348-inf": "2107"},
          reduce=("de-276-inf",))
    to_phase(g, "allied", "movement")
    cp = dict(sfn_state(g).command_points.points)
    r = g.apply({"do": "attack", "attackers": ["cw-51-inf"], "target": "2105", "ntf": True})
    assert not r.ok and r.rule == "SFN 15.1" and "not a coastal hex" in r.message
    assert sfn_state(g).command_points.points == cp and not shots(g)  # refused before any die or CP
    g2 = game()
    place(g2, {"cw-51-inf": "2105", "de-276-inf": "2104", "cw-gds-armd": "2106", "de-9-ss-pz": "2007"},
          reduce=("de-276-inf", "de-9-ss-pz"))
    g2.apply({"do": "place", "unit": "cw-1-cdn-inf", "to": "2008"})
    g2.apply({"do": "set_cp_bonus", "side": "allied", "bonus": 3})  # 5 CP: room for two attacks
    to_phase(g2, "allied", "movement")
    assert g2.apply({"do": "attack", "attackers": ["cw-51-inf"], "target": "2104", "ntf": True}).ok
    r = g2.apply({"do": "attack", "attackers": ["cw-gds-armd"], "target": "2007", "ntf": True})
    assert not r.ok and r.rule == "SFN 15.1" and "already used this game turn" in r.message


def test_ntf_plus_two_for_allied_defenders_in_a_coastal_hex() -> None:
    g = game()
    place(g, {"cw-51-inf": "2104", "de-9-ss-pz": "2105"}, reduce=("de-9-ss-pz",))
    to_phase(g, "german", "movement")
    r = g.apply({"do": "attack", "attackers": ["de-9-ss-pz"], "target": "2104", "ntf": True})
    assert r.ok, r
    assert events(g, "ntf")[-1]["mode"] == "defending"
    assert shots(g, "cw-51-inf") and all(s["modifiers"].get("ntf") == 2 for s in shots(g, "cw-51-inf"))
    assert not any("ntf" in s["modifiers"] for s in shots(g, "de-9-ss-pz"))


def test_no_ntf_in_a_storm_and_when_the_rule_is_off() -> None:
    g = game()
    place(g, {"cw-51-inf": "2105", "de-276-inf": "2104"}, reduce=("de-276-inf",))
    to_phase(g, "allied", "movement")
    storms = next(p for p in g.procedures if isinstance(p, GreatStorms))
    storms.set_storm(g, True)
    r = g.apply({"do": "attack", "attackers": ["cw-51-inf"], "target": "2104", "ntf": True})
    assert not r.ok and r.rule == "SFN 15.2"
    from test_sfn_helpers import sfn_game

    g2 = sfn_game("calais-landing-playtest")
    place(g2, {"cw-51-inf": "2105", "de-276-inf": "2104"}, reduce=("de-276-inf",))
    to_phase(g2, "allied", "movement")
    r = g2.apply({"do": "attack", "attackers": ["cw-51-inf"], "target": "2104", "ntf": True})
    assert not r.ok and r.rule == "SFN 15.0" and "naval_task_force" in r.message


# --- 79th Armored [15.9] -------------------------------------------------------------------


def _illustrative_79th(g) -> None:  # type: ignore[no-untyped-def]
    # The sample counter prints no values (unknown); these are illustrative test values.
    c = g.counters["cw-79-armd"]
    c.front.values.update({"attack": 5, "defense": 5})


def test_79th_terrain_modifiers_one_smaller_for_it_only() -> None:
    g = game()
    _illustrative_79th(g)
    # 2210 is a city: -1 non-armor, -2 armor [14.2]; the defender is armor (9th SS).
    place(g, {"cw-79-armd": "2109", "cw-gds-armd": "2109", "de-9-ss-pz": "2210"}, reduce=("de-9-ss-pz",))
    to_phase(g, "allied", "movement")
    LoadedDice.on(g, then_seeded=True, faces=[10, 10, 10, 10, 10, 10, 10, 10])  # every shot misses: the board stays full
    assert g.apply({"do": "attack", "attackers": ["cw-79-armd", "cw-gds-armd"], "target": "2210"}).ok
    s79 = shots(g, "cw-79-armd")
    assert s79 and all(s["modifiers"]["terrain:city"] == -2 and s["modifiers"]["armored_79th"] == 1 for s in s79)
    assert all(s["modified"] == 5 - 2 + 1 for s in s79)
    assert all("armored_79th" not in s["modifiers"] for s in shots(g, "cw-gds-armd"))
    assert events(g, "armored_79th")[-1]["rule"] == "SFN 15.9"


def test_79th_not_on_defence_and_not_when_off() -> None:
    g = game()
    _illustrative_79th(g)
    place(g, {"cw-79-armd": "2210", "de-9-ss-pz": "2211"}, reduce=("de-9-ss-pz",))
    to_phase(g, "german", "movement")
    LoadedDice.on(g, then_seeded=True, faces=[10, 10, 10, 10])
    assert g.apply({"do": "attack", "attackers": ["de-9-ss-pz"], "target": "2210"}).ok
    assert shots(g, "cw-79-armd") and all("armored_79th" not in s["modifiers"] for s in shots(g, "cw-79-armd"))
    from test_sfn_helpers import sfn_game

    g2 = sfn_game("calais-landing-playtest")
    _illustrative_79th(g2)
    place(g2, {"cw-79-armd": "2109", "de-9-ss-pz": "2210"}, reduce=("de-9-ss-pz",))
    to_phase(g2, "allied", "movement")
    LoadedDice.on(g2, then_seeded=True, faces=[10, 10, 10, 10])
    assert g2.apply({"do": "attack", "attackers": ["cw-79-armd"], "target": "2210"}).ok
    assert all("armored_79th" not in s["modifiers"] for s in shots(g2))


def test_unknown_values_stay_unknown_for_the_79th() -> None:
    g = game()
    place(g, {"cw-79-armd": "2109", "cw-gds-armd": "2109", "de-9-ss-pz": "2210"}, reduce=("de-9-ss-pz",))
    to_turn(g, 1)
    to_phase(g, "allied", "movement")
    r = g.apply({"do": "attack", "attackers": ["cw-79-armd", "cw-gds-armd"], "target": "2210"})
    assert r.ok and not shots(g, "cw-79-armd")
    assert any(n["unit"] == "cw-79-armd" for n in r.data["not_fired"])
