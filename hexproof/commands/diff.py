"""``hexproof diff OLD NEW [--format text|json]``: semantic diff of two bundle versions."""

from __future__ import annotations

import argparse
import json

from hexproof.commands import COMMANDS
from hexproof.commands.common import load_or_report, write_output
from model.diff import diff_bundles, diff_scenarios, render_text

NAME = "diff"
HELP = COMMANDS[NAME]  # one source: `hexproof --help` lists it without importing this module


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("old", help="old bundle folder, a file inside it, or a scenario file")
    p.add_argument("new", help="new bundle folder, a file inside it, or a scenario file (two scenario files: "
                               "those scenarios are compared with each other)")
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.add_argument("--output", help="write to this file instead of standard output")


def run(args: argparse.Namespace) -> int:
    old = load_or_report(args.old)
    new = load_or_report(args.new)
    if old.bundle is None or new.bundle is None:
        return 2
    if old.scenario_hint and new.scenario_hint:
        # Two scenario files: those two scenarios, compared with each other (they may be two
        # scenarios of one bundle, where a bundle diff would find nothing).
        changes = diff_scenarios(old.bundle, old.scenario_hint, new.bundle, new.scenario_hint)
    else:
        changes = diff_bundles(old.bundle, new.bundle)
    if args.format == "json":
        text = json.dumps({"changes": [c.to_dict() for c in changes]}, indent=2, ensure_ascii=False) + "\n"
    else:
        text = render_text(changes)
    write_output(text, args.output)
    return 0
