"""``hexproof import-vassal FILE.vmod --out DIR``: start a bundle from a VASSAL module."""

from __future__ import annotations

import argparse
import sys
import zipfile
from xml.parsers.expat import ExpatError
from pathlib import Path

NAME = "import-vassal"
HELP = ("Start a bundle from a VASSAL module: board image as the calibrated background, its hex grid, "
        "pieces as counters, predefined setups as scenarios; everything unmapped is reported.")


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("vmod", help="VASSAL module (.vmod)")
    p.add_argument("--out", required=True, help="new bundle folder (must be empty or absent)")
    p.add_argument("--system", help="game system id in resources/systems (default: write a placeholder system.yaml)")


def run(args: argparse.Namespace) -> int:
    from model.vassal import MissingPywargame, bundle_from_module, read_vmod

    out = Path(args.out)
    if out.exists() and any(out.iterdir()):
        print(f"hexproof import-vassal: {out} is not empty; choose a new folder", file=sys.stderr)
        return 2
    try:
        info = read_vmod(args.vmod)
        result = bundle_from_module(info, args.system)
    except MissingPywargame as exc:
        print(f"hexproof import-vassal: {exc}", file=sys.stderr)
        return 2
    except (OSError, ValueError, KeyError, IndexError, AttributeError, TypeError, zipfile.BadZipFile,
            ExpatError) as exc:  # a damaged or foreign file: say so, exit 2 (never a traceback)
        print(f"hexproof import-vassal: cannot read {args.vmod}: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    for rel, content in result.files.items():
        dest = out / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            dest.write_bytes(content)
        else:
            dest.write_text(content, encoding="utf-8")
    from model.bundle import load_bundle

    loaded = load_bundle(out)
    for d in loaded.diagnostics:
        print(d.render(), file=sys.stderr)
    print(f"{out}: bundle started from {info.name!r}: {len(info.pieces)} counters, "
          f"{sum(1 for f in result.files if f.startswith('scenarios/'))} scenarios")
    for n in result.notes:
        print(f"warning: not mapped: {n}")
    return 2 if loaded.bundle is None else 0
