"""Supply tracing (SFN 9.0, 11.3): which units of a side can trace a supply path.

Qt-free and data-driven: the supply configuration (``params.supply`` of the system, else
``play/data/procedures.yaml``) names the sources and exceptions per side::

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
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from model.base import hexside_between
from model.hexes import Hex

from play import rules

if TYPE_CHECKING:
    from play.game import Game


@dataclass
class SupplyResult:
    side: str
    supplied: set[str] = field(default_factory=set)
    unsupplied: set[str] = field(default_factory=set)
    sources: set[Hex] = field(default_factory=set)  # sources that still supply
    reached: set[Hex] = field(default_factory=set)  # hexes a path reaches


def _hexside_tags(game: "Game", a: Hex, b: Hex) -> set[str]:
    key = hexside_between(a, b)
    tags: set[str] = set()
    if key is None:
        return tags
    for sid in game.hmap.hexside_features(key):
        st = game.system.hexside_by_id.get(sid)
        if st is not None:
            tags |= set(st.tags) | {st.id}
    return tags


def _crossing_blocked(game: "Game", a: Hex, b: Hex, mclass: str) -> bool:
    key = hexside_between(a, b)
    if key is None:
        return False
    for sid in game.hmap.hexside_features(key):
        st = game.system.hexside_by_id.get(sid)
        if st is not None and st.move.get(mclass) in ("prohibited",):
            return True
    return False


def enemy_zoc(game: "Game", side: str, blocking_tags: set[str]) -> set[Hex]:
    """Hexes in the ZOC of ``side``'s enemies [SFN 11.1], not across blocking hexsides [11.2]."""
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


def _terrain_tagged(game: "Game", h: Hex, tags: list[str]) -> bool:
    t = game.system.terrain_by_id.get(game.hmap.terrain_at(h) or "")
    return t is not None and bool(set(t.tags) & set(tags))


def _land(game: "Game", h: Hex, mclass: str) -> bool:
    t = game.system.terrain_by_id.get(game.hmap.terrain_at(h) or "")
    if t is None:
        return False
    return t.move.get(mclass) != "prohibited" and not ({"sea", "impassable", "prohibited"} & set(t.tags))


def _coastal(game: "Game", h: Hex) -> bool:
    """A land hex next to a sea hex (terrain tagged ``sea``)."""
    return any(game.hmap.contains(n) and _terrain_tagged(game, n, ["sea"]) for n in h.neighbors())


def _sources(game: "Game", spec: dict[str, Any]) -> set[Hex]:
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


def trace(game: "Game", side: str, cfg: dict[str, Any]) -> SupplyResult:
    """Supply state of every unit of ``side`` now."""
    spec = (cfg.get("sides") or {}).get(side) or {}
    res = SupplyResult(side)
    mclass = rules.movement_class(game.system, None)
    ezoc = enemy_zoc(game, side, set(cfg.get("zoc_blocking_hexside_tags") or []))
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

