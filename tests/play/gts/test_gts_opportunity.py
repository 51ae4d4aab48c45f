"""GTS Opportunity Fire [17.0–17.8] and Excl 4.2.3(b) in test play (play/gts/opportunity.py)."""

from __future__ import annotations

from typing import Any

from gts_helpers import game, to_phase
from play.game import Game
from play.gts import opportunity
from play.gts.params import FireParams, OpportunityParams
from play.gts.state import Opportunity

# An ILLUSTRATIVE CRT for the tests: every hit is an S (9 always misses, 0 always hits).
ALL_S = {"illustrative": True, "rule": "test", "die": {"always_hit": 0, "always_miss": 9},
         "lines": {"yellow": {"armored": ["S"] * 10, "unarmored": ["S"] * 10}}}
FIRE = {"tq": 5, "fire_rating": 4, "line": "yellow"}


def lone(g: Game, keep: dict[str, str]) -> None:
    """Only the ``keep`` units on the map, at the given hexes (others go off-map)."""
    for u in list(g.state.units.values()):
        if u.id not in keep:
            u.where, u.hex, u.box = "offmap", None, None
    for uid, h in keep.items():
        g.apply({"do": "place", "unit": uid, "to": h})


def setup(seed: int = 1, crt: dict[str, Any] | None = None) -> Game:
    g = game(seed=seed, ma=6)
    if crt is not None:
        g.scenario.params["crt"] = crt
    to_phase(g, "movement", "allied")
    # c5-ii-919 (German, range 1: no printed Fire Range [15.0]) at 24.026; a-1-8 next to it.
    lone(g, {"c5-ii-919": "24.026", "a-1-8": "24.025"})
    return g


def opps(g: Game) -> list[Opportunity]:
    return list(opportunity.pending(g))


def move_away(g: Game) -> None:
    """a-1-8 24.025 → 23.025 (in the zone) → 22.025 (out of it)."""
    r = g.apply({"do": "move", "unit": "a-1-8", "to": "22.025"})
    assert r.ok, r
    assert r.data["path"][0] == "24.025" and r.data["path"][-1] == "22.025"


def test_leaving_hexes_in_a_fire_zone_records_one_opportunity_per_hex_left() -> None:
    g = setup()
    zone = set(g.apply({"do": "fire_zone", "unit": "c5-ii-919"}).data["hexes"])
    move_away(g)
    path = [e for e in g.log if e["type"] == "move"][-1]["path"]
    pend = opps(g)
    left_in_zone = [h for h in path[:-1] if h in zone]
    assert left_in_zone and [p.hex for p in pend] == left_in_zone       # leaving, not entering [17.2]
    assert all(p.firer == "c5-ii-919" and p.targets == ["a-1-8"] for p in pend)
    for p in pend:
        nxt = path[path.index(p.hex) + 1]
        # +2 into a hex in an enemy Fire Zone, -1 into one in none [17.6 #1, #2]
        assert p.modifier == (2 if nxt in zone else -1)
    ev = [e for e in g.log if e["type"] == "opportunity"][-1]
    assert ev["rule"] == "GTS 17.2" and ev["count"] == len(pend) and "opportunity-fire-after-move" in ev["policy"]


def test_a_move_outside_every_fire_zone_triggers_nothing() -> None:
    g = setup()
    g.apply({"do": "place", "unit": "a-1-8", "to": "22.024"})
    assert g.apply({"do": "move", "unit": "a-1-8", "to": "21.024"}).ok
    assert opps(g) == [] and not [e for e in g.log if e["type"] == "opportunity"]


