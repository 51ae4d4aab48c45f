"""``hexproof smoke PATH``: step through every turn, bring in every reinforcement, report
what cannot happen legally as PLAY-SMOKE-NNN diagnostics.

Exit 0 no errors, 1 error findings, 2 unreadable input.
"""

from __future__ import annotations

import argparse
import json

from hexproof.commands import COMMANDS
from hexproof.commands.common import bundle_path, load_or_report, write_output
from model.diagnostics import Severity, sort_diagnostics

NAME = "smoke"
HELP = COMMANDS[NAME]  # one source: `hexproof --help` lists it without importing this module


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("path", nargs="?", default=None, help="bundle folder, game.yaml or a scenario file (default: the sample)")
    p.add_argument("--scenario", action="append", default=[], metavar="ID", help="only this scenario (repeatable)")
    p.add_argument("--all-variants", action="store_true",
                   help="run every scenario and variant and print a comparison table")
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.add_argument("--output", help="write the report to this file instead of standard output")


def run(args: argparse.Namespace) -> int:
    from play.smoke import comparison_table, smoke_all

    path = bundle_path(NAME, args.path)
    if path is None:
        return 2
    result = load_or_report(path)
    bundle = result.bundle
    if bundle is None:
        return 2
    unknown = [s for s in args.scenario if s not in bundle.scenarios]
    if unknown:
        print(f"hexproof smoke: no scenario {', '.join(unknown)} in {bundle.game.id}")
        return 2
    if args.scenario:
        ids = list(args.scenario)
    elif args.all_variants or result.scenario_hint is None:
        ids = bundle.scenario_ids() if args.all_variants else [bundle.game.default_scenario or bundle.scenario_ids()[0]] \
            if bundle.scenario_ids() else []
        if not args.all_variants and not bundle.game.default_scenario:
            ids = bundle.scenario_ids()
    else:
        ids = [result.scenario_hint]
    from play.errors import GameError

    try:
        reports = smoke_all(bundle, ids)
    except (ValueError, GameError) as exc:  # a variant that cannot be resolved, too many turns
        print(f"hexproof smoke: {exc}")
        return 2
    diags = sort_diagnostics([d for r in reports for d in r.diagnostics])
    if args.format == "json":
        text = json.dumps({"reports": [r.row() for r in reports],
                           "diagnostics": [d.to_dict() for d in diags]}, indent=2, ensure_ascii=False)
    else:
        from validators.report import render_line

        lines = [render_line(d) for d in diags]  # with the policy a finding applied, as `validate` shows it
        if args.all_variants:
            lines.append(comparison_table(reports).rstrip("\n"))
        else:
            for r in reports:
                lines.append(f"{r.scenario}: {r.turns} turns, {r.arrivals} arrivals, {r.blocked} blocked, "
                             f"{r.overstacks} overstacks, {r.other} other findings")
        text = "\n".join(lines)
    write_output(text, args.output)
    return 1 if any(d.severity >= Severity.ERROR for d in diags) else 0
