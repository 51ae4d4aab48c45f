"""GTS fire with the bundle's (illustrative) CRT [15.5], Fire Zones [17.3], LOS queries."""

from __future__ import annotations

from gts_helpers import game, to_phase
from model.los import line_of_sight
from play.gts import crt as crt_mod


def test_the_utah_crt_is_loaded_from_game_yaml_and_marked_illustrative() -> None:
    g = game()
    table = crt_mod.crt_for(g)
    assert table is not None and table["illustrative"] is True
    assert set(table["lines"]) >= {"white", "pink", "blue"}
    for line in table["lines"].values():
        assert len(line["armored"]) == 10 and len(line["unarmored"]) == 10


def test_hit_rule_zero_always_hits_nine_always_misses() -> None:
    g = game()
    table = crt_mod.crt_for(g)
    seen = set()
    for fr in (-3, 0, 4, 12):
        for _ in range(60):
            r = crt_mod.roll(g, table, "white", False, fr)
            seen.add(r.die)
            assert r.hit == (r.die == 0 or (r.die != 9 and r.die <= fr))
            if r.hit:
                want = table["lines"]["white"]["unarmored"][r.die]
                assert r.result == (None if want == "-" else want)
            else:
                assert r.result is None
    assert seen == set(range(10))


def test_fire_needs_values_the_sample_does_not_print_then_says_illustrative() -> None:
    g = game()
    to_phase(g, "movement", "allied")
    g.apply({"do": "place", "unit": "a-1-8", "to": "24.025"})   # next to c5-ii-919 at 24.026
    r = g.apply({"do": "fire", "unit": "a-1-8", "target": "c5-ii-919"})
    assert not r.ok and "Fire Rating is unknown" in r.message
    r = g.apply({"do": "fire", "unit": "a-1-8", "target": "c5-ii-919", "fire_rating": 5, "line": "yellow",
                 "modifiers": {"range": 0}})
    assert r.ok and "(illustrative CRT)" in r.message
    ev = [e for e in g.log if e["type"] == "fire"][-1]
    assert ev["illustrative"] is True and ev["fr"] == 5 and "declared-fire-value" in ev["policy"]
    r = g.apply({"do": "fire", "unit": "a-1-8", "target": "c5-ii-919", "fire_rating": 5})
    assert not r.ok and "Weapons Class line" in r.message


def test_attack_is_one_unit_firing_at_one_unit() -> None:
    g = game()
    g.apply({"do": "place", "unit": "a-1-8", "to": "24.025"})
    g.apply({"do": "place", "unit": "b-1-8", "to": "24.025"})
    r = g.apply({"do": "attack", "attackers": ["a-1-8", "b-1-8"], "target": "24.026"})
    assert not r.ok and r.rule == "GTS 15.5" and "combine" in r.message
    r = g.apply({"do": "attack", "attackers": ["a-1-8"], "target": "24.026", "fire_rating": 3, "line": "yellow"})
    assert r.ok and "illustrative CRT" in r.message


def test_without_a_crt_fire_is_not_available() -> None:
    g = game()
    g.bundle.game.crt = None
    r = g.apply({"do": "attack", "attackers": ["c5-ii-919"], "target": "24.025"})
    assert not r.ok and r.message == "combat not available: the rules provided have no CRT (GTS)"


def test_fire_zone_is_los_within_range_and_uses_night() -> None:
    g = game("night-drop")
    g.apply({"do": "place", "unit": "a-1-502", "to": "49.020"})
    r = g.apply({"do": "fire_zone", "unit": "a-1-502", "range": 3})
    assert r.ok and r.data["range"] == 1       # no printed Fire Range: one hex [15.0]
    origin = g.hex_of("49.020")
    zone = {g.hex_of(x) for x in r.data["hexes"]}
    assert zone and all(h.distance(origin) == 1 for h in zone)
    ev = [e for e in g.log if e["type"] == "fire_zone"][-1]
    assert ev["night"] is True                 # the night-drop turn is a Night turn
    # With a printed Fire Range of 5 the zone is every hex in LOS within 5 (night: LOS 3).
    g.counters["a-1-502"].front.values["fire_range"] = 5
    r = g.apply({"do": "fire_zone", "unit": "a-1-502"})
    zone = {g.hex_of(x) for x in r.data["hexes"]}
    for h in origin.range(5):
        if h == origin or not g.hmap.contains(h):
            continue
        seen = line_of_sight(g.hmap, g.system, origin, h, night=True).visible
        assert (h in zone) == seen, g.label(h)
    assert max(h.distance(origin) for h in zone) <= 3


def test_fire_range_is_one_next_to_an_enemy() -> None:
    g = game()
    g.counters["a-1-8"].front.values["fire_range"] = 6
    g.apply({"do": "place", "unit": "a-1-8", "to": "24.025"})
    r = g.apply({"do": "fire_zone", "unit": "a-1-8"})
    assert r.data["range"] == 1


def test_los_query() -> None:
    g = game()
    r = g.apply({"do": "los", "from": "30.027", "to": "29.027"})
    assert r.ok and r.data["visible"] is True and g.log[-1]["type"] == "los"


def test_los_query_and_a_refused_fire_cite_the_case_that_decided() -> None:
    """GTS 15.4: "A Line of Sight is a straight, unblocked line …" with the condition's
    maximum distance; the los event's rule and a Direct Fire refused for want of LOS name the
    case that decided the verdict (``LosResult.decided_by``), e.g. the range row."""
    from play.gts.fire import conditions

    g = game()
    for c in g.bundle.counters:
        if c.id == "a-1-8":
            c.front.values["fire_range"] = 12  # ILLUSTRATIVE: the sample counters print no Fire Range
    to_phase(g, "movement", "allied")
    hm = g.hmap
    target = g.unit("c5-ii-919").hex
    assert target is not None
    enemies = [u.hex for u in g.state.units.values() if u.side != g.unit("a-1-8").side and u.on_map]
    # A hex 9 away (beyond day LOS 8) with no enemy next to it (else Fire Range 1 [15.5 2d]).
    spot = next(h for h in sorted(target.ring(9), key=lambda h: (h.q, h.r))
                if hm.contains(h) and all(e is None or e.distance(h) > 1 for e in enemies))
    a, b = str(hm.label(spot)), str(hm.label(target))
    g.apply({"do": "place", "unit": "a-1-8", "to": a})
    lr = line_of_sight(hm, g.system, spot, target, **conditions(g))
    assert not lr.visible and lr.decided_by is not None and lr.distance == 9
    q = g.apply({"do": "los", "from": a, "to": b})
    assert q.rule == lr.decided_by.rule == g.log[-1]["rule"] and q.data["reason"] == lr.reason
    assert q.data["decided_by"] == lr.decided_by.kind
    r = g.apply({"do": "fire", "unit": "a-1-8", "target": "c5-ii-919", "fire_rating": 5, "line": "yellow"})
    assert not r.ok and r.message == f"no line of sight from {a} to {b}: {lr.reason}"
    assert r.rule == lr.decided_by.rule
