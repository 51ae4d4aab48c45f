"""Pure, Qt-free scenario edits: setup, schedule, drop zones, beach overlays, locations, counters.

Every edit replaces one field of one node with a new value (lists are rebuilt, items are
copied before they change) and returns a :class:`FieldUndo` that restores the old value
exactly — including "this field was never written", so defaults stay out of saved files.
The editor's scenario commands are thin wrappers over these functions, which keeps them
testable without Qt. Edits work on the scenario as stored (``bundle.scenarios[sid]``);
a variant's setup edits go to its ``overrides.setup_add`` so the base stays untouched.
"""

from __future__ import annotations

from collections import Counter as Tally
from dataclasses import dataclass
from typing import Any, Iterable, Protocol, Sequence

from model.base import HexsideKey, Node, hexside_key
from model.counters import Counter
from model.edits import restore_property, set_property
from model.hexes import Hex
from model.mapdata import HexMap, NamedLocation
from model.scenario import BeachOverlay, DropOrder, DropZone, Entry, Overrides, Scenario, ScheduleEntry, SetupEntry, SubBeach
from model.system import GameSystem

# Setup places a unit can have: exactly one of these is set on a SetupEntry.
PLACE_KINDS = ("hex", "adjacent_to", "area", "box", "location")


@dataclass
class FieldUndo:
    """What one edit changed: ``node.name`` held ``old`` (as :func:`set_property` returned it)."""

    node: Node
    name: str
    old: Any

    def undo(self) -> None:
        restore_property(self.node, self.name, self.old)


class Undoable(Protocol):
    def undo(self) -> None: ...


@dataclass
class AttrUndo:
    """A plain attribute that is not a model field held ``old``: the bundle's counter list,
    its scenario and file tables (model/counter_edits.py, model/scenario_crud.py). Edits
    replace such a container with a new one, so ``old`` is the untouched original."""

    owner: Any
    name: str
    old: Any

    def undo(self) -> None:
        setattr(self.owner, self.name, self.old)


@dataclass
class MultiUndo:
    """Several edits applied together; undone in reverse order."""

    parts: Sequence[Undoable]

    def undo(self) -> None:
        for part in reversed(self.parts):
            part.undo()


Undo = FieldUndo | MultiUndo | AttrUndo


def _set(node: Node, name: str, value: Any) -> FieldUndo:
    return FieldUndo(node, name, set_property(node, name, value))


# --- setup ------------------------------------------------------------------------------------

def _setup_owner(scen: Scenario) -> tuple[Node, str, list[FieldUndo]]:
    """Where this scenario's own setup entries live: ``setup``, or a variant's ``overrides.setup_add``."""
    if not scen.extends:
        return scen, "setup", []
    pre: list[FieldUndo] = []
    if scen.overrides is None:
        pre.append(_set(scen, "overrides", Overrides()))
    assert scen.overrides is not None
    return scen.overrides, "setup_add", pre


def setup_entry(scen: Scenario, unit: str) -> SetupEntry | None:
    """The scenario's own setup entry for ``unit`` (not one inherited from a base)."""
    node, name, _ = (scen, "setup", []) if not scen.extends or scen.overrides is None else (scen.overrides, "setup_add", [])
    return next((e for e in getattr(node, name) if e.unit == unit), None)


def place_unit(scen: Scenario, unit: str, kind: str, where: Hex | str, state: Iterable[str] | None = None) -> Undo:
    """Put ``unit`` at a hex (``kind`` "hex" or "adjacent_to") or in a box/area/location.

    An existing entry keeps its state, attachment, rule and note; only the place changes.
    """
    if kind not in PLACE_KINDS:
        raise ValueError(f"unknown setup place {kind!r}; use one of {', '.join(PLACE_KINDS)}")
    node, name, pre = _setup_owner(scen)
    entries = list(getattr(node, name))
    i = next((k for k, e in enumerate(entries) if e.unit == unit), None)
    update: dict[str, Any] = {k: None for k in PLACE_KINDS}
    update[kind] = where
    if kind not in ("hex", "adjacent_to"):
        update["alternatives"] = []
    if i is None:
        data: dict[str, Any] = {"unit": unit, kind: where}
        if state:
            data["state"] = list(state)
        entries.append(SetupEntry(**data))
    else:
        old = entries[i]
        fields = {k: getattr(old, k) for k in type(old).model_fields if k in old.model_fields_set or k == "unit"}
        fields.update({k: v for k, v in update.items() if v is not None or k in fields})
        fields = {k: v for k, v in fields.items() if not (k in PLACE_KINDS and v is None)}
        if state is not None:
            fields["state"] = list(state)
        new = SetupEntry(**fields)
        new.set_source(old.source_file, old.source_path)
        entries[i] = new
    return MultiUndo(pre + [_set(node, name, entries)])


