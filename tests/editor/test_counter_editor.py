"""The counter manifest editor (Counters dock, editor/scenario/counters_dock.py), in both
directions: actions and cells change the bundle through undo commands, and the bundle's
state shows in the table, the preview and the diagnostics dock.

Helpers for later end-to-end tests:

* :func:`open_panel` — a document on a *copy* of a bundle and its Counters panel, refreshed
  on every change as Scenario mode refreshes it (no window needed);
* ``CounterPanel.add_counters(rows)`` — add N counters in one undo step, each row mapping
  layout columns to the text typed in a cell (``{"id": "x-1", "side": "allied",
  "front.tq": "4"}``; a row without ``id`` gets a free one); raises ValueError naming every
  refused text, and then adds nothing;
* ``CounterPanel.set_column(counters, column, text)`` — the bulk edit; ``rename(old, new)``
  — the rename the dialog's OK runs;
* for imports see tests/editor/test_counter_import_dialog.py (``import_sheet``).
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QDialogButtonBox, QLineEdit, QStyleOptionViewItem

from conftest import REPO
from editor.document import MapDocument
from editor.scenario.counter_rename import RenameCounterDialog
from editor.scenario.counters_dock import NO_BACK_BRUSH, REFUSED_BRUSH, CounterPanel
from helpers import no_modal_prompts, show_window  # noqa: F401 (autouse fixture)
from model import counter_edits as ce
from model import scenario_edits as se

UTAH = REPO / "scenarios" / "utah-beach"
RENAMED = "c1-i-919"  # placed in night-drop's setup and in beach-landing's schedule


def open_panel(qtbot: Any, tmp_path: Path, source: Path = UTAH) -> tuple[MapDocument, CounterPanel]:
    """A document on a copy of ``source`` and its Counters panel (shown, refreshed on change)."""
    root = tmp_path / source.name
    shutil.copytree(source, root)
    doc, diags = MapDocument.open(root)
    assert doc is not None, diags
    panel = CounterPanel(doc)
    qtbot.addWidget(panel)
    doc.changed.connect(lambda _change: panel.refresh())
    panel.refresh()
    panel.resize(1000, 400)
    panel.show()
    return doc, panel


def ids(doc: MapDocument) -> list[str]:
    return [c.id for c in doc.bundle.counters]


def test_add_duplicate_delete_are_one_undo_step_each(qtbot: Any, tmp_path: Path) -> None:
    doc, panel = open_panel(qtbot, tmp_path)
    before = ids(doc)
    stack = doc.undo_stack
    panel.actions_by_id["counters.add"].trigger()
    assert len(ids(doc)) == len(before) + 1 and stack.count() == 1
    new = ids(doc)[-1]
    assert new not in before and panel.current_counter() is doc.bundle.counters[-1]
    # The blank counter takes the system's first side and first unit category.
    assert doc.bundle.counters[-1].side == doc.system.sides[0].id
    panel.select_ids([before[0], before[1]])
    panel.actions_by_id["counters.duplicate"].trigger()
    assert stack.count() == 2 and stack.text(1) == "Duplicate 2 counters"
    assert ids(doc)[1] == f"{before[0]}-copy" and ids(doc)[3] == f"{before[1]}-copy"
    assert [c.id for c in panel.selected_counters()] == [f"{before[0]}-copy", f"{before[1]}-copy"]
    panel.select_ids([before[2], new])
    panel.actions_by_id["counters.delete"].trigger()
    assert before[2] not in ids(doc) and new not in ids(doc) and stack.count() == 3
    assert panel.model is not None and panel.model.rowCount() == len(before) + 1  # +1 added, +2 copies, -2 deleted
    stack.undo()
    assert before[2] in ids(doc) and new in ids(doc)
    stack.undo()
    stack.undo()
    assert ids(doc) == before
    stack.redo()
    assert ids(doc)[-1] == new and panel.model.rowCount() == len(before) + 1


def test_add_counters_helper_is_all_or_nothing(qtbot: Any, tmp_path: Path) -> None:
    doc, panel = open_panel(qtbot, tmp_path)
    made = panel.add_counters([{"id": "x-1", "side": "german", "front.tq": "5"},
                               {"id": "x-2", "name": "Kampfgruppe", "front.tq": "unknown", "back.tq": "3"}])
    assert made == ["x-1", "x-2"] and doc.undo_stack.count() == 1
    x1, x2 = doc.bundle.counters[-2:]
    assert (x1.side, x1.front.values["tq"]) == ("german", 5)
    assert x2.front.values["tq"] == "unknown" and x2.back is not None and x2.back.values["tq"] == 3
    try:
        panel.add_counters([{"id": "x-3"}, {"id": "x-4", "side": "martian"}])
    except ValueError as exc:
        assert "x-4: side: 'martian' is not a side" in str(exc)
    else:
        raise AssertionError("an unknown side was accepted")
    assert "x-3" not in ids(doc) and doc.undo_stack.count() == 1
    # Rows without an id get free ones, distinct within the batch.
    assert panel.add_counters([{"name": "A"}, {"name": "B"}, {"name": "C"}]) == ["unit", "unit-2", "unit-3"]


def test_refused_cell_shows_a_located_finding_in_the_table_and_the_diagnostics_dock(qtbot: Any,
                                                                                    tmp_path: Path) -> None:
    root = tmp_path / "utah-beach"
    shutil.copytree(UTAH, root)
    w = show_window(qtbot, root, (1300, 850))
    assert w.scenario_mode.open_scenario("beach-landing")
    runner = w.diagnostics.runner
    qtbot.waitUntil(lambda: not runner.busy and runner.completed == runner.generation, timeout=20000)
    panel = w.scenario_mode.panels.counters
    model = panel.model
    assert model is not None
    doc = w.doc
    assert doc is not None
    counter = doc.bundle.counters[0]
    col = model.columns.index("front.tq")
    old = counter.front.values.get("tq")
    text_before = doc.dump()["counters.yaml"]
    proxy_ix = panel.proxy.mapFromSource(model.index(0, col))
    found = panel.edit_cell(proxy_ix, "abc")
    assert len(found) == 1 and doc.undo_stack.count() == 0 and counter.front.values.get("tq") == old
    assert doc.dump()["counters.yaml"] == text_before
    finding = found[0]
    assert finding.code == "CORE-UNIT-003" and finding.policy == "refused-cell-not-applied"
    assert finding.location.file is not None and finding.location.file.endswith("counters.yaml")
    assert finding.location.line is not None and finding.location.units == (counter.id,)
    ix = model.index(0, col)
    assert model.data(ix, Qt.ItemDataRole.BackgroundRole) is REFUSED_BRUSH
    assert "'abc' is not a number" in model.data(ix, Qt.ItemDataRole.ToolTipRole)
    assert finding in w.diagnostics.panel.diagnostics  # at once: no validation run needed
    assert any("'abc' is not a number" in item.text(0) for item in w.diagnostics.panel.leaf_items())
    panel.select_ids([doc.bundle.counters[5].id])
    w.show_diagnostic(finding)  # a click on it in the dock: its counter's row becomes current
    assert panel.current_counter() is counter
    # A value the column takes clears the finding, everywhere.
    good = "4" if old == "unknown" else "unknown"
    assert panel.edit_cell(proxy_ix, good) == []
    assert str(counter.front.values["tq"]) == good and doc.undo_stack.count() == 1
    assert model.data(ix, Qt.ItemDataRole.BackgroundRole) is None
    assert finding not in w.diagnostics.panel.diagnostics
    doc.undo_stack.undo()
    assert counter.front.values.get("tq") == old


def test_delegates_offer_the_systems_choices(qtbot: Any, tmp_path: Path) -> None:
    doc, panel = open_panel(qtbot, tmp_path)
    model = panel.model
    assert model is not None
    delegate = panel.table.itemDelegate()

    def editor_for(column: str, row: int = 0) -> Any:
        ix = panel.proxy.mapFromSource(model.index(row, model.columns.index(column)))
        ed = delegate.createEditor(panel.table.viewport(), QStyleOptionViewItem(), ix)
        delegate.setEditorData(ed, ix)
        return ed, ix

    side, _ = editor_for("side")
    assert isinstance(side, QComboBox)
    assert [side.itemText(i) for i in range(side.count())] == [s.id for s in doc.system.sides]
    assert side.currentText() == doc.bundle.counters[0].side
    cat, _ = editor_for("category")
    assert [cat.itemText(i) for i in range(cat.count())] == [c.id for c in doc.system.unit_categories]
    nat, _ = editor_for("nationality")
    assert nat.itemText(0) == "" and nat.count() == len(doc.system.nationalities) + 1  # optional: may be unset
    flag, _ = editor_for("illustrative")
    assert [flag.itemText(i) for i in range(flag.count())] == ["false", "true"]
    tq, ix = editor_for("front.tq")
    assert isinstance(tq, QLineEdit) and tq.placeholderText() == "number or unknown"
    # Committing through the delegate is the table's edit path.
    tq.setText("7")
    delegate.setModelData(tq, panel.proxy, ix)
    assert doc.bundle.counters[0].front.values["tq"] == 7 and doc.undo_stack.count() == 1
    # A counter without a back: its back cells are grey and cannot be edited.
    row = next(i for i, c in enumerate(doc.bundle.counters) if c.back is None)
    bix = model.index(row, model.columns.index("back.tq"))
    assert model.data(bix, Qt.ItemDataRole.BackgroundRole) is NO_BACK_BRUSH
    assert not model.flags(bix) & Qt.ItemFlag.ItemIsEditable


def test_bulk_edit_sets_a_column_of_every_selected_row_in_one_step(qtbot: Any, tmp_path: Path) -> None:
    doc, panel = open_panel(qtbot, tmp_path)
    model = panel.model
    assert model is not None
    chosen = [c.id for c in doc.bundle.counters[:3]]
    panel.select_ids(chosen)
    col = model.columns.index("note")
    panel.edit_cell(panel.proxy.mapFromSource(model.index(1, col)), "checked against the counter sheet")
    assert [c.note for c in doc.bundle.counters[:3]] == ["checked against the counter sheet"] * 3
    assert doc.undo_stack.count() == 1 and doc.undo_stack.text(0) == "Set note of 3 counters"
    assert doc.bundle.counters[3].note != "checked against the counter sheet"
    # bulk-edit-all-or-nothing: one refused row (count must be at least 1) changes no row.
    panel.select_ids(chosen)
    counts = [c.count for c in doc.bundle.counters[:3]]
    found = panel.edit_cell(panel.proxy.mapFromSource(model.index(0, model.columns.index("count"))), "0")
    assert len(found) == 3 and all("bulk-edit-all-or-nothing" in (f.policy or "") for f in found)
    assert [c.count for c in doc.bundle.counters[:3]] == counts and doc.undo_stack.count() == 1
    doc.undo_stack.undo()
    assert all(c.note != "checked against the counter sheet" for c in doc.bundle.counters[:3])


def test_add_and_remove_back(qtbot: Any, tmp_path: Path) -> None:
    doc, panel = open_panel(qtbot, tmp_path)
    row = next(i for i, c in enumerate(doc.bundle.counters) if c.back is None)
    counter = doc.bundle.counters[row]
    panel.select_ids([counter.id])
    assert panel.actions_by_id["counters.add_back"].isEnabled()
    assert not panel.actions_by_id["counters.remove_back"].isEnabled()
    panel.actions_by_id["counters.add_back"].trigger()
    assert counter.back is not None and panel.actions_by_id["counters.remove_back"].isEnabled()
    model = panel.model
    assert model is not None
    assert model.flags(model.index(row, model.columns.index("back.tq"))) & Qt.ItemFlag.ItemIsEditable
    panel.actions_by_id["counters.remove_back"].trigger()
    assert counter.back is None and doc.undo_stack.count() == 2
    doc.undo_stack.undo()
    assert counter.back is not None
    doc.undo_stack.undo()
    assert counter.back is None


def test_rename_dialog_counts_references_and_rename_is_one_undo(qtbot: Any, tmp_path: Path) -> None:
    doc, panel = open_panel(qtbot, tmp_path)
    bundle = doc.bundle
    refs = ce.counter_references(bundle, RENAMED)
    assert {r.kind for r in refs} >= {"setup", "schedule"}
    dlg = RenameCounterDialog(bundle, RENAMED, panel)
    qtbot.addWidget(dlg)
    ok = dlg.buttons.button(QDialogButtonBox.StandardButton.Ok)
    assert not ok.isEnabled()  # the same id
    dlg.edit.setText("c1-i-919-renamed")
    assert ok.isEnabled() and dlg.summary.text().startswith(f"{len(refs)} reference")
    assert dlg.refs.count() == len(refs)
    dlg.edit.setText(bundle.counters[0].id)
    assert not ok.isEnabled() and "another counter has the id" in dlg.summary.text()

    assert panel.rename(RENAMED, "c1-i-919-renamed")
    assert doc.undo_stack.count() == 1
    setup = se.setup_entry(bundle.scenarios["night-drop"], "c1-i-919-renamed")
    assert setup is not None and se.setup_entry(bundle.scenarios["night-drop"], RENAMED) is None
    sched = bundle.scenarios["beach-landing"].schedule
    assert any("c1-i-919-renamed" in e.units for e in sched) and not any(RENAMED in e.units for e in sched)
    assert panel.current_counter() is not None and panel.current_counter().id == "c1-i-919-renamed"
    doc.undo_stack.undo()
    assert se.setup_entry(bundle.scenarios["night-drop"], RENAMED) is not None
    assert any(RENAMED in e.units for e in bundle.scenarios["beach-landing"].schedule)
    assert RENAMED in ids(doc) and len(ce.counter_references(bundle, RENAMED)) == len(refs)
    assert not panel.rename(RENAMED, bundle.counters[0].id)  # taken: refused, nothing pushed
    assert doc.undo_stack.count() == 1 and doc.undo_stack.index() == 0


def test_preview_shows_the_current_counter_and_follows_edits(qtbot: Any, tmp_path: Path) -> None:
    doc, panel = open_panel(qtbot, tmp_path)
    counter = next(c for c in doc.bundle.counters if c.back is not None)
    panel.select_ids([counter.id])
    assert panel.preview.counter is counter
    before = panel.preview.grab().toImage()
    panel.actions_by_id["counters.remove_back"].trigger()
    assert panel.preview.counter is counter
    after = panel.preview.grab().toImage()
    assert after != before  # the back half now says "(no back)"
    doc.undo_stack.undo()
    assert panel.preview.grab().toImage() == before


def test_counter_shortcuts_do_not_clash_with_the_window(qtbot: Any, tmp_path: Path) -> None:
    root = tmp_path / "utah-beach"
    shutil.copytree(UTAH, root)
    w = show_window(qtbot, root)
    panel = w.scenario_mode.panels.counters
    window_keys = {a.shortcut().toString() for a in w.findChildren(type(panel.actions_by_id["counters.add"]))
                   if not a.shortcut().isEmpty() and a.parent() is not panel}
    ours = {a.shortcut().toString() for a in panel.actions_by_id.values() if not a.shortcut().isEmpty()}
    assert ours and not ours & window_keys
    assert all(a.shortcutContext() == Qt.ShortcutContext.WidgetWithChildrenShortcut
               for a in panel.actions_by_id.values() if not a.shortcut().isEmpty())


def test_undo_all_restores_the_files_and_a_save_keeps_every_edit(qtbot: Any, tmp_path: Path) -> None:
    """Undo laws over the counter commands: after add, duplicate, bulk set, add back, rename and
    delete, undoing all gives back the loaded texts exactly and redoing all the edited ones; a
    save writes the edits (reloaded, the manifest and the renamed references are as edited)."""
    doc, panel = open_panel(qtbot, tmp_path)
    original = doc.dump()
    on_disk = {rel: (doc.path / rel).read_bytes() for rel in doc.bundle_files()}
    panel.add_counters([{"id": "law-1", "side": "german", "front.tq": "3"}])
    panel.select_ids([RENAMED])
    panel.duplicate_selected()
    panel.select_ids(["law-1", f"{RENAMED}-copy"])
    assert panel.set_column(panel.selected_counters(), "note", "law") == []
    panel.select_ids(["law-1"])
    panel.add_back_selected()
    assert panel.rename(RENAMED, "c1-i-919-law")
    panel.select_ids([doc.bundle.counters[0].id])
    deleted = panel.delete_selected()
    edited = doc.dump()
    assert edited != original and doc.undo_stack.count() == 6
    while doc.undo_stack.canUndo():
        doc.undo_stack.undo()
    assert doc.dump() == original
    while doc.undo_stack.canRedo():
        doc.undo_stack.redo()
    assert doc.dump() == edited
    doc.save()
    again, diags = MapDocument.open(doc.path)
    assert again is not None, diags
    got = {c.id: c for c in again.bundle.counters}
    assert deleted[0] not in got and "law-1" in got and got["law-1"].back is not None
    assert got["law-1"].note == "law" and got["law-1"].front.values["tq"] == 3
    assert "c1-i-919-law" in got and RENAMED not in got
    assert se.setup_entry(again.bundle.scenarios["night-drop"], "c1-i-919-law") is not None
    # Undo everything and save: the scenario files hold their original bytes again, and the
    # manifest the original counters. (A counter deleted by a save and brought back by undo
    # is written anew, keys in the model's order: its original text was no longer on disk.)
    while doc.undo_stack.canUndo():
        doc.undo_stack.undo()
    doc.save()
    now = {rel: (doc.path / rel).read_bytes() for rel in doc.bundle_files()}
    assert {k: v for k, v in now.items() if k != "counters.yaml"} == \
        {k: v for k, v in on_disk.items() if k != "counters.yaml"}
    back, diags = MapDocument.open(doc.path)
    assert back is not None, diags
    first, _ = MapDocument.open(UTAH)
    assert first is not None
    assert [c.model_dump() for c in back.bundle.counters] == [c.model_dump() for c in first.bundle.counters]


def test_keys_typed_in_a_cell_editor_stay_in_the_editor(qtbot: Any, tmp_path: Path) -> None:
    """Delete and Ctrl+D are the dock's Delete and Duplicate only outside a cell editor."""
    doc, panel = open_panel(qtbot, tmp_path)
    model = panel.model
    assert model is not None
    before = ids(doc)
    panel.select_ids([before[0]])
    ix = panel.proxy.mapFromSource(model.index(0, model.columns.index("note")))
    panel.table.setCurrentIndex(ix)
    panel.table.edit(ix)
    editors = panel.table.viewport().findChildren(QLineEdit)
    assert len(editors) == 1
    editor = editors[0]
    editor.setText("abc")
    editor.setCursorPosition(0)
    qtbot.keyClick(editor, Qt.Key.Key_Delete)
    assert editor.text() == "bc" and ids(doc) == before
    qtbot.keyClick(editor, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier)
    assert ids(doc) == before and doc.undo_stack.count() == 0  # not duplicated
    qtbot.keyClick(editor, Qt.Key.Key_Return)  # the delegate commits on a queued call
    qtbot.waitUntil(lambda: doc.undo_stack.count() == 1)
    assert doc.bundle.counters[0].note == "bc"
    panel.table.setFocus()
    panel.select_ids([before[0]])
    qtbot.keyClick(panel.table, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier)
    assert ids(doc)[1] == f"{before[0]}-copy" and doc.undo_stack.count() == 2
    panel.select_ids([before[0]])
    qtbot.keyClick(panel.table, Qt.Key.Key_Delete)
    assert before[0] not in ids(doc) and doc.undo_stack.count() == 3


