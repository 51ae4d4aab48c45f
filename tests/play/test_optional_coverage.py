"""Optional-rule coverage: each plug-in's optional_coverage.yaml matches the systems and
the code, and a selected optional rule the engine does not play is said out loud (PLAY-SMOKE-012
in ``hexproof smoke``, one ``optional_rules_not_applied`` event when a game starts)."""

from __future__ import annotations

import ast
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from conftest import REPO
from hexproof.cli import main
from model.bundle import load_bundle
from model.diagnostics import Severity
from model.bundle import load_system
from model.system import available_systems
from play.game import Game
from play.optional_coverage import table, unapplied
from play.plugin import STATUSES
from play.plugins import plugin_for
from play.smoke import smoke

SYSTEMS = available_systems()
SAMPLES = {"utah-beach": "gts-utah", "second-front-now": "sfn", "killing-ground": "tkg"}


def _system(sid: str) -> Any:
    diags: list[Any] = []
    system = load_system(sid, None, diags, {})
    assert system is not None, diags
    return system


def _bundle(name: str) -> Any:
    res = load_bundle(REPO / "scenarios" / name)
    assert res.bundle is not None, res.diagnostics
    return res.bundle


def _str_constants(path: Path) -> set[str]:
    return {n.value for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(n, ast.Constant) and isinstance(n.value, str)}


def _optional_rule_values(node: Any) -> set[str]:
    """Every ``optional_rule:`` value in a YAML data file."""
    out: set[str] = set()
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "optional_rule" and isinstance(v, str):
                out.add(v)
            out |= _optional_rule_values(v)
    elif isinstance(node, list):
        for v in node:
            out |= _optional_rule_values(v)
    return out


@pytest.mark.parametrize("sid", SYSTEMS)
def test_every_system_optional_rule_is_in_the_table(sid: str) -> None:
    system = _system(sid)
    cov = plugin_for(system).coverage
    assert set(cov) == set(system.optional_rules), f"{sid}: table and system optional_rules differ"
    for rid, c in cov.items():
        assert c.status in STATUSES, (rid, c.status)
        assert c.rule, f"{rid}: no rule case"
        if c.status not in ("applied", "scenario-data-only"):
            assert c.note, f"{rid}: {c.status} needs a note saying what is not played"


def _applied() -> list[tuple[str, str]]:
    return [(sid, rid) for sid, rules in table().items() for rid, c in rules.items()
            if c.status in ("applied", "partial")]


@pytest.mark.parametrize(("sid", "rid"), _applied())
def test_applied_rule_is_consulted_by_its_module(sid: str, rid: str) -> None:
    """An applied id is in its module's code, or is the ``optional_rule:`` of a data block that
    module reads (and the module names that block's key)."""
    c = table()[sid][rid]
    assert c.module, f"{sid} {rid}: applied without a module"
    path = REPO / c.module
    assert path.is_file(), c.module
    consts = _str_constants(path)
    if rid in consts:
        return
    assert c.data, f"{sid} {rid}: the id is not in {c.module} and no data file is named"
    raw = yaml.safe_load((REPO / c.data).read_text(encoding="utf-8"))
    assert rid in _optional_rule_values(raw), f"{sid} {rid}: no `optional_rule: {rid}` in {c.data}"


def test_sfn_optional_modules_are_the_ones_the_engine_builds() -> None:
    """Each SFN 15.x module marked applied is one of the classes the SFN procedures build, so the
    table cannot name a module that is never run."""
    from play.sfn.optional import rule_classes

    built = {Path(cls.__module__.replace(".", "/") + ".py").as_posix() for cls in rule_classes()}
    marked = {c.module for c in table()["sfn"].values() if c.module and "/optional/" in c.module}
    assert marked and marked <= built


def test_gts_344_switch_is_the_system_id() -> None:
    """The stragglers' 3.4.4 switch is the system's id (it was ``historical_drops``, which
    CORE-REF-009 rejects, so no valid scenario could select it)."""
    from play.gts.plugin import PLUGIN

    key = PLUGIN.defaults["stragglers"]["optional_344"]["optional_rule"]
    assert key == "Excl 3.4.4" and key in _system("gts-utah").optional_rules
    assert table()["gts"]["Excl 3.4.4"].status == "partial"