def place_choices(bundle: Any, scen: Scenario | None, kind: str) -> list[tuple[str, str]]:
    """(id, name) of what a setup ``kind`` can name: the game's boxes, the scenario map's
    areas, the map's and the scenario's named locations. Hex kinds are typed: none."""
    if kind == "box":
        return [(b.id, b.name) for b in bundle.game.boxes]
    if kind == "area":
        return [(a.id, a.name) for a in getattr(bundle.map_for(scen), "areas", [])]
    if kind == "location":
        return [(x.id, x.name) for x in bundle.locations(scen)]
    if kind in PLACE_KINDS:
        return []
    raise ValueError(f"unknown setup place {kind!r}; use one of {', '.join(PLACE_KINDS)}")


def remove_unit(scen: Scenario, unit: str) -> Undo:
    """Take ``unit`` out of the scenario's setup (it is then unplaced)."""
    node, name, pre = _setup_owner(scen)
    entries = [e for e in getattr(node, name) if e.unit != unit]
    return MultiUndo(pre + [_set(node, name, entries)])


def set_unit_state(scen: Scenario, unit: str, flag: str, on: bool) -> Undo:
    """Switch one initial-state flag (reduced, untried, column, mounted, immobile…)."""
    entry = setup_entry(scen, unit)
    if entry is None:
        raise KeyError(f"{unit} has no setup entry in {scen.id}")
    state = [s for s in entry.state if s != flag] + ([flag] if on else [])
    return _set(entry, "state", state)


def placed_units(scen: Scenario) -> dict[str, SetupEntry]:
    """unit id → setup entry of a (resolved) scenario."""
    return {e.unit: e for e in scen.setup}


def scheduled_units(scen: Scenario) -> set[str]:
    return {u for e in scen.schedule for u in e.units}


def stacks(scen: Scenario) -> dict[Hex, list[str]]:
    """Units per hex from exact-hex and "in or adjacent to" setup entries (drawn as stacks)."""
    out: dict[Hex, list[str]] = {}
    for e in scen.setup:
        h = e.hex if e.hex is not None else e.adjacent_to
        if h is not None:
            out.setdefault(h, []).append(e.unit)
    return out


def setup_area_hexes(scen: Scenario, hmap: HexMap) -> dict[Hex, list[str]]:
    """Hexes a unit may set up in for every "in or adjacent to X" entry: X and its neighbours."""
    out: dict[Hex, list[str]] = {}
    for e in scen.setup:
        if e.adjacent_to is not None:
            for h in [e.adjacent_to, *e.adjacent_to.neighbors()]:
                if hmap.contains(h):
                    out.setdefault(h, []).append(e.unit)
    return out


# --- schedule ---------------------------------------------------------------------------------

def add_schedule_entry(scen: Scenario, entry: ScheduleEntry, index: int | None = None) -> Undo:
    rows = list(scen.schedule)
    rows.insert(len(rows) if index is None else index, entry)
    return _set(scen, "schedule", rows)


def remove_schedule_entry(scen: Scenario, index: int) -> Undo:
    rows = list(scen.schedule)
    del rows[index]
    return _set(scen, "schedule", rows)


def change_schedule_entry(scen: Scenario, index: int, **changes: Any) -> Undo:
    """Replace row ``index`` by a copy with ``changes`` (``entry=Entry(hex=...)``, ``turn=3`` …)."""
    rows = list(scen.schedule)
    rows[index] = changed_schedule_entry(rows[index], **changes)
    return _set(scen, "schedule", rows)


def changed_schedule_entry(old: ScheduleEntry, **changes: Any) -> ScheduleEntry:
    """A copy of ``old`` with ``changes``; raises ValueError (pydantic) for an invalid value,
    so an editor can check a change before it pushes the undo command."""
    data = {k: getattr(old, k) for k in old.model_fields_set}
    data.update(changes)
    data = {k: v for k, v in data.items() if v is not None or k in ("entry",)}
    if data.get("entry") is None:
        data.pop("entry", None)
    new = ScheduleEntry(**data)
    new.set_source(old.source_file, old.source_path)
    return new


# Entry-point kinds the schedule editor offers. Policy entry-one-map-place: an entry has at
# most one place on the map (hex, hexes, drop zone, beach, location, area or edge) plus,
# optionally, a holding box (a landing wave's box rides along with its beach), so setting a
# map place clears the other map places and keeps the box; setting the box keeps the place.
ENTRY_KINDS = ("hex", "box", "drop_zone", "beach", "location", "area", "edge")
MAP_PLACES = ("hex", "hexes", "drop_zone", "beach", "location", "area", "edge")


