"""Supply tracing (SFN 9.0, 11.3): which units of a side can trace a supply path.

Qt-free and data-driven: the supply configuration (``params.supply`` of the system, else
``play/sfn/params.yaml``) names the sources and exceptions per side::

    supply:
      rule: SFN 9.0
      zoc_blocking_hexside_tags: [all_sea]        # no ZOC across these [SFN 11.2]
      sides:
        german:
          sources: {area_param: supply_edge}      # system param naming a map area [9.3]
          always_in: {terrain_tags: [fortress_supply]}   # always supplied there …
          no_trace_into: {terrain_tags: [fortress_supply]}  # … but paths may not enter
        allied:
          sources: {invasion_beachheads: true}    # active invasion area's beachheads [9.3]
          always_in: {coastal: true}
          no_trace_into: {coastal_except_sources: true}

A path runs hex by hex, of any length, through land hexes (terrain the unit's movement
class may enter, across hexsides it may cross), never through an enemy-occupied hex nor into an
enemy ZOC unless a friendly unit is in that hex [9.3, 11.3]. A source hex occupied by the enemy
or in an un-nullified enemy ZOC supplies nothing [9.3]. Units in holding boxes are supplied [9.3].
Enemy ZOC: every enemy unit on the map that exerts one (``play.rules.exerts_zoc``) into its
six neighbours, except across hexsides with a blocking tag [11.1, 11.2].

Two implementations give the same answers (tests/play/test_supply_fast.py checks them side by
side: the SFN sample phase by phase, random positions, random maps and configurations, map
edits):

- the **fast path**, :func:`trace` and :func:`enemy_zoc`: what units cannot change (land per
  movement class, terrain tags, coastal hexes, prohibited hexside crossings, ZOC-blocking
  hexsides, the adjacency a path may use) is computed once per map state and system in a
  :class:`SupplyGraph` over ``model.movement_fast.hex_grid``'s dense index, rebuilt when the map is
  edited; each call marks the hexes units close now (enemy-occupied, un-nullified enemy ZOC)
  and runs one multi-source BFS from every live source at once;
- the **reference**, :func:`trace_reference` and :func:`enemy_zoc_reference`: the same BFS
  asking the map and the system about every hex and hexside it meets.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from model.base import hexside_between
from model.hexes import Hex

from play import rules

if TYPE_CHECKING:
    from play.context import PlayContext


@dataclass
class SupplyResult:
    side: str
    supplied: set[str] = field(default_factory=set)
    unsupplied: set[str] = field(default_factory=set)
    sources: set[Hex] = field(default_factory=set)  # sources that still supply
    reached: set[Hex] = field(default_factory=set)  # hexes a path reaches


def _hexside_tags(game: "PlayContext", a: Hex, b: Hex) -> set[str]:
    key = hexside_between(a, b)
    tags: set[str] = set()
    if key is None:
        return tags
    for sid in game.hmap.hexside_features(key):
        st = game.system.hexside_by_id.get(sid)
        if st is not None:
            tags |= set(st.tags) | {st.id}
    return tags


def _crossing_blocked(game: "PlayContext", a: Hex, b: Hex, mclass: str) -> bool:
    key = hexside_between(a, b)
    if key is None:
        return False
    for sid in game.hmap.hexside_features(key):
        st = game.system.hexside_by_id.get(sid)
        if st is not None and st.move.get(mclass) in ("prohibited",):
            return True
    return False


def enemy_zoc_reference(game: "PlayContext", side: str, blocking_tags: set[str] | frozenset[str]) -> set[Hex]:
    """Hexes in the ZOC of ``side``'s enemies [SFN 11.1], not across blocking hexsides [11.2]
    (the reference: hexside tags looked up per unit and neighbour)."""
    out: set[Hex] = set()
    for u in game.state.units.values():
        if not u.on_map or u.side == side or u.hex is None:
            continue
        if not rules.exerts_zoc(game.system, game.counters.get(u.id)):
            continue
        for n in u.hex.neighbors():
            if game.hmap.contains(n) and not (_hexside_tags(game, u.hex, n) & blocking_tags):
                out.add(n)
    return out


def _terrain_tagged(game: "PlayContext", h: Hex, tags: list[str]) -> bool:
    t = game.system.terrain_by_id.get(game.hmap.terrain_at(h) or "")
    return t is not None and bool(set(t.tags) & set(tags))


def _land(game: "PlayContext", h: Hex, mclass: str) -> bool:
    t = game.system.terrain_by_id.get(game.hmap.terrain_at(h) or "")
    if t is None:
        return False
    return t.move.get(mclass) != "prohibited" and not ({"sea", "impassable", "prohibited"} & set(t.tags))


def _coastal(game: "PlayContext", h: Hex) -> bool:
    """A land hex next to a sea hex (terrain tagged ``sea``)."""
    return any(game.hmap.contains(n) and _terrain_tagged(game, n, ["sea"]) for n in h.neighbors())


def _sources(game: "PlayContext", spec: dict[str, Any]) -> set[Hex]:
    out: set[Hex] = set()
    if spec.get("area_param"):
        p = game.system.params.get(str(spec["area_param"]))
        area_id = p.get("area") if isinstance(p, dict) else p
        area = game.hmap.area(str(area_id)) if area_id else None
        if area is not None:
            out |= set(area.hexes)
    if spec.get("invasion_beachheads"):
        areas = game.system.params.get("invasion_areas") or {}
        active = game.scenario.params.get("invasion_area")
        for label in (areas.get(active) or {}).get("beachheads", []) if isinstance(areas, dict) else []:
            try:
                out.add(game.hmap.parse(str(label)))
            except Exception:  # a label this map cannot read supplies nothing
                continue
    return out


def trace_reference(game: "PlayContext", side: str, cfg: dict[str, Any]) -> SupplyResult:
    """Supply state of every unit of ``side`` now (the reference: a BFS that asks the map and
    the system about every hex and hexside it meets)."""
    spec = (cfg.get("sides") or {}).get(side) or {}
    res = SupplyResult(side)
    mclass = rules.movement_class(game.system, None)
    ezoc = enemy_zoc_reference(game, side, set(cfg.get("zoc_blocking_hexside_tags") or []))
    friendly = game.state.occupied_by(side)
    enemy = {u.hex for u in game.state.units.values() if u.on_map and u.side != side and u.hex is not None}
    live_zoc = ezoc - friendly  # a friendly unit in the hex nullifies the EZOC for supply [11.3]
    sources = _sources(game, spec.get("sources") or {})
    always = spec.get("always_in") or {}
    no_into = spec.get("no_trace_into") or {}

    def forbidden(h: Hex) -> bool:
        if not game.hmap.contains(h) or not _land(game, h, mclass) or h in enemy or h in live_zoc:
            return True
        if no_into.get("terrain_tags") and _terrain_tagged(game, h, no_into["terrain_tags"]):
            return True
        return bool(no_into.get("coastal_except_sources")) and h not in sources and _coastal(game, h)

    res.sources = {h for h in sources if game.hmap.contains(h) and h not in enemy and h not in live_zoc}
    queue = deque(sorted(res.sources, key=lambda h: (h.q, h.r)))
    res.reached = set(res.sources)
    while queue:
        h = queue.popleft()
        for n in h.neighbors():
            if n in res.reached or forbidden(n) or _crossing_blocked(game, h, n, mclass):
                continue
            res.reached.add(n)
            queue.append(n)
    for u in game.state.units.values():
        if u.side != side or u.where not in ("hex", "box"):
            continue
        ok = u.where == "box"  # units in holding boxes are supplied [9.3]
        if not ok and u.hex is not None:
            ok = u.hex in res.reached
            if always.get("terrain_tags") and _terrain_tagged(game, u.hex, always["terrain_tags"]):
                ok = True
            if always.get("coastal") and _land(game, u.hex, mclass) and _coastal(game, u.hex):
                ok = True
        (res.supplied if ok else res.unsupplied).add(u.id)
    return res



# --- the fast path ------------------------------------------------------------------------
#
# What does not change while a game runs — the hexes, their neighbours, which terrain is land
# or coastal or tagged, which hexsides block a crossing or a ZOC — is computed once per map
# state and system (a :class:`SupplyGraph`) and searched by integer index. Only what units
# change (enemy hexes, enemy ZOC, friendly nullification) is computed per call. The answers are
# the reference's (tests/play/test_supply_fast*.py checks them side by side).


class SupplyGraph:
    """The static half of supply tracing for one map state and system: the dense hex index
    of ``model.movement_fast.hex_grid`` and, built on first use, per-hex masks (land for a movement
    class, terrain tags, coastal), blocked hexside crossings per movement class, ZOC targets
    per set of blocking hexside tags, and the BFS adjacency per trace configuration."""

    def __init__(self, hmap: Any, system: Any, grid: Any) -> None:
        self.hmap, self.system, self.grid = hmap, system, grid
        self.hexes: list[Hex] = list(grid.hexes)
        # A dict of its own: enemy_zoc looks up every unit's hex, thousands of times a game.
        self.index: dict[Hex, int] = dict(zip(self.hexes, range(len(self.hexes))))
        self.nbr: list[list[int]] = grid.nbr_array.tolist()
        self.tcode: list[int] = grid.tcode.tolist()
        # Terrain type per code, as the reference finds it (``terrain_by_id.get(id or "")``).
        self.types = [system.terrain_by_id.get(tid or "") for tid in grid.tids]
        self._land: dict[str, list[bool]] = {}
        self._tagged: dict[tuple[str, ...], list[bool]] = {}
        self._coastal: list[bool] | None = None
        self._crossing: dict[str, set[tuple[int, int]]] = {}
        self._zoc: dict[frozenset[str], list[tuple[Hex, ...]]] = {}
        self._adj: dict[tuple[Any, ...], list[list[int]]] = {}
        self._exerts: dict[str, tuple[Any, bool]] = {}

    # per-hex masks
    def land(self, mclass: str) -> list[bool]:
        got = self._land.get(mclass)
        if got is None:
            by_code = [t is not None and t.move.get(mclass) != "prohibited"
                       and not ({"sea", "impassable", "prohibited"} & set(t.tags)) for t in self.types]
            got = self._land[mclass] = [by_code[c] for c in self.tcode]
        return got

    def tagged(self, tags: list[str] | tuple[str, ...]) -> list[bool]:
        key = tuple(sorted(str(t) for t in tags))
        got = self._tagged.get(key)
        if got is None:
            want = set(key)
            by_code = [t is not None and bool(set(t.tags) & want) for t in self.types]
            got = self._tagged[key] = [by_code[c] for c in self.tcode]
        return got

    def coastal(self) -> list[bool]:
        """A hex next to a hex of the map whose terrain is tagged ``sea`` (as ``_coastal``)."""
        if self._coastal is None:
            sea = self.tagged(["sea"])
            self._coastal = [any(j >= 0 and sea[j] for j in row) for row in self.nbr]
        return self._coastal

    # per-edge facts
    def _edges(self, blocked_key: Any) -> set[tuple[int, int]]:
        """(hex index, direction) of both sides of every hexside whose features satisfy
        ``blocked_key(features)``."""
        out: set[tuple[int, int]] = set()
        index = self.index
        for key, feats in self.hmap.hexside_index.items():
            if not blocked_key(feats):
                continue
            a, b = key.hexes()
            d = a.direction_to(b)
            if d is None:
                continue
            if a in index:
                out.add((index[a], d))
            if b in index:
                out.add((index[b], (d + 3) % 6))
        return out

    def crossing_blocked(self, mclass: str) -> set[tuple[int, int]]:
        got = self._crossing.get(mclass)
        if got is None:
            by_id = self.system.hexside_by_id

            def prohibited(feats: tuple[str, ...]) -> bool:
                return any(by_id.get(s) is not None and by_id[s].move.get(mclass) in ("prohibited",) for s in feats)

            got = self._crossing[mclass] = self._edges(prohibited)
        return got

    def zoc_targets(self, blocking: frozenset[str]) -> list[tuple[Hex, ...]]:
        """Per hex index, the neighbours on the map its ZOC reaches (not across a hexside
        carrying a blocking tag or id) [SFN 11.1, 11.2]."""
        got = self._zoc.get(blocking)
        if got is None:
            by_id = self.system.hexside_by_id

            def blocks(feats: tuple[str, ...]) -> bool:
                tags: set[str] = set()
                for s in feats:
                    st = by_id.get(s)
                    if st is not None:
                        tags |= set(st.tags) | {st.id}
                return bool(tags & blocking)

            cut = self._edges(blocks) if blocking else set()
            hexes = self.hexes
            got = self._zoc[blocking] = [tuple(hexes[j] for d, j in enumerate(row) if j >= 0 and (i, d) not in cut)
                                         for i, row in enumerate(self.nbr)]
        return got

    def adjacency(self, mclass: str, no_into: dict[str, Any], sources: frozenset[int]) -> list[list[int]]:
        """Per hex index, the neighbours a supply path may step into whatever the units do:
        land for ``mclass``, not ``no_trace_into``, across no prohibited hexside."""
        tags = tuple(sorted(str(t) for t in (no_into.get("terrain_tags") or [])))
        coastal_rule = bool(no_into.get("coastal_except_sources"))
        key = (mclass, tags, coastal_rule, sources if coastal_rule else frozenset())
        got = self._adj.get(key)
        if got is None:
            land = self.land(mclass)
            tagged = self.tagged(tags) if tags else None
            coastal = self.coastal() if coastal_rule else None
            enter = [land[j] and not (tagged is not None and tagged[j])
                     and not (coastal is not None and coastal[j] and j not in sources) for j in range(len(land))]
            cut = self.crossing_blocked(mclass)
            got = self._adj[key] = [[j for d, j in enumerate(row) if j >= 0 and enter[j] and (i, d) not in cut]
                                    for i, row in enumerate(self.nbr)]
        return got

    def exerts(self, game: "PlayContext", uid: str) -> bool:
        """``rules.exerts_zoc`` of a unit's counter, kept per counter object."""
        counter = game.counters.get(uid)
        hit = self._exerts.get(uid)
        if hit is not None and hit[0] is counter:
            return hit[1]
        out = rules.exerts_zoc(game.system, counter)
        self._exerts[uid] = (counter, out)
        return out


