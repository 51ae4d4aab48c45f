"""SFN box-to-map entry [7.3, 6.2] and strategic movement [12.5]."""

from __future__ import annotations

from test_sfn_helpers import sfn_game, to_phase
from play.sfn.state import sfn_state


def labels(game, hexes) -> set[str]:  # type: ignore[no-untyped-def]
    return {game.label(h) for h in hexes}


def test_england_box_entry_by_nationality_and_active_area() -> None:
    g = sfn_game()
    proc = next(p for p in g.procedures if hasattr(p, "strategic_move"))
    all_entries = g.box_entry_hexes("england")
    us = proc.box_entries(g, [g.unit("us-82-ab")], "england", all_entries)
    cw = proc.box_entries(g, [g.unit("cw-gds-armd")], "england", all_entries)
    # Utah/Omaha for US, Gold/Juno/Sword for the Commonwealth, Calais beaches only [7.3, 3.3].
    assert labels(g, us) == {"1910", "2009"}
    assert labels(g, cw) == {"2006", "2007", "2008"}


def test_commonwealth_unit_lands_through_its_own_beaches() -> None:
    g = sfn_game()
    to_phase(g, "allied", "movement")
    r = g.apply({"do": "move", "unit": "cw-gds-armd", "to": "2107"})
    assert r.ok, r
    assert r.data["path"][0] in {"2006", "2007", "2008"}


def test_one_unit_per_command_out_of_a_box() -> None:
    g = sfn_game()
    to_phase(g, "allied", "movement")
    r = g.apply({"do": "move", "units": ["cw-gds-armd", "cw-51-inf"], "to": "2008"})
    assert not r.ok and r.rule == "SFN 6.2"


def test_north_and_south_boxes_enter_through_their_edges() -> None:
    g = sfn_game()
    proc = next(p for p in g.procedures if hasattr(p, "strategic_move"))
    south = labels(g, proc.box_entries(g, [g.unit("de-10-ss-pz")], "south", []))
    assert {"4013", "3421"} <= south and "3100" not in south
    north = labels(g, proc.box_entries(g, [g.unit("de-20-30-schnell")], "north", []))
    assert {"3100", "2828"} <= north


def test_strategic_move_doubles_the_movement_factor() -> None:
    g = sfn_game()
    g.apply({"do": "place", "unit": "cw-51-inf", "to": "1813"})
    to_phase(g, "allied", "movement")
    r = g.apply({"do": "strategic_move", "unit": "cw-51-inf", "to": "1718"})
    assert r.ok, r
    assert r.data["mp"] == 6.0 and r.data["cost"] == 6.0  # printed 3, doubled [12.5]
    assert sfn_state(g).command_points.points["allied"] == 1     # one CP like a Move command [12.5]
    # A normal move could not have gone that far: 6 hexes with MA 3.
    g2 = sfn_game()
    g2.apply({"do": "place", "unit": "cw-51-inf", "to": "1813"})
    to_phase(g2, "allied", "movement")
    assert not g2.apply({"do": "move", "unit": "cw-51-inf", "to": "1718"}).ok


def test_strategic_move_refused_in_or_into_enemy_zoc() -> None:
    g = sfn_game()
    g.apply({"do": "place", "unit": "cw-51-inf", "to": "2107"})
    g.apply({"do": "place", "unit": "de-276-inf", "to": "2108"})  # 2107 is in its ZOC
    to_phase(g, "allied", "movement")
    r = g.apply({"do": "strategic_move", "unit": "cw-51-inf", "to": "2111"})
    assert not r.ok and r.rule == "SFN 12.5" and "enemy ZOC" in r.message
    g = sfn_game()
    g.apply({"do": "place", "unit": "cw-51-inf", "to": "2105"})
    g.apply({"do": "place", "unit": "de-276-inf", "to": "2109"})
    to_phase(g, "allied", "movement")
    r = g.apply({"do": "strategic_move", "unit": "cw-51-inf", "to": "2108"})  # next to the 276th
    assert not r.ok and "enemy ZOC" in r.message


def test_no_strategic_move_out_of_england_or_when_out_of_supply() -> None:
    g = sfn_game()
    to_phase(g, "allied", "movement")
    r = g.apply({"do": "strategic_move", "unit": "cw-51-inf", "to": "2107"})
    assert not r.ok and r.rule == "SFN 12.5"
    g.apply({"do": "place", "unit": "cw-2-cdn-inf", "to": "1813"})
    g.unit("cw-2-cdn-inf").markers.append("OOS")
    r = g.apply({"do": "strategic_move", "unit": "cw-2-cdn-inf", "to": "1815"})
    assert not r.ok and "out-of-supply" in r.message


def test_german_strategic_move_from_the_south_box_and_between_boxes() -> None:
    g = sfn_game()
    to_phase(g, "german", "movement")
    r = g.apply({"do": "strategic_move", "unit": "de-10-ss-pz", "to": "3421"})
    assert r.ok, r
    r = g.apply({"do": "strategic_move", "unit": "de-9-ss-pz", "to": "box:north"})
    assert r.ok and g.unit("de-9-ss-pz").box == "north"
    r = g.apply({"do": "strategic_move", "unit": "de-1-para", "to": "box:north"})
    assert not r.ok and r.rule == "SFN 12.5"  # one unit per game turn