def with_entry_place(entry: Entry | None, kind: str, value: Any) -> Entry | None:
    """A copy of ``entry`` with ``kind`` set to ``value`` (``None``/"" clears that kind).
    Returns ``None`` when nothing is left."""
    if kind not in ENTRY_KINDS:
        raise ValueError(f"unknown entry kind {kind!r}; use one of {', '.join(ENTRY_KINDS)}")
    data: dict[str, Any] = {}
    if entry is not None:
        data = {k: getattr(entry, k) for k in entry.model_fields_set}
    if value is None or value == "":
        data.pop(kind, None)
    else:
        if kind in MAP_PLACES:
            for k in MAP_PLACES:
                data.pop(k, None)
        data[kind] = value
    data = {k: v for k, v in data.items() if v not in (None, [])}
    if not data:
        return None
    new = Entry(**data)
    if entry is not None:
        new.set_source(entry.source_file, entry.source_path)
    return new


def schedule_place_changes(row: ScheduleEntry, kind: str, value: Any,
                           drop_number: str | None = None) -> dict[str, Any]:
    """The changes (for :func:`changed_schedule_entry`) that set schedule row ``row``'s entry
    point ``kind`` to ``value`` (``None``/"" clears that kind).

    Policy drop-zone-is-drop-order: the format's drop into a zone is the row's drop order,
    ``drop: {zone, drop_number, sticks}`` (the samples' form, the one the systems' drop-zone rules
    and the drop-table analysis read), so the "drop zone" kind writes ``drop.zone``, keeping the
    order's sticks, and ``drop_number`` when given ("" clears it); an empty zone removes the
    drop order. A legacy ``entry: {drop_zone}`` (still read) moves into the order. The drop
    order stands beside the entry: a hex set afterwards is where the drop lands in or next to
    its zone (a glider's landing hex), so other kinds leave the order alone and
    follow entry-one-map-place (:func:`with_entry_place`)."""
    if kind != "drop_zone":
        return {"entry": with_entry_place(row.entry, kind, value)}
    changes: dict[str, Any] = {}
    if row.entry is not None and row.entry.drop_zone is not None:
        changes["entry"] = with_entry_place(row.entry, "drop_zone", None)
    if value is None or value == "":
        changes["drop"] = None
        return changes
    old = row.drop
    data: dict[str, Any] = {k: getattr(old, k) for k in old.model_fields_set} if old is not None else {}
    data["zone"] = str(value)
    if drop_number is not None:
        data["drop_number"] = drop_number.strip() or None
    order = DropOrder(**{k: v for k, v in data.items() if v is not None})
    if old is not None:
        order.set_source(old.source_file, old.source_path)
    changes["drop"] = order
    return changes


def drop_number_choices(bundle: Any) -> list[str]:
    """The drop numbers the system's data names (``params.drop_numbers``, e.g. a Drop Table's
    drop-number modifiers); [] for a system without them."""
    value = bundle.system.params.get("drop_numbers")
    if isinstance(value, dict) and "value" in value:  # a cited parameter {value, rule}
        value = value["value"]
    return [str(v) for v in value] if isinstance(value, list) else []


def entry_choices(bundle: Any, scen: Scenario | None, kind: str) -> list[str]:
    """Ids a schedule entry of ``kind`` can name in this scenario (hex and edge are typed)."""
    if kind == "box":
        return [b.id for b in bundle.game.boxes]
    if scen is None:
        return []
    if kind == "drop_zone":
        return [z.id for z in scen.drop_zones]
    if kind == "beach":
        return [x for o in scen.beach_overlays for x in [o.id, *(b.id for b in o.sub_beaches)]]
    if kind == "location":
        return [x.id for x in bundle.locations(scen)]
    if kind == "area":
        return [a.id for a in getattr(bundle.map_for(scen), "areas", [])]
    return []


def arrivals_per_turn(scen: Scenario, turns: list[Any]) -> dict[int, dict[str, int]]:
    """turn number → side → units arriving (reinforcements, drops, landings, releases).

    ``turns`` are the system calendar's TurnDefs, used to resolve turn labels; withdrawals
    and events bring no units. A drop order counts the units of its sticks.
    """
    from model.calendar import resolve_turn

    out: dict[int, dict[str, int]] = {t.n: {} for t in turns}
    for e in scen.schedule:
        if e.kind in ("withdrawal", "event"):
            continue
        n = resolve_turn(e.turn, turns)
        if n is None:
            continue
        units = len(e.units) + (sum(len(s) for s in e.drop.sticks) if e.drop is not None else 0)
        side = e.side or "?"
        row = out.setdefault(n, {})
        row[side] = row.get(side, 0) + units
    return out