def test_refusals_cite_the_case_and_keep_the_opportunity() -> None:
    g = setup(crt=ALL_S)
    r = g.apply({"do": "opportunity_fire", "unit": "c5-ii-919", "target": "a-1-8", **FIRE})
    assert not r.ok and r.rule == "GTS 17.2"                    # nothing triggered yet
    move_away(g)
    n = len(opps(g))
    r = g.apply({"do": "opportunity_fire", "unit": "c5-ii-919", "target": "a-1-8", **FIRE,
                 "modifiers": {"company_bonus": 2}})
    assert not r.ok and r.rule == "GTS 17.6"                    # never a Company Bonus [17.6 #4]
    r = g.apply({"do": "opportunity_fire", "unit": "c5-ii-919", "target": "a-1-8", "fire_rating": 4, "line": "yellow"})
    assert not r.ok and r.rule == "GTS 17.4" and "declare one with 'tq'" in r.message
    r = g.apply({"do": "opportunity_fire", "unit": "c5-ii-919", "target": "a-1-8", "tq": 5, "line": "yellow"})
    assert not r.ok and "Fire Rating is unknown" in r.message  # the fire's own refusal rolls everything back
    assert len(opps(g)) == n and not [e for e in g.log if e["type"] == "opportunity_tq"]
    g.unit("c5-ii-919").markers.append("suppressed")
    r = g.apply({"do": "opportunity_fire", "unit": "c5-ii-919", "target": "a-1-8", **FIRE})
    assert not r.ok and r.rule == "GTS 19.2.2"                  # Suppressed: no Fire Zone


def test_no_fire_rating_and_mortars_cannot_opportunity_fire() -> None:
    g = setup()
    g.counters["c5-ii-919"].front.values["fr"] = "No"
    move_away(g)
    assert opps(g) == []                                        # [17.5]
    g = setup()
    g.counters["c5-ii-919"].flags.append("mortar")
    move_away(g)
    assert opps(g) == []                                        # Mortar Units: no Fire Zone [17.3, 17.5]


def test_resolution_tq_check_then_fire_in_the_hex_left_with_the_modifier() -> None:
    seen = {"failed": 0, "stopped": 0, "missed": 0}
    for seed in range(1, 40):
        g = setup(seed, ALL_S)
        move_away(g)
        first = opps(g)[0]
        r = g.apply({"do": "opportunity_fire", "unit": "c5-ii-919", "target": "a-1-8", **FIRE})
        assert r.ok, r
        tq = [e for e in g.log if e["type"] == "opportunity_tq"][-1]
        assert tq["rule"] == "GTS 17.4" and tq["passed"] == (tq["die"] == 0 or (tq["die"] != 9 and tq["die"] <= 5))
        assert first.id not in [p.id for p in opps(g)]     # spent either way [17.4 note]
        u = g.unit("a-1-8")
        if not tq["passed"]:
            seen["failed"] += 1
            assert "no Opportunity Fire" in r.message and g.label(u.hex) == "22.025"
            continue
        fire = [e for e in g.log if e["type"] == "fire"][-1]
        assert fire["fr"] == 4 + first.modifier            # the 17.6 modifier on the Fire Rating
        assert fire["hex"] == first.hex                     # conducted in the hex left [17.2, 17.7]
        if fire["hit"]:
            seen["stopped"] += 1
            assert "suppressed" in u.markers and g.label(u.hex) == first.hex   # stopped there [17.7]
            assert all("a-1-8" not in p.targets for p in opps(g))
            ev = [e for e in g.log if e["type"] == "opportunity_fire"][-1]
            assert ev["stopped"] == first.hex and ev["rule"] == "GTS 17.7"
        else:
            seen["missed"] += 1
            assert g.label(u.hex) == "22.025" and "suppressed" not in u.markers
    assert all(seen.values()), seen


def test_firing_at_a_later_hex_passes_the_earlier_ones() -> None:
    g = setup(crt=ALL_S)
    g.apply({"do": "place", "unit": "a-1-8", "to": "25.025"})
    assert g.apply({"do": "move", "unit": "a-1-8", "to": "22.025"}).ok
    pend = opps(g)
    if len(pend) < 2:
        raise AssertionError(f"expected two hexes left in the zone, got {pend}")
    last = pend[-1]
    r = g.apply({"do": "opportunity_fire", "unit": "c5-ii-919", "target": "a-1-8", "hex": last.hex, **FIRE})
    assert r.ok
    assert opps(g) == []                                        # the earlier hexes lapsed (path order)
    tq = [e for e in g.log if e["type"] == "opportunity_tq"][-1]
    assert tq["passed_by"] == len(pend) - 1 and "opportunity-fire-path-order" in tq["policy"]


