"""Shared look-ups for the TKG rules: placed units, boxes, system params, declared gaps."""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Iterator

from model.bundle import Box
from model.counters import Counter
from model.hexes import Hex
from model.scenario import Entry, ScheduleEntry, SetupEntry
from validators.context import RuleContext

COMMONWEALTH = frozenset({"british", "canadian"})


def param(ctx: RuleContext, *keys: str, default: Any = None) -> Any:
    """A value from the system's ``params`` (nested keys)."""
    cur: Any = ctx.system.params
    for k in keys:
        if not isinstance(cur, dict) or k not in cur:
            return default
        cur = cur[k]
    return cur


def scen_param(ctx: RuleContext, *keys: str, default: Any = None) -> Any:
    cur: Any = ctx.scenario.params if ctx.scenario is not None else {}
    for k in keys:
        if not isinstance(cur, dict) or k not in cur:
            return default
        cur = cur[k]
    return cur


def declared_missing(ctx: RuleContext, element: str) -> bool:
    """The scenario says the rulebook does not give ``element`` (reported once by TKG-SCH-001)."""
    return ctx.scenario is not None and element in ctx.scenario.missing


def placed(ctx: RuleContext) -> Iterator[tuple[SetupEntry, Counter | None, Hex]]:
    """Setup entries standing in a hex (exact hex, or 'in or adjacent to' its anchor)."""
    assert ctx.scenario is not None
    for e in ctx.scenario.setup:
        h = e.hex if e.hex is not None else e.adjacent_to
        if h is not None:
            yield e, ctx.counters.get(e.unit), h


def by_hex(ctx: RuleContext) -> dict[Hex, list[tuple[SetupEntry, Counter | None]]]:
    out: dict[Hex, list[tuple[SetupEntry, Counter | None]]] = defaultdict(list)
    for e, c, h in placed(ctx):
        if e.hex is not None:
            out[h].append((e, c))
    return out


def tags(ctx: RuleContext, counter: Counter | None) -> set[str]:
    if counter is None:
        return set()
    cat = ctx.system.category_by_id.get(counter.category)
    return set(cat.tags) if cat is not None else set()


def is_regiment(ctx: RuleContext, counter: Counter | None) -> bool:
    return "regiment" in tags(ctx, counter)


def boxes(ctx: RuleContext, kind: str | None = None) -> list[Box]:
    return [b for b in ctx.bundle.game.boxes if kind is None or b.kind == kind]


def box_side(ctx: RuleContext, box: Box) -> str | None:
    """Who controls a box: the scenario's ``box_control`` override, else the box's side.
    OMM boxes start German-controlled [7.5]."""
    override = scen_param(ctx, "box_control", default={}) or {}
    if box.id in override:
        return str(override[box.id])
    if box.kind == "omm":
        return box.side or "german"
    return box.side


def nation_group(counter: Counter | None) -> str | None:
    if counter is None or counter.nationality is None:
        return None
    if counter.nationality in COMMONWEALTH:
        return "commonwealth"
    return counter.nationality


def schedule_units(ctx: RuleContext, entry: ScheduleEntry) -> list[Counter]:
    return [ctx.counters[u] for u in entry.units if u in ctx.counters]


def entry_hexes(entry: Entry | None) -> list[Hex]:
    if entry is None:
        return []
    return ([entry.hex] if entry.hex is not None else []) + list(entry.hexes)


def logistics(ctx: RuleContext, side: str) -> str | None:
    value = scen_param(ctx, side, "logistics_state")
    return str(value) if value is not None else None