# --- drop zones ---------------------------------------------------------------------------------

def add_drop_zone(scen: Scenario, zone: DropZone) -> Undo:
    if any(z.id == zone.id for z in scen.drop_zones):
        raise ValueError(f"drop zone {zone.id!r} exists")
    return _set(scen, "drop_zones", [*scen.drop_zones, zone])


def remove_drop_zone(scen: Scenario, zone_id: str) -> Undo:
    return _set(scen, "drop_zones", [z for z in scen.drop_zones if z.id != zone_id])


def _zone(scen: Scenario, zone_id: str) -> DropZone:
    z = next((z for z in scen.drop_zones if z.id == zone_id), None)
    if z is None:
        raise KeyError(f"no drop zone {zone_id!r} in {scen.id}")
    return z


def rename_drop_zone(scen: Scenario, zone_id: str, name: str) -> Undo:
    return _set(_zone(scen, zone_id), "name", name)


def set_zone_hexes(scen: Scenario, zone_id: str, hexes: Iterable[Hex], mode: str = "replace") -> Undo:
    """``mode`` replace | add | remove. Order is kept (new hexes at the end) for readable diffs."""
    z = _zone(scen, zone_id)
    new = list(hexes)
    if mode == "add":
        value = list(z.hexes) + [h for h in dict.fromkeys(new) if h not in set(z.hexes)]
    elif mode == "remove":
        gone = set(new)
        value = [h for h in z.hexes if h not in gone]
    else:
        value = list(dict.fromkeys(new))
    return _set(z, "hexes", value)


def zone_hexes(scen: Scenario, zone: DropZone) -> list[Hex]:
    """A zone's hexes including those of the zone it ``extends`` (LZ O = DZ O + 6)."""
    return scen.zone_hexes(zone.id) or list(zone.hexes)


@dataclass
class ZoneInfo:
    hexes: int
    terrain: dict[str, int]          # terrain id → hexes
    modifiers: dict[str, int | None]  # terrain id → drop-table modifier (TerrainType.drop_modifier)
    off_map: int


def zone_info(scen: Scenario, zone: DropZone, hmap: HexMap, system: GameSystem) -> ZoneInfo:
    hexes = zone_hexes(scen, zone)
    mix = Tally(hmap.terrain_at(h) or "?" for h in hexes if hmap.contains(h))
    mods = {t: (system.terrain_by_id[t].drop_modifier if t in system.terrain_by_id else None) for t in mix}
    return ZoneInfo(len(hexes), dict(mix.most_common()), mods, sum(1 for h in hexes if not hmap.contains(h)))


# --- beach overlays ------------------------------------------------------------------------------

def set_overlay_visible(scen: Scenario, overlay_id: str, visible: bool) -> Undo:
    ov = next((o for o in scen.beach_overlays if o.id == overlay_id), None)
    if ov is None:
        raise KeyError(f"no beach overlay {overlay_id!r} in {scen.id}")
    return _set(ov, "visible", visible)


def set_track_level(scen: Scenario, overlay_id: str, track: str, level: int | str | None) -> Undo:
    ov = _overlay(scen, overlay_id)
    return _set(ov, "tracks", {**ov.tracks, track: level})


def _overlay(scen: Scenario, overlay_id: str) -> BeachOverlay:
    ov = next((o for o in scen.beach_overlays if o.id == overlay_id), None)
    if ov is None:
        raise KeyError(f"no beach overlay {overlay_id!r} in {scen.id}")
    return ov


def _sub_beach(scen: Scenario, overlay_id: str, sub_id: str) -> SubBeach:
    sb = next((b for b in _overlay(scen, overlay_id).sub_beaches if b.id == sub_id), None)
    if sb is None:
        raise KeyError(f"no sub-beach {sub_id!r} in overlay {overlay_id!r}")
    return sb


def _toggled(items: list[Any], item: Any) -> list[Any]:
    """``items`` without ``item`` if present, else with it appended (order kept for diffs)."""
    return [x for x in items if x != item] if item in items else [*items, item]


