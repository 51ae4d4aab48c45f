"""Shared look-ups for the core pack: unit references, hexes used, named definitions.

Private module (leading underscore), so pack discovery does not look for rules in it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from model.base import Node
from model.counters import Counter, normalize_name
from model.hexes import Hex
from model.scenario import Entry, Scenario
from validators.context import RuleContext

ARRIVALS = frozenset({"reinforcement", "drop", "landing"})
WITHDRAWALS = frozenset({"withdrawal"})


@dataclass(frozen=True)
class Ref:
    """A reference as written, and where: ``node`` plus the field path inside it."""

    text: str
    node: Node
    fields: tuple[str | int, ...]


def unit_refs(scen: Scenario) -> Iterator[Ref]:
    """Every unit a scenario names: setup units, schedule units and drop sticks."""
    for e in scen.setup:
        yield Ref(e.unit, e, ("unit",))
    for e in scen.schedule:
        for i, u in enumerate(e.units):
            yield Ref(u, e, ("units", i))
        if e.drop is not None:
            for i, stick in enumerate(e.drop.sticks):
                for j, u in enumerate(stick):
                    yield Ref(u, e.drop, ("sticks", i, j))


def attachment_refs(scen: Scenario) -> Iterator[Ref]:
    for e in scen.setup:
        if e.attached_to:
            yield Ref(e.attached_to, e, ("attached_to",))
    for e in scen.schedule:
        if e.attached_to:
            yield Ref(e.attached_to, e, ("attached_to",))


def name_index(ctx: RuleContext) -> dict[str, list[Counter]]:
    """Normalised counter name → counters (memoised on the context)."""
    cached = ctx.cache.get("core.names")
    if cached is None:
        index: dict[str, list[Counter]] = {}
        for c in ctx.bundle.counters:
            index.setdefault(normalize_name(c.name), []).append(c)
        ctx.cache["core.names"] = cached = index
    return cached  # type: ignore[return-value]


def resolve_unit(ctx: RuleContext, ref: str) -> list[Counter]:
    """Counters a unit reference names: by id first, else by normalised name."""
    by_id = [c for c in ctx.bundle.counters if c.id == ref]
    if by_id:
        return by_id
    return list(name_index(ctx).get(normalize_name(ref), []))


def unit_key(ctx: RuleContext, ref: str) -> str:
    """One identity per unit, so that an id and its name compare equal."""
    found = resolve_unit(ctx, ref)
    return found[0].id if len(found) == 1 else f"?{normalize_name(ref)}"


def entries(scen: Scenario) -> Iterator[tuple[Entry, Node]]:
    """Every schedule ``entry`` block with the schedule entry holding it."""
    for e in scen.schedule:
        if e.entry is not None:
            yield e.entry, e


@dataclass(frozen=True)
class HexUse:
    hex: Hex
    node: Node
    fields: tuple[str | int, ...]
    kind: str  # placement | zone | overlay | location | playable


def hex_uses(scen: Scenario) -> Iterator[HexUse]:
    """Every hex a scenario file uses, with what it is used for."""
    for e in scen.setup:
        if e.hex is not None:
            yield HexUse(e.hex, e, ("hex",), "placement")
        if e.adjacent_to is not None:
            yield HexUse(e.adjacent_to, e, ("adjacent_to",), "placement")
        for i, h in enumerate(e.alternatives):
            yield HexUse(h, e, ("alternatives", i), "placement")
    for entry, _ in entries(scen):
        if entry.hex is not None:
            yield HexUse(entry.hex, entry, ("hex",), "placement")
        for i, h in enumerate(entry.hexes):
            yield HexUse(h, entry, ("hexes", i), "placement")
    for z in scen.drop_zones:
        for i, h in enumerate(z.hexes):
            yield HexUse(h, z, ("hexes", i), "zone")
    for o in scen.beach_overlays:
        for i, h in enumerate(o.hexes):
            yield HexUse(h, o, ("hexes", i), "overlay")
        for i, h in enumerate(o.reinforcement_hexes):
            yield HexUse(h, o, ("reinforcement_hexes", i), "overlay")
        for sb in o.sub_beaches:
            for i, h in enumerate(sb.hexes):
                yield HexUse(h, sb, ("hexes", i), "overlay")
            for name in ("planned", "actual"):
                for i, h in enumerate(getattr(sb.landing, name)):
                    yield HexUse(h, sb.landing, (name, i), "overlay")
    for loc in scen.locations:
        if loc.hex is not None:
            yield HexUse(loc.hex, loc, ("hex",), "location")
        for i, h in enumerate(loc.hexes):
            yield HexUse(h, loc, ("hexes", i), "location")
    if scen.playable is not None:
        for i, h in enumerate(scen.playable.hexes):
            yield HexUse(h, scen.playable, ("hexes", i), "playable")
        for i, h in enumerate(scen.playable.exclude):
            yield HexUse(h, scen.playable, ("exclude", i), "playable")


def playable_hexes(ctx: RuleContext) -> set[Hex] | None:
    """The scenario's playable area, or ``None`` for the whole map (memoised)."""
    if "core.playable" in ctx.cache:
        return ctx.cache["core.playable"]  # type: ignore[return-value]
    scen = ctx.scenario
    pl = scen.playable if scen is not None else None
    result: set[Hex] | None = None
    if pl is not None and (pl.sheets or pl.area or pl.hexes or pl.exclude):
        hmap = ctx.hmap
        spec = hmap.spec
        cells = set(hmap.hexes())
        if pl.hexes:
            cells &= set(pl.hexes)
        if pl.sheets:
            cells = {h for h in cells if (s := spec.sheet_of(h)) is not None and s.id in pl.sheets}
        if pl.area:
            area = hmap.area(pl.area)
            if area is not None:
                cells &= set(area.hexes)
        cells -= set(pl.exclude)
        result = cells
    ctx.cache["core.playable"] = result
    return result


def wholly_impassable(ctx: RuleContext, terrain_id: str | None) -> bool:
    """Policy *impassable-terrain*: a hex is wholly impassable when its terrain has the tag
    ``impassable``, or when its move table is not empty and every movement class (the
    system's classes, or the keys of the table when the system lists none) is "prohibited".
    A class missing from the table is not treated as prohibited (the cost is unknown)."""
    if terrain_id is None:
        return False
    t = ctx.system.terrain_by_id.get(terrain_id)
    if t is None:
        return False
    if "impassable" in t.tags:
        return True
    if not t.move:
        return False
    classes = [m.id for m in ctx.system.movement_classes] or list(t.move)
    return all(t.move.get(c) == "prohibited" for c in classes)
