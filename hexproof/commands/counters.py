"""``hexproof counters export|import``: counter manifest ↔ CSV with a stable column layout."""

from __future__ import annotations

import argparse
import sys

from hexproof.commands.common import load_or_report, write_output
from model.formats.counter_table import export_csv, import_csv

NAME = "counters"
HELP = "Export a bundle's counter manifest to CSV, or import one (with column mapping and a report of rejected rows)."


def register(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="action", required=True)
    ex = sub.add_parser("export", help="write the counter manifest as CSV")
    ex.add_argument("path", help="bundle folder")
    ex.add_argument("--output", help="CSV file (default: standard output)")
    im = sub.add_parser("import", help="replace the bundle's counter manifest with a CSV file "
                                       "(all rows or none: any rejected row and nothing is written)")
    im.add_argument("path", help="bundle folder")
    im.add_argument("csv", help="CSV file to read")
    im.add_argument("--map", action="append", default=[], metavar="THEIRS=OURS",
                    help="rename a column, e.g. --map Unit=name (repeatable)")
    im.add_argument("--dry-run", action="store_true", help="report only; do not write counters.yaml")


def run(args: argparse.Namespace) -> int:
    result = load_or_report(args.path)
    bundle = result.bundle
    if bundle is None:
        return 2
    if args.action == "export":
        write_output(export_csv(bundle.counters, bundle.system), args.output)
        return 0
    mapping = {}
    for item in args.map:
        theirs, sep, ours = item.partition("=")
        if not sep:
            print(f"hexproof: --map {item!r} should read THEIRS=OURS", file=sys.stderr)
            return 2
        mapping[theirs.strip()] = ours.strip()
    from model.safefile import SafeFileError, read_bytes
    from model.formats.yamlio import MAX_BYTES

    try:
        # A regular file only (a FIFO or a device is refused, never waited on), bounded by
        # the bytes read. Decoded without newline translation, so a quoted CR stays a CR.
        text = read_bytes(args.csv, MAX_BYTES, what="spreadsheet").decode("utf-8-sig")
    except SafeFileError as exc:
        print(f"{args.csv}: {exc.message}", file=sys.stderr)
        return 2
    except UnicodeDecodeError as exc:
        print(f"{args.csv}: cannot read: not UTF-8 text (byte {exc.start})", file=sys.stderr)
        return 2
    imported = import_csv(text, mapping)
    for col in imported.unmapped_columns:
        print(f"{args.csv}:1: warning: column {col!r} is not part of the layout and was ignored (use --map)", file=sys.stderr)
    for rej in imported.rejected:
        print(f"{rej.where(args.csv)}: rejected: {rej.reason}", file=sys.stderr)
    print(f"{len(imported.counters)} counter(s) read, {len(imported.rejected)} row(s) rejected")
    if imported.rejected:
        # All rows or none: a manifest with the rejected counters silently missing is worse
        # than the old one (61 counters once became 1 this way).
        print(f"hexproof: {args.csv}: nothing written; fix the rejected rows and import again", file=sys.stderr)
        return 1
    if args.dry_run or not imported.counters:
        return 0
    added = not bundle.game.counters
    if added:
        bundle.game.counters = "counters.yaml"
    bundle.counters = imported.counters
    try:
        bundle.save()  # the bundle's own (atomic) save: counters.yaml, and game.yaml if it gained 'counters:'
    except (OSError, SafeFileError) as exc:
        print(f"hexproof: {exc}", file=sys.stderr)
        return 2
    if added:
        print("note: added 'counters: counters.yaml' to game.yaml", file=sys.stderr)
    return 0
