"""The fast legal-moves path (dense step tables) gives the reference's answer: the same reachable
hexes, costs, predecessors, refusals (reason and rule case) and policies, on random maps
(hypothesis) and on the samples' playtest variants; tables are rebuilt after a map edit."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import REPO
from model import movement, movement_fast
from model.bundle import load_bundle
from model.hexes import Hex
from model.mapdata import HexMap
from model.system import GameSystem
from play import moves
from play.game import Game

# Every kind of cost word the system data can hold, for two movement classes.
SYSTEM = GameSystem.model_validate({
    "id": "fastcheck", "name": "Fast-path check (illustrative)", "short": "FC",
    "terrain": [
        {"id": "clear", "name": "Clear", "char": ".", "color": "#ffffff", "move": {"foot": 1, "wheel": 1}},
        {"id": "woods", "name": "Woods", "char": "W", "color": "#00aa00", "move": {"foot": 2, "wheel": 3.5}},
        {"id": "marsh", "name": "Marsh", "char": "m", "color": "#0088aa", "move": {"foot": "unknown", "wheel": "prohibited"}},
        {"id": "sea", "name": "Sea", "char": "~", "color": "#0000ff", "move": {"foot": "prohibited", "wheel": "prohibited"}},
        {"id": "town", "name": "Town", "char": "T", "color": "#888888", "move": {"foot": 1, "wheel": "road_only"}},
        {"id": "bocage", "name": "Bocage", "char": "b", "color": "#55aa55", "move": {"foot": "column_only", "wheel": 2}},
        {"id": "ridge", "name": "Ridge", "char": "r", "color": "#aa8855", "move": {"foot": "all", "wheel": 2}},
        {"id": "rock", "name": "Rock", "char": "X", "color": "#333333", "move": {"foot": 1}, "tags": ["impassable"]},
    ],
    "hexsides": [
        {"id": "stream", "name": "Stream", "color": "#0000ff", "move": {"foot": 1, "wheel": 2}},
        {"id": "river", "name": "River", "color": "#0000ff", "move": {"foot": "prohibited", "wheel": "unknown"}},
        {"id": "cliff", "name": "Cliff", "color": "#000000", "move": {"foot": "all", "wheel": "column_only"}},
        {"id": "wall", "name": "Wall", "color": "#000000", "move": {"foot": "road_only"}},
    ],
    "paths": [
        {"id": "road", "name": "Road", "color": "#aa5500", "move": {"foot": 0.5, "wheel": 0.5}},
        {"id": "raised", "name": "Raised road", "color": "#aa5500", "requires": "column", "move": {"foot": 0.5, "wheel": "unknown"}},
    ],
    "movement_classes": [{"id": "foot", "name": "Foot"}, {"id": "wheel", "name": "Wheeled"}],
})
CHARS = ".WWm~TbrX....?"  # "?" is in no legend: terrain id "" (unknown cost)


def make_map(cols: int, rows: int, cells: list[str], sides: list[tuple[int, int, int, str]],
             paths: list[tuple[str, list[tuple[int, int]]]]) -> HexMap:
    lines = ["".join(cells[y * cols:(y + 1) * cols]) for y in range(rows)]
    base: dict[str, Any] = {
        "id": "rnd", "name": "random",
        "grid": {"orientation": "flat", "stagger": "odd",
                 "sheets": [{"id": "main", "cols": cols, "rows": rows, "labels": {"first_col": 1, "first_row": 1}}]},
        "terrain": {"legend": {t.char: t.id for t in SYSTEM.terrain if t.char != "?"}, "rows": "\n".join(lines)},
    }
    spec = HexMap.model_validate(base, context={}).spec
    hexsides: dict[str, list[Any]] = {}
    for x, y, d, kind in sides:
        hexsides.setdefault(kind, []).append([list(spec.hex_at_offset(x, y)), d])
    plist = [{"type": kind, "hexes": [list(spec.hex_at_offset(x, y)) for x, y in pts]} for kind, pts in paths]
    return HexMap.model_validate({**base, "hexsides": hexsides, "paths": plist}, context={})


@st.composite
def scenarios(draw: Any) -> tuple[HexMap, dict[str, Any]]:
    cols, rows = draw(st.integers(3, 9)), draw(st.integers(3, 8))
    cells = draw(st.lists(st.sampled_from(CHARS), min_size=cols * rows, max_size=cols * rows))
    cells = ["-" if c == "X" and draw(st.booleans()) else c for c in cells]  # some holes too
    sides = draw(st.lists(st.tuples(st.integers(0, cols - 1), st.integers(0, rows - 1), st.integers(0, 5),
                                    st.sampled_from(["stream", "river", "cliff", "wall"])), max_size=12))
    paths = []
    for _ in range(draw(st.integers(0, 2))):
        kind = draw(st.sampled_from(["road", "raised"]))
        x, y = draw(st.integers(0, cols - 1)), draw(st.integers(0, rows - 1))
        pts = [(x, y)]
        for _ in range(draw(st.integers(1, 6))):
            x = min(cols - 1, max(0, x + draw(st.sampled_from([-1, 0, 1]))))
            y = min(rows - 1, max(0, y + draw(st.sampled_from([-1, 0, 1]))))
            pts.append((x, y))
        paths.append((kind, pts))
    hmap = make_map(cols, rows, cells, sides, paths)
    hexes = sorted(movement.terrain_index(hmap))
    if not hexes:
        hexes = [Hex(0, 0)]
    opts = {
        "start": draw(st.sampled_from(hexes)),
        "mp": draw(st.sampled_from([0.0, 1.0, 2.5, 4.0, 7.0, math.inf])),
        "mclass": draw(st.sampled_from(["foot", "wheel"])),
        "column": draw(st.booleans()),
        "costs": draw(st.sampled_from([None, {"marsh": 3.0}, {"river": 2.0, "marsh": 1.5}])),
        "blocked": set(draw(st.lists(st.sampled_from(hexes), max_size=3))),
        "stop": set(draw(st.lists(st.sampled_from(hexes), max_size=4))),
        "toll": draw(st.booleans()),  # an extra per-step hook (like TKG ZOC costs)
    }
    return hmap, opts


def _toll(a: Hex, b: Hex) -> float | None:
    if (a.q + 2 * b.r) % 7 == 0:
        return None
    return 0.5 if (a.q + b.q) % 3 == 0 else 0.0


def both(hmap: HexMap, opts: dict[str, Any]) -> tuple[moves.Reach, moves.Reach]:
    kw = dict(column=opts["column"], blocked=opts["blocked"], stop=opts["stop"], costs=opts["costs"],
              extra=[_toll] if opts["toll"] else [])
    args = (hmap, SYSTEM, opts["start"], opts["mp"], opts["mclass"])
    return moves.reachable(*args, tables=moves.MoveTables(), **kw), moves.reachable(*args, reference=True, **kw)


def same(fast: moves.Reach, ref: moves.Reach) -> None:
    assert fast.cost == ref.cost
    assert fast.parent == ref.parent
    assert fast.refused == ref.refused
    assert list(fast.refused) == list(ref.refused)  # the same order, too
    assert fast.policies == ref.policies


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios())
def test_fast_reach_equals_reference_on_random_maps(case: tuple[HexMap, dict[str, Any]]) -> None:
    hmap, opts = case
    fast, ref = both(hmap, opts)
    same(fast, ref)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios())
def test_dense_search_equals_model_reference_and_raises_alike(case: tuple[HexMap, dict[str, Any]]) -> None:
    hmap, opts = case
    args = (hmap, SYSTEM, opts["start"], opts["mp"], opts["mclass"])
    kw: dict[str, Any] = dict(column=opts["column"], costs=opts["costs"], on_unknown="raise")
    try:
        ref: Any = movement.reachable(*args, **kw)
    except movement.CostUnknown as exc:
        ref = ("raised", str(exc))
    try:
        fast: Any = movement_fast.reachable_dense(*args, **kw)
    except movement.CostUnknown as exc:
        fast = ("raised", str(exc))
    assert fast == ref


def test_random_cases_reach_beyond_the_start() -> None:
    # Guard against a vacuous property: a plain case with known numbers moves somewhere.
    hmap = make_map(4, 3, list("." * 12), [(1, 1, 0, "stream")], [("road", [(0, 0), (1, 0), (2, 0)])])
    start = hmap.spec.hex_at_offset(0, 0)
    fast, ref = both(hmap, {"start": start, "mp": 3.0, "mclass": "foot", "column": False, "costs": None,
                            "blocked": set(), "stop": set(), "toll": False})
    same(fast, ref)
    assert len(fast.cost) > 5 and fast.cost[hmap.spec.hex_at_offset(2, 0)] == 1.0  # two road steps
    # A start off the indexed map (next to its edge) goes to the reference inside the fast path.
    off = next(n for n in start.neighbors() if n not in movement.terrain_index(hmap))
    fast, ref = both(hmap, {"start": off, "mp": 3.0, "mclass": "foot", "column": False, "costs": None,
                            "blocked": set(), "stop": {start}, "toll": True})
    same(fast, ref)
    assert start in fast.cost


@pytest.fixture(scope="module")
def utah() -> Any:
    res = load_bundle(REPO / "scenarios" / "utah-beach")
    assert res.bundle is not None
    return res.bundle


def test_utah_playtest_every_unit_and_portions_agree(utah: Any) -> None:
    g = Game(utah, "night-drop-playtest", 1)
    hmap = g.hmap
    assert hmap.portion_by_hex  # the sample has an impassable portion [Excl 2.1.14]
    costs = g.play_costs()
    starts = [u.hex for u in g.state.units.values() if u.on_map and u.hex is not None]
    portion = next(iter(hmap.portion_by_hex))
    starts += [portion] + [n for n in portion.neighbors() if hmap.contains(n)]
    for s in starts:
        for column in (False, True):
            kw = dict(column=column, costs=costs)
            fast = moves.reachable(hmap, g.system, s, 6.0, "leg", tables=g.move_tables, **kw)
            ref = moves.reachable(hmap, g.system, s, 6.0, "leg", reference=True, **kw)
            same(fast, ref)


@pytest.mark.parametrize("bundle,scenario", [("second-front-now", "calais-landing-playtest"),
                                             ("killing-ground", "operation-overlord-playtest")])
def test_sfn_and_tkg_playtests_agree_every_unit_every_class(bundle: str, scenario: str) -> None:
    # TKG's map has several sheets (N, W, E) in one axial space: the dense index spans them.
    res = load_bundle(REPO / "scenarios" / bundle)
    assert res.bundle is not None
    g = Game(res.bundle, scenario, 1)
    hmap, costs = g.hmap, g.play_costs()
    assert movement_fast.hex_grid(hmap).hexes and set(movement_fast.hex_grid(hmap).terrain) == set(movement.terrain_index(hmap))
    assert dict(movement_fast.hex_grid(hmap).terrain) == movement.terrain_index(hmap)
    starts = sorted({u.hex for u in g.state.units.values() if u.on_map and u.hex is not None})[:25]
    assert starts
    for s in starts:
        for mc in (m.id for m in g.system.movement_classes):
            kw = dict(costs=costs, stop={n for n in s.neighbors()} if s.q % 2 else set())
            same(moves.reachable(hmap, g.system, s, 6.0, mc, tables=g.move_tables, **kw),
                 moves.reachable(hmap, g.system, s, 6.0, mc, reference=True, **kw))


def test_a_cold_query_builds_its_table_on_the_game(utah: Any) -> None:
    g = Game(utah, "night-drop-playtest", 1)
    assert len(g.move_tables) == 0
    unit = next(u for u in sorted(g.state.units.values(), key=lambda u: u.id) if u.on_map)
    reach, problem = g.legal_moves([unit])
    assert problem is None and reach is not None and len(reach.cost) > 1
    assert len(g.move_tables) == 1  # on this game, not in a module-wide cache


def test_game_tables_are_cached_warmed_and_rebuilt_after_a_map_edit(utah: Any) -> None:
    g = Game(utah, "night-drop-playtest", 1)
    assert len(g.move_tables) == 0
    n = moves.warm_game(g)
    assert n >= 1 and len(g.move_tables) == n
    costs = g.play_costs()
    t1 = g.move_tables.get(g.hmap, g.system, "leg", False, costs)
    assert g.move_tables.get(g.hmap, g.system, "leg", False, costs) is t1  # cached
    unit = next(u for u in sorted(g.state.units.values(), key=lambda u: u.id) if u.on_map)
    g.apply({"do": "next_phase"})
    reach, problem = g.legal_moves([unit])
    assert problem is None and reach is not None
    assert len(g.move_tables) == n  # the query used the warmed table
    # Edit the map: paint the first reachable neighbour as an impassable-to-all terrain.
    target = next(h for h in reach.cost if h != unit.hex)
    hmap = g.hmap
    sea = next(t for t in g.system.terrain if t.move.get("leg") == "prohibited")
    x0, y0 = hmap.offset_origin()
    x, y = hmap.spec.offset(target)
    lines = hmap.terrain.rows.split("\n")
    row = lines[y - y0]
    lines[y - y0] = row[:x - x0] + sea.char + row[x - x0 + 1:]
    old_rows = hmap.terrain.rows
    try:
        hmap.terrain.rows = "\n".join(lines)
        hmap.invalidate()
        assert g.move_tables.get(g.hmap, g.system, "leg", False, costs) is not t1  # rebuilt
        reach2, _ = g.legal_moves([unit])
        assert reach2 is not None and target not in reach2.cost
        ref = moves.reachable(hmap, g.system, unit.hex, reach.cost[target] + 10, "leg", reference=True, costs=costs)
        fast = moves.reachable(hmap, g.system, unit.hex, reach.cost[target] + 10, "leg", tables=g.move_tables,
                               costs=costs)
        same(fast, ref)
    finally:
        hmap.terrain.rows = old_rows
        hmap.invalidate()


@st.composite
def big_scenarios(draw: Any) -> tuple[HexMap, list[dict[str, Any]]]:
    """A larger map with long roads and many hexside features (so many edges share a
    signature: priced and explained once for all of them), and several queries on it."""
    cols, rows = draw(st.integers(8, 16)), draw(st.integers(6, 12))
    cells = draw(st.lists(st.sampled_from(CHARS), min_size=cols * rows, max_size=cols * rows))
    cells = ["-" if c == "X" and draw(st.booleans()) else c for c in cells]
    sides = draw(st.lists(st.tuples(st.integers(0, cols - 1), st.integers(0, rows - 1), st.integers(0, 5),
                                    st.sampled_from(["stream", "river", "cliff", "wall"])), min_size=10, max_size=40))
    paths = []
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["road", "road", "raised"]))
        y = draw(st.integers(0, rows - 1))
        paths.append((kind, [(x, y) for x in range(cols)]))  # across the map: many joined pairs
    hmap = make_map(cols, rows, cells, sides, paths)
    hexes = sorted(movement.terrain_index(hmap)) or [Hex(0, 0)]
    queries = [{"start": draw(st.sampled_from(hexes)), "mp": draw(st.sampled_from([2.0, 4.0, 7.0])),
                "mclass": draw(st.sampled_from(["foot", "wheel"])), "column": draw(st.booleans()),
                "costs": draw(st.sampled_from([None, {"marsh": 3.0, "river": 2.0}])),
                "blocked": set(draw(st.lists(st.sampled_from(hexes), max_size=3))),
                "stop": set(draw(st.lists(st.sampled_from(hexes), max_size=3))), "toll": draw(st.booleans())}
               for _ in range(draw(st.integers(2, 6)))]
    return hmap, queries


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(big_scenarios())
def test_shared_tables_answer_every_query_like_the_reference(case: tuple[HexMap, list[dict[str, Any]]]) -> None:
    """One MoveTables for every query on a map: costs and refusal words cached per edge
    signature by an earlier query are right for the next one's edges too."""
    hmap, queries = case
    tables = moves.MoveTables()
    for opts in queries:
        kw = dict(column=opts["column"], blocked=opts["blocked"], stop=opts["stop"], costs=opts["costs"],
                  extra=[_toll] if opts["toll"] else [])
        args = (hmap, SYSTEM, opts["start"], opts["mp"], opts["mclass"])
        same(moves.reachable(*args, tables=tables, **kw), moves.reachable(*args, reference=True, **kw))
    # Every edge's step (with its reason) as the reference gives it, after the searches above.
    for opts in queries[:1]:
        table = tables.get(hmap, SYSTEM, opts["mclass"], opts["column"], opts["costs"])
        for i in range(len(table.hexes)):
            for d in range(6):
                h = table.hexes[i]
                ref = movement.step_cost(hmap, SYSTEM, h, h.neighbor(d), opts["mclass"], column=opts["column"],
                                         costs=opts["costs"])
                assert table.step(i, d) == ref
                got = table.cost[i][d]
                want = math.inf if ref.cost is None else ref.cost
                assert got == want or (got != got and want != want)


