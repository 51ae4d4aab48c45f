"""SFN 15.3 Tactical Air Power and 15.4 Strategic Air Forces in test play."""

from __future__ import annotations

from test_sfn_optional_helpers import events, game, place, shots, to_phase, to_turn
from play.sfn.state import sfn_state
from loaded_dice import LoadedDice


def _contested_battle(seed: int = 1, lgas_roll: int = 2):  # type: ignore[no-untyped-def]
    g = game(seed)
    to_turn(g, 5)
    r = g.apply({"do": "declare_air", "contest": True})
    assert r.ok and r.rule == "SFN 15.3", r
    place(g, {"cw-51-inf": "2110", "de-276-inf": "2211"}, reduce=("de-276-inf",))
    to_phase(g, "allied", "movement")
    LoadedDice.on(g, then_seeded=True, faces=[lgas_roll])
    return g


def test_contest_costs_one_vp_and_lgas_modifies_both_sides() -> None:
    g = _contested_battle(lgas_roll=3)
    vp = [e for e in events(g, "vp") if e.get("reason") == "contest air superiority"]
    assert vp and vp[0]["delta"] == -1 and vp[0]["rule"] == "SFN 15.3"
    assert g.state.vp["german"] == 49
    r = g.apply({"do": "attack", "attackers": ["cw-51-inf"], "target": "2211"})
    assert r.ok, r
    check = events(g, "lgas_check")[-1]
    assert check["roll"] == 3 and check["lgas"] and check["rule"] == "SFN 15.3"
    assert all(s["modifiers"].get("lgas") == -1 for s in shots(g, "cw-51-inf"))
    assert all(s["modifiers"].get("lgas") == 1 for s in shots(g, "de-276-inf"))


def test_lgas_roll_of_4_is_no_effect_and_record_is_cleared() -> None:
    g = _contested_battle(lgas_roll=4)
    assert g.apply({"do": "attack", "attackers": ["cw-51-inf"], "target": "2211"}).ok
    assert events(g, "lgas_check")[-1]["lgas"] is False
    assert not any("lgas" in s["modifiers"] for s in shots(g))
    assert sfn_state(g).battle is None


def test_contested_period_is_five_turns() -> None:
    g = game()
    to_turn(g, 5)
    g.apply({"do": "declare_air", "contest": True})
    place(g, {"cw-51-inf": "2110", "de-276-inf": "2211"}, reduce=("de-276-inf",))
    to_turn(g, 10)
    g.apply({"do": "declare_air", "contest": False})  # turn 10: the next declaration
    to_phase(g, "allied", "movement")
    n = len(events(g, "lgas_check"))
    assert g.apply({"do": "attack", "attackers": ["cw-51-inf"], "target": "2211"}).ok
    assert len(events(g, "lgas_check")) == n  # turn 10 not contested: no check


def test_declaration_refusals() -> None:
    g = game()
    r = g.apply({"do": "declare_air", "contest": True})
    assert not r.ok and r.rule == "SFN 15.3" and "not an 'Air' declaration turn" in r.message
    to_turn(g, 5)
    to_phase(g, "german", "movement")
    r = g.apply({"do": "declare_air", "contest": True})
    assert not r.ok and r.policy and r.policy.startswith("sfn-admin-phase")
    g2 = game()
    to_turn(g2, 5)
    assert g2.apply({"do": "declare_air", "contest": False}).ok
    r = g2.apply({"do": "declare_air", "contest": True})
    assert not r.ok and "already declared" in r.message


def test_undeclared_turn_is_logged_as_no_contest() -> None:
    g = game()
    to_turn(g, 6)
    e = events(g, "air_declaration")[-1]
    assert e["undeclared"] and e["contest"] is False and e["policy"].startswith("air-undeclared-is-no-contest")


# --- SAF [15.4] ----------------------------------------------------------------------------


