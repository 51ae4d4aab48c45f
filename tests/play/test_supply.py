"""SFN supply [9.0]: paths to the sources, enemy units and ZOC cut them, OOS markers and MA 1."""

from __future__ import annotations

from conftest import REPO
from model.bundle import load_bundle
from play.game import Game

SFN = REPO / "scenarios" / "second-front-now"


def _game() -> Game:
    loaded = load_bundle(SFN)
    assert loaded.bundle is not None
    return Game(loaded.bundle, "calais-landing", seed=9)


def _supply_events(g: Game) -> list[dict]:
    return [e for e in g.log if e["type"] == "supply"]


def test_everyone_starts_supplied_and_the_check_is_logged() -> None:
    """At the start both sides trace supply [9.2]; the policy names when the check runs."""
    g = _game()
    g.apply({"do": "check_supply", "side": "allied"})
    events = _supply_events(g)
    assert {e["supply_side"] for e in events} == {"german", "allied"}
    assert all(e["unsupplied"] == [] for e in events)
    # The check is step I.A.5 of the German Administrative Phase, run as that phase begins.
    assert events[0]["phase"] == "german_admin" and events[0]["rule"] == "SFN 9.2"
    assert events[0]["policy"].startswith("supply-check-at-admin-phase-start:")


SFN_9_2 = ("Check the supply status of all units of both sides during step A.5 of the German player turn "
           "and step A.6 of the Allied. The supply status determined for each unit at those times lasts "
           "until the next player turn's supply check step.")


def test_both_sides_are_checked_at_each_player_turns_supply_step() -> None:
    """SFN 9.2: "Check the supply status of all units of both sides during step A.5 of the German
    player turn and step A.6 of the Allied. ..." A German unit cut off in the German turn is OOS
    from the Allied A.6 check on, so the 14.3 modifiers of the Allied turn read that status."""
    g = _game()
    starts = [e for e in _supply_events(g)]
    assert [e["supply_side"] for e in starts] == ["german", "allied"]  # German A.5: both sides
    for _ in range(50):  # on to the German Command & Action Phase, where units move [SFN 5.2]
        if g.phase.permits("move") and g.phase.side == "german":
            break
        g.apply({"do": "next_phase"})
    assert g.phase.permits("move") and g.phase.side == "german"
    assert g.apply({"do": "place", "unit": "de-10-ss-pz", "to": "2614"}).ok
    _ring_of_allies(g, "2614", 2)
    assert "OOS" not in g.unit("de-10-ss-pz").markers  # no check until the next supply step
    for _ in range(50):
        if g.phase.side == "allied":
            break
        g.apply({"do": "next_phase"})
    allied_start = _supply_events(g)[len(starts):]
    assert [e["supply_side"] for e in allied_start] == ["allied", "german"]  # Allied A.6: both sides
    assert all(e["rule"] == "SFN 9.2" for e in allied_start)
    assert "de-10-ss-pz" in allied_start[1]["unsupplied"]
    assert "OOS" in g.unit("de-10-ss-pz").markers


def _ring_of_allies(g: Game, centre: str, radius: int) -> list[str]:
    allies = sorted(uid for uid, c in g.counters.items() if c.side == "allied")
    ring = [h for h in g.hmap.parse(centre).ring(radius) if g.hmap.contains(h)]
    assert len(ring) == 6 * radius
    for uid, h in zip(allies, ring):
        assert g.apply({"do": "place", "unit": uid, "to": g.label(h)}).ok
    return allies[: len(ring)]


