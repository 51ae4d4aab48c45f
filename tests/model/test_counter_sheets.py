"""Counter sheet layout (model/counter_sheets.py): the back in the mirror slot, sheet widths
declared or inferred, copies along the row, gaps; positions through CSV and the YAML save."""

from __future__ import annotations

import shutil
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from conftest import FIXTURES
from model.bundle import load_bundle
from model.counter_sheets import COPIES, DECLARED, INFERRED, Slot, layouts, missing_position_fields
from model.counters import Counter, CounterSheet
from model.formats.counter_table import export_csv, import_csv

MINI = FIXTURES / "bundles" / "mini"


def _c(cid: str, row: int, col: int, **kw: object) -> Counter:
    return Counter(id=cid, name=cid, side="allied", category="inf", sheet="A", row=row, col=col, **kw)


@given(st.integers(1, 40), st.data())
def test_the_mirror_slot_is_an_involution_within_the_row(cols: int, data: st.DataObject) -> None:
    """Turned over left to right, column c lies behind column cols + 1 - c: twice is back home."""
    (sheet,) = layouts([], [CounterSheet(id="A", cols=cols)]).values()
    slot = Slot(data.draw(st.integers(1, 20)), data.draw(st.integers(1, cols)))
    back = sheet.mirror(slot)
    assert back.row == slot.row and 1 <= back.col <= cols
    assert back.col == cols + 1 - slot.col
    assert sheet.mirror(back) == slot


def test_declared_width_beats_the_largest_column_used() -> None:
    sheets = layouts([_c("a", 1, 1), _c("b", 1, 3)], [CounterSheet(id="A", rows=2, cols=6)])
    assert sheets["A"].policy == DECLARED and sheets["A"].cols == 6
    assert [p.slot for p in sheets["A"].backs] == [Slot(1, 6), Slot(1, 4)]


def test_an_undeclared_sheet_is_as_wide_as_its_largest_column() -> None:
    """policy sheet-width-from-max-col: explicit backs and copies count towards the width."""
    sheets = layouts([_c("a", 1, 1, count=3), _c("b", 2, 2)], [])
    assert sheets["A"].policy == INFERRED and sheets["A"].cols == 3  # a's copies fill cols 1..3
    sheets = layouts([_c("a", 1, 1, back_row=1, back_col=5)], [])
    assert sheets["A"].cols == 5


def test_copies_run_along_the_row_and_their_backs_run_the_other_way() -> None:
    """policy sheet-copies-along-row."""
    (sheet,) = layouts([_c("a", 2, 2, count=3)], [CounterSheet(id="A", cols=5)]).values()
    assert [p.slot for p in sheet.fronts] == [Slot(2, 2), Slot(2, 3), Slot(2, 4)]
    assert [p.slot for p in sheet.backs] == [Slot(2, 4), Slot(2, 3), Slot(2, 2)]
    assert [p.copy for p in sheet.fronts] == [0, 1, 2]
    assert COPIES == "sheet-copies-along-row"


def test_gaps_are_empty_slots_before_the_last_filled_one() -> None:
    (sheet,) = layouts([_c("a", 1, 1), _c("b", 2, 2)], [CounterSheet(id="A", rows=4, cols=3)]).values()
    assert sheet.gaps() == [Slot(1, 2), Slot(1, 3), Slot(2, 1)]  # row 2 col 3 and rows 3-4 trail
    (full,) = layouts([_c("a", 1, 1, count=3)], [CounterSheet(id="A", rows=4, cols=3)]).values()
    assert full.gaps() == []


def test_partial_positions_are_named_not_placed() -> None:
    c = Counter(id="a", name="a", side="allied", category="inf", sheet="A", row=1)
    assert missing_position_fields(c) == ["col"]
    assert layouts([c], []) == {}
    assert missing_position_fields(_c("b", 1, 1, back_row=1)) == ["back_col"]
    assert missing_position_fields(Counter(id="d", name="d", side="allied", category="inf")) == []


