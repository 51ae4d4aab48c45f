"""SFN battle-board combat [SFN 13.1-13.8] and fire modifiers [14.0-14.3]."""

from __future__ import annotations

from test_sfn_helpers import sfn_game, to_phase

from play.game import Game
from play.sfn.state import sfn_state
from loaded_dice import LoadedDice

ABBEVILLE = [("cw-gds-armd", "2109"), ("cw-2-cdn-inf", "2109"), ("cw-51-inf", "2109"), ("cw-i-corps-arty", "2109"),
             ("cw-79-armd", "2110"), ("uk-1-ab", "2209"), ("de-9-ss-pz", "2210"), ("de-276-inf", "2210"),
             ("de-348-inf", "2211"), ("de-lxxxi-corps", "2309")]
STACK = ["cw-gds-armd", "cw-2-cdn-inf", "cw-51-inf", "cw-i-corps-arty"]


def abbeville() -> Game:
    """The 14.3 combat example: the Commonwealth stack in 2109 attacks Abbeville (2210, a city)."""
    g = sfn_game()
    for uid, hx in ABBEVILLE:
        assert g.apply({"do": "place", "unit": uid, "to": hx}).ok
    for uid in ("de-9-ss-pz", "de-276-inf"):  # both reduced in the example
        g.apply({"do": "step_loss", "unit": uid})
    to_phase(g, "allied", "movement")
    return g


def test_the_rulebook_combat_example_plays_out_as_printed() -> None:
    g = abbeville()
    # barrage 7 (miss); 276th 5 (miss), 9th SS 4 (hit 2nd Cdn); Guards 5, 6; 51st 1 (9th SS), 3 (276th).
    LoadedDice.on(g, [7, 5, 4, 5, 6, 1, 3])
    r = g.apply({"do": "attack", "attackers": STACK, "target": "2210",
                 "targets": {"cw-i-corps-arty": ["de-9-ss-pz"], "de-9-ss-pz": ["cw-2-cdn-inf"],
                             "de-276-inf": ["cw-51-inf"], "cw-gds-armd": ["de-9-ss-pz", "de-9-ss-pz"],
                             "cw-51-inf": ["de-9-ss-pz", "de-276-inf"]},
                 "retreat": True, "retreat_cancel": "de-9-ss-pz", "advance": ["cw-gds-armd"]})
    assert r.ok, r
    shots = r.data["shots"]
    # Artillery 5 anti-armor -1 city [14.2]; Guards 4 -2 (armor into a city); 51st 3/4 -1.
    assert (shots[0]["step"], shots[0]["modified"], shots[0]["hit"]) == ("barrage", 4.0, False)
    assert shots[2] | {} and shots[2]["modified"] == 6.0 and shots[2]["hit"]  # defensive fire: no terrain
    assert [s["modified"] for s in shots[3:5]] == [2.0, 2.0]
    assert [(s["field"], s["modified"], s["hit"]) for s in shots[5:]] == [("attack", 2.0, True), ("defense", 3.0, True)]
    # The reduced 2nd Canadian's values are not in the counter data: its shot is listed, not invented.
    assert r.data["not_fired"] and r.data["not_fired"][0]["unit"] == "cw-2-cdn-inf"
    assert r.data["eliminated"] == ["de-276-inf"]
    assert r.data["retreats"] == {"de-9-ss-pz": "2310"}   # as in the example
    assert g.label(g.unit("de-9-ss-pz").hex) == "2310" and g.unit("de-9-ss-pz").steps == 1
    assert g.unit("cw-2-cdn-inf").reduced and g.unit("cw-2-cdn-inf").steps == 1
    assert g.label(g.unit("cw-gds-armd").hex) == "2210"
    # The attack cost two CP [6.3]; Abbeville (illustrative 2 VP) changed hands [4.2, 11.6].
    assert sfn_state(g).command_points.points["allied"] == 0
    assert g.state.vp["german"] == 48
    assert any(e["type"] == "vp_control" and e["hex"] == "2210" and e.get("illustrative") for e in g.log)


def test_break_off_cancels_one_defensive_hit_and_skips_offensive_fire() -> None:
    g = abbeville()
    LoadedDice.on(g, [10, 10, 1])  # barrage miss, 276th miss, 9th SS hits the Guards
    r = g.apply({"do": "attack", "attackers": STACK, "target": "2210",
                 "targets": {"de-9-ss-pz": ["cw-gds-armd"]}, "break_off": True})
    assert r.ok and r.data["broke_off"]
    assert not any(s["step"] == "offensive" for s in r.data["shots"])
    assert g.unit("cw-gds-armd").steps == 2 and not g.unit("cw-gds-armd").reduced  # the hit is cancelled
    assert g.label(g.unit("cw-gds-armd").hex) == "2109"


