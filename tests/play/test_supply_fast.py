"""The fast supply trace and enemy ZOC (play.supply.trace / enemy_zoc: one BFS over a static
graph per map) against the reference (trace_reference / enemy_zoc_reference), side by side:
the SFN sample played phase by phase, random unit positions on the SFN map, random maps with
sea, voids and hexside features under random supply configurations, and map edits."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import REPO
from model.bundle import Bundle, load_bundle
from model.base import hexside_key
from model.hexes import Hex
from model.mapdata import HexMap
from play import supply
from play.game import Game
from play.sfn.supply_check import SupplyCheck

SFN = REPO / "scenarios" / "second-front-now"


@pytest.fixture(scope="module")
def bundle() -> Bundle:
    loaded = load_bundle(SFN)
    assert loaded.bundle is not None
    return loaded.bundle


def _cfg(g: Game) -> dict[str, Any]:
    return next(p for p in g.procedures if isinstance(p, SupplyCheck)).trace_config


def _same(g: Game, cfg: dict[str, Any]) -> list[supply.SupplyResult]:
    out = []
    for side in sorted(s.id for s in g.system.sides):
        fast, ref = supply.trace(g, side, cfg), supply.trace_reference(g, side, cfg)
        assert fast.supplied == ref.supplied and fast.unsupplied == ref.unsupplied
        assert fast.sources == ref.sources and fast.reached == ref.reached
        blocking = set(cfg.get("zoc_blocking_hexside_tags") or [])
        assert supply.enemy_zoc(g, side, blocking) == supply.enemy_zoc_reference(g, side, blocking)
        out.append(fast)
    return out


@pytest.mark.parametrize("scenario", ["calais-landing", "dieppe-landing"])
def test_sample_played_phase_by_phase_agrees(bundle: Bundle, scenario: str) -> None:
    g = Game(bundle, scenario, seed=3)
    g.keep_undo = False
    cfg = _cfg(g)
    checked = 0
    for n in range(400):
        if g.state.over:
            break
        g.apply({"do": "next_phase"})
        if n % 9 == 0:
            res = _same(g, cfg)
            assert all(r.reached for r in res)  # both sides trace somewhere: not a vacuous match
            checked += 1
    assert checked >= 40


def _place(g: Game, rng: random.Random, n_units: int, extra_hexes: list[Hex] = ()) -> None:
    """Put ``n_units`` random units on random hexes (some off the map or in a box), the rest
    off-map; positions need not be legal: the trace must agree anyway."""
    hexes = g.hmap.hexes() + list(extra_hexes)
    units = sorted(g.state.units)
    chosen = set(rng.sample(units, min(n_units, len(units))))
    for uid in units:
        u = g.state.units[uid]
        if uid not in chosen:
            u.where, u.hex, u.box = "offmap", None, None
        elif rng.random() < 0.1:
            u.where, u.hex, u.box = "box", None, "england"
        else:
            u.where, u.hex, u.box = "hex", rng.choice(hexes), None


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), n_units=st.integers(1, 90))
def test_random_positions_on_the_sample_map_agree(bundle: Bundle, seed: int, n_units: int) -> None:
    g = Game(bundle, "calais-landing", seed=1)
    rng = random.Random(seed)
    _place(g, rng, n_units, extra_hexes=[Hex(-5, 2), Hex(60, -40)])  # two hexes off the grid
    _same(g, _cfg(g))


def test_a_zoc_ring_makes_units_unsupplied_in_both(bundle: Bundle) -> None:
    """Not only "everyone supplied": a German unit ringed by Allied ZOC is cut off in both."""
    g = Game(bundle, "calais-landing", seed=1)
    centre = g.hmap.parse("2614")
    allies = sorted(uid for uid, c in g.counters.items() if c.side == "allied")
    g.unit("de-10-ss-pz").where, g.unit("de-10-ss-pz").hex = "hex", centre
    for uid, h in zip(allies, [h for h in centre.ring(2) if g.hmap.contains(h)]):
        g.unit(uid).where, g.unit(uid).hex = "hex", h
    res = _same(g, _cfg(g))
    german = next(r for r in res if r.side == "german")
    assert "de-10-ss-pz" in german.unsupplied


# --- random maps ----------------------------------------------------------------------------

CHARS = ".FhmtCX~-"  # the SFN legend and voids


def _random_map(rng: random.Random) -> HexMap:
    cols, rows = rng.randint(6, 24), rng.randint(6, 14)
    weights = [30, 5, 4, 3, 2, 1, 2, 8, 2]
    lines = ["".join(rng.choices(CHARS, weights)[0] for _ in range(cols)) for _ in range(rows)]
    data: dict[str, Any] = {
        "id": "rnd", "name": "random",
        "grid": {"orientation": "flat", "stagger": "odd",
                 "sheets": [{"id": "main", "cols": cols, "rows": rows, "labels": {"first_col": 0, "first_row": 0}}]},
        "terrain": {"legend": {".": "clear", "F": "forest", "h": "hill", "m": "marsh", "t": "town", "C": "city",
                               "X": "fortress", "~": "sea"}, "rows": "\n".join(lines)},
    }
    bare = HexMap.model_validate(data, context={})
    hexes = bare.hexes()
    sides: dict[str, list[Any]] = {}
    for kind in ("all_sea", "river", "major_river"):
        sides[kind] = [[list(rng.choice(hexes)), rng.randrange(6)] for _ in range(rng.randint(0, len(hexes) // 4))]
    edge = [list(h) for h in rng.sample(hexes, rng.randint(0, min(12, len(hexes))))]
    return HexMap.model_validate({**data, "hexsides": sides,
                                  "areas": [{"id": "german-supply-edge", "name": "edge", "hexes": edge}]}, context={})


def _random_cfg(rng: random.Random, base: dict[str, Any]) -> dict[str, Any]:
    specs = [dict(v) for v in (base.get("sides") or {}).values()]
    specs.append({"sources": {"area_param": "supply_edge", "invasion_beachheads": True},
                  "always_in": {"terrain_tags": ["population_center"], "coastal": True},
                  "no_trace_into": {"terrain_tags": ["no_airdrop"], "coastal_except_sources": True}})
    specs.append({"sources": {"invasion_beachheads": True}})  # no exceptions at all
    tags = ["all_sea", "river", "major", "major_river", "nothing"]
    return {"zoc_blocking_hexside_tags": rng.sample(tags, rng.randint(0, len(tags))),
            "sides": {"german": rng.choice(specs), "allied": rng.choice(specs)}}


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6))
def test_random_maps_and_configurations_agree(bundle: Bundle, seed: int) -> None:
    rng = random.Random(seed)
    g = Game(bundle, rng.choice(["calais-landing", "dieppe-landing"]), seed=1)
    g.hmap = _random_map(rng)
    _place(g, rng, rng.randint(0, 40), extra_hexes=[Hex(-3, 0), Hex(40, 3)])
    _same(g, _random_cfg(rng, _cfg(g)))


def test_random_cases_are_not_trivial(bundle: Bundle) -> None:
    """The random maps give partly supplied sides: some units out, some in, and reached sets
    of several sizes (so the equality above is tested on real traces)."""
    out = ins = 0
    sizes = set()
    for seed in range(40):
        rng = random.Random(seed)
        g = Game(bundle, "calais-landing", seed=1)
        g.hmap = _random_map(rng)
        _place(g, rng, rng.randint(0, 40))
        for r in _same(g, _random_cfg(rng, _cfg(g))):
            out += len(r.unsupplied)
            ins += len(r.supplied)
            sizes.add(len(r.reached))
    assert out > 10 and ins > 10 and len(sizes) > 10


def _copy_map(g: Game) -> HexMap:
    hmap = HexMap.model_validate(g.hmap.model_dump(mode="json"), context=g.hmap.context())
    g.hmap = hmap
    return hmap


def _german(results: list[supply.SupplyResult]) -> supply.SupplyResult:
    return next(r for r in results if r.side == "german")


@pytest.mark.parametrize("edit", ["sea", "all_sea"])
def test_map_edits_rebuild_the_static_graph(bundle: Bundle, edit: str) -> None:
    """After a trace, the land next to the German sources turns to sea, or all-sea hexsides
    close the sources in: the next trace sees the edit (the graph is rebuilt with the map's
    index), reaches only the sources, and equals the reference."""
    g = Game(bundle, "calais-landing", seed=1)
    hmap = _copy_map(g)
    cfg = _cfg(g)
    first = _german(_same(g, cfg))
    before = supply.supply_graph(g)
    sources = first.sources
    assert len(sources) > 3 and len(first.reached) > 2 * len(sources)
    assert hmap.spec.sheets[0].x0 == 0 and hmap.spec.sheets[0].y0 == 0  # offsets index the rows
    if edit == "sea":
        rows = hmap.terrain.rows.split("\n")
        for h in {n for s in sources for n in s.neighbors() if hmap.contains(n)} - sources:
            x, y = hmap.spec.offset(h)
            rows[y] = rows[y][:x] + "~" + rows[y][x + 1:]
        hmap.terrain.rows = "\n".join(rows)
    else:
        hmap.hexsides["all_sea"] = list(hmap.hexsides.get("all_sea", [])) + \
            [hexside_key(s, d) for s in sorted(sources) for d in range(6)]
    hmap.invalidate()
    assert supply.supply_graph(g) is not before
    assert _german(_same(g, cfg)).reached == sources
