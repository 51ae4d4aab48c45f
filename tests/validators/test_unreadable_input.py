"""Issue #14 part 6: a file that cannot be read is unreadable input (exit 2), reported once at
file:line:col, and validation does not add findings about the data that could not be read."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FIXTURES, REPO
from hexproof.cli import main
from model.bundle import load_bundle
from validators.context import RuleContext, unreadable_subjects
from validators.engine import validate_path

MINI = FIXTURES / "bundles" / "mini"
UTAH = REPO / "scenarios" / "utah-beach"
LOCATED = re.compile(r"^(?P<file>\S+):(?P<line>\d+):(?P<col>\d+): error (?P<code>LOAD-YAML-\d{3}):", re.M)

# One syntax error per file kind of the mini bundle, and where PyYAML reports it.
BROKEN = {
    "game.yaml": ("schema_version: 1\nid: mini\nname: [Mini bundle\n", 4, 1),
    "maps/mini.yaml": ("schema_version: 1\nid: mini\ngrid: {orientation: flat\n", 4, 1),
    "counters.yaml": ("schema_version: 1\ncounters:\n- {id: a1, name: [1st Inf\n", 4, 1),
    "scenarios/base.yaml": ("schema_version: 1\nid: base\n  name: Base: scenario\n", 3, 7),
}


def _bundle(tmp_path: Path, src: Path = MINI) -> Path:
    root = tmp_path / "b"
    shutil.copytree(src, root)
    return root


def _report(root: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, str]:
    code = main(["validate", str(root), *extra])
    return code, capsys.readouterr().out


@pytest.mark.parametrize("rel", [r for r in BROKEN if r != "counters.yaml"])
def test_syntax_error_in_any_file_is_exit_2_reported_once(rel: str, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    root = _bundle(tmp_path)
    text, line, col = BROKEN[rel]
    (root / rel).write_text(text, encoding="utf-8")
    code, out = _report(root, capsys)
    assert code == 2, out
    hits = LOCATED.findall(out)
    assert len(hits) == 1, out
    file, got_line, got_col, err = hits[0]
    assert file.endswith(rel) and (int(got_line), int(got_col)) == (line, col) and err == "LOAD-YAML-001"
    # Nothing else is an error: no cascade about the scenario, counters or map that is missing.
    assert "1 finding: 1 error" in out, out


def test_counters_syntax_error_by_subprocess_has_no_reference_cascade(tmp_path: Path) -> None:
    """The end-to-end case from the issue, through ``python -m hexproof`` as a user runs it."""
    root = _bundle(tmp_path)
    (root / "counters.yaml").write_text(BROKEN["counters.yaml"][0], encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "hexproof", "validate", str(root)],
                          capture_output=True, text=True, cwd=REPO, timeout=300)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 2, out
    assert "Traceback" not in out
    assert [m.group("file").endswith("counters.yaml") and (m.group("line"), m.group("col")) == ("4", "1")
            for m in LOCATED.finditer(proc.stdout)] == [True], out
    assert "CORE-REF" not in out and "1 finding: 1 error" in out, out


def test_counters_syntax_error_in_a_real_sample(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Utah Beach used to add 266 findings (CORE-REF-001, GTS-UNIT-001, …) to one syntax error."""
    root = _bundle(tmp_path, UTAH)
    (root / "counters.yaml").write_text(BROKEN["counters.yaml"][0], encoding="utf-8")
    code, out = _report(root, capsys)
    assert code == 2
    assert len(LOCATED.findall(out)) == 1 and "1 finding: 1 error" in out, out