def test_positions_round_trip_through_csv_and_a_manifest_without_them_keeps_its_columns() -> None:
    plain = [Counter(id="p", name="p", side="allied", category="inf")]
    assert "sheet" not in export_csv(plain).splitlines()[0].split(",")
    placed = [_c("a", 1, 2, back_row=1, back_col=3), Counter(id="p", name="p", side="allied", category="inf")]
    text = export_csv(placed)
    header = text.splitlines()[0].split(",")
    assert header[header.index("flags") + 1:header.index("flags") + 6] == ["sheet", "row", "col", "back_row", "back_col"]
    result = import_csv(text)
    assert result.rejected == [] and result.counters == placed


def test_a_bad_row_cell_is_refused_where_it_is() -> None:
    text = "id,name,side,category,sheet,row,col\na,A,allied,inf,A,0,x\n"
    result = import_csv(text)
    assert [(r.row, r.column) for r in result.rejected] == [(2, 6), (2, 7)]
    assert "row: 0 is less than 1" in result.rejected[0].reason
    assert "col: 'x' is not a whole number" in result.rejected[1].reason


def test_editing_a_position_saves_only_that_text(tmp_path: Path) -> None:
    """Format-preserving save: adding a position and a sheet declaration changes nothing else."""
    root = tmp_path / "mini"
    shutil.copytree(MINI, root)
    before = {p.name: p.read_text(encoding="utf-8") for p in (root / "counters.yaml", root / "game.yaml")}
    bundle = load_bundle(root).bundle
    assert bundle is not None
    bundle.counters[0].sheet, bundle.counters[0].row, bundle.counters[0].col = "A", 1, 1
    bundle.game.counter_sheets = [CounterSheet(id="A", rows=2, cols=4)]
    bundle.save()
    after = {p.name: p.read_text(encoding="utf-8") for p in (root / "counters.yaml", root / "game.yaml")}
    added = "counter_sheets:\n- id: A\n  rows: 2\n  cols: 4\n"
    assert added in after["game.yaml"] and after["game.yaml"].replace(added, "") == before["game.yaml"]
    old_lines, new_lines = before["counters.yaml"].splitlines(), after["counters.yaml"].splitlines()
    assert len(old_lines) == len(new_lines)
    changed = [(a, b) for a, b in zip(old_lines, new_lines) if a != b]
    assert len(changed) == 1 and "sheet: A" in changed[0][1] and "row: 1" in changed[0][1]
    again = load_bundle(root).bundle
    assert again is not None and again.counters[0].sheet == "A" and again.game.counter_sheets[0].cols == 4


def test_the_counter_editor_types_a_position_one_field_at_a_time(tmp_path: Path) -> None:
    """With ``counter_sheets`` declared, the position columns are editable from the first
    counter on; each cell is typed (a whole number of at least 1) and a bad one changes nothing."""
    from model.counter_edits import editable_columns, set_counter_field

    root = tmp_path / "mini"
    shutil.copytree(MINI, root)
    bundle = load_bundle(root).bundle
    assert bundle is not None
    assert "sheet" not in editable_columns(bundle)  # no sheets declared, no counter placed
    bundle.game.counter_sheets = [CounterSheet(id="A", rows=2, cols=4)]
    assert {"sheet", "row", "col", "back_row", "back_col"} <= set(editable_columns(bundle))
    c = bundle.counters[0]
    for column, typed in (("sheet", "A"), ("row", "2"), ("col", "3")):
        result = set_counter_field(bundle, c, column, typed)
        assert result.ok and result.undo is not None, result.finding
    assert (c.sheet, c.row, c.col) == ("A", 2, 3)
    (sheet,) = layouts(bundle.counters, bundle.game.counter_sheets).values()
    assert [p.slot for p in sheet.backs] == [Slot(2, 2)]
    bad = set_counter_field(bundle, c, "col", "0")
    assert bad.undo is None and bad.finding is not None and "col: 0 is less than 1" in bad.finding.message
    assert c.col == 3
