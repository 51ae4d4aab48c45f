"""``hexproof import-vassal FILE.vmod --out DIR``: start a bundle from a VASSAL module.

A module comes from someone else, so (docs/reliability.md, "VASSAL modules"):

* it is read through :mod:`model.formats.vassal_archive` (caps on entries, sizes, XML, pieces and image
  pixels; unsafe entry names refused) and every refusal is exit 2 with the member named;
* every output file is named by Hexproof (``maps/<id>.yaml``, ``images/board-1.png`` …), never
  by the module;
* the bundle is written into a temporary folder beside ``--out`` (through
  :func:`model.safefile.commit_files`), loaded from there, and only then renamed to ``--out``;
  on any failure the temporary folder is removed and ``--out`` is left as it was.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

from hexproof.commands import COMMANDS

NAME = "import-vassal"
HELP = COMMANDS[NAME]  # one source: `hexproof --help` lists it without importing this module
PROG = "hexproof import-vassal"


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("vmod", help="VASSAL module (.vmod)")
    p.add_argument("--out", required=True, help="new bundle folder (must be absent or an empty folder)")
    p.add_argument("--system", help="game system id in resources/systems (default: write a placeholder system.yaml)")


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def printable(text: str) -> str:
    """Text from a module with control characters shown as escapes (no terminal escape codes)."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def _fail(message: str) -> int:
    print(printable(f"{PROG}: {message}"), file=sys.stderr)
    return 2


def _out_problem(out: Path) -> str | None:
    if out.is_symlink() and not out.exists():
        return f"{out} is a dangling symbolic link; choose a new folder (nothing was written)"
    if out.exists() and not out.is_dir():
        return f"{out} exists and is not a folder; choose a new folder (nothing was written)"
    if out.is_dir():
        try:
            if any(out.iterdir()):
                return f"{out} is not empty; choose a new or empty folder (nothing was written)"
        except OSError as exc:
            return f"cannot list {out}: {exc.strerror or exc} (nothing was written)"
    return None


def run(args: argparse.Namespace) -> int:
    from model.formats.vassal import MissingPywargame, bundle_from_module, read_vmod
    from model.formats.vassal_archive import VmodError

    out = Path(os.path.abspath(args.out))
    if out.is_symlink() and out.is_dir():
        out = Path(os.path.realpath(out))  # the rename replaces the folder the link names
    problem = _out_problem(out)
    if problem:
        return _fail(problem)
    vmod = os.path.basename(args.vmod)
    try:
        info = read_vmod(args.vmod)
        result = bundle_from_module(info, args.system)
    except MissingPywargame as exc:
        return _fail(str(exc))
    except VmodError as exc:
        where = "" if exc.member == vmod else f"{vmod}: "
        return _fail(f"{where}{exc}; nothing was written")
    except MemoryError:
        return _fail(f"{vmod}: ran out of memory reading the module; nothing was written")
    except (OSError, ValueError, KeyError, IndexError, AttributeError, TypeError, RecursionError) as exc:
        # a damaged or foreign file that got past the checks: say so, exit 2 (never a traceback)
        return _fail(f"cannot read {vmod}: {type(exc).__name__}: {exc}; nothing was written")
    return _write(out, result, info)


def _write(out: Path, result: object, info: object) -> int:
    from model.bundle import load_bundle
    from model.safefile import SafeFileError, commit_files

    files: dict[str, str | bytes] = result.files  # type: ignore[attr-defined]
    notes: list[str] = result.notes  # type: ignore[attr-defined]
    created: list[Path] = []
    parent = out.parent
    staging: Path | None = None
    landed = False
    try:
        missing = []
        cur = parent
        while not cur.exists():
            missing.append(cur)
            cur = cur.parent
        for folder in reversed(missing):
            folder.mkdir()
            created.append(folder)
        staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.hexproof-import-", dir=parent))
        commit_files(staging, {Path(rel): c if isinstance(c, bytes) else c.encode("utf-8")
                               for rel, c in files.items()})
        loaded = load_bundle(staging)
        for d in loaded.diagnostics:
            print(printable(d.render().replace(str(staging), str(out))), file=sys.stderr)
        if loaded.bundle is None:
            return _fail(f"the bundle started from {getattr(info, 'name', '')!r} does not load (above); "
                         "nothing was written")
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(staging, 0o777 & ~mask)
        try:
            os.rename(staging, out)  # atomic; replaces an empty folder, refuses a non-empty one
        except OSError as exc:
            return _fail(f"cannot create {out}: {exc.strerror or exc} (did something else write it meanwhile?); "
                         "nothing was written")
        landed = True
    except SafeFileError as exc:
        return _fail(f"{exc.message}; nothing was written")
    except OSError as exc:
        return _fail(f"cannot write the bundle beside {out}: {exc.strerror or exc}; nothing was written")
    finally:
        if not landed:
            if staging is not None:
                shutil.rmtree(staging, ignore_errors=True)
            for folder in reversed(created):
                try:
                    folder.rmdir()
                except OSError:
                    pass
    print(printable(f"{out}: bundle started from {getattr(info, 'name', '')!r}: "
                    f"{len(getattr(info, 'pieces', []))} counters, "
                    f"{sum(1 for f in files if f.startswith('scenarios/'))} scenarios"))
    for n in notes:
        print(printable(f"warning: not mapped: {n}"))
    return 0
