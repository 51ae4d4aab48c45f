"""Semantic diff of two versions of a game bundle: the lines an errata sheet is written from.

Not a text diff: units are matched by id, schedule entries by unit, hexes by coordinate.
It reports units added, removed or moved; counter values changed; schedule entries added,
removed or moved to another turn; terrain and hexside changes summarised by area;
drop-zone, overlay, location, path and feature changes. Hexes appear as printed labels.
"""

from __future__ import annotations

from collections import Counter as Tally
from dataclasses import dataclass, field
from typing import Any

from model.bundle import Bundle
from model.counters import Counter
from model.hexes import Hex
from model.mapdata import HexMap
from model.scenario import Scenario, ScheduleEntry, SetupEntry


@dataclass(frozen=True)
class Change:
    """One errata line. ``kind`` is a stable dotted tag such as ``setup.moved``."""

    kind: str
    where: str  # "counters", "map utah", "scenario night-drop"
    text: str
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "where": self.where, "text": self.text, **({"data": self.data} if self.data else {})}


def diff_bundles(old: Bundle, new: Bundle) -> list[Change]:
    changes: list[Change] = []
    changes += _diff_counters(old.counters, new.counters)
    for map_id in sorted(set(old.maps) | set(new.maps)):
        a, b = old.maps.get(map_id), new.maps.get(map_id)
        where = f"map {map_id}"
        if a is None or b is None:
            changes.append(Change("map.added" if a is None else "map.removed", where,
                                  f"map {map_id} {'added' if a is None else 'removed'}"))
            continue
        changes += _diff_map(a, b, where)
    for sid in sorted(set(old.scenarios) | set(new.scenarios)):
        where = f"scenario {sid}"
        if sid not in old.scenarios or sid not in new.scenarios:
            added = sid not in old.scenarios
            name = (new if added else old).scenarios[sid].name
            changes.append(Change("scenario.added" if added else "scenario.removed", where,
                                  f"scenario {name!r} {'added' if added else 'removed'}"))
            continue
        sa, sb = _resolved(old, sid), _resolved(new, sid)
        changes += _diff_scenario(sa, sb, old.map_for(sa), new.map_for(sb), where)
    return changes


def diff_scenarios(old: Bundle, old_id: str, new: Bundle, new_id: str) -> list[Change]:
    """Two scenarios compared with each other, each as resolved in its own bundle (a variant
    against its base, or one scenario against another version's): the counters and maps are
    not compared, only what the scenarios state."""
    where = f"scenario {old_id}" if old_id == new_id else f"scenario {old_id} → {new_id}"
    sa, sb = _resolved(old, old_id), _resolved(new, new_id)
    return _diff_scenario(sa, sb, old.map_for(sa), new.map_for(sb), where)


def _resolved(bundle: Bundle, sid: str) -> Scenario:
    try:
        return bundle.resolved(sid)
    except ValueError:
        return bundle.scenarios[sid]


# --- counters ----------------------------------------------------------------------------


def _counter_fields(c: Counter) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in ("name", "side", "category", "nationality", "division", "formation", "battalion",
                 "size", "movement_class", "steps"):
        out[name] = getattr(c, name)
    for side_name, side in (("front", c.front), ("back", c.back)):
        if side is None:
            continue
        out[f"{side_name}.designation"] = side.designation
        for k, v in side.values.items():
            out[f"{side_name}.{k}"] = v
    return out


def _diff_counters(old: list[Counter], new: list[Counter]) -> list[Change]:
    a = {c.id: c for c in old}
    b = {c.id: c for c in new}
    out: list[Change] = []
    for cid in sorted(set(a) - set(b)):
        out.append(Change("counter.removed", "counters", f"counter {a[cid].name} ({cid}) removed"))
    for cid in sorted(set(b) - set(a)):
        out.append(Change("counter.added", "counters", f"counter {b[cid].name} ({cid}) added"))
    for cid in sorted(set(a) & set(b)):
        fa, fb = _counter_fields(a[cid]), _counter_fields(b[cid])
        for key in sorted(set(fa) | set(fb)):
            va, vb = fa.get(key), fb.get(key)
            if va != vb:
                out.append(Change("counter.changed", "counters",
                                  f"{b[cid].name} ({cid}): {key} {_show(va)} → {_show(vb)}",
                                  {"counter": cid, "field": key, "old": va, "new": vb}))
    return out


