"""``hexproof coverage PATH --scenario ID --side SIDE``: for every hex, how many of the side's
set-up units (or OP / strongpoint features, ``--observers op``) have LOS to it, with the fast
all-pairs engine (play/analysis/coverage.py). Reports its own time."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from hexproof.commands import COMMANDS

NAME = "coverage"
HELP = COMMANDS[NAME]  # one source: `hexproof --help` lists it without importing this module


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("path", help="bundle folder (or a file inside it)")
    p.add_argument("--scenario", required=True, help="scenario id")
    p.add_argument("--side", help="the observing side (for --observers units)")
    p.add_argument("--observers", default="units",
                   help="'units' (the side's set-up units, default) or a map feature type (op, strongpoint)")
    p.add_argument("--night", action="store_true")
    p.add_argument("--storm", action="store_true")
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.add_argument("--output", help="write the report to this file instead of standard output")
    p.add_argument("--png", help="also write the coverage heatmap on the map as this PNG")


def run(args: argparse.Namespace) -> int:
    from hexproof.commands.common import load_or_report, write_output
    from play.analysis.coverage import UNITS, CoverageError, coverage, to_json

    loaded = load_or_report(args.path)
    bundle = loaded.bundle
    if bundle is None:
        return 2
    if args.scenario not in bundle.scenarios:
        print(f"hexproof coverage: bundle has no scenario {args.scenario!r} (it has: "
              f"{', '.join(sorted(bundle.scenarios))})", file=sys.stderr)
        return 2
    if not bundle.system.los.enabled:
        print(f"hexproof coverage: LOS is not used by {bundle.system.name}", file=sys.stderr)
        return 2
    if args.observers == UNITS and not args.side:
        print("hexproof coverage: --side is required with --observers units", file=sys.stderr)
        return 2
    try:
        cov = coverage(bundle, args.scenario, args.side, kind=args.observers, night=args.night, storm=args.storm)
    except CoverageError as exc:
        print(f"hexproof coverage: {exc}", file=sys.stderr)
        return 2
    hmap = bundle.map_for(bundle.resolved(args.scenario))
    data = to_json(cov, hmap.label)
    if args.format == "json":
        text = json.dumps(data, indent=2)
    else:
        cond = ", ".join(c for c, on in (("night", args.night), ("storm", args.storm)) if on) or "clear, day"
        who = f"{args.side} set-up units" if args.observers == UNITS else f"{args.observers} features"
        lines = [f"coverage of {args.scenario} by {sum(cov.observers.values())} {who} in "
                 f"{len(cov.observers)} hex(es) ({cond})",
                 f"{cov.covered} of {cov.hexes_on_map} hexes seen by at least one; at most {cov.max_count}",
                 "observers seeing a hex: " + ", ".join(f"{k}: {v} hexes" for k, v in data["histogram"].items()),
                 f"time: LOS {cov.seconds:.3f} s (fast all-pairs engine), set-up {cov.setup_seconds:.3f} s",
                 f"policy={cov.policies[0]}"]
        best = sorted(data["counts"].items(), key=lambda kv: (-kv[1], kv[0]))[:10]
        lines.append("most covered: " + ", ".join(f"{h} ({n})" for h, n in best))
        text = "\n".join(lines)
    write_output(text, args.output)
    if args.png:
        from editor.analysis.plots import coverage_png  # Qt: only for the picture

        print(f"wrote {coverage_png(bundle, args.scenario, cov, Path(args.png))}", file=sys.stderr)
    return 0