def overlay_owner(scenarios: dict[str, Scenario], sid: str, overlay_id: str) -> str | None:
    """The scenario that stores overlay ``overlay_id`` as seen from ``sid``: the scenario
    itself or the nearest base it extends (policy overlay-edits-go-to-owner: a variant that
    inherits its base's overlay edits the base, because variants have no overlay overrides)."""
    seen: set[str] = set()
    cur: str | None = sid
    while cur is not None and cur in scenarios and cur not in seen:
        seen.add(cur)
        if any(o.id == overlay_id for o in scenarios[cur].beach_overlays):
            return cur
        cur = scenarios[cur].extends
    return None


def toggle_landing_hex(scen: Scenario, overlay_id: str, sub_id: str, which: str, h: Hex) -> Undo:
    """Add ``h`` to (or take it out of) a sub-beach's ``planned`` or ``actual`` landing hexes."""
    if which not in ("planned", "actual"):
        raise ValueError(f"landing hexes are planned or actual, not {which!r}")
    sb = _sub_beach(scen, overlay_id, sub_id)
    landing = sb.landing.model_copy(deep=True)
    landing.set_source(sb.landing.source_file, sb.landing.source_path)
    setattr(landing, which, _toggled(list(getattr(sb.landing, which)), h))
    return _set(sb, "landing", landing)


def toggle_gap_hexside(scen: Scenario, overlay_id: str, key: HexsideKey) -> Undo:
    """Add or remove a gap hexside (``key`` canonical: the same side from either hex)."""
    ov = _overlay(scen, overlay_id)
    return _set(ov, "gap_hexsides", _toggled(list(ov.gap_hexsides), hexside_key(key.hex, key.direction)))


def toggle_reinforcement_hex(scen: Scenario, overlay_id: str, h: Hex) -> Undo:
    ov = _overlay(scen, overlay_id)
    return _set(ov, "reinforcement_hexes", _toggled(list(ov.reinforcement_hexes), h))


def set_drift(scen: Scenario, overlay_id: str, sub_id: str, version: str, shift: str | None) -> Undo:
    """One drift-chart entry (overlay version → shift, e.g. planned → "1 Left"); ``None`` or
    "" removes it."""
    sb = _sub_beach(scen, overlay_id, sub_id)
    drift = dict(sb.drift)
    if shift is None or not str(shift).strip():
        drift.pop(version, None)
    else:
        drift[version] = str(shift).strip()
    return _set(sb, "drift", drift)


# --- named locations -------------------------------------------------------------------------------

def add_location(scen: Scenario, loc: NamedLocation) -> Undo:
    if any(x.id == loc.id for x in scen.locations):
        raise ValueError(f"location {loc.id!r} exists")
    return _set(scen, "locations", [*scen.locations, loc])


def remove_location(scen: Scenario, loc_id: str) -> Undo:
    return _set(scen, "locations", [x for x in scen.locations if x.id != loc_id])


def _location(scen: Scenario, loc_id: str) -> NamedLocation:
    loc = next((x for x in scen.locations if x.id == loc_id), None)
    if loc is None:
        raise KeyError(f"no location {loc_id!r} in {scen.id}")
    return loc


def rename_location(scen: Scenario, loc_id: str, name: str) -> Undo:
    return _set(_location(scen, loc_id), "name", name)


def move_location(scen: Scenario, loc_id: str, h: Hex) -> Undo:
    loc = _location(scen, loc_id)
    parts = [_set(loc, "hex", h)]
    if loc.hexes:
        parts.append(_set(loc, "hexes", []))
    return MultiUndo(parts)


# --- counters ---------------------------------------------------------------------------------------

def set_counter_value(counter: Counter, side: str, key: str, value: Any) -> Undo:
    """Change one printed value (``side`` front/back); ``None`` removes it."""
    cs = getattr(counter, side)
    if cs is None:
        raise ValueError(f"{counter.id} has no {side} side")
    values = dict(cs.values)
    if value is None or value == "":
        values.pop(key, None)
    else:
        values[key] = value
    return _set(cs, "values", values)


def replace_counters(bundle: Any, counters: list[Counter]) -> list[Counter]:
    """Swap the bundle's counter manifest (a plain list, not a node); returns the old list."""
    old = bundle.counters
    bundle.counters = list(counters)
    return old


def merge_counters(counters: list[Counter], incoming: list[Counter]) -> tuple[list[Counter], int, int]:
    """Imported counters replace those with the same id and the rest are appended.
    Returns (new list, replaced, added)."""
    by_id = {c.id: c for c in incoming}
    out, replaced = [], 0
    for c in counters:
        if c.id in by_id:
            out.append(by_id.pop(c.id))
            replaced += 1
        else:
            out.append(c)
    added = [c for c in incoming if c.id in by_id]
    return out + added, replaced, len(added)