def test_break_off_without_casualties_is_not_allowed() -> None:
    g = abbeville()
    LoadedDice.on(g, [10] * 10)
    r = g.apply({"do": "attack", "attackers": STACK, "target": "2210", "break_off": True})
    assert r.ok and not r.data["broke_off"]
    assert any("no casualties" in n for n in r.data["notes"])
    assert any(s["step"] == "offensive" for s in r.data["shots"])


def test_extra_hit_forbids_the_defender_retreat() -> None:
    g = abbeville()
    # Barrage kills the 9th SS (reduced); defence misses; Guards kill the 276th, then hit again (extra).
    LoadedDice.on(g, [1, 10, 1, 1] + [10] * 6)
    r = g.apply({"do": "attack", "attackers": STACK, "target": "2210",
                 "targets": {"cw-i-corps-arty": ["de-9-ss-pz"], "cw-gds-armd": ["de-276-inf", "de-276-inf"]},
                 "retreat": True})
    assert r.data["extra_hit"].get("allied")
    assert not r.data["retreats"] and any("extra hit" in n for n in r.data["notes"])
    assert set(r.data["eliminated"]) == {"de-9-ss-pz", "de-276-inf"}


def test_refusals_cite_their_rule_cases() -> None:
    g = abbeville()
    assert g.apply({"do": "attack", "attackers": ["cw-i-corps-arty"], "target": "2210"}).rule == "SFN 13.5"
    assert g.apply({"do": "attack", "attackers": ["cw-79-armd"], "target": "2412"}).rule == "SFN 6.3"  # not adjacent
    assert g.apply({"do": "attack", "attackers": ["cw-gds-armd", "cw-79-armd"], "target": "2210"}).rule == "SFN 6.3"
    g2 = sfn_game()
    g2.apply({"do": "place", "unit": "us-36-inf", "to": "2104"})
    to_phase(g2, "german", "combat")
    assert g2.apply({"do": "attack", "attackers": ["de-ca-garrison"], "target": "2104"}).rule == "SFN 13.8"


def test_no_attack_across_an_all_sea_hexside() -> None:
    g = sfn_game()
    g.apply({"do": "place", "unit": "us-36-inf", "to": "1909"})  # 2009/SW is all-sea [11.2]
    to_phase(g, "allied", "combat")
    r = g.apply({"do": "attack", "attackers": ["us-36-inf"], "target": "1909"})
    assert not r.ok  # own unit there: nothing to attack; now the German side
    g = sfn_game()
    g.apply({"do": "place", "unit": "de-10-ss-pz", "to": "1909"})
    to_phase(g, "allied", "combat")
    r = g.apply({"do": "attack", "attackers": ["us-36-inf"], "target": "1909"})
    assert not r.ok and r.rule == "SFN 13.1" and "all-sea" in r.message


def test_out_of_supply_modifiers() -> None:
    g = abbeville()
    g.unit("de-276-inf").markers.append("OOS")
    LoadedDice.on(g, [10] * 10)
    r = g.apply({"do": "attack", "attackers": STACK, "target": "2210",
                 "targets": {"cw-51-inf": ["de-276-inf", "de-276-inf"]}})
    by = {(s["unit"], s["target"]): s for s in r.data["shots"]}
    assert by[("cw-51-inf", "de-276-inf")]["modifiers"] == {"terrain:city": -1, "oos_target": 1}   # [14.3]
    assert by[("de-276-inf", "cw-gds-armd")]["modifiers"] == {"oos_firer": -1}


def test_combat_is_deterministic_and_undoable() -> None:
    a, b = abbeville(), abbeville()
    act = {"do": "attack", "attackers": STACK, "target": "2210", "retreat": True, "advance": "all"}
    a.apply(act)
    b.apply(act)
    assert a.log_json() == b.log_json()
    n = len(a.log)
    a.undo()
    assert len(a.log) < n and a.label(a.unit("de-9-ss-pz").hex) == "2210"