_GRAPHS: dict[tuple[int, int], tuple[Any, Any, Any, tuple[tuple[str, str], ...], SupplyGraph]] = {}


def supply_graph(game: "PlayContext") -> SupplyGraph:
    """The game's :class:`SupplyGraph`, rebuilt when the map is edited (a new
    ``model.movement_fast.hex_grid``; hexside edits make one too), its legend changes or another
    system object is used. The system's types are read once: a game does not edit them."""
    from model.movement_fast import hex_grid

    hmap, system = game.hmap, game.system
    grid = hex_grid(hmap)
    legend = tuple(hmap.terrain.legend.items())
    key = (id(hmap), id(system))
    hit = _GRAPHS.get(key)
    if hit is not None and hit[0] is hmap and hit[1] is system and hit[2] is grid and hit[3] == legend \
            and hit[4].types == [system.terrain_by_id.get(t or "") for t in grid.tids]:
        return hit[4]
    graph = SupplyGraph(hmap, system, grid)
    if len(_GRAPHS) > 16:
        _GRAPHS.clear()
    _GRAPHS[key] = (hmap, system, grid, legend, graph)
    return graph


def enemy_zoc(game: "PlayContext", side: str, blocking_tags: set[str] | frozenset[str]) -> set[Hex]:
    """Hexes in the ZOC of ``side``'s enemies [SFN 11.1], not across blocking hexsides [11.2]:
    the answer of :func:`enemy_zoc_reference`, from the graph's ZOC targets per hex."""
    g = supply_graph(game)
    targets = g.zoc_targets(frozenset(blocking_tags))
    index = g.index
    out: set[Hex] = set()
    for u in game.state.units.values():
        if u.side == side or u.hex is None or not u.on_map or not g.exerts(game, u.id):
            continue
        i = index.get(u.hex)
        if i is not None:
            out.update(targets[i])
        else:  # a unit off the indexed map: its on-map neighbours, hexside by hexside
            out.update(n for n in u.hex.neighbors()
                       if game.hmap.contains(n) and not (_hexside_tags(game, u.hex, n) & set(blocking_tags)))
    return out


