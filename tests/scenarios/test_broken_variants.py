"""Deliberately broken variants (tests/fixtures/broken/*.yaml) raise every code they expect
when validated with all packs."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from conftest import FIXTURES, REPO
from model.bundle import load_bundle
from validators.config import Config
from validators.engine import validate_bundle

sys.path.insert(0, str(REPO / "tests" / "validators"))
from fixture_edits import copy_and_edit  # noqa: E402

BROKEN = sorted((FIXTURES / "broken").glob("*.yaml"))


@pytest.mark.parametrize("case_file", BROKEN, ids=lambda p: p.stem)
def test_broken_variant_raises_expected_codes(case_file: Path, tmp_path: Path) -> None:
    case: dict[str, Any] = yaml.safe_load(case_file.read_text(encoding="utf-8"))
    assert case.get("expect_codes"), "a broken variant must list expect_codes"
    assert case.get("description"), "say what is broken and why"
    root = copy_and_edit(case["bundle"], case.get("edits", []), tmp_path)
    result = load_bundle(root)
    assert result.bundle is not None, [d.render() for d in result.diagnostics]
    scenarios = (case["scenario"],) if case.get("scenario") else ()
    diags = list(result.diagnostics) + validate_bundle(result.bundle, Config(preview=True, scenarios=scenarios))
    raised = {d.code for d in diags}
    missing = sorted(set(case["expect_codes"]) - raised)
    assert missing == [], f"{case_file.name}: not raised: {missing}; raised: {sorted(raised)}"


def test_there_are_broken_variants() -> None:
    assert BROKEN, "tests/fixtures/broken/ holds no cases"
