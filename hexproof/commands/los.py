"""``hexproof los PATH A B``: line of sight between two hexes, with the reasons."""

from __future__ import annotations

import argparse
import json
import sys

from hexproof.commands import COMMANDS
from hexproof.commands.common import load_for_los, write_output
from model.labels import LabelError
from model.los import line_of_sight

NAME = "los"
HELP = COMMANDS[NAME]  # one source: `hexproof --help` lists it without importing this module


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("path", help="bundle folder, game.yaml or a scenario file")
    p.add_argument("a", help="firer's or spotter's hex, as printed (e.g. 28.048)")
    p.add_argument("b", help="target hex, as printed")
    p.add_argument("--night", action="store_true", help="night turn")
    p.add_argument("--storm", action="store_true", help="storm weather")
    p.add_argument("--fog", action="store_true", help="fog or rain")
    p.add_argument("--purpose", choices=["direct", "spot", "self_spot"], default="direct",
                   help="direct fire, spotting for another unit (OP), or self-spotting")
    p.add_argument("--barrage", action="append", default=[], metavar="HEX", help="a barraged hex (repeatable)")
    p.add_argument("--scenario", help="scenario id (selects its map)")
    p.add_argument("--explain", action="store_true", help="list every hex and hexside the line meets")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--output", help="write to this file instead of standard output")


def run(args: argparse.Namespace) -> int:
    bundle, code = load_for_los(args.path, args.json, args.output)
    if bundle is None:
        return code
    system = bundle.system
    scen = None
    if args.scenario:
        if args.scenario not in bundle.scenarios:
            print(f"hexproof los: no scenario {args.scenario!r} (have: {', '.join(bundle.scenario_ids())})",
                  file=sys.stderr)
            return 2
        scen = bundle.resolved(args.scenario)
    hmap = bundle.map_for(scen)
    try:
        a, b = hmap.parse(args.a), hmap.parse(args.b)
        barrage = [hmap.parse(x) for x in args.barrage]
    except LabelError as exc:
        print(f"hexproof los: {exc}", file=sys.stderr)
        return 2
    for label, h in ((args.a, a), (args.b, b)):
        if not hmap.contains(h):
            print(f"hexproof los: {label} is not a hex of map {hmap.id}", file=sys.stderr)
            return 2
    res = line_of_sight(hmap, system, a, b, night=args.night, storm=args.storm, fog=args.fog,
                        purpose=args.purpose, barrage=barrage)
    if args.json:
        text = json.dumps(res.to_dict(), indent=2, ensure_ascii=False)
    elif args.explain:
        text = res.explain()
    else:
        text = (f"{res.firer} → {res.target}: {'visible' if res.visible else 'blocked'} "
                f"(distance {res.distance}, range {res.range_limit}) — {res.reason}")
    write_output(text, args.output)
    return 0
