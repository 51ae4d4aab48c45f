"""``hexproof viewshed PATH HEX``: every hex seen from a hex."""

from __future__ import annotations

import argparse
import json
import sys

from hexproof.commands import COMMANDS
from hexproof.commands.common import load_for_los, write_output
from model.labels import LabelError
from model.viewshed import viewshed

NAME = "viewshed"
HELP = COMMANDS[NAME]  # one source: `hexproof --help` lists it without importing this module


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("path", help="bundle folder, game.yaml or a scenario file")
    p.add_argument("hex", help="observer's hex, as printed")
    p.add_argument("--range", type=int, dest="radius", help="limit to this many hexes")
    p.add_argument("--night", action="store_true")
    p.add_argument("--storm", action="store_true")
    p.add_argument("--fog", action="store_true")
    p.add_argument("--purpose", choices=["direct", "spot", "self_spot"], default="direct")
    p.add_argument("--scenario", help="scenario id (selects its map)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--output", help="write to this file instead of standard output")


def run(args: argparse.Namespace) -> int:
    bundle, code = load_for_los(args.path, args.json, args.output)
    if bundle is None:
        return code
    system = bundle.system
    scen = bundle.resolved(args.scenario) if args.scenario and args.scenario in bundle.scenarios else None
    hmap = bundle.map_for(scen)
    try:
        origin = hmap.parse(args.hex)
    except LabelError as exc:
        print(f"hexproof viewshed: {exc}", file=sys.stderr)
        return 2
    if not hmap.contains(origin):
        print(f"hexproof viewshed: {args.hex} is not a hex of map {hmap.id}", file=sys.stderr)
        return 2
    seen = viewshed(hmap, system, origin, args.radius, night=args.night, storm=args.storm, fog=args.fog,
                    purpose=args.purpose)
    spec = hmap.spec
    labels = [hmap.label(h) for h in sorted(seen, key=lambda h: spec.offset(h))]
    if args.json:
        text = json.dumps({"from": hmap.label(origin), "count": len(labels), "visible": labels}, indent=2)
    else:
        text = f"{hmap.label(origin)} sees {len(labels)} hex(es):\n" + " ".join(labels)
    write_output(text, args.output)
    return 0
