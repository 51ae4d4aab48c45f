"""The rules engine: registry checks, selection, crash isolation, determinism, incremental
re-validation, reporters (text, JSON, SARIF) and the validate/rules CLI."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Iterable

import pytest

from conftest import FIXTURES, REPO
from fixture_edits import copy_and_edit
from hexproof.cli import main
from model.bundle import load_bundle
from model.diagnostics import Diagnostic, Severity
from validators.config import Config
from validators.context import RuleContext
from validators.docs import DOCS_DIR, generate
from validators.engine import INTERNAL_CODE, Validator, validate_bundle
from validators.registry import Registry, RegistryError, default_registry
from validators.report import render_json, render_sarif, render_text
from validators.rule import Rule

MINI = "tests/fixtures/bundles/mini"


class _Crash(Rule):
    """Crashes on purpose.

    Rule case: test
    Why: test
    Violating example: any
    Correct example: none
    """

    code = "TEST-CRASH-001"
    name = "crash"
    rule_case = "test"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        raise ZeroDivisionError("boom")


class _EverySetup(Rule):
    """Reports every setup line (to observe what the engine ran)."""

    code = "TEST-SETUP-001"
    name = "every-setup"
    rule_case = "test"
    severity = Severity.WARNING

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        assert ctx.scenario is not None
        for i, e in enumerate(ctx.scenario.setup):
            yield ctx.finding(self, f"unit {e.unit}", e, "hex", hexes=[e.hex] if e.hex else [])


class _Preview(_EverySetup):
    code = "TEST-PREV-001"
    name = "preview-one"
    status = "preview"


def _bundle(tmp_path: Path, edits: list | None = None):
    root = copy_and_edit(MINI, edits or [], tmp_path)
    return load_bundle(root).bundle


def test_registry_rejects_duplicate_and_malformed_codes() -> None:
    class Dup(_EverySetup):
        name = "dup"

    with pytest.raises(RegistryError):
        Registry([_EverySetup, Dup])

    class Bad(_EverySetup):
        code = "bad-code"

    with pytest.raises(RegistryError):
        Registry([Bad])


def test_default_registry_codes_are_unique_and_core_is_there() -> None:
    codes = [r.code for r in default_registry().rules()]
    assert len(codes) == len(set(codes))
    assert sum(c.startswith("CORE-") for c in codes) >= 15


def test_crashing_rule_becomes_internal_error(tmp_path: Path) -> None:
    bundle = _bundle(tmp_path)
    diags = validate_bundle(bundle, Config(), Registry([_Crash, _EverySetup]))
    internal = [d for d in diags if d.code == INTERNAL_CODE]
    assert len(internal) == 2  # once per scenario
    assert "TEST-CRASH-001" in internal[0].message and "ZeroDivisionError" in internal[0].message
    assert any(d.code == "TEST-SETUP-001" for d in diags)  # the other rule still ran


def test_finding_is_located_with_labels_and_scenario(tmp_path: Path) -> None:
    bundle = _bundle(tmp_path)
    diags = validate_bundle(bundle, Config(), Registry([_EverySetup]))
    base = [d for d in diags if d.location.scenario == "base"]
    assert len(base) == 1
    loc = base[0].location
    assert loc.file and loc.file.endswith("scenarios/base.yaml") and loc.line == 6 and loc.hexes == ("0402",)
    assert {d.location.scenario for d in diags} == {"base", "variant"}


def test_select_ignore_and_preview(tmp_path: Path) -> None:
    bundle = _bundle(tmp_path)
    reg = Registry([_EverySetup, _Preview])
    codes = lambda cfg: {d.code for d in validate_bundle(bundle, cfg, reg)}  # noqa: E731
    assert codes(Config()) == {"TEST-SETUP-001"}
    assert codes(Config(preview=True)) == {"TEST-SETUP-001", "TEST-PREV-001"}
    assert codes(Config.make(select=["TEST-PREV-001"])) == {"TEST-PREV-001"}  # explicit opt-in
    assert codes(Config.make(ignore=["TEST-SETUP"], preview=True)) == {"TEST-PREV-001"}
    assert codes(Config.make(select=["every-setup"])) == {"TEST-SETUP-001"}


def test_bundle_settings_and_scenario_suppress(tmp_path: Path) -> None:
    bundle = _bundle(tmp_path, [
        {"file": "game.yaml", "path": "validate", "op": "set", "value": {"ignore": ["TEST-SETUP"]}},
    ])
    assert bundle.game.validation is not None
    assert validate_bundle(bundle, Config(), Registry([_EverySetup])) == []
    bundle = _bundle(tmp_path / "b", [
        {"file": "scenarios/base.yaml", "path": "suppress", "op": "set", "value": ["TEST-SETUP-001"]},
    ])
    diags = validate_bundle(bundle, Config(), Registry([_EverySetup]))
    # base suppresses it; the variant inherits suppress through extends
    assert [d.location.scenario for d in diags] == []


def test_systems_filter(tmp_path: Path) -> None:
    class OtherSystem(_EverySetup):
        code = "TEST-SYS-001"
        name = "other-system"
        systems = ("gts",)

    bundle = _bundle(tmp_path)
    assert validate_bundle(bundle, Config(), Registry([OtherSystem])) == []


def test_incremental_equals_full(tmp_path: Path) -> None:
    bundle = _bundle(tmp_path)
    reg = default_registry()
    v = Validator(bundle, Config(), reg)
    v.run()
    # Edit the base scenario in memory: set up a unit that is also scheduled.
    from model.scenario import SetupEntry

    base = bundle.scenarios["base"]
    entry = SetupEntry.model_validate({"unit": "a1", "hex": "0203"}, context=bundle.default_map.context())
    base.setup.append(entry)
    runs_before = v.runs
    v.invalidate(["base"])
    incremental = v.run()
    full = Validator(bundle, Config(), reg).run()
    assert incremental == full
    assert any(d.code == "CORE-SCHED-001" for d in incremental)
    scenario_rules = sum(1 for r in v.active_rules() if r.scope == "scenario")
    bundle_rules = sum(1 for r in v.active_rules() if r.scope == "bundle")
    # base and its variant rerun, plus bundle-scope rules; nothing else.
    assert v.runs - runs_before == 2 * scenario_rules + bundle_rules


def test_incremental_skips_unaffected_scenarios(tmp_path: Path) -> None:
    bundle = _bundle(tmp_path)
    v = Validator(bundle, Config(), Registry([_EverySetup]))
    v.run()
    before = v.runs
    v.invalidate(["variant"])
    v.run()
    assert v.runs - before == 1


def test_output_is_deterministic(tmp_path: Path) -> None:
    bundle = _bundle(tmp_path, [
        {"file": "scenarios/base.yaml", "path": "setup", "op": "append", "value": {"unit": "zz9", "hex": "0102"}},
    ])
    a = validate_bundle(bundle, Config())
    b = validate_bundle(bundle, Config(), Registry(list(reversed(default_registry().rules()))))
    assert a == b and a


def test_text_report_has_counts(tmp_path: Path) -> None:
    bundle = _bundle(tmp_path)
    text = render_text(validate_bundle(bundle, Config(), Registry([_EverySetup])))
    # x1 is set up in the base and inherited by the variant: one finding, not two.
    assert "warning TEST-SETUP-001: unit x1 [test] (scenario base; inherited by variant)" in text
    assert text.rstrip().endswith("2 findings: 0 errors, 2 warnings, 0 infos")


class _WithPolicy(_EverySetup):
    """Reports every setup line under a named policy."""

    code = "TEST-POLICY-001"
    name = "with-policy"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        assert ctx.scenario is not None
        for e in ctx.scenario.setup:
            yield ctx.finding(self, f"unit {e.unit}", e, "hex", policy="test-policy")


def test_every_format_shows_the_policy(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Text shows the named policy a finding applied, as JSON and SARIF do (issue #17 item 5)."""
    bundle = _bundle(tmp_path)
    reg = Registry([_WithPolicy])
    diags = validate_bundle(bundle, Config(), reg)
    assert diags and all(d.policy == "test-policy" for d in diags)
    for line in render_text(diags).splitlines()[:-1]:
        assert re.search(r": unit \w+ \[test\] \(policy test-policy\) \(scenario (base|variant)(; inherited by variant)?\)$",
                         line), line
    assert {d["policy"] for d in json.loads(render_json(diags))["diagnostics"]} == {"test-policy"}
    sarif = json.loads(render_sarif(diags, reg.rules()))
    assert {r["properties"]["policy"] for r in sarif["runs"][0]["results"]} == {"test-policy"}
    # A finding without a policy prints no policy.
    assert "(policy" not in render_text(validate_bundle(bundle, Config(), Registry([_EverySetup])))


