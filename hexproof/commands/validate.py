"""``hexproof validate PATH...``: load bundles and run the rules engine over them.

Exit 0 clean, 1 findings at or above ``--fail-on`` (default error), 2 unreadable input.
"""

from __future__ import annotations

import argparse

from hexproof.commands.common import DEFAULT_BUNDLE, write_output
from model.diagnostics import Diagnostic, Severity, sort_diagnostics

NAME = "validate"
HELP = "Validate game bundles and scenarios; exit 0 clean, 1 findings, 2 unreadable input."


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", nargs="*", default=[str(DEFAULT_BUNDLE)], metavar="PATH",
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
    diags: list[Diagnostic] = []
    unreadable = False
    for path in args.paths:
        found, bad = validate_path(path, config, registry)
        diags.extend(found)
        unreadable |= bad
    diags = sort_diagnostics(diags)
    write_output(render(diags, args.format, config.rules(registry.rules())), args.output)
    if unreadable:
        return 2
    threshold = Severity.parse(args.fail_on)
    return 1 if any(d.severity >= threshold for d in diags) else 0