def test_lazy_hexes_and_arithmetic_index_match_the_map(utah: Any) -> None:
    """The dense grid makes no Hex per map hex up front: its hexes read lazily equal the
    map's list, and its hex -> index lookup answers like a dict of them, on and off the map
    and for things that are not hexes."""
    for hmap in [utah.default_map, make_map(5, 4, list(".-W~" * 5), [], [])]:
        grid = movement_fast.HexGrid(hmap)
        hexes = hmap.hexes()
        assert len(grid.hexes) == len(hexes) and [grid.hexes[i] for i in range(len(hexes))] == hexes
        assert grid.hexes[len(hexes) // 2] is grid.hexes[len(hexes) // 2]  # made once, kept
        assert list(grid.hexes) == hexes and grid.hexes.as_list() == hexes
        want = dict(zip(hexes, range(len(hexes))))
        assert len(grid.index) == len(want) and list(grid.index) == hexes
        probes = hexes[:: max(1, len(hexes) // 300)] + [n for h in hexes[:50] for n in h.neighbors()]
        probes += [Hex(-10**6, 5), Hex(10**6, -10**6)]
        for h in probes:
            assert grid.index.get(h) == want.get(h) and (h in grid.index) == (h in want)
        for junk in (None, "0101", (1, 2, 3), 7):
            assert junk not in grid.index and grid.index.get(junk, "no") == "no"
        with pytest.raises(KeyError):
            grid.index[Hex(-10**6, 5)]