def test_validate_cli_text_shows_policy(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The CLI's text report: CORE-STACK-001 on a two-unit stack of unknown steps applies
    policy unknown-steps-not-counted, and says so."""
    broken = copy_and_edit(MINI, [
        {"file": "system.yaml", "path": "stacking", "op": "set", "value": {"max_steps": 3}},
        {"file": "scenarios/base.yaml", "path": "setup", "op": "append", "value": {"unit": "a1", "hex": "0402"}},
    ], tmp_path)
    capsys.readouterr()
    assert main(["validate", str(broken), "--select", "CORE-STACK-001"]) == 0  # an info only
    out = capsys.readouterr().out
    assert "info CORE-STACK-001:" in out and "(policy unknown-steps-not-counted) (scenario base)" in out


def test_sarif_structure(tmp_path: Path) -> None:
    bundle = _bundle(tmp_path)
    reg = Registry([_EverySetup])
    log = json.loads(render_sarif(validate_bundle(bundle, Config(), reg), reg.rules()))
    assert log["version"] == "2.1.0" and "$schema" in log
    run = log["runs"][0]
    driver = run["tool"]["driver"]
    assert driver["name"] == "hexproof"
    assert [r["id"] for r in driver["rules"]] == ["TEST-SETUP-001"]
    assert driver["rules"][0]["help"]["text"].startswith("Reports every setup line")
    for res in run["results"]:
        assert {"ruleId", "level", "message"} <= set(res)
        assert res["level"] in ("error", "warning", "note", "none")
        assert driver["rules"][res["ruleIndex"]]["id"] == res["ruleId"]
        phys = res["locations"][0]["physicalLocation"]
        assert phys["artifactLocation"]["uri"].endswith(".yaml")
        assert phys["region"]["startLine"] >= 1 and phys["region"]["startColumn"] >= 1


def test_cli_exit_codes_and_formats(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    clean = str(REPO / MINI)
    assert main(["validate", clean]) == 0
    broken = copy_and_edit(MINI, [
        {"file": "scenarios/base.yaml", "path": "setup.0.hex", "op": "set", "value": "0102"},
        {"file": "scenarios/base.yaml", "path": "suppress", "op": "set", "value": ["CORE-NOPE"]},
    ], tmp_path)
    capsys.readouterr()
    assert main(["validate", str(broken)]) == 1
    out = capsys.readouterr().out
    assert "error CORE-HEX-003" in out and "warning CORE-CFG-001" in out
    assert main(["validate", str(broken), "--ignore", "CORE-HEX"]) == 0
    assert main(["validate", str(broken), "--ignore", "CORE-HEX", "--fail-on", "warning"]) == 1
    assert main(["validate", str(broken), "--select", "CORE-REF"]) == 0
    capsys.readouterr()
    assert main(["validate", str(broken), "--format", "json", "--scenario", "variant"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert {d["location"]["scenario"] for d in data["diagnostics"]} == {"variant"}
    out_file = tmp_path / "report.sarif"
    assert main(["validate", str(broken), "--format", "sarif", "--output", str(out_file)]) == 1
    assert json.loads(out_file.read_text())["runs"][0]["results"]
    assert main(["validate", str(tmp_path / "nowhere")]) == 2


def test_rules_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    assert "CORE-HEX-003" in out and "placement-hex-passable" in out
    assert main(["rules", "CORE-HEX-003"]) == 0
    doc = capsys.readouterr().out
    assert "## Violating example" in doc and "impassable-terrain" in doc
    assert main(["rules", "NOPE-X-001"]) == 2


def test_committed_docs_match_docstrings() -> None:
    pages = generate()
    on_disk = {p.name: p.read_text(encoding="utf-8") for p in DOCS_DIR.glob("*.md")}
    stale = sorted(n for n in pages if on_disk.get(n) != pages[n]) + sorted(set(on_disk) - set(pages))
    assert stale == [], "run `python -m validators.docs` to regenerate docs/rules"


def test_schedule_findings_speak_turn_labels(tmp_path: Path) -> None:
    """Issue #19: "CORE-SCHED-002 speaks of internal turn numbers, 'turns 2–5', not the turn labels"."""
    root = copy_and_edit("tests/fixtures/bundles/mini",
                         [{"file": "scenarios/base.yaml", "path": "schedule.0.turn", "op": "set", "value": 7}], tmp_path)
    bundle = load_bundle(root).bundle
    assert bundle is not None
    labels = {t.n: t.label for t in bundle.system.calendar.all_turns}
    diags = [d for d in validate_bundle(bundle, Config(select=("CORE-SCHED-002",), use_bundle_settings=False))
             if d.location.scenario == "base"]
    assert [d.message for d in diags] == [f"{labels[7]} lies outside the scenario's turns, "
                                          f"{labels[1]} to {labels[5]}"]


def test_schedule_and_victory_turns_share_the_scenario_span(tmp_path: Path) -> None:
    """CORE-SCHED-002 and CORE-VIC-002 read the scenario's span from one place,
    ``RuleContext.scenario_turns``: a first turn that is no calendar label leaves the span open
    at that end in both messages ("the first turn to …"), and SCHED-002 names the bad label."""
    root = copy_and_edit("tests/fixtures/bundles/mini",
                         [{"file": "scenarios/base.yaml", "path": "turns.first", "op": "set", "value": "Nowhere"},
                          {"file": "scenarios/base.yaml", "path": "schedule.0.turn", "op": "set", "value": 7},
                          {"file": "scenarios/base.yaml", "path": "victory", "op": "set",
                           "value": [{"side": "a", "text": "Hold on to turn 7", "turn": 7}]}], tmp_path)
    bundle = load_bundle(root).bundle
    assert bundle is not None
    labels = {t.n: t.label for t in bundle.system.calendar.all_turns}
    diags = [d for d in validate_bundle(bundle, Config(select=("CORE-SCHED-002", "CORE-VIC-002"),
                                                       use_bundle_settings=False))
             if d.location.scenario == "base"]
    span = f"the first turn to {labels[5]}"
    assert sorted(d.message for d in diags) == sorted([
        "scenario first turn 'Nowhere' is not a turn of the calendar",
        f"{labels[7]} lies outside the scenario's turns, {span}",
        f"victory condition turn {labels[7]} lies outside the scenario's turns, {span}"])


def test_a_finding_a_variant_inherits_is_listed_once_at_the_bases_line(tmp_path: Path) -> None:
    """Issue #19: "A variant inherits its base's findings, and each is then listed again per
    variant". It is listed once, at the base's line, the variant a related location (its
    ``extends:`` line), in every format."""
    root = copy_and_edit("tests/fixtures/bundles/mini",
                         [{"file": "scenarios/base.yaml", "path": "setup.0.hex", "op": "set", "value": "9999"}], tmp_path)
    bundle = load_bundle(root).bundle
    assert bundle is not None
    found = [d for d in validate_bundle(bundle, Config(select=("CORE-HEX-001",), use_bundle_settings=False))]
    assert len(found) == 1
    (d,) = found
    assert d.location.scenario == "base" and d.location.file and d.location.file.endswith("base.yaml")
    assert [(r.scenario, r.path) for r in d.related] == [("variant", "$.extends")]
    assert render_text(found).splitlines()[0].endswith("(scenario base; inherited by variant)")
    assert json.loads(render_sarif(found))["runs"][0]["results"][0]["relatedLocations"][0]["physicalLocation"][
        "artifactLocation"]["uri"].endswith("variant.yaml")


def test_a_variant_finding_of_its_own_is_not_merged(tmp_path: Path) -> None:
    root = copy_and_edit("tests/fixtures/bundles/mini",
                         [{"file": "scenarios/variant.yaml", "path": "overrides.setup_add.0.hex", "op": "set",
                           "value": "9999"}], tmp_path)
    bundle = load_bundle(root).bundle
    assert bundle is not None
    found = validate_bundle(bundle, Config(select=("CORE-HEX-001",), use_bundle_settings=False))
    assert [(d.location.scenario, d.related) for d in found] == [("variant", ())]


@pytest.mark.parametrize(("n", "expected"), [(1, "turn 1 (Night 5 June)"), (6, "turn 6 (1500 6 June)")])
def test_turn_text_names_the_printed_turn(n: int, expected: str) -> None:
    bundle = load_bundle(REPO / "scenarios" / "utah-beach").bundle
    assert bundle is not None
    assert RuleContext(bundle).turn_text(n) == expected