def test_opportunities_lapse_with_the_next_action_but_not_with_queries() -> None:
    g = setup()
    move_away(g)
    n = len(opps(g))
    assert n
    g.apply({"do": "fire_zone", "unit": "c5-ii-919"})
    g.apply({"do": "los", "from": "24.026", "to": "22.025"})
    assert len(opps(g)) == n
    g.apply({"do": "next_phase"})
    assert opps(g) == []
    ev = [e for e in g.log if e["type"] == "opportunity_expired"][-1]
    assert ev["count"] == n and ev["rule"] == "GTS 17.8" and "opportunity-lapses-on-next-action" in ev["policy"]


def test_undo_restores_the_pending_opportunities() -> None:
    g = setup(crt=ALL_S)
    move_away(g)
    before = opps(g)
    g.apply({"do": "opportunity_fire", "unit": "c5-ii-919", "target": "a-1-8", **FIRE})
    assert g.undo()
    assert opps(g) == before


def test_column_by_mp_triggers_with_plus_two_and_by_cohesion_hit_does_not() -> None:
    g = setup()
    r = g.apply({"do": "column", "unit": "a-1-8", "enter": True})
    assert r.ok, r
    pend = opps(g)
    assert [(p.trigger, p.hex, p.modifier) for p in pend] == [("column", "24.025", 2)]   # [17.2, 17.6]
    r = g.apply({"do": "column", "unit": "a-1-8", "enter": False, "by": "cohesion"})
    assert r.ok and opps(g) == []                               # a Cohesion Hit triggers nothing [17.2]


def test_artillery_fire_zone_is_three_hexes_unless_an_enemy_is_adjacent() -> None:
    g = setup()
    c = g.counters["c5-ii-919"]
    cat = c.category
    c.category = "artillery"
    c.front.values["fire_range"] = 10
    try:
        fire_cfg = FireParams(range_field="fire_range")
        cfg = OpportunityParams.model_validate({"artillery_categories": ["artillery"], "artillery_zone": {"value": 3}})
        zr = opportunity.zone_range(g, g.unit("c5-ii-919"), fire_cfg, cfg)
        assert zr == 1                                          # an enemy is adjacent: range 1 [15.5 2d]
        g.apply({"do": "place", "unit": "a-1-8", "to": "20.026"})
        zr = opportunity.zone_range(g, g.unit("c5-ii-919"), fire_cfg, cfg)
        assert zr == 3                                          # [17.3]
    finally:
        c.category = cat


def test_an_artillery_unit_opportunity_fires_on_the_yellow_line() -> None:
    g = setup(crt={**ALL_S, "lines": {**ALL_S["lines"], "orange": {"armored": ["E"] * 10, "unarmored": ["E"] * 10}}})
    g.counters["c5-ii-919"].category = "artillery"
    move_away(g)
    assert opps(g)
    r = g.apply({"do": "opportunity_fire", "unit": "c5-ii-919", "target": "a-1-8", "tq": 8, "fire_rating": 4,
                 "line": "orange"})
    assert r.ok
    fires = [e for e in g.log if e["type"] == "fire"]
    assert all(e["line"] == "yellow" for e in fires)           # Direct HE, whatever was asked [17.4]


def test_post_landing_opportunity_fire_at_one_just_landed_unit() -> None:
    for seed in range(3, 20):
        g = game(seed=seed, at="activation")
        # A German unit whose zone covers the landing hex (range 1: next to it).
        g.apply({"do": "place", "unit": "c5-ii-919", "to": "19.026"})
        r = g.apply({"do": "land_craft", "unit": "lcvp-1", "to": "18.026"})
        assert r.ok
        landed = [u for u in ("a-1-8", "b-1-8", "c-1-8", "d-1-8") if g.unit(u).hex == g.hex_of("18.026")]
        pend = opps(g)
        if not landed:
            assert pend == []
            continue
        assert len({p.group for p in pend}) == 1 and pend[0].trigger == "landing"
        assert pend[0].rule == "Excl 4.2.3(b)" and pend[0].modifier == 2     # +2 applies [4.2.3(b)]
        assert set(landed) <= set(pend[0].targets)
        r = g.apply({"do": "opportunity_fire", "unit": "c5-ii-919", "target": landed[0], **FIRE})
        assert r.ok
        assert opps(g) == []                                    # one attack on one unit [4.2.3(b)]
        return
    raise AssertionError("no landing with survivors in 17 seeds")
