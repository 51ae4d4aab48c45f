"""Counter sheet import (editor/scenario/counter_import.py) and export, in both directions:
a sheet the user edited comes back as a dry run listing the counters added and changed, and
applying it is one undo step; a sheet with bad cells is refused with ``file:row:column``
messages and leaves the bundle unchanged, to the byte.

Helper for later end-to-end tests: :func:`import_sheet` imports a CSV or XLSX path without
any dialog, with an optional mapping (their header → our column, ``""`` ignores one), and
returns the outcome (``outcome.ok``, ``outcome.plan``, ``outcome.refusal_lines()``); with
``apply=True`` a clean dry run is applied as one undo step.
"""

from __future__ import annotations

import io
import shutil
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook

from conftest import REPO
from editor.document import MapDocument
from editor.scenario.counter_import import (CounterImportDialog, ImportOutcome, apply_import, dry_run,
                                            guess_mapping, read_sheet_header)
from editor.scenario.counters_dock import CounterPanel
from helpers import no_modal_prompts  # noqa: F401 (autouse fixture)
from model.formats.counter_table import column_letter

UTAH = REPO / "scenarios" / "utah-beach"


def import_sheet(document: MapDocument, path: Path, mapping: dict[str, str] | None = None,
                 apply: bool = False) -> ImportOutcome:
    """Import ``path`` non-interactively: the dialog's dry run, then (``apply``) its Apply."""
    outcome = dry_run(document, path, mapping)
    if apply:
        assert apply_import(document, outcome), outcome.refusal_lines()
    return outcome


def open_doc(tmp_path: Path) -> MapDocument:
    root = tmp_path / "utah-beach"
    shutil.copytree(UTAH, root)
    doc, diags = MapDocument.open(root)
    assert doc is not None, diags
    return doc


def files_bytes(doc: MapDocument) -> dict[str, bytes]:
    return {rel: (doc.path / rel).read_bytes() for rel in doc.bundle_files()}


def export(qtbot: Any, doc: MapDocument, path: Path) -> None:
    panel = CounterPanel(doc)
    qtbot.addWidget(panel)
    panel.refresh()
    panel.export_to(str(path))
    assert path.is_file()


def test_header_is_read_by_the_csv_module_and_columns_are_guessed(qtbot: Any, tmp_path: Path) -> None:
    doc = open_doc(tmp_path)
    sheet = tmp_path / "theirs.csv"
    side = doc.system.sides[0].id
    cat = doc.system.unit_categories[0].id
    sheet.write_text(f'ID,"Unit, full name",Side,Type,TQ,Remarks\nz-1,"Able, Co.",{side},{cat},4,x\n')
    header, problem = read_sheet_header(sheet)
    assert problem is None and header == ["ID", "Unit, full name", "Side", "Type", "TQ", "Remarks"]
    dlg = CounterImportDialog(doc, sheet)
    qtbot.addWidget(dlg)
    assert dlg.load_error is None
    assert dlg.chosen() == {"id": "ID", "side": "Side", "category": "Type", "front.tq": "TQ"}
    assert not dlg.run_btn.isEnabled() and "no column chosen for name" in dlg.mapping_problem.text()
    dlg.set_choice("name", "Unit, full name")
    dlg.set_choice("note", "Remarks")
    assert dlg.run_btn.isEnabled() and dlg.mapping_problem.text() == ""
    dlg.set_choice("army", "Remarks")  # one of their columns for two of ours
    assert not dlg.run_btn.isEnabled() and "'Remarks' is chosen for both" in dlg.mapping_problem.text()
    dlg.set_choice("army", None)
    outcome = dlg.run_dry()
    assert outcome.ok and outcome.plan is not None and outcome.plan.added == ("z-1",)
    assert dlg.apply_btn.isEnabled() and dlg.lines.item(0).text() == "+ z-1"
    assert dlg.apply() and doc.bundle.counters[-1].name == "Able, Co." and doc.bundle.counters[-1].front.values["tq"] == 4
    assert doc.undo_stack.count() == 1


def test_guess_mapping_prefers_exact_names() -> None:
    assert guess_mapping(["Name", "front tq", "Unit"], ["id", "name", "front.tq"]) == \
        {"name": "Name", "front.tq": "front tq"}


