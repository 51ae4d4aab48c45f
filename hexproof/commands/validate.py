"""``hexproof validate PATH...``: load bundles and run the rules engine over them.

Exit 0 clean, 1 findings at or above ``--fail-on`` (default error), 2 unreadable input.
"""

from __future__ import annotations

import argparse
import sys

from hexproof.commands import COMMANDS
from hexproof.commands.common import bundle_path, write_output
from model.diagnostics import Diagnostic, Severity, sort_diagnostics

NAME = "validate"
HELP = COMMANDS[NAME]  # one source: `hexproof --help` lists it without importing this module


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", nargs="*", default=[], metavar="PATH",
                   help="bundle folders, their game.yaml, or a scenario file inside a bundle")
    p.add_argument("--select", action="append", default=[], metavar="CODES",
                   help="only these rules: code prefixes, groups or names (comma-separated, repeatable)")
    p.add_argument("--ignore", action="append", default=[], metavar="CODES",
                   help="skip these rules: code prefixes, groups or names (comma-separated, repeatable)")
    p.add_argument("--preview", action="store_true", help="also run rules whose status is preview")
    p.add_argument("--scenario", action="append", default=[], metavar="ID", help="only this scenario (repeatable)")
    p.add_argument("--format", choices=["text", "json", "sarif"], default="text")
    p.add_argument("--output", help="write the report to this file instead of standard output")
    p.add_argument("--fail-on", default="error", choices=["error", "warning", "info"],
                   help="lowest severity that makes the exit code 1")


def run(args: argparse.Namespace) -> int:
    from validators.config import Config
    from validators.engine import validate_path
    from validators.registry import default_registry
    from validators.report import render

    config = Config.make(args.select, args.ignore, args.preview, args.scenario)
    registry = default_registry()
    unknown = config.unknown_selectors(registry.rules())
    if unknown:
        # A usage error, not a clean run: a mistyped code would silently validate nothing.
        for option, key in unknown:
            print(f"hexproof validate: {option} {key}: no rule has this code, code prefix, group or name "
                  f"(list them with `hexproof rules`)", file=sys.stderr)
        return 2
    diags: list[Diagnostic] = []
    unreadable = False
    seen: set[str] = set()
    if not args.paths:
        default = bundle_path(NAME, None)
        if default is None:
            return 2
        args.paths = [default]
    for path in args.paths:
        found, bad = validate_path(path, config, registry, seen)
        diags.extend(found)
        unreadable |= bad
    missing = [s for s in config.scenarios if s not in seen]
    if missing and not unreadable:
        for sid in missing:
            print(f"hexproof validate: --scenario {sid}: no such scenario in "
                  f"{', '.join(args.paths)} (known: {', '.join(sorted(seen)) or 'none'})", file=sys.stderr)
        return 2
    diags = sort_diagnostics(diags)
    write_output(render(diags, args.format, config.rules(registry.rules())), args.output)
    if unreadable:
        return 2
    threshold = Severity.parse(args.fail_on)
    return 1 if any(d.severity >= threshold for d in diags) else 0
