"""``hexproof validate PATH...``: structural checks of bundles (the rules engine extends this)."""

from __future__ import annotations

import argparse
import json

from hexproof.commands.common import DEFAULT_BUNDLE, write_output
from model.bundle import load_bundle
from model.diagnostics import Severity, sort_diagnostics

NAME = "validate"
HELP = "Validate game bundles and scenarios; exit 0 clean, 1 findings, 2 unreadable input."


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", nargs="*", default=[str(DEFAULT_BUNDLE)], metavar="PATH")
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.add_argument("--output")
    p.add_argument("--fail-on", default="error", choices=["error", "warning", "info"],
                   help="lowest severity that makes the exit code 1")


def run(args: argparse.Namespace) -> int:
    all_diags = []
    unreadable = False
    for path in args.paths:
        result = load_bundle(path)
        unreadable |= result.bundle is None
        all_diags.extend(result.diagnostics)
    diags = sort_diagnostics(all_diags)
    if args.format == "json":
        text = json.dumps({"diagnostics": [d.to_dict() for d in diags]}, indent=2, ensure_ascii=False)
    else:
        text = "\n".join(d.render() for d in diags) + ("\n" if diags else "")
        text += f"{len(diags)} finding(s)\n"
    write_output(text, args.output)
    if unreadable:
        return 2
    threshold = Severity.parse(args.fail_on)
    return 1 if any(d.severity >= threshold for d in diags) else 0
