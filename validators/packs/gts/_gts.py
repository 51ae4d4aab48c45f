"""Shared look-ups for the GTS pack (private: pack discovery skips it).

Scenario ``params`` used by the pack (all optional; a missing value means "not given"):

* ``scenario_map: {from: LABEL, to: LABEL}`` — offset rectangle of the scenario's map;
* ``entry_hexes: [location ids]`` — reinforcement hexes declared by the scenario's SSRs;
* ``af_markers: {UtN: {hex: LABEL}, UtS: {...}}`` — Assault Force marker hexes;
* ``mug: [{turn, chits: [counter ids]}]`` — chits added to the mug from that turn on;
* ``ratings: {division: {command, dispatch, from: TURN}}``;
* ``straggler_battalions``, ``attachments``, ``org``, ``contact_markers``,
  ``artillery_parks``, ``roadblock_limits``, ``continuation`` (see each rule).

Values may be wrapped as ``{value: ..., rule: ...}``; :func:`param` unwraps them.
"""

from __future__ import annotations

from typing import Any, Iterator

from model.base import Node
from model.counters import Counter, normalize_name
from model.hexes import Hex
from model.scenario import ScheduleEntry
from model.system import TurnDef
from validators.context import RuleContext

SYSTEMS = ("gts-utah",)
ARRIVALS = frozenset({"reinforcement", "drop", "landing"})


def unwrap(value: Any) -> Any:
    if isinstance(value, dict) and "value" in value:
        return value["value"]
    return value


def param(ctx: RuleContext, name: str, default: Any = None) -> Any:
    if ctx.scenario is None:
        return default
    return unwrap(ctx.scenario.params.get(name, default))


def sys_param(ctx: RuleContext, name: str, default: Any = None) -> Any:
    return unwrap(ctx.system.params.get(name, default))


def parse(ctx: RuleContext, label: Any) -> Hex | None:
    if label is None:
        return None
    return ctx.hmap.spec.try_parse(str(label))


def turns(ctx: RuleContext) -> list[TurnDef]:
    return ctx.system.calendar.all_turns


def turn_no(ctx: RuleContext, ref: Any) -> int | None:
    if ref is None:
        return None
    return ctx.turn_number(ref)


def turn_label(ctx: RuleContext, n: int | None) -> str:
    for t in turns(ctx):
        if t.n == n:
            return t.label
    return str(n)


def scenario_span(ctx: RuleContext) -> tuple[int | None, int | None]:
    scen = ctx.scenario
    if scen is None or scen.turns is None:
        return None, None
    return turn_no(ctx, scen.turns.first), turn_no(ctx, scen.turns.last)


def in_grid(ctx: RuleContext, h: Hex) -> bool:
    return ctx.hmap.contains(h)


def has_center_dot(ctx: RuleContext, h: Hex) -> bool:
    """Playable in the sense of [Excl 4.4.3, 2.1.14]: on the grid, a centre dot, and not
    wholly Impassable (terrain tagged ``impassable``/``no_center_dot`` or prohibited for
    every movement class)."""
    tid = ctx.hmap.terrain_at(h)
    if tid is None:
        return False
    verdicts: dict[str, bool] = ctx.memo("gts.center_dot", dict, owner=ctx.system)
    if tid not in verdicts:
        verdicts[tid] = _terrain_has_center_dot(ctx, tid)
    return verdicts[tid]


def _terrain_has_center_dot(ctx: RuleContext, tid: str) -> bool:
    t = ctx.system.terrain_by_id.get(tid)
    return True if t is None else t.has_center_dot


def map_rect(ctx: RuleContext) -> tuple[int, int, int, int] | None:
    """(x0, y0, x1, y1) inclusive offsets of ``params.scenario_map``, or None (once per context)."""
    return ctx.local("gts.map_rect", lambda: _map_rect(ctx))


