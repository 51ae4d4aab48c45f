"""Utah Beach Overlay: tracks, the landing subroutine with drift, mandatory landing, gaps and
clearing the beach [Excl 4.2–4.5, Err 4.5.1] on the beach-landing sample (illustrative
track levels and CRT)."""

from __future__ import annotations

from gts_helpers import game, to_phase
from play.gts import beach


def _st(g):
    return beach.state(g, g.scenario.beach_overlays[0])


def test_tracks_start_from_the_scenario_data() -> None:
    g = game()
    assert _st(g).tracks == {"obstacles": 3, "nests": 3, "gaps": 3, "sea_state": 2}


def test_lc_lands_its_battalion_and_is_removed() -> None:
    g = game(seed=3, at="activation")
    r = g.apply({"do": "land_craft", "unit": "lcvp-1", "to": "22.023"})   # a Planned hex: not eligible
    assert not r.ok and r.rule == "Excl 4.5.2" and "18.026" in r.message
    r = g.apply({"do": "land_craft", "unit": "a-1-8", "to": "18.026"})
    assert not r.ok and "aboard a Landing Craft" in r.message
    r = g.apply({"do": "land_craft", "unit": "lcvp-1", "to": "18.026"})
    assert r.ok and "(illustrative CRT)" in r.message
    types = [e["type"] for e in g.log]
    assert "landing" in types and "beach_defence" in types and "lc_removed" in types
    obstacle = next(e for e in g.log if e["type"] == "beach_defence" and e["track"] == "obstacles")
    assert obstacle["line"] == "white" and obstacle["armored"] is True and obstacle["fr"] == 3
    assert g.unit("lcvp-1").where == "offmap"
    for uid in ("a-1-8", "b-1-8", "c-1-8", "d-1-8", "ldr-van-fleet"):
        u = g.unit(uid)
        assert u.where == "eliminated" or u.hex == g.hex_of("18.026") or u.where == "box", uid


def test_unknown_track_level_cannot_run() -> None:
    g = game(at="activation")
    _st(g).tracks["obstacles"] = None
    r = g.apply({"do": "land_craft", "unit": "lcvp-1", "to": "18.026"})
    assert not r.ok and "cannot run this step" in r.message and r.rule == "Excl 4.2.1"
    assert g.unit("lcvp-1").where == "box"


def test_dd_tank_drifts_off_the_landing_hexes_back_to_its_box() -> None:
    # Uncle Red drifts "1 Left" (Actual) [Excl 4.2.1]: from 17.027, left (south) is 17.028, not a
    # landing hex, so on a Sea State roll of 9 the tank goes back to the Landing Wave box.
    for seed in range(1, 400):
        g = game(seed=seed, at="activation")
        r = g.apply({"do": "land_craft", "unit": "a-70-dd", "to": "17.027"})
        ev = next(e for e in g.log if e["type"] == "beach_defence")
        assert ev["track"] == "sea_state" and ev["line"] == "blue"
        if ev["die"] == 9:
            assert r.ok and "back to" in r.message
            assert g.unit("a-70-dd").where == "box" and g.unit("a-70-dd").box == "lw-uncle-red"
            again = g.apply({"do": "land_craft", "unit": "a-70-dd", "to": "17.027"})
            assert not again.ok and "next Naval chit" in again.message
            break
        assert g.unit("a-70-dd").hex == g.hex_of("17.027") or g.unit("a-70-dd").where == "eliminated"
    else:
        raise AssertionError("no seed rolled a 9")


def test_dd_tank_drift_within_the_landing_hexes() -> None:
    for seed in range(1, 400):
        g = game(seed=seed, at="activation")
        g.apply({"do": "land_craft", "unit": "a-70-dd", "to": "17.026"})
        ev = next(e for e in g.log if e["type"] == "beach_defence")
        if ev["die"] == 9:
            assert g.unit("a-70-dd").hex == g.hex_of("17.027")   # 1 Left = one hex south
            assert any(e["type"] == "drift" and e.get("to") == "17.027" for e in g.log)
            return
    raise AssertionError("no seed rolled a 9")


