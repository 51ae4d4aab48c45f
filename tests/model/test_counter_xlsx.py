"""Counter manifests through XLSX (and the strict CSV import beside it): every sample round-trips
with `hexproof diff` saying "no differences", bad cells are refused file:row:column with the
bundle untouched on disk, and random counters survive both formats."""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import openpyxl
import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import FIXTURES, REPO
from hexproof.cli import main
from model.bundle import load_bundle
from model.counter_changes import plan_import
from model.counters import Counter, CounterSide
from model.diff import diff_bundles
from model.formats.counter_table import export_csv, import_csv, read_header
from model.formats.counter_xlsx import export_xlsx, import_xlsx, read_xlsx_header
from model.system import GameSystem

MINI = FIXTURES / "bundles" / "mini"
SAMPLES = sorted(p.parent for p in (REPO / "scenarios").glob("*/game.yaml"))


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _system(name: str) -> GameSystem:
    b = load_bundle(REPO / "scenarios" / name).bundle
    assert b is not None
    return b.system


# --- every sample: export → import → no differences ----------------------------------------------

def test_every_sample_folder_is_round_tripped() -> None:
    """Issue #18: the XLSX round trip runs "for every sample in scenarios/": each folder there
    is a bundle the glob above finds (none is skipped by a renamed or missing game.yaml)."""
    folders = sorted(p for p in (REPO / "scenarios").iterdir() if p.is_dir())
    assert folders and SAMPLES == folders


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_sample_round_trips_through_xlsx_with_no_differences(sample: Path, tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / sample.name
    shutil.copytree(sample, root)
    before = _files(root)
    sheet = tmp_path / "counters.xlsx"
    assert main(["counters", "export", str(root), "--output", str(sheet)]) == 0
    assert zipfile.is_zipfile(sheet)
    # The sheet is a real workbook with the CSV's columns in row 1.
    original = load_bundle(sample).bundle
    assert original is not None
    assert read_xlsx_header(sheet.read_bytes()) == export_csv(original.counters, original.system).splitlines()[0].split(",")
    capsys.readouterr()
    assert main(["counters", "import", str(root), str(sheet)]) == 0
    assert "0 added, 0 changed, 0 removed" in capsys.readouterr().out
    again = load_bundle(root).bundle
    assert again is not None
    assert diff_bundles(original, again) == []          # what `hexproof diff` reports
    assert again.counters == original.counters           # every field, not only those diff compares
    assert _files(root) == before                        # nothing to write, so nothing written
    assert main(["diff", str(sample), str(root)]) == 0
    assert capsys.readouterr().out.strip() == "no differences"


def test_xlsx_round_trip_via_subprocess(tmp_path: Path) -> None:
    root = tmp_path / "sfn"
    shutil.copytree(REPO / "scenarios" / "second-front-now", root)
    sheet = tmp_path / "c.xlsx"
    run = [sys.executable, "-m", "hexproof"]
    assert subprocess.run(run + ["counters", "export", str(root), "--format", "xlsx", "--output", str(sheet)],
                          cwd=REPO, capture_output=True).returncode == 0
    wb = openpyxl.load_workbook(sheet)
    ws = wb["counters"]
    name_col = [c.value for c in ws[1]].index("name") + 1
    ws.cell(2, name_col).value = "Renamed in Excel"
    wb.save(sheet)
    dry = subprocess.run(run + ["counters", "import", str(root), str(sheet), "--dry-run"], cwd=REPO,
                         capture_output=True, text=True)
    assert dry.returncode == 0 and "1 changed" in dry.stdout and "Renamed in Excel" in dry.stdout
    done = subprocess.run(run + ["counters", "import", str(root), str(sheet)], cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    diff = subprocess.run(run + ["diff", str(REPO / "scenarios" / "second-front-now"), str(root)], cwd=REPO,
                          capture_output=True, text=True)
    assert "name 10th SS Panzer Division → Renamed in Excel" in diff.stdout and "1 change(s)" in diff.stdout
    # The save patched one line of counters.yaml and left every other file alone.
    source = REPO / "scenarios" / "second-front-now"
    changed = {rel for rel, data in _files(root).items() if (source / rel).read_bytes() != data}
    assert changed == {"counters.yaml"}
    old_lines = (source / "counters.yaml").read_text().splitlines()
    new_lines = (root / "counters.yaml").read_text().splitlines()
    assert len(old_lines) == len(new_lines) and sum(a != b for a, b in zip(old_lines, new_lines)) == 1


# --- bad cells: refused where they are, the bundle untouched ------------------------------------------

def _bad_workbook(path: Path) -> None:
    """A sheet with one problem per kind, in an SFN bundle's layout (attack/defense are ``type: int``)."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "counters"
    ws.append(["id", "name", "side", "category", "steps", "front.attack", "front.defense", "illustrative"])
    ws.append(["ok-1", "Good unit", "allied", "armor", 2, 5, "unknown", None])        # row 2: fine
    ws.append(["bad-side", "Martian corps", "martians", "armor", 2, 5, 4, None])      # row 3: C
    ws.append(["bad-steps", "X", "allied", "armor", "x", 5, 4, None])                 # row 4: E
    ws.append(["bad-attack", "Y", "german", "infantry", 1, "abc", 3, None])           # row 5: F
    ws.append(["ok-1", "Dup", "german", "infantry", 1, 2, 3, None])                   # row 6: A (duplicate)
    ws.append([None, "No id", "german", "infantry", 1, 2, 3, None])                   # row 7: A (empty)
    ws.append(["formula", "=1+1", "german", "infantry", 1, 2, 3, None])               # row 8: B (formula)
    ws.append([])                                                                     # row 9: blank, skipped
    ws.append(["two-bad", "Z", "martians", "armor", 1, "lots", 3, "maybe"])           # row 10: C, F and H
    wb.save(path)


def test_bad_xlsx_is_refused_with_located_messages_and_the_bundle_is_unchanged(tmp_path: Path,
                                                                                capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "sfn"
    shutil.copytree(REPO / "scenarios" / "second-front-now", root)
    before = _files(root)
    sheet = tmp_path / "bad.xlsx"
    _bad_workbook(sheet)
    assert main(["counters", "import", str(root), str(sheet)]) == 1
    err = capsys.readouterr().err
    located = sorted(line.split(": rejected: ")[0].removeprefix(f"{sheet}:") for line in err.splitlines()
                     if ": rejected: " in line)
    assert located == sorted(["3:C", "4:E", "5:F", "6:A", "7:A", "8:B", "10:C", "10:F", "10:H"])
    assert f"{sheet}:3:C: rejected: side: 'martians' is not a side of Second Front Now (allied, german)" in err
    assert f"{sheet}:4:E: rejected: steps: 'x' is not a whole number" in err
    assert f"{sheet}:5:F: rejected: front.attack: 'abc' is not a number or the word 'unknown'" in err
    assert f"{sheet}:6:A: rejected: duplicate id 'ok-1': row 2 has it too" in err
    assert f"{sheet}:7:A: rejected: missing id" in err
    assert f"{sheet}:8:B: rejected: name: holds a formula" in err
    assert "nothing written" in err
    assert _files(root) == before  # byte for byte, and no new file (journal, temp) left behind


def test_located_messages_use_cell_numbers_for_csv(tmp_path: Path) -> None:
    text = ("id,name,side,category,steps,front.tq\n"
            "a,Good,allied,infantry,1,3\n"
            "b,Martian,martians,infantry,x,abc\n"
            ",Nameless,allied,infantry,1,3\n")
    result = import_csv(text, system=_system("utah-beach"))
    assert [(r.where("c.csv"), r.reason.split(":")[0]) for r in result.rejected] == [
        ("c.csv:3:3", "side"), ("c.csv:3:5", "steps"), ("c.csv:3:6", "front.tq"), ("c.csv:4:1", "missing id")]
    assert not result.ok


def test_csv_header_is_parsed_by_the_csv_module() -> None:
    text = '"Unit, full name",id,side,category\n"1st Inf, A Coy",a1,allied,inf\n'
    assert read_header(text) == ["Unit, full name", "id", "side", "category"]
    result = import_csv(text, {"Unit, full name": "name"})
    assert result.ok and result.counters[0].name == "1st Inf, A Coy"


def test_header_problems_are_reported_once() -> None:
    result = import_csv("id,name,side,name\na,b,allied,c\nd,e,allied,f\n")
    assert [(r.where("c.csv"), r.reason) for r in result.rejected] == [
        ("c.csv:1:4", "column 'name' appears twice (also column 2)"),
        ("c.csv:1", "no 'category' column: every counter needs one (name a column 'category', or map one of yours "
                   "to it)")]


def test_unreadable_workbooks_are_refused_whole() -> None:
    assert import_xlsx(b"id,name\n").rejected[0].where("x.xlsx") == "x.xlsx"
    assert "not an XLSX workbook" in import_xlsx(b"id,name\n").rejected[0].reason
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("xl/worksheets/sheet1.xml", b"\0" * (64 << 20))  # 64 MiB of zeros in ~64 KiB
    rej = import_xlsx(buf.getvalue()).rejected
    assert len(rej) == 1 and "times larger than it is stored" in rej[0].reason
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("hello.txt", b"not a workbook")
    assert "not a readable XLSX workbook" in import_xlsx(buf.getvalue()).rejected[0].reason


def test_dates_and_extra_cells_are_refused_where_they_are() -> None:
    import datetime as dt

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["id", "name", "side", "category"])
    ws.append(["a", dt.date(1944, 6, 6), "allied", "inf"])
    ws.append(["b", "B", "allied", "inf", None, "stray"])
    buf = io.BytesIO()
    wb.save(buf)
    rej = import_xlsx(buf.getvalue()).rejected
    assert [(r.where("s.xlsx"), r.reason.split(" (")[0]) for r in rej] == [
        ("s.xlsx:2:B", "name: holds a date or time"), ("s.xlsx:3:F", "a value")]


def test_formula_like_text_is_written_as_text_not_as_a_formula() -> None:
    counters = [Counter(id="f", name="=HYPERLINK(\"http://x\")", side="allied", category="inf",
                        note="@SUM(A1)")]
    data = export_xlsx(counters)
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        sheet = zf.read("xl/worksheets/sheet1.xml").decode()
    assert "<f>" not in sheet and "HYPERLINK" in sheet
    assert import_xlsx(data).counters == counters


# --- dry run -------------------------------------------------------------------------------------------

def test_dry_run_lists_added_changed_and_removed() -> None:
    old = [Counter(id="a", name="A", side="allied", category="inf", front=CounterSide(values={"attack": 3})),
           Counter(id="b", name="B", side="allied", category="inf"),
           Counter(id="c", name="C", side="allied", category="inf")]
    new = [Counter(id="a", name="A", side="allied", category="inf", front=CounterSide(values={"attack": 4})),
           Counter(id="c", name="C", side="allied", category="inf"),
           Counter(id="d", name="D", side="german", category="inf")]
    plan = plan_import(old, new)
    assert plan.added == ("d",) and plan.removed == ("b",) and plan.unchanged == 1
    assert [(ch.id, [(f.column, f.old, f.new) for f in ch.fields]) for ch in plan.changed] == [
        ("a", [("front.attack", "3", "4")])]
    assert list(plan.result) == new
    merged = plan_import(old, new, "merge")
    assert merged.removed == () and [c.id for c in merged.result] == ["a", "b", "c", "d"]
    assert merged.result[0].front.values["attack"] == 4 and merged.unchanged == 2
    assert plan_import(old, list(old)).changes_nothing
    assert plan_import(old, list(reversed(old))).reordered
    assert old[0].front.values["attack"] == 3  # pure: the manifest it read is unchanged


# --- random counters through both formats ------------------------------------------------------------

SFN = _system("second-front-now")
# Text a spreadsheet cell holds: no surrogates or C0 controls (XML 1.0 cannot carry them), and
# stripped, since both importers trim cells. Formula starters and quotes are in on purpose.
texts = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")) | st.sampled_from("=+-@'\""),
                min_size=1, max_size=16).map(str.strip).filter(bool)
numbers = st.integers(-5, 40) | st.sampled_from([0.5, -1.5, 2.25])
printed = st.dictionaries(st.sampled_from(["attack", "defense", "movement"]), numbers | st.just("unknown"), max_size=3)
extra = st.dictionaries(st.sampled_from(["setup", "note_value"]), texts.filter(lambda t: not _numeric(t)), max_size=2)


def _numeric(text: str) -> bool:
    import re

    return bool(re.fullmatch(r"-?\d+(\.\d+)?", text))  # the model reads such text as a number


@st.composite
def counters(draw: st.DrawFn) -> list[Counter]:
    out = []
    for i in range(draw(st.integers(1, 6))):
        back = draw(st.none() | st.tuples(printed, st.sampled_from(["reduced", "cadre"])))
        # A sheet position (sheet, row, col, explicit back) round-trips too, whole or partial.
        place = draw(st.none() | st.tuples(st.none() | texts, st.none() | st.integers(1, 30),
                                           st.none() | st.integers(1, 30), st.none() | st.integers(1, 30)))
        sheet, row, col, back_col = place or (None, None, None, None)
        out.append(Counter(
            sheet=sheet, row=row, col=col, back_row=row if back_col is not None else None, back_col=back_col,
            id=f"u{i}-{draw(st.sampled_from(['x', '=1', '+a', '42']))}", name=draw(texts),
            side=draw(st.sampled_from(["allied", "german"])), category=draw(st.sampled_from(["armor", "infantry"])),
            steps=draw(st.none() | st.integers(0, 4)), count=draw(st.integers(1, 3)),
            front=CounterSide(designation=draw(st.none() | texts), values={**draw(printed), **draw(extra)}),
            back=CounterSide(state=back[1], values=back[0]) if back else None,
            flags=draw(st.lists(st.sampled_from(["asterisk", "untried"]), unique=True, max_size=2)),
            illustrative=draw(st.booleans()), note=draw(st.none() | texts)))
    return out


@given(counters())
def test_random_counters_round_trip_through_xlsx_and_csv(cs: list[Counter]) -> None:
    via_xlsx = import_xlsx(export_xlsx(cs, SFN), system=SFN)
    assert via_xlsx.rejected == [] and via_xlsx.counters == cs
    via_csv = import_csv(export_csv(cs, SFN), system=SFN)
    assert via_csv.rejected == [] and via_csv.counters == cs


def test_import_into_a_manifest_that_failed_to_load_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "mini"
    shutil.copytree(MINI, root)
    (root / "counters.yaml").write_text("schema_version: 1\ncounters:\n- {id: a1, name: 1st Inf, side: allied}\n")
    before = _files(root)
    sheet = tmp_path / "c.csv"
    sheet.write_text("id,name,side,category\nn1,New,allied,inf\n")
    # Its save would skip the file that failed to load: without the check this "succeeded"
    # and wrote nothing.
    assert main(["counters", "import", str(root), str(sheet)]) == 2
    assert "could not be loaded" in capsys.readouterr().err
    assert _files(root) == before


def test_a_control_character_no_xlsx_cell_can_hold_is_refused_by_name() -> None:
    from model.formats.counter_xlsx import XlsxExportError

    with pytest.raises(XlsxExportError, match=r"counter 'b', column name: holds the control character U\+0001"):
        export_xlsx([Counter(id="a", name="A", side="allied", category="inf"),
                     Counter(id="b", name="B\x01", side="allied", category="inf")])


def test_a_header_below_row_1_is_named_not_called_empty() -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.cell(3, 1).value, ws.cell(3, 2).value = "id", "name"
    buf = io.BytesIO()
    wb.save(buf)
    assert [r.reason for r in import_xlsx(buf.getvalue()).rejected] == [
        "row 1 is empty: the header (id, name, side, category, …) goes in row 1"]
    empty = io.BytesIO()
    openpyxl.Workbook().save(empty)
    assert [r.reason for r in import_xlsx(empty.getvalue()).rejected] == ["the sheet is empty: no header row"]