def test_enemy_zoc_ring_cuts_supply_then_oos_unit_moves_one_hex() -> None:
    """A German unit whose every path runs into an Allied ZOC is OOS [9.3, 11.3]: it gets the
    OOS marker and its MA becomes 1 [9.1]; lifting the ring restores supply and the marker goes."""
    g = _game()
    assert g.apply({"do": "place", "unit": "de-10-ss-pz", "to": "2614"}).ok
    placed = _ring_of_allies(g, "2614", 2)
    res = g.apply({"do": "check_supply", "side": "german"})
    assert res.ok and "de-10-ss-pz" in res.data["unsupplied"]
    assert "OOS" in g.unit("de-10-ss-pz").markers
    for _ in range(50):  # on to the German Command & Action Phase, where units move [SFN 5.2]
        if g.phase.permits("move") and g.phase.side == "german":
            break
        g.apply({"do": "next_phase"})
    assert g.phase.permits("move") and g.phase.side == "german"
    reach, problem = g.legal_moves([g.unit("de-10-ss-pz")])
    assert problem is None and reach is not None
    assert reach.cost and max(reach.cost.values()) <= 1
    for uid in placed:
        g.apply({"do": "place", "unit": uid, "to": "box:england"})
    res = g.apply({"do": "check_supply", "side": "german"})
    assert "de-10-ss-pz" not in res.data["unsupplied"]
    assert "OOS" not in g.unit("de-10-ss-pz").markers


def test_friendly_units_in_zoc_do_not_open_enemy_occupied_hexes() -> None:
    """Friendly units nullify the enemy ZOC in their own hexes [11.3], but a path still may not
    pass through enemy-occupied hexes [9.3]."""
    g = _game()
    centre = g.hmap.parse("2614")
    assert g.apply({"do": "place", "unit": "de-10-ss-pz", "to": "2614"}).ok
    _ring_of_allies(g, "2614", 2)
    # A German unit in every ring-1 hex nullifies the ZOC there, but ring 2 is enemy-occupied:
    # still cut off. This checks nullification does not open enemy-occupied hexes.
    germans = sorted(uid for uid, c in g.counters.items() if c.side == "german" and uid != "de-10-ss-pz")
    for uid, h in zip(germans, centre.ring(1)):
        g.apply({"do": "place", "unit": uid, "to": g.label(h)})
    res = g.apply({"do": "check_supply", "side": "german"})
    assert "de-10-ss-pz" in res.data["unsupplied"]


def test_allied_unit_in_coastal_hex_is_always_supplied_and_boxes_too() -> None:
    """Allied units in coastal hexes and in the England box are supplied [9.3]; one ringed by
    German units inland is not."""
    g = _game()
    germans = sorted(uid for uid, c in g.counters.items() if c.side == "german")
    assert g.apply({"do": "place", "unit": "cw-5-inf", "to": "2614"}).ok
    for uid, h in zip(germans, g.hmap.parse("2614").ring(1)):
        g.apply({"do": "place", "unit": uid, "to": g.label(h)})
    res = g.apply({"do": "check_supply", "side": "allied"})
    assert "cw-5-inf" in res.data["unsupplied"]
    boxed = [u.id for u in g.state.units.values() if u.side == "allied" and u.where == "box"]
    assert boxed and not set(boxed) & set(res.data["unsupplied"])
    # A coastal, non-beachhead land hex: always supplied though every land neighbour is German.
    from play.supply import _coastal, _land

    beaches = {g.hmap.parse(x) for x in ("2006", "2007", "2008", "2009", "1910")}
    coast = next(h for h in sorted(g.hmap.hexes(), key=lambda h: (h.q, h.r))
                 if _land(g, h, "ground") and _coastal(g, h) and h not in beaches
                 and not g.state.at(h) and all(not g.state.at(n) for n in h.neighbors()))
    assert g.apply({"do": "place", "unit": "cw-56-inf", "to": g.label(coast)}).ok
    spare = [uid for uid in germans if g.unit(uid).where != "hex"]
    for uid, n in zip(spare, [n for n in coast.neighbors() if g.hmap.contains(n) and _land(g, n, "ground")]):
        g.apply({"do": "place", "unit": uid, "to": g.label(n)})
    res = g.apply({"do": "check_supply", "side": "allied"})
    assert "cw-56-inf" not in res.data["unsupplied"]
