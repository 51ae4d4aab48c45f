"""``hexproof playtest SCRIPT...``: run scripted playtests headless.

Exit 0 every script passed, 1 a step or assertion failed (reported at its file:line:col, an
engine bug as PLAY-INTERNAL-001), 2 a script, its bundle or one of its actions could not be
read. Never 3: nothing a script contains may end in a traceback.
"""

from __future__ import annotations

import argparse
import sys

from hexproof.commands import COMMANDS

NAME = "playtest"
HELP = COMMANDS[NAME]  # one source: `hexproof --help` lists it without importing this module


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("scripts", nargs="+", metavar="SCRIPT", help="playtest YAML files")
    p.add_argument("--log", help="write the event log of the (last) script as JSON to this file")
    p.add_argument("--events", action="store_true",
                   help="print each script's event log as text, one line per event with its rule case and "
                        "the policies it applied (as the Play mode log reads)")


def run(args: argparse.Namespace) -> int:
    from play.errors import INTERNAL_CODE, show
    from play.script import FAILED, PASSED, UNREADABLE, ScriptError, run_script

    code = PASSED
    for path in args.scripts:
        try:
            result = run_script(path)
        except ScriptError as exc:
            print(f"{exc}", file=sys.stderr)
            code = max(code, UNREADABLE)
            continue
        except Exception as exc:  # a runner bug: one located line and a failed playtest, never exit 3
            print(f"{path}: {INTERNAL_CODE} internal error in the playtest runner: {type(exc).__name__}: "
                  f"{show(str(exc), 200)}", file=sys.stderr)
            code = max(code, FAILED)
            continue
        notice = next((e for e in (result.game.log if result.game is not None else [])
                       if e.get("type") == "optional_rules_not_applied"), None)
        if notice is not None:  # selected optional rules the engine does not play (play/optional_coverage.py)
            print(f"{path}: warning: optional rules not played: {notice.get('message')}")
        if args.events and result.game is not None:
            from editor.play.describe import describe, wording_for

            wording = wording_for(result.game.plugin)
            for e in result.game.log:
                print(f"{path}: {describe(e, wording)}")
        if result.ok:
            print(f"{path}: passed ({result.steps} steps)")
        else:
            for line in result.report():
                print(line)
            code = max(code, FAILED)
        if args.log and result.game is not None:
            from pathlib import Path

            from model.formats.yamlio import atomic_write_text

            atomic_write_text(Path(args.log), result.game.log_json() + "\n", keep_backup=False)
    return code
