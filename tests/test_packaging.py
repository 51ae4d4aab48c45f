"""A wheel carries everything an installed Hexproof reads, and runs without the checkout.

The README installs in editable mode, which reads the checkout's ``resources/`` and
``scenarios/``; a wheel can only install files inside packages, so ``setup.py`` copies both into
``model/_shipped/`` (model/shipped.py). The test builds a wheel offline from a copy of the
project (the checkout is never written to), unpacks it, and runs commands against the unpacked
copy from another folder, so nothing of the checkout can be found by accident.
"""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("model", "play", "validators", "editor", "hexproof", "bench")
PROJECT = (*PACKAGES, "resources", "scenarios", "pyproject.toml", "setup.py", "MANIFEST.in", "README.md")


def _copy_project(dest: Path) -> None:
    import shutil

    for name in PROJECT:
        src = REPO / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info"))
        else:
            shutil.copy2(src, dest / name)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    src = tmp_path_factory.mktemp("src")
    _copy_project(src)
    out = tmp_path_factory.mktemp("wheel")
    run = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
                          "--no-index", "-w", str(out), str(src)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-2000:]
    (built,) = out.glob("hexproof-*.whl")
    return built


@pytest.fixture(scope="module")
def site(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("site")
    with zipfile.ZipFile(wheel) as zf:
        zf.extractall(root)
    return root


def _run(site: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    # PYTHONPATH comes before site-packages and before the editable install's finder, so the
    # unpacked wheel is what is imported (the first test checks it)
    env = {**os.environ, "PYTHONPATH": str(site), "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=cwd, env=env)


def test_every_data_file_of_the_packages_is_in_the_wheel(wheel: Path) -> None:
    """Each non-Python file in a package (plug-in YAML, icons) and each file of resources/ and
    scenarios/ is in the wheel: a file left out would fail only on a user's machine."""
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
    wanted: set[str] = set()
    for package in PACKAGES:
        for f in (REPO / package).rglob("*"):
            if f.is_file() and f.suffix not in (".py", ".pyc") and "__pycache__" not in f.parts:
                wanted.add(f.relative_to(REPO).as_posix())
    for folder in ("resources", "scenarios"):
        for f in (REPO / folder).rglob("*"):
            if f.is_file() and "__pycache__" not in f.parts and not f.name.startswith("."):
                wanted.add(f"model/_shipped/{f.relative_to(REPO).as_posix()}")
    assert wanted, "found no data files: the test would prove nothing"
    assert sorted(wanted - names) == []


def test_installed_copy_reads_its_own_data(site: Path, tmp_path: Path) -> None:
    code = ("import model, model.shipped as s, model.los_table as t, model.system as m;"
            "print(model.__file__); print(s.IS_CHECKOUT); print(t.TABLE_PATH.is_file());"
            "print(' '.join(m.available_systems()))")
    run = _run(site, "-c", code, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    module, checkout, table, systems = run.stdout.splitlines()
    assert Path(module).is_relative_to(site)
    assert checkout == "False" and table == "True"
    assert set(systems.split()) == {p.stem for p in (REPO / "resources" / "systems").glob("*.yaml")}


def test_installed_copy_validates_its_samples(site: Path, tmp_path: Path) -> None:
    """``hexproof validate`` runs from the wheel on every shipped sample, with the same findings
    as in the checkout (the system files, rule packs and plug-in data all came along)."""
    samples = [p.parent for p in sorted((site / "model" / "_shipped" / "scenarios").glob("*/game.yaml"))]
    assert {p.name for p in samples} == {p.parent.name for p in (REPO / "scenarios").glob("*/game.yaml")}
    for sample in samples:
        installed = _run(site, "-m", "hexproof", "validate", str(sample), "--format", "json", cwd=tmp_path)
        checkout = subprocess.run([sys.executable, "-m", "hexproof", "validate", str(REPO / "scenarios" / sample.name),
                                   "--format", "json"], capture_output=True, text=True, cwd=REPO)
        assert installed.returncode == checkout.returncode, installed.stderr
        assert _findings(installed.stdout) == _findings(checkout.stdout), sample.name


def _findings(text: str) -> list[tuple[str, str]]:
    import json

    return sorted((d["code"], d["message"]) for d in json.loads(text)["diagnostics"])


def test_installed_copy_validates_the_default_sample_without_a_path(site: Path, tmp_path: Path) -> None:
    """``hexproof validate`` and ``info`` with no path read the shipped default sample
    (resources/editor.yaml) from the installed copy, not a ``scenarios/`` folder beside the
    package (before: ``parents[2] / "scenarios"``, which is no folder in site-packages)."""
    from model.shipped import default_sample

    sample = default_sample()
    assert sample is not None and (sample / "game.yaml").is_file()
    installed = _run(site, "-m", "hexproof", "info", "--json", cwd=tmp_path)
    assert installed.returncode == 0, installed.stderr
    import json

    shipped = json.loads(installed.stdout)
    checkout = json.loads(subprocess.run([sys.executable, "-m", "hexproof", "info", "--json", str(sample)],
                                         capture_output=True, text=True, cwd=REPO).stdout)
    assert shipped["bundle"] == checkout["bundle"]
    validate = _run(site, "-m", "hexproof", "validate", "--format", "json", cwd=tmp_path)
    in_checkout = subprocess.run([sys.executable, "-m", "hexproof", "validate", "--format", "json", str(sample)],
                                 capture_output=True, text=True, cwd=REPO)
    assert validate.returncode == in_checkout.returncode == 0, validate.stderr
    assert _findings(validate.stdout) == _findings(in_checkout.stdout)
    where = _run(site, "-c", "from model.shipped import default_sample, SHIPPED; "
                 "print(default_sample().is_relative_to(SHIPPED))", cwd=tmp_path)
    assert where.stdout.strip() == "True", where.stderr
