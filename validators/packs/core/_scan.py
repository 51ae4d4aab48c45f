"""Shared look-ups for the core pack: unit references, hexes used, named definitions.

Private module (leading underscore), so pack discovery does not look for rules in it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Sequence

from model.base import Node
from model.counters import Counter, normalize_name
from model.hexes import Hex
from model.mapdata import HexMap
from model.scenario import Entry, Playable, Scenario
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
    """Normalised counter name → counters (memoised per Validator on the counter list: a
    counter edit is a whole-bundle change, which clears the memo)."""
    counters = ctx.bundle.counters

    def build() -> dict[str, list[Counter]]:
        index: dict[str, list[Counter]] = {}
        for c in counters:
            index.setdefault(normalize_name(c.name), []).append(c)
        return index
    return ctx.memo("core.names", build, owner=counters, key=len(counters))


def id_index(ctx: RuleContext) -> dict[str, list[Counter]]:
    """Counter id → counters with that id, in manifest order (several when ids repeat)."""
    counters = ctx.bundle.counters

    def build() -> dict[str, list[Counter]]:
        index: dict[str, list[Counter]] = {}
        for c in counters:
            index.setdefault(c.id, []).append(c)
        return index
    return ctx.memo("core.ids", build, owner=counters, key=len(counters))


def resolve_unit(ctx: RuleContext, ref: str) -> list[Counter]:
    """Counters a unit reference names: by id first, else by normalised name."""
    by_id = id_index(ctx).get(ref)
    if by_id:
        return list(by_id)
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
        for i, h in enumerate(scen.playable.bounds):
            yield HexUse(h, scen.playable, ("bounds", i), "playable")


class PlayableArea:
    """Membership in a scenario's playable area, without listing the area's hexes.

    A hex is in the area when it is on the grid and passes every filter the scenario gives:
    ``bounds`` (an inclusive offset rectangle between two corner hexes), ``hexes`` (explicit
    list), ``sheets``, ``area`` (a named map area; one the map lacks does not restrict:
    CORE-REF-004 reports the name) and not ``exclude``. Answering
    per hex used is O(uses); listing the area of a 490 000-hex map first was O(map) on
    every run, the bulk of a validation (see docs/benchmarks.md, validate).
    """

    def __init__(self, ctx: RuleContext, pl: Playable) -> None:
        hmap = ctx.hmap
        self.hmap = hmap
        self.only: frozenset[Hex] | None = frozenset(pl.hexes) if pl.hexes else None
        self.sheets: frozenset[str] | None = frozenset(pl.sheets) if pl.sheets else None
        area = hmap.area(pl.area) if pl.area else None
        self.area: frozenset[Hex] | None = frozenset(area.hexes) if area is not None else None
        self.exclude = frozenset(pl.exclude)
        self.rect: tuple[int, int, int, int] | None = offset_rect(hmap, pl.bounds)

    def __contains__(self, h: Hex) -> bool:
        if not self.hmap.contains(h):
            return False
        if self.rect is not None and not in_rect(self.hmap, self.rect, h):
            return False
        if self.only is not None and h not in self.only:
            return False
        if self.area is not None and h not in self.area:
            return False
        if h in self.exclude:
            return False
        if self.sheets is not None:
            sheet = self.hmap.spec.sheet_of(h)
            return sheet is not None and sheet.id in self.sheets
        return True

    def hexes(self) -> set[Hex]:
        """Every hex of the area (whole-map filters vectorised over the map's terrain index)."""
        if self.rect is not None and self.only is None and self.area is None:
            return {h for h in self.hmap.hexes() if h in self}
        if self.only is not None or self.area is not None:
            pool = self.only if self.area is None else self.area if self.only is None else self.only & self.area
            return {h for h in pool if h in self}
        idx = self.hmap.terrain_index
        every = idx.hexes()
        if self.sheets is None:
            return set(every) - self.exclude
        import numpy as np  # here, not at import: validate loads this module for every bundle

        wanted = [k for k, s in enumerate(self.hmap.spec.sheets) if s.id in self.sheets]
        chosen = np.flatnonzero(np.isin(idx.sheet_indices(), wanted)).tolist()  # aligned with every
        return {every[i] for i in chosen} - self.exclude


def offset_rect(hmap: HexMap, corners: Sequence[Hex]) -> tuple[int, int, int, int] | None:
    """(x0, y0, x1, y1), the inclusive offset rectangle two corner hexes span, or ``None``
    unless exactly two corners are given."""
    if len(corners) != 2:
        return None
    (ax, ay), (bx, by) = hmap.spec.offset(corners[0]), hmap.spec.offset(corners[1])
    return min(ax, bx), min(ay, by), max(ax, bx), max(ay, by)


def in_rect(hmap: HexMap, rect: tuple[int, int, int, int], h: Hex) -> bool:
    x, y = hmap.spec.offset(h)
    return rect[0] <= x <= rect[2] and rect[1] <= y <= rect[3]


def playable_area(ctx: RuleContext) -> PlayableArea | None:
    """The scenario's playable area as a membership test, or ``None`` for the whole map
    (memoised on the context)."""
    if "core.playable_area" in ctx.cache:
        return ctx.cache["core.playable_area"]  # type: ignore[return-value]
    scen = ctx.scenario
    pl = scen.playable if scen is not None else None
    result = None
    if pl is not None and (pl.sheets or pl.area or pl.hexes or pl.exclude or pl.bounds):
        result = PlayableArea(ctx, pl)
    ctx.cache["core.playable_area"] = result
    return result


def playable_hexes(ctx: RuleContext) -> set[Hex] | None:
    """The scenario's playable area as a set of hexes, or ``None`` for the whole map
    (memoised). Prefer :func:`playable_area` for membership tests: it lists nothing."""
    if "core.playable" in ctx.cache:
        return ctx.cache["core.playable"]  # type: ignore[return-value]
    area = playable_area(ctx)
    result = None if area is None else area.hexes()
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
