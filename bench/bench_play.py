"""Test-play engine benchmarks: ``python -m bench play``.

1. Legal moves for a two-unit stack on a 100×70 map (mixed clear/woods/marsh, a road, a
   river, enemy units exerting ZOC) — target ≤ 5 ms per query.
2. A full smoke playtest (every scenario, every turn) of each sample bundle — target ≤ 10 s
   for the largest (``python -m bench smoke`` times the ``hexproof smoke`` command itself).
3. The SFN supply trace and enemy ZOC, fast path vs reference.
"""

from __future__ import annotations

import gc
import random
import statistics
import time
from pathlib import Path
from typing import Any

from model.bundle import load_bundle
from model.hexes import Hex
from model.mapdata import HexMap
from model.scenario import Scenario

REPO = Path(__file__).resolve().parents[1]
DUEL = REPO / "tests" / "fixtures" / "playtests" / "duel"
SAMPLES = ("utah-beach", "second-front-now", "killing-ground")


def big_map(cols: int = 100, rows: int = 70, seed: int = 1) -> HexMap:
    rng = random.Random(seed)
    lines = []
    for _ in range(rows):
        lines.append("".join(rng.choices(".Wm", weights=(7, 2, 1))[0] for _ in range(cols)))
    data = {
        "id": "big", "name": "Benchmark map",
        "grid": {"orientation": "flat", "stagger": "odd",
                 "sheets": [{"id": "main", "cols": cols, "rows": rows, "labels": {"first_col": 1, "first_row": 1}}]},
        "terrain": {"legend": {".": "clear", "W": "woods", "m": "marsh", "~": "sea"}, "rows": "\n".join(lines)},
    }
    hmap = HexMap.model_validate(data, context={})
    spec = hmap.spec
    road = [spec.hex_at_offset(50, y) for y in range(rows)]
    river = [(spec.hex_at_offset(x, 30), 5) for x in range(cols)]
    hmap2 = HexMap.model_validate({**data, "paths": [{"type": "road", "hexes": [list(h) for h in road]}],
                                   "hexsides": {"river": [[list(h), d] for h, d in river]}}, context={})
    return hmap2


def _bench_game(seed: int = 1) -> tuple[Any, list[Any]]:
    """A Game on a fresh 100×70 map (new HexMap object: no cached index or table of it exists)."""
    from play.game import Game

    bundle = load_bundle(DUEL).bundle
    assert bundle is not None
    hmap = big_map(seed=seed)
    bundle.maps = {"big": hmap}
    spec = hmap.spec
    centre = spec.hex_at_offset(48, 35)
    enemy = spec.hex_at_offset(52, 33)
    scen = Scenario.model_validate({"id": "bench", "name": "bench", "turns": {"first": 1, "last": 2},
                                    "first_player": "blue",
                                    "setup": [{"unit": "b1", "hex": list(centre)}, {"unit": "b2", "hex": list(centre)},
                                              {"unit": "r1", "hex": list(enemy)}]})
    bundle.scenarios = {"bench": scen}
    game = Game(bundle, "bench", 1)
    game.apply({"do": "next_phase"})
    stack = [game.unit("b1"), game.unit("b2")]
    for u in stack:
        u.mp_spent = -4.0  # 8 MP each: a long move, many hexes reachable
    return game, stack


def _ms(t0: float) -> float:
    return (time.perf_counter() - t0) * 1000


