"""``hexproof counters export|import``: counter manifest ↔ CSV or XLSX with one stable column layout."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from hexproof.commands import COMMANDS
from hexproof.commands.common import load_or_report, write_output
from model.bundle import Bundle
from model.formats.counter_table import ImportResult, export_csv, import_csv
from model.system import GameSystem

NAME = "counters"
HELP = COMMANDS[NAME]  # one source: `hexproof --help` lists it without importing this module


def register(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="action", required=True)
    ex = sub.add_parser("export", help="write the counter manifest as CSV or XLSX")
    ex.add_argument("path", help="bundle folder")
    ex.add_argument("--output", help="file to write (default: standard output, CSV only)")
    ex.add_argument("--format", choices=["csv", "xlsx"],
                    help="default: xlsx when --output ends in .xlsx, else csv")
    im = sub.add_parser("import", help="replace the bundle's counter manifest with a CSV or XLSX file "
                                       "(all rows or none: any rejected cell and nothing is written)")
    im.add_argument("path", help="bundle folder")
    im.add_argument("file", metavar="FILE", help="CSV or XLSX file to read (.xlsx is read as a workbook)")
    im.add_argument("--map", action="append", default=[], metavar="THEIRS=OURS",
                    help="rename a column, e.g. --map Unit=name (repeatable)")
    im.add_argument("--dry-run", action="store_true",
                    help="list the counters that would be added, changed and removed; write nothing")


def run(args: argparse.Namespace) -> int:
    result = load_or_report(args.path)
    bundle = result.bundle
    if bundle is None:
        return 2
    if args.action == "export":
        return _export(args, bundle)
    return _import(args, bundle)


def _export(args: argparse.Namespace, bundle: Bundle) -> int:
    fmt = args.format or ("xlsx" if args.output and args.output.lower().endswith(".xlsx") else "csv")
    if fmt == "csv":
        write_output(export_csv(bundle.counters, bundle.system), args.output)
        return 0
    if not args.output:
        print("hexproof: an XLSX workbook is binary: give --output FILE.xlsx", file=sys.stderr)
        return 2
    from model.formats.counter_xlsx import XlsxExportError, export_xlsx
    from model.formats.yamlio import atomic_write_bytes

    try:
        data = export_xlsx(bundle.counters, bundle.system)
    except XlsxExportError as exc:
        print(f"hexproof: {exc}; nothing written", file=sys.stderr)
        return 1
    try:
        # Atomic like the CSV: the old file stays whole until the new one is complete.
        atomic_write_bytes(Path(args.output), data, keep_backup=False)
    except OSError as exc:
        print(f"hexproof: {exc}", file=sys.stderr)
        return 2
    return 0


def _read(path: str, mapping: dict[str, str], system: GameSystem) -> ImportResult | None:
    """The imported sheet, or None after saying why the file cannot be read at all."""
    from model.formats.yamlio import MAX_BYTES
    from model.safefile import SafeFileError, read_bytes

    try:
        # A regular file only (a FIFO or a device is refused, never waited on), bounded by
        # the bytes read.
        raw = read_bytes(path, MAX_BYTES, what="spreadsheet")
    except SafeFileError as exc:
        print(f"{path}: {exc.message}", file=sys.stderr)
        return None
    if path.lower().endswith(".xlsx") or raw.startswith(b"PK\x03\x04"):
        from model.formats.counter_xlsx import import_xlsx

        return import_xlsx(raw, mapping, system)
    try:
        # Decoded without newline translation, so a quoted CR stays a CR.
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        print(f"{path}: cannot read: not UTF-8 text (byte {exc.start})", file=sys.stderr)
        return None
    return import_csv(text, mapping, system)


def _import(args: argparse.Namespace, bundle: Bundle) -> int:
    from model.counter_changes import plan_import
    from model.safefile import SafeFileError

    mapping = {}
    for item in args.map:
        theirs, sep, ours = item.partition("=")
        if not sep:
            print(f"hexproof: --map {item!r} should read THEIRS=OURS", file=sys.stderr)
            return 2
        mapping[theirs.strip()] = ours.strip()
    game = bundle.game
    if game.counters and game.counters in bundle.failed_files:
        # Its save would be skipped (a file that failed to load is never overwritten), so an
        # import would report success and write nothing.
        print(f"hexproof: {game.counters} could not be loaded (see above): fix it first; nothing written",
              file=sys.stderr)
        return 2
    imported = _read(args.file, mapping, bundle.system)
    if imported is None:
        return 2
    for col in imported.unmapped_columns:
        print(f"{args.file}:1: warning: column {col!r} is not part of the layout and was ignored (use --map)",
              file=sys.stderr)
    for rej in imported.rejected:
        print(f"{rej.where(args.file)}: rejected: {rej.reason}", file=sys.stderr)
    if imported.rejected:
        # All rows or none: a manifest with the rejected counters silently missing is worse
        # than the old one (61 counters once became 1 this way).
        print(f"{len(imported.counters)} counter(s) read, {len(imported.rejected)} problem(s)")
        print(f"hexproof: {args.file}: nothing written; fix the rejected cells and import again", file=sys.stderr)
        return 1
    plan = plan_import(bundle.counters, imported.counters, "replace")
    print(f"{len(imported.counters)} counter(s) read: {plan.summary()}")
    if args.dry_run:
        for line in plan.lines():
            print(line)
        return 0
    if not imported.counters:
        print(f"hexproof: {args.file} holds no counter rows: nothing written", file=sys.stderr)
        return 0
    if plan.changes_nothing:
        return 0
    added = not game.counters
    if added:
        game.counters = "counters.yaml"
    bundle.counters = list(plan.result)
    try:
        bundle.save()  # atomic, format-preserving: counters.yaml (and game.yaml if it gained 'counters:')
    except (OSError, SafeFileError) as exc:
        print(f"hexproof: {exc}", file=sys.stderr)
        return 2
    if added:
        print("note: added 'counters: counters.yaml' to game.yaml", file=sys.stderr)
    return 0
