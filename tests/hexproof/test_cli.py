"""The ``hexproof`` command line: info, schema, validate, exit codes, no tracebacks."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FIXTURES, REPO
from hexproof.cli import main

MINI = str(FIXTURES / "bundles" / "mini")


def test_info_text(capsys) -> None:
    assert main(["info", MINI]) == 0
    out = capsys.readouterr().out
    assert "Mini map" in out and "24 hexes" in out and "counters:  2" in out


def test_info_json_uses_printed_labels(capsys) -> None:
    assert main(["info", MINI, "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["maps"][0]["sheets"][0]["first"] == "0101"
    assert [s["id"] for s in info["scenarios"]] == ["base", "variant"]


def test_schema_is_json(capsys) -> None:
    assert main(["schema", "scenario"]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert "setup" in schema["properties"]


def test_validate_unreadable_exit_2(tmp_path: Path, capsys) -> None:
    (tmp_path / "game.yaml").write_text("id: [unclosed\n")
    assert main(["validate", str(tmp_path)]) == 2
    out = capsys.readouterr().out
    assert "game.yaml:" in out and "Traceback" not in out


def test_console_script_runs_without_traceback(tmp_path: Path) -> None:
    (tmp_path / "game.yaml").write_text("- just a list\n")
    proc = subprocess.run([sys.executable, "-m", "hexproof", "validate", str(tmp_path)],
                          capture_output=True, text=True, cwd=REPO)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stdout + proc.stderr
    assert "expected a mapping" in proc.stdout


def test_every_subcommand_module_loads() -> None:
    import importlib

    from hexproof.commands import COMMANDS

    for name in COMMANDS:
        module = importlib.import_module(f"hexproof.commands.{name.replace('-', '_')}")
        assert module.NAME == name and module.HELP and callable(module.register) and callable(module.run)


def test_counters_import_refuses_a_fifo_or_a_device_at_once(tmp_path: Path, capsys) -> None:
    """The spreadsheet is read through model/safefile: a named pipe would block ``open()``
    forever and ``/dev/zero`` never ends; both are refused at once, and nothing is written."""
    import os
    import shutil

    bundle = tmp_path / "mini"
    shutil.copytree(MINI, bundle)
    before = (bundle / "counters.yaml").read_bytes()
    fifo = tmp_path / "counters.csv"
    os.mkfifo(fifo)
    assert main(["counters", "import", str(bundle), str(fifo)]) == 2
    assert "named pipe (FIFO), not a regular file" in capsys.readouterr().err
    assert main(["counters", "import", str(bundle), "/dev/zero"]) == 2
    assert "a device, not a regular file" in capsys.readouterr().err
    assert (bundle / "counters.yaml").read_bytes() == before


_IMPORTS = ("import sys, runpy\n"
            "sys.argv = ['hexproof'] + sys.argv[1:]\n"
            "try:\n"
            "    runpy.run_module('hexproof', run_name='__main__')\n"
            "except SystemExit:\n"
            "    pass\n"
            "heavy = sorted(m for m in ('numpy', 'shapely', 'pydantic', 'PySide6', 'model.bundle', 'validators.engine')\n"
            "               if m in sys.modules)\n"
            "print('HEAVY', ','.join(heavy), file=sys.stderr)\n")


def _heavy_imports(*argv: str) -> list[str]:
    proc = subprocess.run([sys.executable, "-c", _IMPORTS, *argv], capture_output=True, text=True, cwd=REPO,
                          timeout=300)
    line = next(x for x in proc.stderr.splitlines() if x.startswith("HEAVY"))
    return [m for m in line.split(" ", 1)[1].split(",") if m]


def test_help_imports_no_subcommand() -> None:
    """Issue #21: "`hexproof --help` takes 0.47 s … because the parser imports all 16 subcommands
    with numpy, shapely and every pydantic model"."""
    assert _heavy_imports("--help") == []


def test_a_subcommand_imports_only_what_it_needs() -> None:
    heavy = _heavy_imports("validate", "--help")
    assert "validators.engine" not in heavy and "PySide6" not in heavy  # its module, not the run's imports
    assert "PySide6" not in _heavy_imports("validate", str(REPO / "scenarios" / "utah-beach"))


def test_every_subcommand_parses_its_help(capsys: pytest.CaptureFixture[str]) -> None:
    from hexproof.cli import build_parser
    from hexproof.commands import COMMANDS

    parser = build_parser(every=True)
    for name in COMMANDS:
        with pytest.raises(SystemExit):
            parser.parse_args([name, "--help"])
        assert f"usage: hexproof {name}" in capsys.readouterr().out


def test_no_path_and_no_default_sample_is_a_message_not_the_current_folder(monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    """With no default sample configured (resources/editor.yaml), a command given no path says
    so and exits 2; it does not read whatever folder it runs in."""
    from hexproof.commands import common

    monkeypatch.setattr(common, "DEFAULT_BUNDLE", None)
    for cmd in ("validate", "info", "smoke"):
        assert main([cmd]) == 2, cmd
        err = capsys.readouterr().err
        assert f"hexproof {cmd}: no bundle given and no default sample configured" in err


def test_no_path_reads_the_default_sample(capsys) -> None:  # type: ignore[no-untyped-def]
    from hexproof.commands import common

    assert common.DEFAULT_BUNDLE is not None and (common.DEFAULT_BUNDLE / "game.yaml").is_file()
    assert main(["info", "--json"]) == 0
    import json

    assert json.loads(capsys.readouterr().out)["bundle"]
