"""``hexproof import-vassal`` against the generated hostile corpus (tests/reliability/hostile_vassal.py).

Each case runs the real command in a subprocess (so a crash, a hang or a memory blow-up shows as
such) under a 2 GiB address-space limit and a generous timeout (a hang guard, not a speed test).
It must: exit with the expected code, never a traceback and never exit 3; name the member and
the reason in its message; leave the sentinel file beside ``--out`` untouched; leave the folder
holding ``--out`` exactly as it was (no temporary folder left); and on a refusal leave ``--out``
as it was (absent, or the caller's file/folder unchanged).
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO
from hostile_vassal import CASES, VICTIM, VICTIM_TEXT, Case

if importlib.util.find_spec("pywargame") is None:
    pytest.skip("pywargame not installed (the [test] extra)", allow_module_level=True)

TIMEOUT = 180  # seconds: a hang guard only
MEMORY = 2 << 30  # RLIMIT_AS for the command: the 3 GiB image and the bombs must not get near it


def _limit_memory() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def run_import(vmod: Path, out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(REPO))
    env.pop("HEXPROOF_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "hexproof", "import-vassal", str(vmod), "--out", str(out), *extra],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=TIMEOUT,
                          preexec_fn=_limit_memory)


def listing(folder: Path) -> dict[str, bytes | None]:
    return {str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else None) for p in sorted(folder.rglob("*"))}


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_hostile_module(case: Case, tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    (work / VICTIM).write_text(VICTIM_TEXT, encoding="utf-8")
    vmod = case.make(work)
    out = work / "out"
    if case.prepare_out:
        case.prepare_out(out)
    before = listing(work)
    above = sorted(os.listdir(tmp_path))
    proc = run_import(vmod, out)
    err = proc.stderr
    assert "Traceback" not in err and proc.returncode != 3, err
    assert "\x1b" not in err + proc.stdout  # names from the module are printed with escapes shown
    assert proc.returncode == case.code, (proc.returncode, err, proc.stdout)
    for word in case.expect:
        assert word in err, (word, err)
    # Nothing outside --out: the sentinel, the work folder (bar --out) and the folder above it.
    assert (work / VICTIM).read_text(encoding="utf-8") == VICTIM_TEXT
    assert sorted(os.listdir(tmp_path)) == above
    after = listing(work)
    if case.code == 0:
        assert {k: v for k, v in after.items() if not k.startswith("out")} == before
        got = sorted(k[len("out/"):] for k in after if k.startswith("out/"))
        scenarios = [k for k in got if k.startswith("scenarios")]
        assert sorted(set(got) - set(scenarios)) == case.out_listing
        assert "root:" not in "".join(str(v) for v in after.values())  # no /etc/passwd anywhere
    else:
        assert after == before, "a refused import changed the folder holding --out"
        assert "nothing was written" in err
        assert err.count("\n") <= 3, err  # one located message, not a dump


def test_dev_zero_as_module(tmp_path: Path) -> None:
    """A device (never ends) or a FIFO (blocks forever) as the module: refused at once."""
    proc = run_import(Path("/dev/zero"), tmp_path / "out")
    assert proc.returncode == 2 and "not a regular file" in proc.stderr, proc.stderr
    fifo = tmp_path / "pipe.vmod"
    os.mkfifo(fifo)
    proc = run_import(fifo, tmp_path / "out")
    assert proc.returncode == 2 and "not a regular file" in proc.stderr, proc.stderr
    assert sorted(os.listdir(tmp_path)) == ["pipe.vmod"]


def test_missing_module(tmp_path: Path) -> None:
    proc = run_import(tmp_path / "nope.vmod", tmp_path / "out")
    assert proc.returncode == 2 and "nope.vmod: file not found" in proc.stderr
    assert os.listdir(tmp_path) == []


@pytest.mark.usefixtures("qapp")
def test_real_export_still_imports(tmp_path: Path) -> None:
    """The guard rails do not get in the way: export-vassal of scenarios/utah-beach imports back
    (into an existing empty folder, under the same limits), with only Hexproof-named files."""
    from hexproof.cli import main
    from model.bundle import load_bundle

    vmod = tmp_path / "utah.vmod"
    assert main(["export-vassal", str(REPO / "scenarios" / "utah-beach"), "--out", str(vmod)]) == 0
    out = tmp_path / "imported"
    out.mkdir()
    proc = run_import(vmod, out)
    assert proc.returncode == 0, proc.stderr
    assert sorted(os.listdir(tmp_path)) == ["imported", "utah.vmod"]  # no temporary folder left
    loaded = load_bundle(out)
    assert loaded.bundle is not None and len(loaded.bundle.scenarios) >= 1
    assert (out / "images" / "board-1.png").read_bytes()[:4] == b"\x89PNG"
    names = {p.name for p in (out / "images" / "counters").iterdir()}
    assert names and all(n.endswith(("-front.png", "-back.png")) for n in names)
    assert oct(out.stat().st_mode & 0o777) != "0o700"  # the staging folder's private mode is not kept


def _valid_module(work: Path) -> Path:
    from hostile_vassal import base_entries, write_zip

    return write_zip(work / "ok.vmod", base_entries())


def test_failed_write_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    """A disk that fills up half-way (commit_files fails) and a bundle that does not load
    (unknown --system): exit 2 and the folder holding --out is as it was; a missing parent
    folder that the command created is removed again."""
    import model.safefile
    from hexproof.cli import main

    vmod = _valid_module(tmp_path)
    assert main(["import-vassal", str(vmod), "--out", str(tmp_path / "new" / "deeper" / "out"),
                 "--system", "no-such-system"]) == 2
    assert "cannot be loaded" in capsys.readouterr().err  # refused before anything is read or written
    assert sorted(os.listdir(tmp_path)) == ["ok.vmod"]

    def disk_full(root: object, files: object) -> None:
        raise model.safefile.SaveError("could not save 7 file(s): No space left on device; nothing was saved")

    monkeypatch.setattr(model.safefile, "commit_files", disk_full)
    assert main(["import-vassal", str(vmod), "--out", str(tmp_path / "out")]) == 2
    assert "No space left" in capsys.readouterr().err
    assert sorted(os.listdir(tmp_path)) == ["ok.vmod"]
