"""Run one rule on one named case of its fixture file (tests/fixtures/rules/<CODE>.yaml) and
return its findings, so a test can quote the rule case and check what the rule said."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from fixture_edits import copy_and_edit
from model.bundle import load_bundle
from model.diagnostics import Diagnostic
from validators.config import Config
from validators.engine import validate_bundle
from validators.registry import Registry, default_registry

RULE_FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "rules"


def fixture_case(code: str, name: str) -> dict[str, Any]:
    data = yaml.safe_load((RULE_FIXTURES / f"{code}.yaml").read_text(encoding="utf-8")) or {}
    found = [c for c in data.get("cases", []) if c.get("name") == name]
    assert len(found) == 1, f"{code}.yaml has no single case named {name!r}"
    return found[0]


def run_case(code: str, name: str, tmp_path: Path) -> list[Diagnostic]:
    """The findings of rule ``code`` on its fixture case ``name``."""
    case = fixture_case(code, name)
    rule = default_registry().get(code)
    assert rule is not None
    root = copy_and_edit(case["bundle"], case.get("edits", []), tmp_path)
    result = load_bundle(root)
    assert result.bundle is not None
    scenarios = (case["scenario"],) if case.get("scenario") else ()
    config = Config(select=(code,), preview=True, scenarios=scenarios, use_bundle_settings=False)
    return [d for d in validate_bundle(result.bundle, config, Registry([rule])) if d.code == code]