def test_river_hexside_modifiers_from_the_system_data() -> None:
    """SFN 14.2: "Non-armored units attacking across a major river hexside, or into a marsh or
    fortress hex, have their combat values modified by -2 ... (Exception: artillery fire is not
    modified for major river hexsides.) Armored/panzer units have their combat values modified
    by -3." and "Defensive fire is never modified by terrain." The values are the `fire` maps of
    sfn.yaml, read by the generic terrain effects (play/generic/terrain_combat.py)."""
    g = sfn_game()
    # Rouen (1414, a city) is across the Seine (major river 1414/S) from 1415 [12.4 example].
    for uid, hx in (("cw-gds-armd", "1415"), ("cw-51-inf", "1415"), ("cw-i-corps-arty", "1415"),
                    ("de-9-ss-pz", "1414")):
        assert g.apply({"do": "place", "unit": uid, "to": hx}).ok
    g.apply({"do": "step_loss", "unit": "de-9-ss-pz"})  # the reduced side prints values (the 14.3 example)
    to_phase(g, "allied", "movement")
    LoadedDice.on(g, [10] * 12)  # every shot misses: the whole board fires
    r = g.apply({"do": "attack", "attackers": ["cw-gds-armd", "cw-51-inf", "cw-i-corps-arty"], "target": "1414"})
    assert r.ok, r
    mods = {(s["step"], s["unit"]): s["modifiers"] for s in r.data["shots"]}
    assert mods[("barrage", "cw-i-corps-arty")] == {"terrain:city": -1}  # artillery: no river modifier
    assert mods[("offensive", "cw-gds-armd")] == {"terrain:city": -2, "hexside:major_river": -3}
    assert mods[("offensive", "cw-51-inf")] == {"terrain:city": -1, "hexside:major_river": -2}
    assert mods[("defensive", "de-9-ss-pz")] == {}


def test_the_fire_table_is_system_data() -> None:
    """SFN 13.2 / 14.1 / 13.4 come from sfn.yaml combat.crt (kind fire), not from code."""
    g = sfn_game()
    crt = g.system.combat.crt
    assert (crt.kind, crt.dice, crt.hit, crt.no_hit_at_or_below) == ("fire", "1d10", "at_or_below", 0)
    assert [(v.target_tags, v.field) for v in crt.value_fields] == [(["armor"], "attack"), ([], "defense")]
    assert g.system.combat.terrain_effects.hexside_exempt_tags == ["artillery"]


SFN_13_6 = ("4. Retreating units may not enter a friendly-occupied hex, even within normal stacking limits, "
            "if an entirely empty hex not in an EZOC is available. 5. Retreating stacks may retreat as a "
            "stack or be split up to retreat into different hexes within the strictures given above.")


def _stack_under_attack() -> Game:
    g = sfn_game()
    for uid, hx in (("cw-gds-armd", "2109"), ("cw-51-inf", "2109"), ("de-9-ss-pz", "2210"), ("de-276-inf", "2210")):
        assert g.apply({"do": "place", "unit": uid, "to": hx}).ok
    to_phase(g, "allied", "movement")
    LoadedDice.on(g, [1] + [10] * 20)  # the Guards hit the 276th once; every other shot misses
    return g


def test_a_stack_retreats_together_into_one_empty_hex() -> None:
    """SFN 13.6: "{}" The second unit of the stack is not refused the hex its stack-mate
    entered: 2310, 2309 and 2211 are all empty and outside Allied ZOC."""
    g = _stack_under_attack()
    r = g.apply({"do": "attack", "attackers": ["cw-gds-armd", "cw-51-inf"], "target": "2210",
                 "targets": {"cw-gds-armd": ["de-276-inf", "de-276-inf"]}, "retreat": True,
                 "retreat_to": {"de-9-ss-pz": "2309", "de-276-inf": "2309"}})
    assert r.ok, r
    assert r.data["retreats"] == {"de-9-ss-pz": "2309", "de-276-inf": "2309"}, r.data["notes"]
    assert not any("may not retreat" in n for n in r.data["notes"])
    assert "sfn-stack-retreat-hex-counts-as-empty" in (r.policy or "")
    # The default keeps the stack together too [13.6.5].
    g = _stack_under_attack()
    r = g.apply({"do": "attack", "attackers": ["cw-gds-armd", "cw-51-inf"], "target": "2210",
                 "targets": {"cw-gds-armd": ["de-276-inf", "de-276-inf"]}, "retreat": True})
    assert r.ok and len(set(r.data["retreats"].values())) == 1, r.data["retreats"]
test_a_stack_retreats_together_into_one_empty_hex.__doc__ = (
    test_a_stack_retreats_together_into_one_empty_hex.__doc__ or "").format(SFN_13_6)


def test_a_retreating_unit_still_avoids_a_hex_held_by_an_uninvolved_friend() -> None:
    """SFN 13.6.4 (quoted above): a hex with a German unit not in the battle is friendly-occupied,
    so it is refused while an entirely empty hex outside EZOC is available."""
    g = _stack_under_attack()
    assert g.apply({"do": "place", "unit": "de-348-inf", "to": "2309"}).ok
    r = g.apply({"do": "attack", "attackers": ["cw-gds-armd", "cw-51-inf"], "target": "2210",
                 "targets": {"cw-gds-armd": ["de-276-inf", "de-276-inf"]}, "retreat": True,
                 "retreat_to": {"de-9-ss-pz": "2309", "de-276-inf": "2309"}})
    assert r.ok and "2309" not in r.data["retreats"].values(), r.data
    assert any("empty hex outside enemy ZOC is available" in n for n in r.data["notes"])