def bench_moves(repeats: int = 200, fresh: int = 10) -> dict[str, Any]:
    """Legal moves of a 2-unit stack. ``cold``: the first query on a fresh map (builds the
    map's terrain index and the dense step tables); ``warmed first``: the first query after
    ``warm_game`` (what Play mode's first click sees: the editor warms on a worker thread);
    ``warm``: later queries. The reference path (``reachable(reference=True)``) for contrast."""
    import model.movement_fast  # noqa: F401  (imports — numpy, shapely — are not part of any query)
    import play.game  # noqa: F401
    from play import moves

    game, stack = _bench_game(seed=1)
    t0 = time.perf_counter()
    game.legal_moves(stack)
    first_in_process = _ms(t0)  # first numpy/step-table use in the process, too
    cold, cold_settled, warm_build, warmed_first = [], [], [], []
    for k in range(fresh):
        game, stack = _bench_game(seed=2 + k)
        t0 = time.perf_counter()
        reach, problem = game.legal_moves(stack)
        cold.append(_ms(t0))
        assert problem is None and reach is not None
    # The same cold query after gc.collect(): building the bundle, map and game just before
    # leaves allocations that the cyclic GC pays for in whatever runs next (here, the timed
    # query); in the editor the map was loaded long before the first click.
    for k in range(fresh):
        game, stack = _bench_game(seed=201 + k)
        gc.collect()
        t0 = time.perf_counter()
        reach, problem = game.legal_moves(stack)
        cold_settled.append(_ms(t0))
        assert problem is None and reach is not None
    for k in range(fresh):
        game, stack = _bench_game(seed=101 + k)
        t0 = time.perf_counter()
        moves.warm_game(game)
        warm_build.append(_ms(t0))
        t0 = time.perf_counter()
        game.legal_moves(stack)
        warmed_first.append(_ms(t0))
    times = []
    reach = None
    for _ in range(repeats):
        t0 = time.perf_counter()
        reach, problem = game.legal_moves(stack)
        times.append(_ms(t0))
        assert problem is None
    assert reach is not None
    # The reference on the same query (its lazy table is warm after the first call).
    ref_times = []
    start, mp = stack[0].hex, 8.0
    blocked = {u.hex for u in game.state.units.values() if u.on_map and u.side != stack[0].side and u.hex}
    from play import rules

    stop = rules.enemy_zoc(game.system, game.state.units, game.counters, stack[0].side)
    for _ in range(max(5, repeats // 10)):
        t0 = time.perf_counter()
        ref = moves.reachable(game.hmap, game.system, start, mp, "foot", blocked=blocked, stop=stop,
                              costs=game.play_costs(), reference=True)
        ref_times.append(_ms(t0))
    assert ref.cost == reach.cost
    return {"map": "100x70", "stack": 2, "mp": 8, "reachable_hexes": len(reach.cost), "repeats": repeats,
            "fresh_maps": fresh,
            "first_in_process_ms": round(first_in_process, 2),
            "cold_first_ms": [round(x, 2) for x in cold],
            "cold_median_ms": round(statistics.median(cold), 2),
            "cold_settled_ms": [round(x, 2) for x in cold_settled],
            "cold_settled_median_ms": round(statistics.median(cold_settled), 2),
            "warm_game_median_ms": round(statistics.median(warm_build), 2),
            "warmed_first_median_ms": round(statistics.median(warmed_first), 3),
            "warm_game_ms": [round(x, 2) for x in warm_build],
            "warmed_first_ms": [round(x, 3) for x in warmed_first],
            "median_ms": round(statistics.median(times), 3), "max_ms": round(max(times), 3),
            "reference_warm_median_ms": round(statistics.median(ref_times), 3)}


def bench_smoke(repeats: int = 3) -> list[dict[str, Any]]:
    from play.smoke import smoke_all

    out = []
    for name in SAMPLES:
        path = REPO / "scenarios" / name
        result = load_bundle(path)
        if result.bundle is None:
            continue
        bundle = result.bundle
        times = []
        reports = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            reports = smoke_all(bundle)
            times.append(time.perf_counter() - t0)
        out.append({"bundle": name, "scenarios": len(reports), "turns": sum(r.turns for r in reports),
                    "hexes": len(bundle.default_map.hexes()),
                    "median_s": round(statistics.median(times), 3), "max_s": round(max(times), 3)})
    return out


def bench_supply(repeats: int = 40) -> dict[str, Any]:
    """SFN supply trace of both sides on the sample (calais-landing after 40 phases), fast
    path vs the reference, and the enemy ZOC both ways."""
    from play import supply
    from play.game import Game
    from play.sfn.supply_check import SupplyCheck

    bundle = load_bundle(REPO / "scenarios" / "second-front-now").bundle
    assert bundle is not None
    game = Game(bundle, "calais-landing", 1)
    game.keep_undo = False
    for _ in range(40):
        game.apply({"do": "next_phase"})
    cfg = next(p for p in game.procedures if isinstance(p, SupplyCheck)).trace_config
    blocking = set(cfg.get("zoc_blocking_hexside_tags") or [])
    out: dict[str, Any] = {"scenario": "calais-landing", "units": len(game.state.units), "repeats": repeats}
    for name, fn in (("trace_fast", supply.trace), ("trace_reference", supply.trace_reference)):
        times = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            for side in ("german", "allied"):
                fn(game, side, cfg)
            times.append(_ms(t0) / 2)
        out[f"{name}_median_ms"] = round(statistics.median(times), 3)
    for name, zfn in (("zoc_fast", supply.enemy_zoc), ("zoc_reference", supply.enemy_zoc_reference)):
        times = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            zfn(game, "german", blocking)
            times.append(_ms(t0))
        out[f"{name}_median_ms"] = round(statistics.median(times), 3)
    return out


def main(args: list[str]) -> dict[str, Any]:
    moves = bench_moves()
    print(f"legal moves, {moves['stack']}-unit stack, {moves['mp']} MP, {moves['map']} map: "
          f"{moves['reachable_hexes']} hexes reachable")
    print(f"  first query in the process (fresh map, first table build): {moves['first_in_process_ms']} ms")
    print(f"  cold first query (fresh map: terrain index + step tables + search), {moves['fresh_maps']} maps: "
          f"{moves['cold_first_ms']} ms (median {moves['cold_median_ms']} ms)")
    print(f"  cold first query after gc.collect() (the GC debt of building the bundle/map/game paid first), "
          f"{moves['fresh_maps']} maps: {moves['cold_settled_ms']} ms (median {moves['cold_settled_median_ms']} ms)")
    print(f"  warm_game (the editor's background build), {moves['fresh_maps']} maps: {moves['warm_game_ms']} ms "
          f"(median {moves['warm_game_median_ms']} ms); first query after it: {moves['warmed_first_ms']} ms "
          f"(median {moves['warmed_first_median_ms']} ms)")
    print(f"  warm: median {moves['median_ms']} ms, max {moves['max_ms']} ms over {moves['repeats']} queries; "
          f"reference path median {moves['reference_warm_median_ms']} ms")
    smokes = bench_smoke()
    for s in smokes:
        print(f"smoke {s['bundle']}: {s['scenarios']} scenarios, {s['turns']} turns, {s['hexes']} hexes; "
              f"median {s['median_s']} s, max {s['max_s']} s")
    sup = bench_supply()
    print(f"SFN supply trace per side: fast {sup['trace_fast_median_ms']} ms, reference "
          f"{sup['trace_reference_median_ms']} ms; enemy ZOC: fast {sup['zoc_fast_median_ms']} ms, reference "
          f"{sup['zoc_reference_median_ms']} ms (medians of {sup['repeats']})")
    return {"moves": moves, "smoke": smokes, "supply": sup}
