"""``hexproof`` console script: argument parsing and dispatch to ``hexproof.commands``.

Exit codes follow the validator convention: 0 clean, 1 findings at or above the chosen
severity, 2 unreadable input or bad usage. Any unexpected exception is reported as one
line on stderr with exit code 3, never as a traceback (set ``HEXPROOF_DEBUG=1`` to see it).
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import sys
from types import ModuleType

from hexproof import __version__
from hexproof.commands import COMMANDS


def _load(name: str) -> ModuleType:
    return importlib.import_module(f"hexproof.commands.{name.replace('-', '_')}")


def chosen_command(argv: list[str]) -> str | None:
    """The subcommand ``argv`` runs: its first word that is not an option, if it names one."""
    word = next((a for a in argv if not a.startswith("-")), None)
    return word if word in COMMANDS else None


def build_parser(command: str | None = None, every: bool = False) -> argparse.ArgumentParser:
    """The parser, with ``command``'s module loaded and registered (``every``: all of them).
    The other subcommands are listed by name and help only (``COMMANDS``), without importing
    their modules: ``hexproof --help`` imports no subcommand, ``hexproof validate`` only its own."""
    parser = argparse.ArgumentParser(
        prog="hexproof",
        description="Scenario editor and rules validator for hex-and-counter wargames. "
        "With no subcommand, opens the editor on the bundled default sample.",
    )
    parser.add_argument("--version", action="version", version=f"hexproof {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, help_text in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        if not every and name != command:
            continue
        try:
            module = _load(name)
        except Exception as exc:  # one broken subcommand must not take the others down
            print(f"hexproof: subcommand {name!r} is unavailable: {type(exc).__name__}: {exc}", file=sys.stderr)
            continue
        module.register(p)
        p.set_defaults(_run=module.run)
    return parser


def main(argv: list[str] | None = None, *, freeze_imports: bool = False) -> int:
    """Parse ``argv`` and run its subcommand. ``freeze_imports`` (the console script and
    ``python -m hexproof``): the cyclic GC is paused while the subcommand's modules load,
    then everything they built is frozen (``gc.freeze``) so later collections skip it.
    Loading builds some 70 pydantic schemas; collecting over and over while they are made is
    ~4 % of a cold ``hexproof validate`` (issue #21). Tests calling ``main()`` are unaffected."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv and "edit" in COMMANDS:
        argv = ["edit"]
    paused = freeze_imports and gc.isenabled()
    if paused:
        gc.disable()
    try:
        parser = build_parser(chosen_command(argv))
    finally:
        if paused:
            gc.freeze()
            gc.enable()
    args = parser.parse_args(argv)
    if not getattr(args, "_run", None):
        parser.print_help()
        return 2
    try:
        return int(args._run(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # last line of defence: one clear line, never a traceback
        if os.environ.get("HEXPROOF_DEBUG"):
            raise
        print(f"hexproof: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 3


def console_main() -> int:
    """The ``hexproof`` console script (and ``python -m hexproof``): :func:`main` for a fresh process."""
    return main(freeze_imports=True)
