"""TKG Zones of Control [8.0–8.3]: who exerts which ZOC, where, and what it costs to move.

- A unit exerts the ZOC printed in its ``zoc`` counter value (RZOC / BZOC / none) [8.1.2];
  cadres never [9.4.3]; Disorganized or Regrouping units exert none [8.0].
- Not into a city hex [8.3.1]; not across a minor or major river hexside [8.3.2] (the
  "instantly projects" exception of 8.3.2 is not modelled: policy ``river-zoc-not-projected``).
- Several enemy ZOCs on a hex do not add up; RZOC has priority [8.2.4].
- Movement [8.2.1]: a unit stops on entering an enemy ZOC; entering or leaving an enemy RZOC
  costs +1 MP (non-mech) or +3 MP (mech); BZOC costs nothing extra. No ZOC-to-ZOC move except
  non-cadre regiments BZOC→BZOC and a German unit that starts in hedgerow/bocage, and never
  into a hex directly between two ZOC-exerting enemy units (L445–450).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from model.base import hexside_between
from model.hexes import Hex

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.state import UnitState
    from play.tkg.params import ZocParams

RIVER_POLICY = "river-zoc-not-projected: ZOC never crosses a minor/major river hexside [8.3.2] (the projection exception is not modelled)"


def zoc_type(game: "PlayContext", u: "UnitState", cfg: "ZocParams") -> str | None:
    """"R", "B" or None for the ZOC this unit exerts now."""
    c = game.counters.get(u.id)
    if c is None or not u.on_map:
        return None
    if c.category in cfg.no_zoc_categories:
        return None
    if any(m in u.markers for m in cfg.no_zoc_markers):
        return None
    side = c.back if u.reduced and c.back is not None and cfg.field in c.back.values else c.front
    v = str(side.values.get(cfg.field, "none")).upper()
    return "R" if v == "RZOC" else "B" if v == "BZOC" else None


def enemy_zoc(game: "PlayContext", side: str, cfg: "ZocParams") -> tuple[dict[Hex, str], dict[Hex, list[Hex]]]:
    """(hex → "R"/"B" of the enemy ZOC on it, hex → the enemy hexes exerting it)."""
    out: dict[Hex, str] = {}
    by: dict[Hex, list[Hex]] = {}
    no_terrain = set(cfg.no_zoc_into_terrain_tags)
    rivers = set(cfg.no_zoc_across_hexsides)
    for u in game.state.units.values():
        if u.side == side or u.hex is None:
            continue
        z = zoc_type(game, u, cfg)
        if z is None:
            continue
        for n in u.hex.neighbors():
            if not game.hmap.contains(n):
                continue
            t = game.system.terrain_by_id.get(game.hmap.terrain_at(n) or "")
            if t is not None and (no_terrain & set(t.tags) or t.id in no_terrain):
                continue
            key = hexside_between(u.hex, n)
            if key is not None and rivers & set(game.hmap.hexside_features(key)):
                continue
            if out.get(n) != "R":
                out[n] = z  # RZOC has priority [8.2.4]
            by.setdefault(n, []).append(u.hex)
    return out, by


def between_two(h: Hex, exerting: list[Hex]) -> bool:
    """Is ``h`` directly between two ZOC-exerting enemy units (opposite neighbours)?"""
    s = set(exerting)
    return any(h.neighbor(d) in s and h.neighbor(d + 3) in s for d in range(3))


def move_hook(game: "PlayContext", units: list["UnitState"], cfg: "ZocParams") -> Callable[[Hex, Hex], float | None] | None:
    if not units or units[0].hex is None:
        return None
    side, start = units[0].side, units[0].hex
    zmap, by = enemy_zoc(game, side, cfg)
    if not zmap:
        return None
    from play import rules

    classes = {rules.movement_class(game.system, game.counters.get(u.id)) for u in units}
    # A mixed stack pays the dearest class's RZOC cost.
    rz = max(float(cfg.rzoc_extra.cost(c)) for c in classes)
    z2 = cfg.zoc_to_zoc
    tags = set(z2.regiment_category_tags)
    regiments = all(_cat_tags(game, u) & tags and not _is_cadre(game, u, cfg) for u in units)
    start_t = game.hmap.terrain_at(start) or ""
    german_close = side == z2.german_side and start_t in z2.german_start_terrain

    def extra(a: Hex, b: Hex) -> float | None:
        za, zb = zmap.get(a), zmap.get(b)
        if za and a != start:
            return None  # entered an enemy ZOC: movement ends there [8.2.1]
        if za and zb:
            if not ((regiments and za == "B" and zb == "B") or german_close):
                return None  # no ZOC-to-ZOC (L445)
            if between_two(b, by.get(b, [])):
                return None  # never between two ZOC-exerting enemies (L450)
        return (rz if za == "R" else 0.0) + (rz if zb == "R" else 0.0)

    return extra


def _cat_tags(game: "PlayContext", u: "UnitState") -> set[str]:
    c = game.counters.get(u.id)
    cat = game.system.category_by_id.get(c.category) if c is not None else None
    return set(cat.tags) if cat is not None else set()


def _is_cadre(game: "PlayContext", u: "UnitState", cfg: "ZocParams") -> bool:
    c = game.counters.get(u.id)
    return c is not None and c.category in cfg.no_zoc_categories
