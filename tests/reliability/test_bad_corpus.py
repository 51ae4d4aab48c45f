"""The bad-input corpus: every case in ``tests/fixtures/bad/<case>/`` is loaded and must
report its expected diagnostics at their file:line, without raising.

A case holds ``files/`` (files that replace or join those of the mini bundle, same
relative paths) and ``expect.yaml``:

```yaml
describe: what is broken
category: malformed-yaml         # used for the counts in docs/reliability.md
loads: false                     # does a Bundle still come back (only the broken part dropped)?
folders: [maps/mini.yaml]        # optional: replace these files with folders
remove: [system.yaml]            # optional: delete these files
expect:                          # every one must be reported; others may be too
- {code: LOAD-YAML-001, file: maps/mini.yaml, line: 5, message: YAML syntax error}
```

``line: null`` means the problem has no line (the file cannot be opened at all). An empty
``expect`` means the case is *not* a loader error: the bundle must load without any
``LOAD-`` error, and the validators are the ones to report it.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from conftest import FIXTURES
from model.bundle import load_bundle
from model.diagnostics import Diagnostic, Severity

MINI = FIXTURES / "bundles" / "mini"
BAD = FIXTURES / "bad"
CASES = sorted(p.name for p in BAD.iterdir() if (p / "expect.yaml").is_file())
PWNED = Path("/tmp/hexproof-bad-pwned")


def build_case(name: str, dest: Path) -> dict[str, Any]:
    """Copy the mini bundle to ``dest`` and apply the case; return its expect.yaml."""
    case = BAD / name
    meta: dict[str, Any] = yaml.safe_load((case / "expect.yaml").read_text(encoding="utf-8"))
    shutil.copytree(MINI, dest)
    files = case / "files"
    if files.is_dir():
        for src in files.rglob("*"):
            if src.is_file():
                target = dest / src.relative_to(files)
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(src, target)
    for rel in meta.get("remove", []):
        (dest / rel).unlink()
    for rel in meta.get("folders", []):
        (dest / rel).unlink(missing_ok=True)
        (dest / rel).mkdir(parents=True)
    return meta


def _matches(d: Diagnostic, exp: dict[str, Any]) -> bool:
    file = (d.location.file or "").replace("\\", "/")
    return (d.code == exp["code"] and file.endswith(exp["file"])
            and (exp["line"] is None or d.location.line == exp["line"])
            and exp["message"] in d.message)


def test_corpus_is_big_enough() -> None:
    broken = [c for c in CASES if yaml.safe_load((BAD / c / "expect.yaml").read_text())["expect"]]
    assert len(broken) >= 50


@pytest.mark.parametrize("name", CASES)
def test_bad_input(name: str, tmp_path: Path) -> None:
    root = tmp_path / "bundle"
    meta = build_case(name, root)
    result = load_bundle(root)  # must never raise

    got = "\n".join(d.render() for d in result.diagnostics) or "(no diagnostics)"
    assert (result.bundle is not None) == meta["loads"], f"loads should be {meta['loads']}; got:\n{got}"
    for exp in meta["expect"]:
        assert any(_matches(d, exp) for d in result.diagnostics), f"expected {exp}; got:\n{got}"
    if not meta["expect"]:
        loader_errors = [d for d in result.diagnostics if d.code.startswith("LOAD-") and d.severity >= Severity.ERROR]
        assert not loader_errors, f"should load for the validators to judge; got:\n{got}"
    for d in result.diagnostics:
        assert re.match(r"^[A-Z]+(-[A-Z]+)+-\d{3}$", d.code) and d.message.strip() and d.location.file
    assert not PWNED.exists(), "a YAML tag ran code"


def test_python_tags_never_run_code(tmp_path: Path) -> None:
    """Never run code from data: a !!python/object/apply tag would create PWNED if executed."""
    PWNED.unlink(missing_ok=True)
    for name in [c for c in CASES if c.startswith("tag-")]:
        result = load_bundle(build_case(name, tmp_path / name) and tmp_path / name)
        assert any(d.code == "LOAD-YAML-004" for d in result.diagnostics), name
    assert not PWNED.exists()
