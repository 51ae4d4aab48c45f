"""``hexproof validate`` refuses selectors and scenario ids that name nothing (issue #19: "`--select
NOPE-999` exits 0 in silence"): a typo must be a usage error (exit 2), never a clean run."""

from __future__ import annotations

import pytest

from conftest import REPO
from hexproof.cli import main

UTAH = str(REPO / "scenarios" / "utah-beach")


@pytest.mark.parametrize("option", ["--select", "--ignore"])
def test_a_selector_that_names_no_rule_is_a_usage_error(option: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", UTAH, option, "CORE,NOPE-999"]) == 2
    err = capsys.readouterr().err
    assert f"{option} NOPE-999" in err and "hexproof rules" in err
    assert "CORE:" not in err  # the known key is not reported


@pytest.mark.parametrize("key", ["CORE-REF", "core-ref-001", "stacking", "unit-reference-resolves"])
def test_codes_prefixes_groups_and_names_are_known(key: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", UTAH, "--select", key]) in (0, 1)
    assert "no rule has this code" not in capsys.readouterr().err


def test_a_scenario_that_is_not_in_the_bundle_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", UTAH, "--scenario", "night-drop", "--scenario", "nope"]) == 2
    err = capsys.readouterr().err
    assert "--scenario nope: no such scenario" in err and "night-drop" in err.split("known:")[1]
    assert "--scenario night-drop:" not in err