def _map_rect(ctx: RuleContext) -> tuple[int, int, int, int] | None:
    rect = param(ctx, "scenario_map")
    if not isinstance(rect, dict):
        return None
    a, b = parse(ctx, rect.get("from")), parse(ctx, rect.get("to"))
    if a is None or b is None:
        return None
    (ax, ay), (bx, by) = ctx.hmap.spec.offset(a), ctx.hmap.spec.offset(b)
    return min(ax, bx), min(ay, by), max(ax, bx), max(ay, by)


def on_scenario_map(ctx: RuleContext, h: Hex) -> bool:
    """Inside the scenario's map: the ``scenario_map`` rectangle and the Playable data."""
    rect = map_rect(ctx)
    if rect is not None:
        x, y = ctx.hmap.spec.offset(h)
        if not (rect[0] <= x <= rect[2] and rect[1] <= y <= rect[3]):
            return False
    sets = _playable_sets(ctx)
    if sets is not None:
        exclude, hexes, area = sets
        if h in exclude:
            return False
        if hexes and h not in hexes:
            return False
        if area is not None and h not in area:
            return False
    return True


def _playable_sets(ctx: RuleContext) -> tuple[frozenset[Hex], frozenset[Hex], frozenset[Hex] | None] | None:
    """(exclude, hexes, area hexes or None) of the scenario's ``playable``, once per context."""
    def build() -> tuple[frozenset[Hex], frozenset[Hex], frozenset[Hex] | None] | None:
        pl = ctx.scenario.playable if ctx.scenario is not None else None
        if pl is None:
            return None
        area = ctx.hmap.area(pl.area) if pl.area else None
        return frozenset(pl.exclude), frozenset(pl.hexes), (frozenset(area.hexes) if area is not None else None)
    return ctx.local("gts.playable_sets", build)


def counter(ctx: RuleContext, ref: str) -> Counter | None:
    """A counter by id, else by normalised name when exactly one matches."""
    c = ctx.counters.get(ref)
    if c is not None:
        return c
    found = [x for x in ctx.bundle.counters if normalize_name(x.name) == normalize_name(ref)]
    return found[0] if len(found) == 1 else None


def arrivals(ctx: RuleContext) -> Iterator[ScheduleEntry]:
    if ctx.scenario is None:
        return
    for e in ctx.scenario.schedule:
        if e.kind in ARRIVALS:
            yield e


def location(ctx: RuleContext, loc_id: str) -> Any:
    for loc in ctx.bundle.locations(ctx.scenario):
        if loc.id == loc_id:
            return loc
    return None


def zone_hexes(ctx: RuleContext, zone_id: str) -> list[Hex] | None:
    """A zone's hexes including the zone it extends (LZ O = DZ O + 6), or None."""
    return ctx.scenario.zone_hexes(zone_id) if ctx.scenario else None


def mug_turns(ctx: RuleContext) -> dict[str, int]:
    """Chit id → first turn it is in the mug (``params.mug``)."""
    out: dict[str, int] = {}
    for block in param(ctx, "mug", []) or []:
        if not isinstance(block, dict):
            continue
        n = turn_no(ctx, block.get("turn"))
        if n is None:
            continue
        for chit in block.get("chits", []) or []:
            out[str(chit)] = min(n, out.get(str(chit), n))
    return out


def divact_chits(ctx: RuleContext) -> dict[str, Counter]:
    """Division → its DivAct chit counter."""
    return {c.division: c for c in ctx.bundle.counters if "divact_chit" in c.flags and c.division}


def is_unit(c: Counter, ctx: RuleContext) -> bool:
    """A combat unit: not a leader, marker or chit."""
    return c.category not in ("leader", "marker") and not ({"divact_chit", "formation_chit", "naval_chit"} & set(c.flags))


def int_value(v: Any) -> int | None:
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v
    if isinstance(v, str) and v.strip().lstrip("-").isdigit():
        return int(v)
    return None


def steps_of(c: Counter) -> int | None:
    if c.steps is not None:
        return c.steps
    return int_value(c.front.values.get("steps"))


def node_or(scen_node: Node | None, fallback: Node | None) -> Node | None:
    return scen_node if scen_node is not None else fallback