def _show(value: Any) -> str:
    return "(none)" if value is None else str(value)


# --- map ---------------------------------------------------------------------------------


def _clusters(hexes: set[Hex]) -> list[list[Hex]]:
    """Connected groups of changed hexes, largest first, so changes read 'by area'."""
    left = set(hexes)
    groups: list[list[Hex]] = []
    while left:
        start = min(left)
        left.discard(start)
        group, stack = [start], [start]
        while stack:
            h = stack.pop()
            for n in h.neighbors():
                if n in left:
                    left.discard(n)
                    group.append(n)
                    stack.append(n)
        groups.append(sorted(group))
    return sorted(groups, key=lambda g: (-len(g), g[0]))


def _span(hmap: HexMap, hexes: list[Hex]) -> str:
    labels = sorted(hmap.label(h) for h in hexes)
    if len(labels) <= 4:
        return ", ".join(labels)
    return f"{labels[0]} … {labels[-1]}"


def _diff_map(a: HexMap, b: HexMap, where: str) -> list[Change]:
    out: list[Change] = []
    ha, hb = set(a.hexes()), set(b.hexes())
    for h_set, kind, verb in ((hb - ha, "map.hexes_added", "added to"), (ha - hb, "map.hexes_removed", "removed from")):
        for group in _clusters(h_set):
            out.append(Change(kind, where, f"{len(group)} hex(es) {verb} the grid: {_span(b if verb == 'added to' else a, group)}"))
    changed: dict[tuple[str | None, str | None], set[Hex]] = {}
    for h in ha & hb:
        ta, tb = a.terrain_at(h), b.terrain_at(h)
        if ta != tb:
            changed.setdefault((ta, tb), set()).add(h)
    for (ta, tb), hexes in sorted(changed.items(), key=lambda kv: (str(kv[0][0]), str(kv[0][1]))):
        for group in _clusters(hexes):
            out.append(Change("terrain.changed", where, f"terrain {ta} → {tb} in {len(group)} hex(es): {_span(b, group)}",
                              {"old": ta, "new": tb, "hexes": [b.label(h) for h in group]}))
    for kind in sorted(set(a.hexsides) | set(b.hexsides)):
        sa, sb = set(a.hexsides.get(kind, [])), set(b.hexsides.get(kind, []))
        for keys, verb in ((sb - sa, "added"), (sa - sb, "removed")):
            if keys:
                hmap = b if verb == "added" else a
                labels = sorted("|".join(sorted((hmap.label(k.hex), hmap.label(k.other())))) for k in keys)
                shown = ", ".join(labels[:6]) + (f" and {len(labels) - 6} more" if len(labels) > 6 else "")
                out.append(Change(f"hexside.{verb}", where, f"{kind} hexside {verb}: {shown}", {"type": kind, "hexsides": labels}))
    out += _diff_keyed(where, "path", {(p.type, tuple(p.hexes)): p for p in a.paths}, {(p.type, tuple(p.hexes)): p for p in b.paths},
                       lambda k, p, m: f"{k[0]} {m.label(k[1][0])} → {m.label(k[1][-1])} ({len(k[1])} hexes)", a, b)
    out += _diff_keyed(where, "feature", {(f.type, f.hex, f.name): f for f in a.features},
                       {(f.type, f.hex, f.name): f for f in b.features},
                       lambda k, f, m: f"{k[0]}{' ' + k[2] if k[2] else ''} at {m.label(k[1])}", a, b)
    out += _diff_keyed(where, "portion", {p.hex: p for p in a.portions}, {p.hex: p for p in b.portions},
                       lambda k, p, m: f"impassable portion in {m.label(k)}", a, b)
    out += _diff_named(where, "location", {x.id: x for x in a.locations}, {x.id: x for x in b.locations}, a, b)
    out += _diff_named(where, "area", {x.id: x for x in a.areas}, {x.id: x for x in b.areas}, a, b)
    return out