# --- zones of control in ordinary movement [11.1-11.4] ----------------------------------------

SFN_11_4 = ("A moving unit must end its move for that command point when it first enters an EZOC. "
            "A unit that begins its move already in an EZOC may freely leave that hex, but it must stop "
            "as soon as it enters another hex with an EZOC. Thus units may move directly from EZOC to "
            "EZOC in one movement command, but may then go no farther that phase. Friendly units don't "
            "negate EZOCs for movement purposes.")


def test_audited_move_through_a_german_zoc_is_refused() -> None:
    """SFN 11.4: "{}" The audit's move 2006 -> 2105 (the Boulogne garrison's ZOC) -> 2205 was
    accepted; 2006 is itself in that ZOC, so the unit may step into 2105 and no farther."""
    g = sfn_game("calais-landing-playtest")
    to_phase(g, "allied", "movement")
    from play.generic.zoc import enemy_zoc_hexes
    ezoc = labels(g, enemy_zoc_hexes(g, "allied", g.system.zoc))
    assert {"2006", "2105"} <= ezoc and "2205" not in ezoc  # de-bo-garrison in 2005 [11.1]
    r = g.apply({"do": "move", "unit": "cw-5-inf", "to": "2205"})
    assert not r.ok and r.rule == "SFN 11.4", r
    r = g.apply({"do": "move", "unit": "cw-5-inf", "to": "2105"})  # EZOC to EZOC: allowed
    assert r.ok, r
    assert any(e["type"] == "zoc_stop" and e["hex"] == "2105" and e["rule"] == "SFN 11.4" for e in g.log)
    # "... but may then go no farther that phase"
    r = g.apply({"do": "move", "unit": "cw-5-inf", "to": "2205"})
    assert not r.ok and r.rule == "SFN 11.4"
test_audited_move_through_a_german_zoc_is_refused.__doc__ = (
    test_audited_move_through_a_german_zoc_is_refused.__doc__ or "").format(SFN_11_4)


def test_entering_an_enemy_zoc_ends_the_move_and_friends_do_not_negate_it() -> None:
    """SFN 11.4 (quoted above): a unit from a ZOC-free hex stops in the first EZOC hex it enters,
    a friendly unit in that hex or not."""
    g = sfn_game("calais-landing-playtest")
    g.apply({"do": "place", "unit": "cw-7-armd", "to": "2213"})   # armor: illustrative MA 3
    g.apply({"do": "place", "unit": "cw-46-inf", "to": "2212"})   # a friend in the EZOC hex
    to_phase(g, "allied", "movement")
    from play.generic.zoc import enemy_zoc_hexes
    ezoc = labels(g, enemy_zoc_hexes(g, "allied", g.system.zoc))
    assert "2213" not in ezoc and "2212" in ezoc  # de-276-inf in 2211
    reach, _ = g.legal_moves([g.unit("cw-7-armd")])
    assert reach is not None and g.hex_of("2212") in reach.cost
    assert not [h for h, p in reach.parent.items() if p == g.hex_of("2212")]  # no step on from it
    assert g.apply({"do": "move", "unit": "cw-7-armd", "to": "2212"}).ok
    r = g.apply({"do": "move", "unit": "cw-7-armd", "to": "2313"})  # 1 MP left, but stopped
    assert not r.ok and r.rule == "SFN 11.4", r


def test_no_zoc_across_an_all_sea_hexside() -> None:
    """SFN 11.2: "Units never exert ZOC across all-sea hexsides. For example, a unit in hex 2009
    does not exert a ZOC into hex 1909." """
    g = sfn_game("calais-landing-playtest")
    from play.generic.zoc import enemy_zoc_hexes
    g.apply({"do": "place", "unit": "de-276-inf", "to": "2009"})
    ezoc = labels(g, enemy_zoc_hexes(g, "allied", g.system.zoc))
    assert "1909" not in ezoc and "2010" in ezoc


def test_a_unit_entering_from_the_england_box_stops_in_an_enemy_zoc() -> None:
    """SFN 7.3 (the entry hex is the first hex of movement) with 11.4 (quoted above): a unit
    landing on a beach in an EZOC ends its move there."""
    g = sfn_game("calais-landing-playtest")
    g.apply({"do": "place", "unit": "de-276-inf", "to": "2107"})  # 2006, 2007, 2008 all in its ZOC
    to_phase(g, "allied", "movement")
    r = g.apply({"do": "move", "unit": "cw-51-inf", "to": "2106"})  # beach (EZOC) -> 2106
    assert not r.ok and r.rule == "SFN 11.4", r
    r = g.apply({"do": "move", "unit": "cw-51-inf", "to": "2007"})
    assert r.ok, r
