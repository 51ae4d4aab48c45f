"""Shared look-ups for the GTS pack (private: pack discovery skips it).

Scenario ``params`` used by the pack (all optional; a missing value means "not given"):

* ``scenario_map: {from: LABEL, to: LABEL}`` — deprecated: the scenario's map is the core
  ``playable`` area (``playable: {bounds: [FROM, TO]}``); old data is still read (GTS-MAP-003);
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
from validators.packs.core._scan import in_rect, offset_rect, playable_area

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


def legacy_map_rect(ctx: RuleContext) -> tuple[int, int, int, int] | None:
    """(x0, y0, x1, y1) inclusive offsets of the deprecated ``params.scenario_map``, or None.

    Read only when the scenario's ``playable`` gives no ``bounds``: the playable area is
    stated once, in the core format (policy *one-playable-area*); GTS-MAP-003 reports the
    old key so the data can move (once per context)."""
    return ctx.local("gts.map_rect", lambda: _legacy_map_rect(ctx))


def _legacy_map_rect(ctx: RuleContext) -> tuple[int, int, int, int] | None:
    pl = ctx.scenario.playable if ctx.scenario is not None else None
    if pl is not None and pl.bounds:
        return None
    rect = param(ctx, "scenario_map")
    if not isinstance(rect, dict):
        return None
    a, b = parse(ctx, rect.get("from")), parse(ctx, rect.get("to"))
    if a is None or b is None:
        return None
    return offset_rect(ctx.hmap, (a, b))


def on_scenario_map(ctx: RuleContext, h: Hex) -> bool:
    """On the scenario's map [Err Adv#1]: inside the core playable area (``playable``:
    bounds, sheets, area, hexes, exclude) and, for old data, the ``params.scenario_map``
    rectangle. A hex off the grid is not on it."""
    legacy = legacy_map_rect(ctx)
    if legacy is not None and not in_rect(ctx.hmap, legacy, h):
        return False
    area = playable_area(ctx)
    return ctx.hmap.contains(h) if area is None else h in area


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