def _saf_day(table_roll: int, seed: int = 1):  # type: ignore[no-untyped-def]
    g = game(seed)
    to_phase(g, "allied", "reinforcement")
    r = g.apply({"do": "plot_saf", "hex": "2211", "turn": 3})
    assert r.ok and r.rule == "SFN 15.4", r
    to_turn(g, 3)
    place(g, {"cw-51-inf": "2110", "de-276-inf": "2211"}, reduce=("de-276-inf",))
    to_phase(g, "allied", "movement")
    LoadedDice.on(g, then_seeded=True, faces=[table_roll])
    return g


def test_saf_plot_refusals() -> None:
    g = game()
    to_phase(g, "allied", "reinforcement")
    for turn, why in [(2, "2 to 7"), (9, "2 to 7")]:
        r = g.apply({"do": "plot_saf", "hex": "2211", "turn": turn})
        assert not r.ok and r.rule == "SFN 15.4" and why in r.message, r
    assert g.apply({"do": "plot_saf", "hex": "2211", "turn": 4}).ok
    r = g.apply({"do": "plot_saf", "hex": "2210", "turn": 5})
    assert not r.ok and "still open" in r.message and "saf-one-open-plan" in (r.policy or "")
    assert g.apply({"do": "cancel_saf"}).ok
    r = g.apply({"do": "plot_saf", "hex": "2210", "turn": 4})
    assert r.ok, r  # the cancelled plan no longer holds the day
    to_phase(g, "allied", "movement")
    r = g.apply({"do": "plot_saf", "hex": "2210", "turn": 6})
    assert not r.ok and r.rule == "SFN 15.4" and "administrative phase" in r.message


def test_saf_modifier_applies_to_attacking_fire_only() -> None:
    g = _saf_day(8)  # 7-9: +2
    assert g.apply({"do": "attack", "attackers": ["cw-51-inf"], "target": "2211"}).ok
    strike = events(g, "saf_strike")[-1]
    assert strike["roll"] == 8 and strike["modifier"] == 2 and strike["rule"] == "SFN 15.4"
    assert all(s["modifiers"].get("saf") == 2 for s in shots(g, "cw-51-inf"))
    assert not any("saf" in s["modifiers"] for s in shots(g, "de-276-inf"))


def test_saf_fiasco_cancels_the_attack_spends_cp_and_scores_a_vp() -> None:
    g = _saf_day(1)
    vp = g.state.vp["german"]
    r = g.apply({"do": "attack", "attackers": ["cw-51-inf"], "target": "2211"})
    assert r.ok and r.rule == "SFN 15.4" and "fiasco" in r.message
    assert not shots(g) and g.state.vp["german"] == vp + 1
    assert sfn_state(g).command_points.points["allied"] == 0  # 2 CP spent [15.4, 6.3]
    g.apply({"do": "set_cp_bonus", "side": "allied", "bonus": 0})
    r = g.apply({"do": "move", "unit": "cw-51-inf", "to": "2109"})
    assert not r.ok  # the involved units may not move that turn


def test_saf_no_show_may_cancel_or_go_ahead() -> None:
    g = _saf_day(2)
    r = g.apply({"do": "attack", "attackers": ["cw-51-inf"], "target": "2211", "saf_cancel": True})
    assert r.ok and "no-show" in r.message and not shots(g)
    g2 = _saf_day(3)
    assert g2.apply({"do": "attack", "attackers": ["cw-51-inf"], "target": "2211"}).ok
    assert shots(g2) and not any("saf" in s["modifiers"] for s in shots(g2))
    assert events(g2, "saf_strike")[-1]["policy"].startswith("saf-no-show-attacks")


