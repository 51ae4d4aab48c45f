"""``hexproof proof-art PATH [--image FILE]``: compare each hex's centre-dot colour in the
calibrated map image with the terrain data [Utah Excl 2.1] (PROOF-ART-001..003)."""

from __future__ import annotations

import argparse
import json
import sys

from hexproof.commands import COMMANDS
from hexproof.commands.common import errors, load_or_report, write_output

NAME = "proof-art"
HELP = COMMANDS[NAME]  # one source: `hexproof --help` lists it without importing this module


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("path", help="bundle folder (or a file inside it)")
    p.add_argument("--image", help="map image (default: the map's background image); uses the map's calibration")
    p.add_argument("--map", dest="map_id", help="map id (default: every map with a background)")
    p.add_argument("--tolerance", type=float, default=None, help="RGB distance accepted as a legend colour (default 48)")
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.add_argument("--output", help="write to this file instead of standard output")


def run(args: argparse.Namespace) -> int:
    result = load_or_report(args.path)
    bundle = result.bundle
    if bundle is None:
        return 2
    from model.formats.mapart import DEFAULT_TOLERANCE, art_diagnostics, proof_map_art

    maps = [bundle.maps[args.map_id]] if args.map_id in bundle.maps else (
        [] if args.map_id else [m for m in bundle.maps.values() if m.background is not None or args.image])
    if args.map_id and not maps:
        print(f"hexproof proof-art: no map {args.map_id!r} (maps: {', '.join(bundle.maps)})", file=sys.stderr)
        return 2
    if not maps:
        print("hexproof proof-art: no map has a background image; give --image and calibrate the map's "
              "background (at least two hex centres) in the editor first", file=sys.stderr)
        return 2
    from editor.export.qt_app import ensure_app

    ensure_app()
    from editor.export.image_io import load_rgb

    diags = []
    summary = []
    for hmap in maps:
        try:
            # --image is the user's own choice (a regular file, read bounded); the map's
            # background image is named by data and must resolve inside the bundle.
            rgb = (load_rgb(args.image) if args.image
                   else load_rgb(hmap.background.image, bundle.root))  # type: ignore[union-attr]
            report = proof_map_art(rgb, hmap, bundle.system, tolerance=args.tolerance or DEFAULT_TOLERANCE)
        except (OSError, ValueError) as exc:
            print(f"{_where(bundle, hmap, exc, from_map=not args.image)}hexproof proof-art: {hmap.id}: {exc}", file=sys.stderr)
            return 2
        diags.extend(art_diagnostics(report, hmap, bundle))
        counts = {s: len(report.by_status(s)) for s in ("match", "mismatch", "unknown-colour", "off-image")}
        summary.append((hmap.id, counts))
    if args.format == "json":
        text = json.dumps({"maps": {m: c for m, c in summary}, "diagnostics": [d.to_dict() for d in diags]},
                          indent=2, ensure_ascii=False) + "\n"
    else:
        lines = [d.render() for d in diags]
        lines += [f"{m}: " + ", ".join(f"{n} {k}" for k, n in c.items()) for m, c in summary]
        text = "\n".join(lines) + "\n"
    write_output(text, args.output)
    return 1 if errors(diags) else 0


def _where(bundle, hmap, exc: Exception, from_map: bool = False) -> str:  # type: ignore[no-untyped-def]
    """``file:line:col: `` of the calibration point a CalibrationError blames (or of the
    calibration list), else nothing."""
    from model.calibration import CalibrationError

    bg = hmap.background
    if bg is None:
        return ""
    if isinstance(exc, OSError) and from_map:
        loc = bundle.locate(bg, "image")  # the key that named the image that cannot be read
        if loc.file is None:
            return ""
        return f"{loc.file}:{loc.line}:{loc.column}: " if loc.line else f"{loc.file}: "
    if not isinstance(exc, CalibrationError):
        return ""
    point = exc.point
    loc = (bundle.locate(bg.calibration[point]) if point is not None and point < len(bg.calibration)
           else bundle.locate(bg, "calibration"))
    if loc.file is None:
        return ""
    return f"{loc.file}:{loc.line}:{loc.column}: " if loc.line else f"{loc.file}: "