def test_partial_rule_selected_warns(tmp_path: Path) -> None:
    root = _copy(tmp_path, "utah-beach")
    (root / "scenarios" / "night-drop-344.yaml").write_text(
        "schema_version: 1\nid: night-drop-344\nname: 3.4.4\nextends: night-drop\n"
        "optional_rules: {Excl 3.4.4: true}\n", encoding="utf-8")
    game = root / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace(
        "scenarios/night-drop-playtest.yaml]", "scenarios/night-drop-playtest.yaml, scenarios/night-drop-344.yaml]"),
        encoding="utf-8")
    bundle = load_bundle(root).bundle
    assert bundle is not None
    (d,) = [d for d in smoke(bundle, "night-drop-344").diagnostics if d.code == "PLAY-SMOKE-012"]
    assert d.severity == Severity.WARNING and "applied only in part" in d.message and "drop-roll" in d.message


# --- PLAY-SMOKE-012 -------------------------------------------------------------------------


DECOY = ("# Night Drop with German Decoy Mines: an optional rule the engine does not play.\n"
         "schema_version: 1\nid: night-drop-decoys\nname: decoys\nextends: night-drop\n"
         "optional_rules: {Excl 18.7: true, Excl 18.5: true}\n")


@pytest.fixture
def utah_decoys(tmp_path: Path) -> Any:
    """A copy of the Utah sample with a variant selecting 18.5 (not applied) and 18.7 (applied)."""
    root = _copy(tmp_path, "utah-beach")
    (root / "scenarios" / "night-drop-decoys.yaml").write_text(DECOY, encoding="utf-8")
    game = root / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace(
        "scenarios/night-drop-playtest.yaml]", "scenarios/night-drop-playtest.yaml, scenarios/night-drop-decoys.yaml]"),
        encoding="utf-8")
    bundle = load_bundle(root).bundle
    assert bundle is not None
    return bundle


def test_variant_selecting_unapplied_rule_warns_located(utah_decoys: Any) -> None:
    rep = smoke(utah_decoys, "night-drop-decoys")
    found = [d for d in rep.diagnostics if d.code == "PLAY-SMOKE-012"]
    assert len(found) == 1 and rep.optional == 1  # 18.7 is applied: no finding for it
    d = found[0]
    assert d.severity == Severity.WARNING
    assert d.rule_case == "Excl 18.5" and "German Decoy Mines" in d.message and "not applied" in d.message
    assert d.location.file is not None and Path(d.location.file).name == "night-drop-decoys.yaml"
    text = DECOY.splitlines()
    assert d.location.line == 6 and d.location.column is not None
    assert text[d.location.line - 1][d.location.column - 1:].startswith("Excl 18.5")
    assert rep.row()["optional_not_applied"] == 1 and rep.other == 0


def test_base_scenario_without_the_selection_does_not_warn() -> None:
    rep = smoke(_bundle("utah-beach"), "night-drop")
    assert not [d for d in rep.diagnostics if d.code == "PLAY-SMOKE-012"]


@pytest.mark.parametrize("sid", ["calais-optional-rules", "calais-riga-odessa"])
def test_sfn_variants_with_applied_rules_do_not_warn(sid: str) -> None:
    bundle = _bundle("second-front-now")
    assert bundle.resolved(sid).optional_rules  # the variant does select optional rules
    rep = smoke(bundle, sid)
    assert not [d for d in rep.diagnostics if d.code == "PLAY-SMOKE-012"]


def _copy(tmp_path: Path, name: str) -> Path:
    dst = tmp_path / name
    shutil.copytree(REPO / "scenarios" / name, dst)
    return dst


def test_inherited_selection_is_located_in_the_base_file(tmp_path: Path) -> None:
    root = _copy(tmp_path, "second-front-now")
    (root / "scenarios" / "calais-six-sided.yaml").write_text(
        "schema_version: 1\nid: calais-six-sided\nname: six-sided dice\nextends: calais-landing\n"
        "optional_rules:\n  six_sided_dice: true\n", encoding="utf-8")
    (root / "scenarios" / "calais-six-sided-child.yaml").write_text(
        "schema_version: 1\nid: calais-six-sided-child\nname: child\nextends: calais-six-sided\n", encoding="utf-8")
    game = root / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace(
        "scenarios/calais-optional-rules.yaml]",
        "scenarios/calais-optional-rules.yaml, scenarios/calais-six-sided.yaml, scenarios/calais-six-sided-child.yaml]"),
        encoding="utf-8")
    bundle = load_bundle(root).bundle
    assert bundle is not None
    rep = smoke(bundle, "calais-six-sided-child")
    (d,) = [d for d in rep.diagnostics if d.code == "PLAY-SMOKE-012"]
    assert Path(d.location.file or "").name == "calais-six-sided.yaml" and d.location.line == 6
    assert d.rule_case == "SFN 15.10" and "decimal" in d.message


