"""``hexproof proof PATH --out DIR``: the publisher's proof PDF (and optional PNG/SVG maps)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from hexproof.commands import COMMANDS
from hexproof.commands.common import load_or_report

NAME = "proof"
HELP = COMMANDS[NAME]  # one source: `hexproof --help` lists it without importing this module


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("path", help="bundle folder (or a file inside it)")
    p.add_argument("--out", required=True, help="output folder")
    p.add_argument("--scale", type=float, default=16.0, help="hex width across flats on paper, mm (default 16)")
    p.add_argument("--counter-mm", type=float, default=15.875, help="counter size, mm (default 5/8 inch)")
    p.add_argument("--page", choices=["A4", "Letter"], default="A4")
    p.add_argument("--no-validate", action="store_true", help="leave out the validation report")
    p.add_argument("--png", action="store_true", help="also write <map>.png of each map")
    p.add_argument("--svg", action="store_true", help="also write <map>.svg of each map")
    p.add_argument("--image-scale", type=float, default=1.0, help="PNG/SVG pixels per editor unit (1 = 100%% zoom)")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")


def progress_printer(quiet: bool, label: str):  # type: ignore[no-untyped-def]
    """Textual progress on stderr: one rewritten line on a terminal, a line per 10 % otherwise."""
    tty = sys.stderr.isatty()
    last = [-1]

    def report(done: int, total: int, what: str) -> None:
        if quiet or total <= 0:
            return
        pct = int(100 * done / total)
        if tty:
            end = "\n" if done >= total else ""
            print(f"\r{label}: {pct:3d}% ({done}/{total}) {what[:40]:<40}", end=end, file=sys.stderr, flush=True)
        elif pct // 10 != last[0] or done >= total:
            last[0] = pct // 10
            print(f"{label}: {pct}% ({done}/{total}) {what}", file=sys.stderr, flush=True)

    return report


def run(args: argparse.Namespace) -> int:
    result = load_or_report(args.path)
    if result.bundle is None:
        return 2
    from editor.export.qt_app import ensure_app

    ensure_app()
    from editor.export.images import export_png, export_svg
    from editor.export.map_render import scene_for
    from editor.export.pdf import ProofOptions, export_proof_pdf

    bundle = result.bundle
    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    opts = ProofOptions(hex_mm=args.scale, counter_mm=args.counter_mm, page=args.page, validate=not args.no_validate)
    pdf = out_dir / f"{bundle.game.id}-proof.pdf"
    summary = export_proof_pdf(bundle, pdf, opts, progress_printer(args.quiet, "proof"))
    print(f"{pdf}: {summary.pages} pages")
    for title, page in summary.sections:
        print(f"  p.{page:<4d} {title}")
    for map_id in bundle.maps:
        if args.png or args.svg:
            scene = scene_for(bundle, map_id)
            if args.png:
                print(export_png(scene, out_dir / f"{map_id}.png", args.image_scale))
            if args.svg:
                print(export_svg(scene, out_dir / f"{map_id}.svg", args.image_scale))
    return 0
