"""SFN VP tracking [4.0] and hex control [11.6]."""

from __future__ import annotations

from test_sfn_helpers import sfn_game, to_phase
from play.sfn.state import sfn_state


def test_start_vp_and_every_vp_hex_german() -> None:
    g = sfn_game()
    assert g.state.vp == {"german": 50}
    ctl = sfn_state(g).victory.control
    assert len(ctl) == 14 and set(ctl.values()) == {"german"}
    start = next(e for e in g.log if e["type"] == "vp_start")
    assert start["points"] == 50  # the map's values add up to 4.2's fifty points
    d = sfn_game("dieppe-landing")
    assert next(e for e in d.log if e["type"] == "vp_start")["vp"] == {"german": 49}
    # Fecamp (1211) lies in the uncontested ZOC of the Utah (Dieppe) landing at once [11.6].
    assert [(e["hex"], e["delta"]) for e in d.log if e["type"] == "vp_control"] == [("1211", -1)]


def test_occupying_and_uncontested_zoc_switch_control() -> None:
    g = sfn_game()
    g.apply({"do": "place", "unit": "cw-51-inf", "to": "2412"})   # Amiens, 4 (illustrative)
    assert g.state.vp["german"] == 46
    assert sfn_state(g).victory.control["2412"] == "allied"
    g.apply({"do": "place", "unit": "cw-51-inf", "to": "2512"})   # adjacent, uncontested: stays Allied
    assert sfn_state(g).victory.control["2412"] == "allied"
    g.apply({"do": "place", "unit": "de-276-inf", "to": "2411"})  # German ZOC contests: no change [11.6]
    assert sfn_state(g).victory.control["2412"] == "allied"
    g.apply({"do": "place", "unit": "de-276-inf", "to": "2412"})  # recaptured [4.2]
    assert g.state.vp["german"] == 50


def test_beachhead_capture_scores_three_once() -> None:
    g = sfn_game()
    for uid in ("cw-1-cdn-inf",):
        g.apply({"do": "place", "unit": uid, "to": "box:england"})
    g.apply({"do": "place", "unit": "de-276-inf", "to": "2007"})
    assert g.state.vp["german"] == 53
    g.apply({"do": "place", "unit": "de-276-inf", "to": "2211"})
    g.apply({"do": "place", "unit": "cw-1-cdn-inf", "to": "2007"})
    g.apply({"do": "place", "unit": "cw-1-cdn-inf", "to": "box:england"})
    g.apply({"do": "place", "unit": "de-276-inf", "to": "2007"})
    assert g.state.vp["german"] == 53  # never more than three per beachhead [4.3]


def test_zero_vp_ends_the_game() -> None:
    g = sfn_game()
    g.state.vp["german"] = 2
    g.apply({"do": "place", "unit": "cw-51-inf", "to": "2412"})
    assert g.state.over and any(e["type"] == "victory" and e["winner"] == "allied" for e in g.log)
