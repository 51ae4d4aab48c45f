"""``hexproof rules [CODE]``: list every rule, or print one rule's documentation."""

from __future__ import annotations

import argparse

from hexproof.commands import COMMANDS
from hexproof.commands.common import write_output

NAME = "rules"
HELP = COMMANDS[NAME]  # one source: `hexproof --help` lists it without importing this module


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("code", nargs="?", help="a rule code or name: print its documentation")
    p.add_argument("--write-docs", action="store_true", help="regenerate docs/rules/*.md from the docstrings")
    p.add_argument("--format", choices=["text", "json"], default="text")


def run(args: argparse.Namespace) -> int:
    import json

    from validators.registry import default_registry

    registry = default_registry()
    if args.write_docs:
        from validators.docs import write_docs

        written = write_docs()
        print(f"wrote {len(written)} file(s) under docs/rules")
        return 0
    if args.code:
        rule = registry.lookup(args.code)
        if rule is None:
            print(f"no rule {args.code!r}; run 'hexproof rules' for the list")
            return 2
        from validators.docs import rule_markdown

        write_output(rule_markdown(rule), None)
        return 0
    rules = registry.rules()
    if args.format == "json":
        rows = [{"code": r.code, "name": r.name, "severity": str(r.severity), "status": r.status,
                 "rule_case": r.rule_case, "groups": list(r.groups), "systems": list(r.systems or []),
                 "scope": r.scope, "summary": r.summary()} for r in rules]
        write_output(json.dumps(rows, indent=2, ensure_ascii=False), None)
        return 0
    widths = [max([len(r.code) for r in rules] + [4]), max([len(r.name) for r in rules] + [4])]
    lines = [f"{'CODE':<{widths[0]}}  {'NAME':<{widths[1]}}  {'SEVERITY':<8}  {'STATUS':<7}  RULE CASE"]
    for r in rules:
        lines.append(f"{r.code:<{widths[0]}}  {r.name:<{widths[1]}}  {str(r.severity):<8}  {r.status:<7}  {r.rule_case}")
    lines.append(f"{len(rules)} rule(s)")
    write_output("\n".join(lines) + "\n", None)
    return 0