def test_no_lgas_in_an_saf_battle_and_unused_plan_is_forfeit() -> None:
    g = game()
    to_turn(g, 5)
    g.apply({"do": "declare_air", "contest": True})
    to_phase(g, "allied", "reinforcement")
    assert g.apply({"do": "plot_saf", "hex": "2211", "turn": 7}).ok
    assert g.apply({"do": "cancel_saf"}).ok
    assert g.apply({"do": "plot_saf", "hex": "2211", "turn": 8}).ok
    to_turn(g, 8)
    place(g, {"cw-51-inf": "2110", "de-276-inf": "2211"}, reduce=("de-276-inf",))
    to_phase(g, "allied", "movement")
    LoadedDice.on(g, then_seeded=True, faces=[5])
    assert g.apply({"do": "attack", "attackers": ["cw-51-inf"], "target": "2211"}).ok
    assert events(g, "lgas_check")[-1]["skipped"] == "SAF participation plotted"
    g2 = game()
    to_phase(g2, "allied", "reinforcement")
    g2.apply({"do": "plot_saf", "hex": "2211", "turn": 3})
    to_turn(g2, 4)
    f = events(g2, "saf_forfeit")
    assert f and f[0]["turn_planned"] == 3 and f[0]["rule"] == "SFN 15.4"
    assert sfn_state(g2).optional.strategic_air.plans[0].status == "forfeit"


def test_air_rules_are_optional() -> None:
    from test_sfn_helpers import sfn_game

    g = sfn_game("calais-landing-playtest")
    r = g.apply({"do": "declare_air", "contest": True})
    assert not r.ok and r.rule == "SFN 15.0" and "optional_rules.tactical_air" in r.message
    to_phase(g, "allied", "reinforcement")
    r = g.apply({"do": "plot_saf", "hex": "2211", "turn": 3})
    assert not r.ok and r.rule == "SFN 15.0"


def test_lgas_is_checked_in_german_attacks_too() -> None:
    g = game()
    to_turn(g, 5)
    assert g.apply({"do": "declare_air", "contest": True}).ok
    place(g, {"cw-51-inf": "2110", "de-9-ss-pz": "2211"}, reduce=("de-9-ss-pz",))
    to_phase(g, "german", "movement")
    LoadedDice.on(g, then_seeded=True, faces=[1])
    assert g.apply({"do": "attack", "attackers": ["de-9-ss-pz"], "target": "2110"}).ok
    assert events(g, "lgas_check")[-1]["lgas"] is True
    assert all(s["modifiers"].get("lgas") == 1 for s in shots(g, "de-9-ss-pz"))
    assert all(s["modifiers"].get("lgas") == -1 for s in shots(g, "cw-51-inf"))


def test_after_a_fiasco_no_other_attack_into_the_hex() -> None:
    g = game()
    g.apply({"do": "set_cp_bonus", "side": "allied", "bonus": 3})
    to_phase(g, "allied", "reinforcement")
    assert g.apply({"do": "plot_saf", "hex": "2211", "turn": 3}).ok
    to_turn(g, 3)
    place(g, {"cw-51-inf": "2110", "cw-gds-armd": "2212", "de-276-inf": "2211"}, reduce=("de-276-inf",))
    to_phase(g, "allied", "movement")
    LoadedDice.on(g, then_seeded=True, faces=[1])
    assert "fiasco" in g.apply({"do": "attack", "attackers": ["cw-51-inf"], "target": "2211"}).message
    r = g.apply({"do": "attack", "attackers": ["cw-gds-armd"], "target": "2211"})
    assert not r.ok and "already attacked" in r.message


def test_no_optional_effects_when_the_rules_are_off() -> None:
    from test_sfn_helpers import sfn_game

    g = sfn_game("calais-landing-playtest")
    place(g, {"cw-51-inf": "2105", "de-276-inf": "2104"}, reduce=("de-276-inf",))
    to_phase(g, "allied", "movement")
    LoadedDice.on(g, then_seeded=True, faces=[10])
    assert g.apply({"do": "attack", "attackers": ["cw-51-inf"], "target": "2104"}).ok
    assert shots(g) and all(not set(s["modifiers"]) & {"ntf", "saf", "lgas", "armored_79th"} for s in shots(g))
    assert not [e for e in g.log if e["type"] in ("lgas_check", "saf_strike", "ntf", "armored_79th")]
