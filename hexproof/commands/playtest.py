"""``hexproof playtest SCRIPT...``: run scripted playtests headless.

Exit 0 every script passed, 1 a step or assertion failed (reported with its step), 2 a
script, its bundle or one of its actions could not be read.
"""

from __future__ import annotations

import argparse
import sys

NAME = "playtest"
HELP = "Run scripted playtests (YAML actions + assertions, fixed seed); exit 0 pass, 1 failed, 2 unreadable."


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("scripts", nargs="+", metavar="SCRIPT", help="playtest YAML files")
    p.add_argument("--log", help="write the event log of the (last) script as JSON to this file")


def run(args: argparse.Namespace) -> int:
    from play.script import FAILED, PASSED, UNREADABLE, ScriptError, run_script

    code = PASSED
    for path in args.scripts:
        try:
            result = run_script(path)
        except ScriptError as exc:
            print(f"{exc}", file=sys.stderr)
            code = UNREADABLE
            continue
        notice = next((e for e in (result.game.log if result.game is not None else [])
                       if e.get("type") == "optional_rules_not_applied"), None)
        if notice is not None:  # selected optional rules the engine does not play (play/optional_coverage.py)
            print(f"{path}: warning: optional rules not played: {notice.get('message')}")
        if result.ok:
            print(f"{path}: passed ({result.steps} steps)")
        else:
            for f in result.failures:
                print(f"{path}: {f}")
            code = max(code, FAILED)
        if args.log and result.game is not None:
            from pathlib import Path

            from model.yamlio import atomic_write_text

            atomic_write_text(Path(args.log), result.game.log_json() + "\n", keep_backup=False)
    return code