def test_findings_about_readable_data_are_still_reported(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """Only rules that read the lost counters go quiet: a hex off the map is still an error."""
    root = _bundle(tmp_path)
    base = root / "scenarios" / "base.yaml"
    base.write_text(base.read_text(encoding="utf-8").replace("'0402'", "'9999'"), encoding="utf-8")
    (root / "counters.yaml").write_text(BROKEN["counters.yaml"][0], encoding="utf-8")
    code, out = _report(root, capsys)
    assert code == 2
    assert "CORE-HEX-001" in out and "CORE-REF" not in out, out


def test_unreadable_base_scenario_does_not_cascade_into_its_variant(tmp_path: Path) -> None:
    root = _bundle(tmp_path)
    (root / "scenarios" / "base.yaml").write_text(BROKEN["scenarios/base.yaml"][0], encoding="utf-8")
    result = load_bundle(root)
    assert result.bundle is not None and result.unreadable_files == {"scenarios/base.yaml"}
    assert result.bundle.unreadable == {"scenarios/base.yaml"}
    diags, unreadable = validate_path(str(root))
    assert unreadable
    assert [d.code for d in diags] == ["LOAD-YAML-001"], [d.render() for d in diags]


def test_unknown_base_is_still_an_error_when_every_file_reads(tmp_path: Path) -> None:
    """The suppression is for unreadable files only: a plain typo in ``extends`` is reported."""
    root = _bundle(tmp_path)
    var = root / "scenarios" / "variant.yaml"
    var.write_text(var.read_text(encoding="utf-8").replace("extends: base", "extends: nobase"), encoding="utf-8")
    diags, unreadable = validate_path(str(root))
    assert not unreadable
    assert "LOAD-REF-003" in {d.code for d in diags}


def test_scenario_on_an_unreadable_second_map_is_skipped_not_misread(tmp_path: Path) -> None:
    """With two maps, a broken one leaves the bundle loadable; a scenario on it is not read
    with the other map's labels (that would invent label errors) and gets no findings."""
    root = _bundle(tmp_path)
    (root / "maps" / "other.yaml").write_text(BROKEN["maps/mini.yaml"][0], encoding="utf-8")
    game = root / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("maps: [maps/mini.yaml]",
                                                             "maps: [maps/mini.yaml, maps/other.yaml]"),
                    encoding="utf-8")
    (root / "scenarios" / "elsewhere.yaml").write_text(
        "schema_version: 1\nid: elsewhere\nname: On the other map\nmap: other\nturns: {first: 1, last: 2}\n"
        "setup:\n- {unit: x1, hex: 'Q-99'}\n", encoding="utf-8")
    game.write_text(game.read_text(encoding="utf-8").replace(
        "scenarios/variant.yaml]", "scenarios/variant.yaml, scenarios/elsewhere.yaml]"), encoding="utf-8")
    result = load_bundle(root)
    assert result.bundle is not None
    assert result.unreadable_files == {"maps/other.yaml", "scenarios/elsewhere.yaml"}
    assert "elsewhere" not in result.bundle.scenarios
    diags, unreadable = validate_path(str(root))
    assert unreadable
    assert [(d.code, Path(d.location.file or "").name) for d in diags] == [("LOAD-YAML-001", "other.yaml")], \
        [d.render() for d in diags]


def test_duplicate_key_is_unreadable_input_but_the_file_still_validates(tmp_path: Path) -> None:
    """LOAD-YAML-002 makes the input unreadable (exit 2) but the file's data did load, so the
    rules still judge it."""
    root = _bundle(tmp_path)
    base = root / "scenarios" / "base.yaml"
    base.write_text(base.read_text(encoding="utf-8").replace("'0402'", "'9999'") + "name: Again\n",
                    encoding="utf-8")
    result = load_bundle(root)
    assert result.unreadable_files == set() and result.unreadable_input
    diags, unreadable = validate_path(str(root))
    assert unreadable
    assert {"LOAD-YAML-002", "CORE-HEX-001"} <= {d.code for d in diags}


def test_clean_bundle_is_not_unreadable() -> None:
    result = load_bundle(MINI)
    assert result.bundle is not None and result.unreadable_files == set() and not result.unreadable_input
    assert unreadable_subjects(result.bundle) == frozenset()
    ctx = RuleContext(result.bundle)
    ctx.track_reads()
    assert ctx.bundle is result.bundle  # nothing unreadable: rules see the bundle itself


def test_read_recorder_notes_counter_reads(tmp_path: Path) -> None:
    root = _bundle(tmp_path)
    (root / "counters.yaml").write_text(BROKEN["counters.yaml"][0], encoding="utf-8")
    bundle = load_bundle(root).bundle
    assert bundle is not None and unreadable_subjects(bundle) == {"counters"}
    ctx = RuleContext(bundle)
    ctx.track_reads()
    _ = ctx.bundle.maps, ctx.system
    assert not ctx.read_lost_data()
    _ = ctx.counters
    assert ctx.read_lost_data()
    ctx.reads.clear()
    _ = ctx.counters  # memoised, and still noted on every read
    assert ctx.read_lost_data()


def test_a_counter_manifest_its_schema_refuses_has_no_reference_cascade(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """Issue #19: a counter with ``steps: x`` refuses the whole manifest (located at the value);
    the rules that read the absent counters stay quiet instead of reporting every unit missing."""
    root = _bundle(tmp_path)
    path = root / "counters.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("side: axis,", "side: axis, steps: x,"), encoding="utf-8")
    code, out = _report(root, capsys)
    assert code == 1, out
    assert re.match(r"^\S+counters\.yaml:4:\d+: error LOAD-SCHEMA-001: steps: ", out), out
    assert "CORE-REF" not in out and "1 finding: 1 error" in out, out
