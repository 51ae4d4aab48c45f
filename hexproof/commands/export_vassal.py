"""``hexproof export-vassal PATH --out FILE.vmod``: a VASSAL module from a bundle."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from hexproof.commands import COMMANDS
from hexproof.commands.common import load_or_report

NAME = "export-vassal"
HELP = COMMANDS[NAME]  # one source: `hexproof --help` lists it without importing this module


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("path", help="bundle folder (or a file inside it)")
    p.add_argument("--out", required=True, help="module file to write (.vmod)")
    p.add_argument("--map", dest="map_id", help="map to export (default: the bundle's first)")
    p.add_argument("--hex-px", type=float, default=32.0, help="hex size on the board, pixels centre to corner")
    p.add_argument("--counter-px", type=int, default=60, help="counter image size, pixels")


def run(args: argparse.Namespace) -> int:
    from model.formats.vassal import MissingPywargame, build_vmod, pywargame_vassal

    try:
        pywargame_vassal()
    except MissingPywargame as exc:
        print(f"hexproof export-vassal: {exc}", file=sys.stderr)
        return 2
    result = load_or_report(args.path)
    if result.bundle is None:
        return 2
    if args.map_id and args.map_id not in result.bundle.maps:
        print(f"hexproof export-vassal: no map {args.map_id!r}", file=sys.stderr)
        return 2
    from editor.export.qt_app import ensure_app

    ensure_app()
    from editor.export.vassal_assets import module_spec

    print("export-vassal: rendering map and counters…", file=sys.stderr)
    spec, notes = module_spec(result.bundle, args.hex_px, args.counter_px, args.map_id)
    print("export-vassal: writing module…", file=sys.stderr)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    notes += build_vmod(spec, out)
    print(f"{out}: board {spec.width}×{spec.height} px, {len(spec.pieces)} pieces, {len(spec.setups)} setups")
    for n in notes:
        print(f"  not carried over: {n}")
    return 0