def trace(game: "PlayContext", side: str, cfg: dict[str, Any]) -> SupplyResult:
    """Supply state of every unit of ``side`` now: :func:`trace_reference`'s answer, by one
    multi-source BFS over the static adjacency of :class:`SupplyGraph` with the hexes units
    close now (enemy-occupied, un-nullified enemy ZOC) marked visited up front."""
    g = supply_graph(game)
    spec = (cfg.get("sides") or {}).get(side) or {}
    res = SupplyResult(side)
    mclass = rules.movement_class(game.system, None)
    ezoc = enemy_zoc(game, side, set(cfg.get("zoc_blocking_hexside_tags") or []))
    friendly = game.state.occupied_by(side)
    enemy = {u.hex for u in game.state.units.values() if u.on_map and u.side != side and u.hex is not None}
    live_zoc = ezoc - friendly  # a friendly unit in the hex nullifies the EZOC for supply [11.3]
    sources = _sources(game, spec.get("sources") or {})
    res.sources = {h for h in sources if game.hmap.contains(h) and h not in enemy and h not in live_zoc}
    index = g.index
    if any(h not in index for h in res.sources):
        return trace_reference(game, side, cfg)  # a source the dense index lacks: no shortcut
    always = spec.get("always_in") or {}
    adj = g.adjacency(mclass, spec.get("no_trace_into") or {}, frozenset(index[h] for h in sources if h in index))
    seen = bytearray(len(g.hexes))
    for h in enemy | live_zoc:  # closed now: never entered
        i = index.get(h)
        if i is not None:
            seen[i] = 1
    queue = [index[h] for h in res.sources]
    for i in queue:
        seen[i] = 1
    for i in queue:  # the list grows while it is read: a BFS
        for j in adj[i]:
            if not seen[j]:
                seen[j] = 1
                queue.append(j)
    hexes = g.hexes
    res.reached = {hexes[i] for i in queue}
    tagged = g.tagged(always["terrain_tags"]) if always.get("terrain_tags") else None
    coastal_land = always.get("coastal")
    for u in game.state.units.values():
        if u.side != side or u.where not in ("hex", "box"):
            continue
        ok = u.where == "box"  # units in holding boxes are supplied [9.3]
        if not ok and u.hex is not None:
            ok = u.hex in res.reached
            i = index.get(u.hex)
            if i is None:  # off the indexed map: the reference's lookups
                if always.get("terrain_tags") and _terrain_tagged(game, u.hex, always["terrain_tags"]):
                    ok = True
                if coastal_land and _land(game, u.hex, mclass) and _coastal(game, u.hex):
                    ok = True
            else:
                if tagged is not None and tagged[i]:
                    ok = True
                if coastal_land and g.land(mclass)[i] and g.coastal()[i]:
                    ok = True
        (res.supplied if ok else res.unsupplied).add(u.id)
    return res