def test_dry_run_lists_added_and_changed_and_apply_is_one_undo(qtbot: Any, tmp_path: Path) -> None:
    doc = open_doc(tmp_path)
    sheet = tmp_path / "export.xlsx"
    export(qtbot, doc, sheet)
    clean = import_sheet(doc, sheet)
    assert clean.ok and clean.plan is not None and clean.plan.changes_nothing  # export → import: same counters
    wb = load_workbook(sheet)
    ws = wb["counters"]
    header = [c.value for c in ws[1]]
    name_col = header.index("name") + 1
    first_id = ws.cell(2, 1).value
    ws.cell(2, name_col).value = "Renamed in the sheet"
    new_row = [c.value for c in ws[3]]
    new_row[0] = "new-from-sheet"
    ws.append(new_row)
    wb.save(sheet)
    before_ids = [c.id for c in doc.bundle.counters]
    before_text = doc.dump()
    dlg = CounterImportDialog(doc, sheet)
    qtbot.addWidget(dlg)
    assert dlg.chosen()["name"] == "name" and dlg.chosen()["front.tq"] == "front.tq"
    outcome = dlg.run_dry()
    assert outcome.plan is not None
    assert outcome.plan.added == ("new-from-sheet",)
    assert [c.id for c in outcome.plan.changed] == [first_id]
    assert [(f.column, f.new) for f in outcome.plan.changed[0].fields] == [("name", "Renamed in the sheet")]
    assert outcome.plan.removed == ()  # merge: counters not in the sheet stay
    shown = [dlg.lines.item(i).text() for i in range(dlg.lines.count())]
    assert "+ new-from-sheet" in shown and f"~ {first_id}" in shown
    assert doc.dump() == before_text  # a dry run changes nothing
    assert dlg.apply()
    assert doc.undo_stack.count() == 1 and [c.id for c in doc.bundle.counters] == before_ids + ["new-from-sheet"]
    assert doc.bundle.counters[0].name == "Renamed in the sheet"
    doc.undo_stack.undo()
    assert doc.dump() == before_text
    doc.undo_stack.redo()
    assert doc.bundle.counters[-1].id == "new-from-sheet"


BAD_CELLS = {  # our column → (data row index from 0, bad text, what the message says)
    "side": (0, "martians", "is not a side"),
    "front.tq": (1, "four", "is not a number or the word 'unknown'"),
    "id": (3, "", "missing id"),
}


def _bad_sheet(doc: MapDocument, qtbot: Any, tmp_path: Path, kind: str) -> tuple[Path, dict[str, str]]:
    """An export with an unknown side, text in a numeric column, an empty id and a duplicate
    id; returns the file and, per problem, the ``row:column`` it must be reported at."""
    import csv

    src = tmp_path / f"export.{kind}"
    export(qtbot, doc, src)
    if kind == "xlsx":
        wb = load_workbook(src)
        ws = wb["counters"]
        rows = [[c.value for c in r] for r in ws.iter_rows()]
    else:
        rows = list(csv.reader(io.StringIO(src.read_text(encoding="utf-8"))))
    header = rows[0]
    where: dict[str, str] = {}
    for col, (i, text, _) in BAD_CELLS.items():
        j = header.index(col)
        rows[1 + i][j] = text
        label = column_letter(j + 1) if kind == "xlsx" else str(j + 1)
        where[col] = f"{1 + i + 1}:{label}"
    rows[1 + 5][0] = rows[1 + 4][0]  # a duplicate id
    where["duplicate"] = f"{1 + 5 + 1}:{'A' if kind == 'xlsx' else '1'}"
    bad = tmp_path / f"bad.{kind}"
    if kind == "xlsx":
        from openpyxl import Workbook

        out = Workbook()
        sheet = out.active
        sheet.title = "counters"
        for r in rows:
            sheet.append(r)
        out.save(bad)
    else:
        buf = io.StringIO()
        csv.writer(buf, lineterminator="\n").writerows(rows)
        bad.write_text(buf.getvalue(), encoding="utf-8")
    return bad, where


