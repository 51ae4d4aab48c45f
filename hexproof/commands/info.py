"""``hexproof info PATH [--json]``: what a bundle holds."""

from __future__ import annotations

import argparse
import json
from collections import Counter as Tally
from typing import Any

from hexproof.commands import COMMANDS
from hexproof.commands.common import bundle_path, load_or_report, write_output
from model.bundle import Bundle

NAME = "info"
HELP = COMMANDS[NAME]  # one source: `hexproof --help` lists it without importing this module


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("path", nargs="?", default=None, help="bundle folder, game.yaml or a scenario file (default: the sample)")
    p.add_argument("--json", action="store_true", help="machine-readable output; hexes as printed labels")
    p.add_argument("--output", help="write to this file instead of standard output")


def summarize(bundle: Bundle) -> dict[str, Any]:
    system = bundle.system
    out: dict[str, Any] = {
        "bundle": bundle.game.id,
        "name": bundle.game.name,
        "system": {"id": system.id, "name": system.name, "rulebook": system.rulebook,
                   "los": "on" if system.los.enabled else f"off ({system.los.disabled_reason or 'no LOS rules'})"},
        "maps": [],
        "boxes": [{"id": b.id, "name": b.name, "kind": b.kind, "side": b.side} for b in bundle.game.boxes],
        "counters": {},
        "scenarios": [],
    }
    for hmap in bundle.maps.values():
        w, h = hmap.size()
        out["maps"].append({
            "id": hmap.id,
            "name": hmap.name,
            "orientation": hmap.grid.orientation,
            "stagger": hmap.grid.stagger,
            "size": [w, h],
            "hexes": len(hmap.hexes()),
            "sheets": [{"id": s.id, "name": s.name, "cols": s.cols, "rows": s.rows,
                        "first": hmap.spec.label(hmap.spec.hex_at_offset(s.x0, s.y0)),
                        "last": hmap.spec.label(hmap.spec.hex_at_offset(s.x0 + s.cols - 1, s.y0 + s.rows - 1))}
                       for s in hmap.grid.sheets],
            "locations": [{"id": loc.id, "name": loc.name, "kind": loc.kind,
                           "hexes": [hmap.label(x) for x in loc.all_hexes()]} for loc in hmap.locations],
            "areas": [{"id": a.id, "name": a.name, "kind": a.kind, "hexes": len(a.hexes)} for a in hmap.areas],
        })
    per_side = Tally(c.side for c in bundle.counters)
    out["counters"] = {"total": len(bundle.counters), "per_side": dict(sorted(per_side.items()))}
    turns = {t.n: t for t in system.calendar.all_turns}
    for sid in bundle.scenario_ids():
        try:
            scen = bundle.resolved(sid)
        except ValueError:
            scen = bundle.scenarios[sid]
        hmap = bundle.map_for(scen)
        first = last = None
        if scen.turns:
            from model.calendar import resolve_turn

            first = resolve_turn(scen.turns.first, system.calendar.all_turns)
            last = resolve_turn(scen.turns.last, system.calendar.all_turns)
        out["scenarios"].append({
            "id": sid,
            "name": scen.name,
            "extends": scen.extends,
            "turns": {"first": first, "last": last,
                      "first_label": turns[first].label if first in turns else None,
                      "last_label": turns[last].label if last in turns else None},
            "optional_rules": scen.optional_rules,
            "setup_entries": len(scen.setup),
            "schedule_entries": len(scen.schedule),
            "locations": [{"id": loc.id, "name": loc.name, "kind": loc.kind,
                           "hexes": [hmap.label(x) for x in loc.all_hexes()]} for loc in scen.locations],
            "drop_zones": [{"id": z.id, "name": z.name, "kind": z.kind,
                            "hexes": [hmap.label(x) for x in scen.zone_hexes(z.id) or z.hexes],
                            "own_hexes": len(z.hexes), "extends": z.extends} for z in scen.drop_zones],
            "beach_overlays": [{
                "id": o.id, "name": o.name, "version": o.version,
                "hexes": [hmap.label(x) for x in o.hexes],
                "sub_beaches": [{"id": sb.id, "name": sb.name,
                                 "planned": [hmap.label(x) for x in sb.landing.planned],
                                 "actual": [hmap.label(x) for x in sb.landing.actual],
                                 "drift": sb.drift} for sb in o.sub_beaches],
                "tracks": o.tracks,
            } for o in scen.beach_overlays],
        })
    return out


def render_text(info: dict[str, Any]) -> str:
    lines = [f"{info['name']} ({info['bundle']})",
             f"  system:    {info['system']['name']} [{info['system']['id']}], LOS {info['system']['los']}"]
    for m in info["maps"]:
        lines.append(f"  map:       {m['name']} [{m['id']}] {m['size'][0]}x{m['size'][1]} {m['orientation']}-top, "
                     f"{m['hexes']} hexes, {len(m['sheets'])} sheet(s)")
        for s in m["sheets"]:
            lines.append(f"    sheet {s['id']}: {s['cols']}x{s['rows']}, {s['first']}…{s['last']}")
        if m["locations"]:
            lines.append("    named locations: " + ", ".join(f"{loc['name']} {'/'.join(loc['hexes'])}" for loc in m["locations"]))
    if info["boxes"]:
        lines.append("  boxes:     " + ", ".join(b["name"] for b in info["boxes"]))
    c = info["counters"]
    lines.append(f"  counters:  {c['total']} (" + ", ".join(f"{k} {v}" for k, v in c["per_side"].items()) + ")")
    for s in info["scenarios"]:
        t = s["turns"]
        span = f"turns {t['first']}–{t['last']}" if t["first"] is not None else "turns unknown"
        ext = f", extends {s['extends']}" if s["extends"] else ""
        lines.append(f"  scenario:  {s['name']} [{s['id']}{ext}] {span}, {s['setup_entries']} setup, "
                     f"{s['schedule_entries']} schedule entries")
        for z in s["drop_zones"]:
            extends = f" ({z['own_hexes']} of its own, extends {z['extends']})" if z["extends"] else ""
            lines.append(f"    drop zone {z['name']}: {len(z['hexes'])} hexes{extends}")
        for o in s["beach_overlays"]:
            lines.append(f"    beach overlay {o['name']}: " + ", ".join(sb["name"] for sb in o["sub_beaches"]))
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    path = bundle_path(NAME, args.path)
    if path is None:
        return 2
    result = load_or_report(path)
    if result.bundle is None:
        return 2
    info = summarize(result.bundle)
    text = json.dumps(info, indent=2, ensure_ascii=False) + "\n" if args.json else render_text(info)
    write_output(text, args.output)
    return 0
