"""GTS-HEX-001 walks the loader's parse of a file instead of parsing it again when that parse
is of the very bytes on disk (issue #21: the re-parse was the costliest rule of a cold
``hexproof validate``), and parses the file itself when it changed since the load. Either
way the findings are the ones a fresh parse gives (the reference: ``_bad_ids`` without the
loader's data).

Rule case: Excl 3.2 — hex ids are printed CC.RRR ("28.048"); GTS-HEX-001 reports ids written
otherwise (``23.24`` for 23.024).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from conftest import REPO
from model.bundle import load_bundle
from model.safe_regex import compile_data_pattern
from validators.config import Config
from validators.context import RuleContext
from validators.engine import Validator
from validators.packs.gts import hex_001
from validators.registry import default_registry

SCENARIO = Path("scenarios") / "beach-landing.yaml"


def _copy(tmp_path: Path) -> Path:
    root = tmp_path / "utah"
    shutil.copytree(REPO / "scenarios" / "utah-beach", root)
    path = root / SCENARIO
    text = path.read_text(encoding="utf-8")
    assert "hex: '23.024'" in text
    path.write_text(text.replace("hex: '23.024'", "hex: '23.24'", 1), encoding="utf-8")
    return root


def _hex_findings(bundle: object) -> list[tuple[str, int | None, int | None]]:
    diags = Validator(bundle, Config.make(["GTS-HEX-001"], [], False, []), default_registry()).run()  # type: ignore[arg-type]
    return sorted((d.message, d.location.line, d.location.column) for d in diags if d.code == "GTS-HEX-001")


def _reference(root: Path, bundle: object) -> list[tuple[str, int | None, int | None]]:
    ctx = RuleContext(bundle)  # type: ignore[arg-type]
    pattern = compile_data_pattern(r"^\d{2,3}\.\d{3}$", "test")
    out = []
    for key in sorted(bundle.files):  # type: ignore[attr-defined]
        if key.startswith(("map:", "scenario:")):
            rel = bundle.files[key]  # type: ignore[attr-defined]
            display = hex_001._display(ctx, rel)
            for text, where in hex_001._bad_ids((root / rel).read_bytes(), display, pattern):
                out.append((f"hex id {text!r} is not written CC.RRR (e.g. 28.048)", where.line, where.column))
    return sorted(out)


def test_a_just_loaded_bundle_is_walked_not_parsed_again(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    bundle = load_bundle(root).bundle
    assert bundle is not None
    ctx = RuleContext(bundle)
    files = [bundle.files[k] for k in bundle.files if k.startswith(("map:", "scenario:"))]
    assert len(files) >= 2
    for rel in files:
        assert hex_001._loaded_parse(ctx, rel, hex_001._display(ctx, rel), (root / rel).read_bytes()) is not None, rel
    found = _hex_findings(bundle)
    assert found == _reference(root, bundle)
    assert [m for m, _, _ in found] == ["hex id '23.24' is not written CC.RRR (e.g. 28.048)"]
    assert found[0][1] is not None  # located at its line in the scenario file


def test_a_file_changed_since_the_load_is_parsed_again(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    bundle = load_bundle(root).bundle
    assert bundle is not None
    path = root / SCENARIO
    # After the load, the file gains a second bad id (and moves the first down a line).
    path.write_text("# edited after the load\n" + path.read_text(encoding="utf-8").replace(
        "hex: '24.026'", "hex: '24.26'", 1), encoding="utf-8")
    ctx = RuleContext(bundle)
    rel = str(SCENARIO)
    assert hex_001._loaded_parse(ctx, rel, hex_001._display(ctx, rel), path.read_bytes()) is None
    found = _hex_findings(bundle)
    assert found == _reference(root, bundle)
    assert len(found) == 2