def _diff_keyed(where: str, noun: str, a: dict[Any, Any], b: dict[Any, Any], describe: Any,
                ma: HexMap, mb: HexMap) -> list[Change]:
    out = []
    for key in sorted(set(a) - set(b), key=repr):
        out.append(Change(f"{noun}.removed", where, f"{noun} removed: {describe(key, a[key], ma)}"))
    for key in sorted(set(b) - set(a), key=repr):
        out.append(Change(f"{noun}.added", where, f"{noun} added: {describe(key, b[key], mb)}"))
    return out


def _hex_list_change(noun: str, ident: str, old: list[Hex], new: list[Hex], ma: HexMap, mb: HexMap,
                     where: str, kind: str) -> list[Change]:
    sa, sb = set(old), set(new)
    if sa == sb:
        return []
    parts = []
    if sb - sa:
        parts.append("adds " + ", ".join(sorted(mb.label(h) for h in sb - sa)))
    if sa - sb:
        parts.append("drops " + ", ".join(sorted(ma.label(h) for h in sa - sb)))
    return [Change(kind, where, f"{noun} {ident} " + "; ".join(parts),
                   {"id": ident, "added": sorted(mb.label(h) for h in sb - sa),
                    "removed": sorted(ma.label(h) for h in sa - sb)})]


def _diff_named(where: str, noun: str, a: dict[str, Any], b: dict[str, Any], ma: HexMap, mb: HexMap) -> list[Change]:
    out = []
    for key in sorted(set(a) - set(b)):
        out.append(Change(f"{noun}.removed", where, f"{noun} {a[key].name} ({key}) removed"))
    for key in sorted(set(b) - set(a)):
        out.append(Change(f"{noun}.added", where, f"{noun} {b[key].name} ({key}) added"))
    for key in sorted(set(a) & set(b)):
        old_h = a[key].all_hexes() if hasattr(a[key], "all_hexes") else list(a[key].hexes)
        new_h = b[key].all_hexes() if hasattr(b[key], "all_hexes") else list(b[key].hexes)
        out += _hex_list_change(noun, b[key].name, old_h, new_h, ma, mb, where, f"{noun}.changed")
    return out


# --- scenarios ---------------------------------------------------------------------------


def _place(entry: SetupEntry, hmap: HexMap) -> str:
    if entry.hex is not None:
        text = hmap.label(entry.hex)
    elif entry.adjacent_to is not None:
        text = f"in or adjacent to {hmap.label(entry.adjacent_to)}"
    elif entry.area:
        text = f"area {entry.area}"
    elif entry.box:
        text = f"box {entry.box}"
    else:
        text = f"location {entry.location}"
    if entry.alternatives:
        text += " (or " + ", ".join(hmap.label(h) for h in entry.alternatives) + ")"
    if entry.state:
        text += " [" + ", ".join(entry.state) + "]"
    return text


def _schedule_index(entries: list[ScheduleEntry]) -> dict[tuple[str, str], list[ScheduleEntry]]:
    index: dict[tuple[str, str], list[ScheduleEntry]] = {}
    for e in entries:
        for unit in e.units or ([f"event:{e.text}"] if e.text else []):
            index.setdefault((e.kind, unit), []).append(e)
    return index


def _entry_point(e: ScheduleEntry, hmap: HexMap) -> str:
    if e.entry is None:
        return ""
    en = e.entry
    for name in ("box", "drop_zone", "beach", "location", "area", "edge"):
        if getattr(en, name):
            return f"{name.replace('_', ' ')} {getattr(en, name)}"
    if en.hex is not None:
        return hmap.label(en.hex)
    return ", ".join(hmap.label(h) for h in en.hexes)


