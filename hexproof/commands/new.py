"""``hexproof new PATH --system ID --size WxH``: a new, empty game bundle that validates clean.

Writes game.yaml, one map, an empty counter manifest and one starter scenario into PATH (a new
or empty folder; never over an existing bundle), all at once (model/new_bundle.py). Rules of
the system's pack that need map or scenario content a blank bundle cannot have yet are
switched off in game.yaml's ``validate: ignore:`` and listed (validators/starter.py), unless
``--all-rules``. Exit 0 made, 2 refused (nothing written).
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from hexproof.commands import COMMANDS

NAME = "new"
HELP = COMMANDS[NAME]  # one source: `hexproof --help` lists it without importing this module

_SIZE = re.compile(r"(\d+)\s*[xX×]\s*(\d+)")
_SHEET = re.compile(r"([A-Za-z0-9_-]+):(\d+)[xX×](\d+)(?:@(-?\d+),(-?\d+))?")


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("path", help="folder for the bundle (new, or empty)")
    p.add_argument("--system", required=True,
                   help="a shipped system id (sfn, gts-utah, tkg) or the path of a system file (copied into the bundle)")
    p.add_argument("--name", help="the game's name (default: the folder's name)")
    p.add_argument("--size", metavar="COLSxROWS", help="one sheet of this many columns and rows, e.g. 41x29")
    p.add_argument("--sheet", action="append", default=[], metavar="ID:COLSxROWS[@X,Y]",
                   help="a sheet at offset X,Y (repeatable; instead of --size), e.g. --sheet W:40x62@0,56")
    p.add_argument("--labels", action="append", default=[], metavar="FIELD=VALUE",
                   help="adjust every sheet's label scheme (first_col, first_row, col_digits, row_digits, "
                        "separator, prefix, axis_order, col_step, row_step), e.g. --labels first_col=1")
    p.add_argument("--terrain", help="starting terrain id (default: the system's first terrain type)")
    p.add_argument("--orientation", choices=["flat", "pointy"], help="default: the system's grid")
    p.add_argument("--stagger", choices=["odd", "even"], help="default: the system's grid")
    p.add_argument("--all-rules", action="store_true",
                   help="keep every rule on, even those that need content a blank bundle cannot have yet")
    p.add_argument("--dry-run", action="store_true", help="show the sheets' corner labels and what would be "
                                                          "switched off; write nothing")


def _fail(message: str) -> int:
    print(f"hexproof: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    from model.labels import LabelScheme
    from model.new_bundle import (BundlePlan, NewBundleError, SheetPlan, build_bundle, create_bundle, default_scheme,
                                  default_sheets, folder_problem, load_plan_system, render_plan)
    from model.safefile import SafeFileError

    try:
        system = load_plan_system(args.system)
    except NewBundleError as exc:
        return _fail(str(exc))
    sheets: list[SheetPlan] = []
    for text in args.sheet:
        m = _SHEET.fullmatch(text.strip())
        if m is None:
            return _fail(f"--sheet {text!r} should read ID:COLSxROWS or ID:COLSxROWS@X,Y, e.g. W:40x62@0,56")
        sid, cols, rows = m.group(1), int(m.group(2)), int(m.group(3))
        x0, y0 = int(m.group(4) or 0), int(m.group(5) or 0)
        sheets.append(SheetPlan(sid, cols, rows, x0, y0, default_scheme(system, sid, rows)))
    if args.size:
        if sheets:
            return _fail("give --size for one sheet or --sheet for each sheet, not both")
        m = _SIZE.fullmatch(args.size.strip())
        if m is None:
            return _fail(f"--size {args.size!r} should read COLSxROWS, e.g. 41x29")
        sheets = list(default_sheets(system, int(m.group(1)), int(m.group(2))))
    if not sheets:
        return _fail("give the map size: --size COLSxROWS (or --sheet ID:COLSxROWS for each sheet)")
    changes: dict[str, Any] = {}
    for item in args.labels:
        key, sep, value = item.partition("=")
        if not sep or key.strip() not in LabelScheme.model_fields:
            return _fail(f"--labels {item!r} should read FIELD=VALUE with FIELD one of "
                         f"{', '.join(LabelScheme.model_fields)}")
        changes[key.strip()] = value
    if changes:
        try:
            sheets = [replace(s, labels=LabelScheme.model_validate({**(s.labels or LabelScheme()).model_dump(), **changes}))
                      for s in sheets]
        except ValueError as exc:
            return _fail(f"--labels: {exc}".splitlines()[0])
    folder = Path(args.path)
    if not args.dry_run and (problem := folder_problem(folder)) is not None:
        return _fail(problem + "; nothing written")  # before the work of checking the rules
    plan = BundlePlan(folder=folder, name=args.name or folder.name or "New game", system=args.system,
                      sheets=tuple(sheets), terrain=args.terrain, orientation=args.orientation, stagger=args.stagger)
    try:
        bundle = build_bundle(plan, system)
    except NewBundleError as exc:
        return _fail(str(exc))
    pending = []
    if not args.all_rules:
        from validators.starter import rules_needing_content

        pending = rules_needing_content(bundle)
        plan = replace(plan, ignore_rules=tuple(p.code for p in pending))
    print(render_plan(plan, system))
    if pending:
        print("switched off until the bundle has the content they check (game.yaml validate: ignore:):")
        for p in pending:
            more = f" (and {p.count - 1} more)" if p.count > 1 else ""
            print(f"  {p.code}: {p.message}{more}")
    if args.dry_run:
        problem = folder_problem(folder)
        if problem is not None:
            print(f"note: {problem}", file=sys.stderr)
        return 0
    try:
        made = create_bundle(plan, system)
    except NewBundleError as exc:
        return _fail(str(exc))
    except (OSError, SafeFileError) as exc:
        return _fail(getattr(exc, "message", None) or str(exc))
    print(f"created {made.root}: {len(made.written)} files; check it with: hexproof validate {made.root}")
    return 0
