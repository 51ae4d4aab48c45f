"""Every rule's pass/fail fixture cases (tests/fixtures/rules/<CODE>.yaml), and the meta-test
that every registered rule has both kinds of case and a complete docstring."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from fixture_edits import copy_and_edit
from model.bundle import load_bundle
from validators.config import Config
from validators.engine import INTERNAL_CODE, validate_bundle
from validators.registry import Registry, default_registry
from validators.rule import docstring_problems

from conftest import FIXTURES

RULE_FIXTURES = FIXTURES / "rules"


def _cases() -> list[Any]:
    params = []
    for path in sorted(RULE_FIXTURES.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        for i, case in enumerate(data.get("cases", [])):
            params.append(pytest.param(path.stem, case, id=f"{path.stem}[{i}] {case.get('name', '')}"))
    return params


@pytest.mark.parametrize(("code", "case"), _cases())
def test_rule_fixture(code: str, case: dict[str, Any], tmp_path: Path) -> None:
    rule = default_registry().get(code)
    assert rule is not None, f"fixture file {code}.yaml names no registered rule"
    assert case.get("expect") in ("pass", "fail"), "expect must be pass or fail"
    root = copy_and_edit(case["bundle"], case.get("edits", []), tmp_path)
    result = load_bundle(root)
    assert result.bundle is not None, [d.render() for d in result.diagnostics]
    errors = [d.render() for d in result.diagnostics if d.severity >= d.severity.ERROR]
    assert not errors, f"the edited bundle must load cleanly so the case tests the rule: {errors}"
    scenarios = (case["scenario"],) if case.get("scenario") else ()
    if scenarios:
        assert case["scenario"] in result.bundle.scenarios
    config = Config(select=(code,), preview=True, scenarios=scenarios, use_bundle_settings=False)
    diags = validate_bundle(result.bundle, config, Registry([rule]))
    crashes = [d.message for d in diags if d.code == INTERNAL_CODE]
    assert not crashes
    found = [d for d in diags if d.code == code]
    if case["expect"] == "fail":
        assert found, f"{code} did not report: {case.get('name')}"
        for d in found:  # findings must be located in a file of the bundle
            assert d.location.file, d.render()
    else:
        assert not found, "\n".join(d.render() for d in found)


def _fixture_expectations(code: str) -> set[str]:
    path = RULE_FIXTURES / f"{code}.yaml"
    if not path.exists():
        return set()
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return {str(c.get("expect")) for c in data.get("cases", [])}


@pytest.mark.parametrize("rule", default_registry().rules(), ids=lambda r: r.code)
def test_rule_has_pass_and_fail_cases(rule: Any) -> None:
    assert {"pass", "fail"} <= _fixture_expectations(rule.code), \
        f"{rule.code}: tests/fixtures/rules/{rule.code}.yaml needs at least one pass and one fail case"


@pytest.mark.parametrize("rule", default_registry().rules(), ids=lambda r: r.code)
def test_rule_docstring_complete(rule: Any) -> None:
    assert docstring_problems(rule) == []
    assert rule.rule_case, f"{rule.code} cites no rule case"


def test_every_fixture_file_names_a_rule() -> None:
    registry = default_registry()
    orphans = [p.stem for p in RULE_FIXTURES.glob("*.yaml") if p.stem not in registry]
    assert orphans == []