def _diff_scenario(a: Scenario, b: Scenario, ma: HexMap, mb: HexMap, where: str) -> list[Change]:
    out: list[Change] = []
    for name in ("name", "weather", "first_player", "map"):
        if getattr(a, name) != getattr(b, name):
            out.append(Change("scenario.changed", where, f"{name}: {_show(getattr(a, name))} → {_show(getattr(b, name))}"))
    if a.turns != b.turns:
        out.append(Change("scenario.turns", where,
                          f"turns {a.turns.first if a.turns else '?'}–{a.turns.last if a.turns else '?'} → "
                          f"{b.turns.first if b.turns else '?'}–{b.turns.last if b.turns else '?'}"))
    if a.optional_rules != b.optional_rules:
        out.append(Change("scenario.optional_rules", where, f"optional rules {a.optional_rules} → {b.optional_rules}"))
    if a.vp != b.vp:
        out.append(Change("scenario.vp", where, f"starting VP {a.vp} → {b.vp}"))
    # Setup: match by unit; a unit listed twice is compared as a multiset of placements.
    sa: dict[str, list[str]] = {}
    sb: dict[str, list[str]] = {}
    for e in a.setup:
        sa.setdefault(e.unit, []).append(_place(e, ma))
    for e in b.setup:
        sb.setdefault(e.unit, []).append(_place(e, mb))
    for unit in sorted(set(sa) - set(sb)):
        out.append(Change("setup.removed", where, f"setup: {unit} removed (was {'; '.join(sa[unit])})", {"unit": unit}))
    for unit in sorted(set(sb) - set(sa)):
        out.append(Change("setup.added", where, f"setup: {unit} added at {'; '.join(sb[unit])}", {"unit": unit}))
    for unit in sorted(set(sa) & set(sb)):
        if Tally(sa[unit]) != Tally(sb[unit]):
            out.append(Change("setup.moved", where, f"setup: {unit} {'; '.join(sa[unit])} → {'; '.join(sb[unit])}",
                              {"unit": unit, "old": sa[unit], "new": sb[unit]}))
    ia, ib = _schedule_index(a.schedule), _schedule_index(b.schedule)
    for key in sorted(set(ia) - set(ib)):
        turns = ", ".join(str(e.turn) for e in ia[key])
        out.append(Change("schedule.removed", where, f"schedule: {key[0]} of {key[1]} on turn {turns} removed", {"unit": key[1]}))
    for key in sorted(set(ib) - set(ia)):
        turns = ", ".join(str(e.turn) for e in ib[key])
        out.append(Change("schedule.added", where, f"schedule: {key[0]} of {key[1]} added on turn {turns}", {"unit": key[1]}))
    for key in sorted(set(ia) & set(ib)):
        ta = [str(e.turn) for e in ia[key]]
        tb = [str(e.turn) for e in ib[key]]
        if ta != tb:
            out.append(Change("schedule.moved", where, f"schedule: {key[0]} of {key[1]} moved from turn {', '.join(ta)} to {', '.join(tb)}",
                              {"unit": key[1], "old": ta, "new": tb}))
        pa = [_entry_point(e, ma) for e in ia[key]]
        pb = [_entry_point(e, mb) for e in ib[key]]
        if pa != pb:
            out.append(Change("schedule.entry", where, f"schedule: {key[1]} enters at {', '.join(pb)} (was {', '.join(pa)})",
                              {"unit": key[1], "old": pa, "new": pb}))
    za = {z.id: z for z in a.drop_zones}
    zb = {z.id: z for z in b.drop_zones}
    for zid in sorted(set(za) - set(zb)):
        out.append(Change("drop_zone.removed", where, f"drop zone {za[zid].name} removed"))
    for zid in sorted(set(zb) - set(za)):
        out.append(Change("drop_zone.added", where, f"drop zone {zb[zid].name} added ({len(zb[zid].hexes)} hexes)"))
    for zid in sorted(set(za) & set(zb)):
        out += _hex_list_change("drop zone", zb[zid].name, za[zid].hexes, zb[zid].hexes, ma, mb, where, "drop_zone.changed")
    oa = {o.id: o for o in a.beach_overlays}
    ob = {o.id: o for o in b.beach_overlays}
    for oid in sorted(set(oa) - set(ob)):
        out.append(Change("overlay.removed", where, f"beach overlay {oa[oid].name} removed"))
    for oid in sorted(set(ob) - set(oa)):
        out.append(Change("overlay.added", where, f"beach overlay {ob[oid].name} added"))
    for oid in sorted(set(oa) & set(ob)):
        x, y = oa[oid], ob[oid]
        out += _hex_list_change("beach overlay", y.name, x.hexes, y.hexes, ma, mb, where, "overlay.changed")
        if x.tracks != y.tracks:
            out.append(Change("overlay.tracks", where, f"beach overlay {y.name}: tracks {x.tracks} → {y.tracks}"))
        sba = {s.id: s for s in x.sub_beaches}
        sbb = {s.id: s for s in y.sub_beaches}
        for sid in sorted(set(sba) | set(sbb)):
            p, q = sba.get(sid), sbb.get(sid)
            if p is None or q is None:
                out.append(Change("overlay.changed", where, f"beach overlay {y.name}: sub-beach {sid} {'added' if p is None else 'removed'}"))
                continue
            for version in ("planned", "actual"):
                out += _hex_list_change(f"{y.name} {q.name} {version} landing", "hexes",
                                        getattr(p.landing, version), getattr(q.landing, version), ma, mb, where, "overlay.changed")
            if p.drift != q.drift:
                out.append(Change("overlay.changed", where, f"{y.name} {q.name}: drift {p.drift} → {q.drift}"))
        if set(x.gap_hexsides) != set(y.gap_hexsides):
            out.append(Change("overlay.changed", where, f"beach overlay {y.name}: gap hexsides changed"))
    out += _diff_named(where, "location", {x.id: x for x in a.locations}, {x.id: x for x in b.locations}, ma, mb)
    ra = {r.id: r for r in a.special_rules}
    rb = {r.id: r for r in b.special_rules}
    for rid in sorted(set(ra) | set(rb)):
        if ra.get(rid) is None or rb.get(rid) is None or ra[rid].text != rb[rid].text or ra[rid].refs != rb[rid].refs:
            verb = "added" if rid not in ra else "removed" if rid not in rb else "changed"
            out.append(Change(f"special_rule.{verb}", where, f"special rule {rid} {verb}"))
    out += _diff_params(a.params, b.params, where)
    return out