def test_delete_in_a_list_cell_editor_deletes_no_counter(qtbot: Any, tmp_path: Path) -> None:
    """The dock's Delete and Duplicate shortcuts do not fire while a list is open in a cell."""
    doc, panel = open_panel(qtbot, tmp_path)
    model = panel.model
    assert model is not None
    before = ids(doc)
    panel.select_ids([before[0]])
    ix = panel.proxy.mapFromSource(model.index(0, model.columns.index("side")))
    panel.table.setCurrentIndex(ix)
    panel.table.edit(ix)
    boxes = panel.table.viewport().findChildren(QComboBox)
    assert len(boxes) == 1
    qtbot.keyClick(boxes[0], Qt.Key.Key_Delete)
    qtbot.keyClick(boxes[0], Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier)
    assert ids(doc) == before and doc.undo_stack.count() == 0


def test_double_click_on_an_id_renames_through_the_dialog(qtbot: Any, tmp_path: Path) -> None:
    """The interactive path: double-click the id, type the new id in the dialog, OK."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    doc, panel = open_panel(qtbot, tmp_path)
    model = panel.model
    assert model is not None
    row = ids(doc).index(RENAMED)
    ix = panel.proxy.mapFromSource(model.index(row, 0))
    panel.table.setCurrentIndex(ix)
    seen: list[str] = []

    def answer() -> None:
        dlg = QApplication.activeModalWidget()
        assert isinstance(dlg, RenameCounterDialog)
        dlg.edit.setText("c1-i-919-dc")
        seen.append(dlg.summary.text())
        dlg.buttons.button(QDialogButtonBox.StandardButton.Ok).click()

    QTimer.singleShot(0, answer)
    panel.table.doubleClicked.emit(ix)
    assert seen and seen[0].startswith("2 references will change")
    assert "c1-i-919-dc" in ids(doc) and doc.undo_stack.count() == 1
    assert se.setup_entry(doc.bundle.scenarios["night-drop"], "c1-i-919-dc") is not None


OPS = ("add", "duplicate", "delete", "note", "side", "bad_steps", "add_back", "remove_back", "rename")


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(OPS), st.integers(0, 50), st.integers(0, 50)), min_size=1, max_size=8))
def test_law_undo_walks_back_through_every_state(qtbot: Any, ops: list[tuple[str, int, int]]) -> None:
    """Law: after any sequence of counter edits, each undo gives back the texts the document
    had before that edit (so undo-all gives the loaded files), and redo-all the final texts.
    A refused edit leaves no step. On the small fixture bundle (fast to open)."""
    from helpers import MINI

    doc, diags = MapDocument.open(MINI)
    assert doc is not None, diags
    panel = CounterPanel(doc)
    qtbot.addWidget(panel)
    doc.changed.connect(lambda _change: panel.refresh())
    panel.refresh()
    states = [doc.dump()]
    for op, a, b in ops:
        counters = doc.bundle.counters
        pick = [counters[a % len(counters)], counters[b % len(counters)]] if counters else []
        if pick:
            panel.select_ids([c.id for c in pick])
        steps = doc.undo_stack.count()
        if op == "add":
            panel.actions_by_id["counters.add"].trigger()
        elif op == "duplicate" and pick:
            panel.duplicate_selected()
        elif op == "delete" and pick:
            panel.delete_selected()
        elif op == "note" and pick:
            panel.set_column(panel.selected_counters(), "note", f"n{a}")
        elif op == "side" and pick:
            panel.set_column(panel.selected_counters(), "side", doc.system.sides[b % len(doc.system.sides)].id)
        elif op == "bad_steps" and pick:
            assert panel.set_column(panel.selected_counters(), "count", "0")  # refused
            assert doc.undo_stack.count() == steps and doc.dump() == states[-1]
        elif op == "add_back":
            panel.add_back_selected()
        elif op == "remove_back":
            panel.remove_back_selected()
        elif op == "rename" and pick:
            panel.rename(pick[0].id, ce.free_counter_id(doc.bundle, f"r{a}"))
        if doc.undo_stack.count() > steps:
            assert doc.undo_stack.count() == steps + 1  # every action is one step
            states.append(doc.dump())
    final = states[-1]
    for expected in reversed(states[:-1]):
        doc.undo_stack.undo()
        assert doc.dump() == expected
    while doc.undo_stack.canRedo():
        doc.undo_stack.redo()
    assert doc.dump() == final