def test_unknown_and_switched_off_ids() -> None:
    bundle = _bundle("second-front-now")
    scen = bundle.resolved("calais-landing").model_copy(
        update={"optional_rules": {"great_storm": True, "six_sided_dice": False, "great_storms": True}})
    out = unapplied(bundle.system, scen)
    assert [(m.id, m.status) for m in out] == [("great_storm", "unknown")]
    assert "not an optional rule of system" in out[0].message


def test_partial_status_warns(monkeypatch: pytest.MonkeyPatch) -> None:
    from play import optional_coverage as oc

    bundle = _bundle("second-front-now")
    cov = dict(table()["sfn"])
    cov["great_storms"] = oc.Coverage("great_storms", "partial", "SFN 15.2", note="the storm never ends")
    from play.plugin import SystemPlugin
    from play.plugins import plugin_for as real

    plugin = real(bundle.system)
    fake = SystemPlugin(id=plugin.id, title=plugin.title, folder=plugin.folder, build=plugin.build)
    object.__setattr__(fake, "coverage", cov)  # the cached property's slot: this plug-in's table, edited
    monkeypatch.setattr("play.plugins.plugin_for", lambda system: fake)
    out = unapplied(bundle.system, bundle.resolved("calais-optional-rules"))
    assert [(m.id, m.status) for m in out] == [("great_storms", "partial")]
    assert "applied only in part: the storm never ends" in out[0].message


# --- the start notice (Play mode, scripted playtests) ---------------------------------------


def test_game_start_logs_the_notice_once(utah_decoys: Any) -> None:
    g = Game(utah_decoys, "night-drop-decoys")
    kinds = [e["type"] for e in g.log]
    assert kinds[0] == "start" and kinds[1] == "optional_rules_not_applied"
    assert kinds.count("optional_rules_not_applied") == 1
    assert g.log[1]["rules"] == ["Excl 18.5"] and "German Decoy Mines" in g.log[1]["message"]
    g.apply({"do": "next_phase"})
    assert [e["type"] for e in g.log].count("optional_rules_not_applied") == 1


def test_game_without_unapplied_selection_logs_nothing() -> None:
    g = Game(_bundle("second-front-now"), "calais-optional-rules")
    assert not [e for e in g.log if e["type"] == "optional_rules_not_applied"]


def test_editor_describes_the_notice() -> None:
    from editor.play.describe import describe, wording_for
    from play.plugins import DATA_ONLY

    shared = wording_for(DATA_ONLY)  # a shared event: every game's log words it the same
    assert shared.has_description("optional_rules_not_applied")
    line = describe({"type": "optional_rules_not_applied", "turn": 1, "phase": "x", "message": "Excl 18.7 (…)"}, shared)
    assert "NOT played" in line and "Excl 18.7" in line


# --- samples keep their exit status (warnings never fail a smoke run) -----------------------


@pytest.mark.parametrize("sample", sorted(SAMPLES))
def test_samples_smoke_all_variants_exit_zero(sample: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["smoke", str(REPO / "scenarios" / sample), "--all-variants"]) == 0
    out = capsys.readouterr().out
    assert any(line.startswith("scenario ") and line.split()[-1] == "optional" for line in out.splitlines())


def test_docs_table_matches_the_data() -> None:
    text = (REPO / "docs" / "play.md").read_text(encoding="utf-8")
    doc: dict[tuple[str, str], str] = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and cells[0] in table() and cells[1].startswith("`"):
            doc[(cells[0], cells[1].strip("`"))] = cells[3]
    data = {(sid, rid): c.status for sid, rules in table().items() for rid, c in rules.items()}
    assert doc == data


def test_playtest_cli_prints_the_notice(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _copy(tmp_path, "utah-beach")
    (root / "scenarios" / "night-drop-decoys.yaml").write_text(DECOY, encoding="utf-8")
    game = root / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace(
        "scenarios/night-drop-playtest.yaml]", "scenarios/night-drop-playtest.yaml, scenarios/night-drop-decoys.yaml]"),
        encoding="utf-8")
    script = tmp_path / "decoys.yaml"
    script.write_text("seed: 1\nbundle: utah-beach\nscenario: night-drop-decoys\nactions:\n- assert: [{turn: 1}]\n",
                      encoding="utf-8")
    assert main(["playtest", str(script)]) == 0  # a warning, not a failure
    out = capsys.readouterr().out
    assert "warning: optional rules not played: Excl 18.5 (German Decoy Mines)" in out and "passed" in out
    script.write_text(script.read_text(encoding="utf-8").replace("night-drop-decoys", "night-drop"), encoding="utf-8")
    assert main(["playtest", str(script)]) == 0
    assert "optional rules not played" not in capsys.readouterr().out