@pytest.mark.parametrize("kind", ["xlsx", "csv"])
def test_bad_cells_are_refused_located_and_the_bundle_is_unchanged(qtbot: Any, tmp_path: Path, kind: str) -> None:
    doc = open_doc(tmp_path)
    bad, where = _bad_sheet(doc, qtbot, tmp_path, kind)
    on_disk = files_bytes(doc)
    in_memory = doc.dump()
    counters = list(doc.bundle.counters)
    dlg = CounterImportDialog(doc, bad)
    qtbot.addWidget(dlg)
    outcome = dlg.run_dry()
    lines = outcome.refusal_lines()
    assert not outcome.ok and outcome.plan is None
    for col, (_, _, says) in BAD_CELLS.items():
        hits = [ln for ln in lines if ln.startswith(f"{bad}:{where[col]}: ")]
        assert hits and says in hits[0], (col, lines)
    dup = [ln for ln in lines if ln.startswith(f"{bad}:{where['duplicate']}: ")]
    assert dup and "duplicate id" in dup[0], lines
    shown = [dlg.lines.item(i).text() for i in range(dlg.lines.count())]
    assert shown[:len(lines)] == lines and "Refused" in dlg.summary.text()
    assert not dlg.apply_btn.isEnabled() and not dlg.apply()
    assert not apply_import(doc, outcome)
    # Nothing is half-applied: the same counter objects, the same texts, the same files.
    assert doc.bundle.counters == counters and all(a is b for a, b in zip(doc.bundle.counters, counters))
    assert doc.dump() == in_memory and files_bytes(doc) == on_disk and doc.undo_stack.count() == 0


def test_unreadable_files_are_refused_with_their_path(qtbot: Any, tmp_path: Path) -> None:
    doc = open_doc(tmp_path)
    fake = tmp_path / "not-a-workbook.xlsx"
    fake.write_text("id,name\n")
    header, problem = read_sheet_header(fake)
    assert header == [] and problem is not None and str(fake) in problem and "zip" in problem
    dlg = CounterImportDialog(doc, fake)
    qtbot.addWidget(dlg)
    assert dlg.load_error == problem
    latin = tmp_path / "latin1.csv"
    latin.write_bytes("id,name\nx,Caf\xe9\n".encode("latin-1"))
    outcome = import_sheet(doc, latin)
    assert not outcome.ok and outcome.refusal_lines()[0].startswith(f"{latin}:2: not UTF-8")


def test_export_writes_csv_and_xlsx_with_the_same_columns(qtbot: Any, tmp_path: Path) -> None:
    doc = open_doc(tmp_path)
    export(qtbot, doc, tmp_path / "c.csv")
    export(qtbot, doc, tmp_path / "c.xlsx")
    csv_header = (tmp_path / "c.csv").read_text(encoding="utf-8").splitlines()[0].split(",")
    ws = load_workbook(tmp_path / "c.xlsx")["counters"]
    assert [c.value for c in ws[1]] == csv_header
    assert ws.max_row == len(doc.bundle.counters) + 1
    assert import_sheet(doc, tmp_path / "c.csv").plan.changes_nothing  # type: ignore[union-attr]


def test_import_action_runs_the_dialog_to_apply(qtbot: Any, tmp_path: Path) -> None:
    """The interactive path: Import… on a file, Dry Run, Apply (one undo step)."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    doc = open_doc(tmp_path)
    sheet = tmp_path / "more.csv"
    side, cat = doc.system.sides[1].id, doc.system.unit_categories[0].id
    sheet.write_text(f"id,name,side,category\nq-1,Q One,{side},{cat}\nq-2,Q Two,{side},{cat}\n", encoding="utf-8")
    panel = CounterPanel(doc)
    qtbot.addWidget(panel)
    panel.refresh()
    n = len(doc.bundle.counters)
    shown: list[str] = []

    def answer() -> None:
        dlg = QApplication.activeModalWidget()
        assert isinstance(dlg, CounterImportDialog)
        dlg.run_btn.click()
        shown.extend(dlg.lines.item(i).text() for i in range(dlg.lines.count()))
        dlg.apply_btn.click()

    QTimer.singleShot(0, answer)
    assert panel.import_dialog(str(sheet))
    assert shown == ["+ q-1", "+ q-2"]
    assert [c.id for c in doc.bundle.counters[-2:]] == ["q-1", "q-2"] and doc.undo_stack.count() == 1
    assert doc.undo_stack.text(0) == f"Import counters (2 added, 0 changed, 0 removed, {n} unchanged)"