def test_landing_is_mandatory_at_the_end_of_the_allied_movement_phase() -> None:
    g = game(seed=11)
    to_phase(g, "movement", "allied")
    g.apply({"do": "next_phase"})
    landed = [e for e in g.log if e["type"] == "mandatory_landing"]
    assert {e["unit"] for e in landed} == {"lcvp-1", "a-70-dd"}
    assert all(e["rule"] == "Err 4.5.1" and "mandatory-landing-auto" in e["policy"] for e in landed)
    waiting = [u.id for u in g.state.units.values() if u.where == "box" and u.box in ("lw-tare-green", "lw-uncle-red")
               and _st(g).drifted.get(u.id) != g.state.turn]
    assert waiting == []


def test_fourth_division_stays_on_the_overlay_until_cleared() -> None:
    g = game(seed=3)
    g.apply({"do": "place", "unit": "a-1-8", "to": "18.026"})
    to_phase(g, "movement", "allied")
    r = g.apply({"do": "move", "unit": "a-1-8", "to": "19.026"})
    assert not r.ok and r.rule == "Excl 4.3.1"


def test_gaps_above_two_close_the_beach_and_open_gaps_need_column() -> None:
    g = game(seed=3, ma=6)
    g.apply({"do": "place", "unit": "a-1-502", "to": "18.026"})   # 101st: not bound by 4.3.1
    to_phase(g, "movement", "allied")
    r = g.apply({"do": "move", "unit": "a-1-502", "to": "19.026"})
    assert not r.ok and r.rule == "Excl 4.2.4" and "Gaps 3" in r.message
    r = g.apply({"do": "beach_fire", "track": "gaps", "by": 1, "unit": "a-1-502"})
    assert r.ok and "beach-fire-table-not-in-file" in str(r.policy)
    due = [e for e in g.log if e["type"] == "gap_due"]
    assert due and due[-1]["chooser"] == "german" and due[-1]["level"] == 2
    r = g.apply({"do": "open_gap", "hexside": "19.025/SE"})
    assert not r.ok and "not a Gap hexside" in r.message
    assert g.apply({"do": "open_gap", "hexside": "18.026/SE"}).ok
    r = g.apply({"do": "move", "unit": "a-1-502", "to": "19.026"})
    assert not r.ok and "in Column" in r.message
    assert g.apply({"do": "column", "unit": "a-1-502"}).ok
    r = g.apply({"do": "move", "unit": "a-1-502", "to": "19.026"})
    assert r.ok, r


def test_all_gaps_open_on_the_first_naval_chit_after_zero() -> None:
    g = game()
    g.apply({"do": "beach_fire", "track": "gaps", "by": 5})
    assert _st(g).tracks["gaps"] == 0
    assert [e["chooser"] for e in g.log if e["type"] == "gap_due"] == ["german", "allied", "allied"]
    for _ in range(10):
        r = g.apply({"do": "draw_chit"})
        if not r.ok or r.data.get("chit") == "chit-naval":
            break
    if r.ok and r.data.get("chit") == "chit-naval":
        assert _st(g).all_gaps_open is True
        assert any(e["type"] == "all_gaps_open" for e in g.log)
    else:  # the Naval chit was the last one (carried): still closed
        assert _st(g).all_gaps_open is False


def test_clearing_the_beach_and_its_effect() -> None:
    g = game()
    for track in ("obstacles", "nests", "gaps"):
        g.apply({"do": "beach_fire", "track": track, "by": 3})
    assert not _st(g).cleared          # German units are within 3 hexes of 20.025
    for uid in ("wn-5", "c5-ii-919", "ldr-919", "c6-ii-919"):
        g.apply({"do": "place", "unit": uid, "to": "60.040"})
    r = g.apply({"do": "roll", "dice": "1d6"})
    assert _st(g).cleared is True
    ev = next(e for e in g.log if e["type"] == "beach_cleared")
    assert ev["rule"] == "Excl 4.3.2"
    g.apply({"do": "place", "unit": "a-1-502", "to": "19.026"})
    to_phase(g, "movement", "allied")
    r = g.apply({"do": "move", "unit": "a-1-502", "to": "18.026"})
    assert not r.ok and r.rule == "Excl 4.3.3"
    r = g.apply({"do": "beach_fire", "track": "sea_state", "by": 1})
    assert not r.ok and "Sea State cannot" in r.message
