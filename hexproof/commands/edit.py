"""``hexproof edit [PATH]``: open the Qt editor (or render a screenshot offscreen and exit)."""

from __future__ import annotations

import argparse
import os

from hexproof.commands import COMMANDS

NAME = "edit"
HELP = COMMANDS[NAME]  # one source: `hexproof --help` lists it without importing this module


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("path", nargs="?", help="bundle folder, game.yaml or scenario file")
    p.add_argument("--screenshot", metavar="FILE", help="render offscreen to this PNG and exit")
    p.add_argument("--size", default=None, metavar="WxH", help="window size, e.g. 1400x900")
    p.add_argument("--center", metavar="HEX", help="printed label of the hex to centre on")
    p.add_argument("--zoom", type=float, help="zoom factor (1 = 100 %%)")
    p.add_argument("--mode", choices=("edit", "play", "scenario"), default="edit")
    p.add_argument("--scenario", metavar="ID", help="scenario or variant for --mode play / --mode scenario")
    p.add_argument("--debug-paint", action="append", metavar="HEX=TERRAIN",
                   help="testing: after opening, paint HEX as an unsaved edit (repeatable; crash-recovery test)")


def run(args: argparse.Namespace) -> int:
    if args.screenshot:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    size = None
    if args.size:
        try:
            w, h = (int(v) for v in args.size.lower().split("x"))
            size = (w, h)
        except ValueError:
            print(f"hexproof edit: --size wants WxH, e.g. 1400x900, not {args.size!r}")
            return 2
    from editor.app import run as run_editor  # Qt is imported only for this command
    from hexproof import __version__

    return run_editor(args.path, args.screenshot, size, args.center, args.zoom, args.mode, args.scenario,
                      debug_paint=args.debug_paint, version=__version__)