def _diff_params(a: Any, b: Any, where: str, path: tuple[str, ...] = ()) -> list[Change]:
    """``params`` compared key by key where both sides hold a mapping, so an errata line says
    ``params play_ma.airborne: 4 → 3``; a section added or removed whole is one line."""
    if path and (not isinstance(a, dict) or not isinstance(b, dict)):
        if a == b:
            return []
        key = ".".join(path)
        return [Change("params.changed", where, f"params {key}: {_short(a)} → {_short(b)}", {"key": key})]
    a, b = a or {}, b or {}
    out: list[Change] = []
    for k in sorted(set(a) | set(b), key=str):
        key = ".".join((*path, str(k)))
        if k not in a:
            out.append(Change("params.added", where, f"params {key} added: {_short(b[k])}", {"key": key}))
        elif k not in b:
            out.append(Change("params.removed", where, f"params {key} removed (was {_short(a[k])})", {"key": key}))
        else:
            out += _diff_params(a[k], b[k], where, (*path, str(k)))
    return out


def _short(value: Any, limit: int = 60) -> str:
    text = _show(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def render_text(changes: list[Change]) -> str:
    if not changes:
        return "no differences\n"
    lines: list[str] = []
    current = None
    for c in changes:
        if c.where != current:
            current = c.where
            lines.append(f"{current}:")
        lines.append(f"  - {c.text}")
    lines.append(f"{len(changes)} change(s)")
    return "\n".join(lines) + "\n"
