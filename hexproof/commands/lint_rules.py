"""``hexproof lint-rules FILE...``: proof-read rulebook texts (see validators.proofing.textlint).

Exit codes: 0 no error-severity finding, 1 at least one error, 2 a file cannot be read.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from pathlib import Path

from hexproof.commands import COMMANDS
from model.diagnostics import Diagnostic, Severity
from validators.proofing.textlint import DEFAULT_TAGS, lint_rules_text

NAME = "lint-rules"
HELP = COMMANDS[NAME]  # one source: `hexproof --help` lists it without importing this module


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="plain-text rulebook(s)")
    parser.add_argument("--tags", default=",".join(DEFAULT_TAGS),
                        help="comma-separated designer-note tags (default: %(default)s)")
    parser.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    parser.add_argument("--output", metavar="FILE", help="write the report here instead of stdout")
    parser.add_argument("--relative-to", metavar="DIR",
                        help="report file names relative to DIR (stable names for committed reports)")


def display_name(path: str, relative_to: str | None) -> str:
    """The name a report shows for ``path``: as given, or relative to ``relative_to``.

    Forward slashes always, so reports are identical on every platform.
    """
    if relative_to:
        path = os.path.relpath(os.path.abspath(path), os.path.abspath(relative_to))
    return Path(path).as_posix()


def render_text(findings: list[Diagnostic], names: list[str]) -> str:
    lines = [d.render() for d in findings]
    counts = Counter(d.severity for d in findings)
    lines.append(
        f"{counts[Severity.ERROR]} error(s), {counts[Severity.WARNING]} warning(s), "
        f"{counts[Severity.INFO]} info in {len(names)} file(s)"
    )
    return "\n".join(lines) + "\n"


def render_json(findings: list[Diagnostic], names: list[str]) -> str:
    by_code = Counter(d.code for d in findings)
    payload = {
        "files": names,
        "diagnostics": [d.to_dict() for d in findings],
        "summary": {
            "by_severity": {str(s): sum(1 for d in findings if d.severity == s) for s in reversed(Severity)},
            "by_code": dict(sorted(by_code.items())),
        },
    }
    return json.dumps(payload, indent=2, ensure_ascii=False) + "\n"


def run(args: argparse.Namespace) -> int:
    from model.safefile import SafeFileError, read_bytes

    tags = tuple(tag.strip() for tag in args.tags.split(",") if tag.strip())
    findings: list[Diagnostic] = []
    names: list[str] = []
    for path in args.files:
        try:
            # The user's own path, but still a regular file read bounded (a FIFO never blocks).
            text = read_bytes(path, 64 * 1024 * 1024, what="file").decode("utf-8")
        except (SafeFileError, UnicodeDecodeError) as exc:
            reason = exc.message if isinstance(exc, SafeFileError) else str(exc)
            print(f"hexproof lint-rules: cannot read {path}: {reason}", file=sys.stderr)
            return 2
        name = display_name(path, args.relative_to)
        names.append(name)
        findings.extend(lint_rules_text(text, file=name, tags=tags))
    report = (render_json if args.format == "json" else render_text)(findings, names)
    if args.output:
        try:
            Path(args.output).write_text(report, encoding="utf-8")
        except OSError as exc:
            print(f"hexproof lint-rules: cannot write {args.output}: {exc.strerror or exc}", file=sys.stderr)
            return 2
    else:
        sys.stdout.write(report)
    return 1 if any(d.severity >= Severity.ERROR for d in findings) else 0
