"""File ▸ New Bundle… (issue #18 part 1): the wizard of editor/new_bundle_wizard.py over
model/new_bundle.py, driven for each shipped system through the window's menu action.

What is checked: the live corner-label preview equals ``model.new_bundle.corner_labels`` of the
system's own label scheme (never a hard-coded guess) and has each game's printed form; it
follows keystrokes; a bad scheme's ``plan_problems`` appear on the page and Next stays
disabled; Finish writes a bundle that ``python -m hexproof validate`` passes (exit 0) and that
is at once the window's document; an existing bundle or a non-empty folder is refused with its
bytes unchanged; a dirty document is asked about before anything is written.

**Helper for end-to-end tests** — ``editor.new_bundle_wizard.fill_and_finish(wizard, system,
name, folder, size=None, terrain=None, labels=None) -> Path``: drives an open wizard (e.g.
``window.new_bundle()``, or the ``file.new`` action's ``window.new_bundle_wizard``) from its
first page to Finish as a user would — ``system`` a shipped id or a system file's path,
``folder`` new or empty, ``size`` the first sheet's (columns, rows), ``labels`` LabelScheme
field → value, ``terrain`` a terrain id (default: the system's first) — and returns the new
bundle's folder. It raises AssertionError naming the page and the problem shown there when a
page refuses to go on. The window opens the bundle when Finish succeeds; see
:func:`_new_via_menu` below for the whole path.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QMessageBox, QWizard

from conftest import REPO
from editor.commands import PaintTerrain
from editor.main_window import MainWindow
from editor.new_bundle_wizard import NewBundleWizard, PageId, fill_and_finish
from helpers import MINI, no_modal_prompts  # noqa: F401
from model.bundle import load_bundle
from model.diagnostics import Severity
from model.new_bundle import corner_labels, default_scheme, default_sheets, load_plan_system, plan_problems

# The printed form of each game's hex numbers, as its rules print them:
#  SFN 3.4: "the LXXXI Corps sets up in hex 1414. That unit could therefore be placed by the
#           German player in that particular hex or 1313, 1314, 1413, 1415, 1513 or 1514."
#  GTS Utah Excl 4.4.7: "The St-Martin Bty is in hex 30.027 and the Assault Force marker for
#           Assault Force Utah – South (UtS) is in hex 20.025"
#  TKG [11.2.1]: "It may not move more than 6 hexes from N1511." (the N sheet's hexes carry
#           its letter; W and E sheets likewise)
PRINTED = {"sfn": re.compile(r"\d{4}"), "gts-utah": re.compile(r"\d{2,3}\.\d{3}"), "tkg": re.compile(r"N\d{4}")}


@pytest.fixture
def window(qtbot: Any) -> MainWindow:
    w = MainWindow(autosave_seconds=3600)
    qtbot.addWidget(w)
    w.show()
    return w


def _open_wizard(window: MainWindow) -> NewBundleWizard:
    """File ▸ New Bundle… through its menu action, as a click would."""
    window.actions_by_id["file.new"].trigger()
    wizard = window.new_bundle_wizard
    assert wizard is not None and wizard.isVisible()
    return wizard


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _validate(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "hexproof", "validate", str(root)], cwd=REPO,
                          capture_output=True, text=True, timeout=120)


def _new_via_menu(window: MainWindow, system: str, folder: Path, size: tuple[int, int]) -> Path:
    wizard = _open_wizard(window)
    return fill_and_finish(wizard, system, f"Test {system}", folder, size=size)


def test_new_bundle_is_the_file_menus_new_command(window: MainWindow) -> None:
    """One "new" command: File ▸ New Bundle… has the platform's New shortcut, no other action
    shares it, and the old New Map is gone from the menus."""
    act = window.actions_by_id["file.new"]
    assert act.text().replace("&", "") == "New Bundle…"
    assert act.shortcut() == QKeySequence(QKeySequence.StandardKey.New)
    clashes = [a.objectName() for a in window.findChildren(type(act))
               if a is not act and not a.shortcut().isEmpty() and a.shortcut() == act.shortcut()]
    assert clashes == []
    texts = [a.text().replace("&", "") for a in window.menuBar().actions()[0].menu().actions()]
    assert "New Bundle…" in texts and not any("New Map" in t for t in texts)


@pytest.mark.parametrize("system_id", sorted(PRINTED))
def test_wizard_makes_a_bundle_that_validates_and_opens(window: MainWindow, qtbot: Any, tmp_path: Path,
                                                        system_id: str) -> None:
    """Drive every page for a shipped system: the preview shows the system's corner labels in
    its printed form, Finish writes the bundle, it validates clean and is the open document."""
    system = load_plan_system(system_id)
    wizard = _open_wizard(window)
    assert wizard.system_page.select(system_id)
    wizard.next()
    wizard.folder_page.name.setText("Field Test")
    wizard.folder_page.set_folder(tmp_path / "field-test")
    assert wizard.folder_page.isComplete(), wizard.folder_page.problem.text()
    wizard.next()
    assert wizard.currentId() == int(PageId.MAP)
    page = wizard.map_page
    page.cols.setValue(33)
    page.rows.setValue(21)
    (sheet,) = default_sheets(system, 33, 21)
    expected = corner_labels(33, 21, default_scheme(system, sheet.id, 21))
    assert page.preview.corners == {sheet.id: expected}
    assert all(PRINTED[system_id].fullmatch(label) for label in expected.values()), expected
    assert page.isComplete() and page.problem.text() == ""
    wizard.next()
    first = system.terrain[0].id
    assert wizard.terrain_page.current() == first
    wizard.terrain_page.select(system.terrain[-1].id)
    wizard.next()
    assert wizard.currentId() == int(PageId.SUMMARY)
    summary = wizard.summary_page.text.toPlainText()
    assert "maps/map.yaml" in summary and "game.yaml" in summary and expected["SE"] in summary
    wizard.button(QWizard.WizardButton.FinishButton).click()
    root = (tmp_path / "field-test").absolute()
    assert wizard.result_bundle is not None and wizard.result_bundle.root == root
    qtbot.waitUntil(lambda: not wizard.isVisible())
    assert window.doc is not None and Path(window.doc.path) == root and not window.doc.is_modified
    assert window.doc.system.id == system.id
    hmap = window.doc.hmap
    assert hmap.size() == (33, 21)
    assert {hmap.terrain_at(h) for h in hmap.hexes()} == {system.terrain[-1].id}
    assert {hmap.label(h) for h in hmap.hexes()} >= set(expected.values())
    done = _validate(root)
    assert done.returncode == 0, done.stdout + done.stderr
    runner = window.diagnostics.runner  # the window's live validation agrees: no error
    assert runner is not None
    qtbot.waitUntil(lambda: not runner.busy and runner.completed == runner.generation, timeout=30000)
    assert [d.render() for d in window.diagnostics.diagnostics if d.severity >= Severity.ERROR] == []


def test_preview_follows_each_keystroke(window: MainWindow, qtbot: Any) -> None:
    """Typing a size or a label field updates the corner labels at every key, not on leaving
    the field."""
    system = load_plan_system("sfn")
    wizard = _open_wizard(window)
    assert wizard.system_page.select("sfn")
    wizard.next()
    wizard.next()
    page = wizard.map_page
    sid = page.drafts[0].id
    rows = page.rows.value()
    page.cols.lineEdit().selectAll()
    qtbot.keyClicks(page.cols.lineEdit(), "4")
    assert page.preview.corners[sid] == corner_labels(4, rows, default_scheme(system, sid, rows))
    qtbot.keyClicks(page.cols.lineEdit(), "1")
    assert page.preview.corners[sid] == corner_labels(41, rows, default_scheme(system, sid, rows))
    qtbot.keyClicks(page.prefix, "A")
    scheme = default_scheme(system, sid, rows).model_copy(update={"prefix": "A"})
    assert page.preview.corners[sid] == corner_labels(41, rows, scheme)
    assert page.preview.corners[sid]["NW"].startswith("A")


def test_a_scheme_that_cannot_label_the_map_is_shown_and_blocks_next(window: MainWindow) -> None:
    """plan_problems inline: 120 columns do not fit in two digits without a separator."""
    wizard = _open_wizard(window)
    assert wizard.system_page.select("sfn")
    wizard.next()
    wizard.next()
    page = wizard.map_page
    page.cols.setValue(120)
    assert "column numbers reach" in page.problem.text()
    assert not page.isComplete()
    assert not wizard.button(QWizard.WizardButton.NextButton).isEnabled()
    page.col_digits.setValue(3)
    assert page.problem.text() == "" and page.isComplete()
    assert wizard.button(QWizard.WizardButton.NextButton).isEnabled()


def test_second_sheet_takes_the_systems_next_printed_sheet(window: MainWindow, tmp_path: Path) -> None:
    """A system whose grid prints several sheets offers them by id, each with its own scheme
    (a northward-numbered sheet starts from its southern row); sheets that overlap are refused."""
    system = load_plan_system("tkg")
    wizard = _open_wizard(window)
    assert wizard.system_page.select("tkg")
    wizard.next()
    wizard.folder_page.set_folder(tmp_path / "two-sheets")
    wizard.next()
    page = wizard.map_page
    first = page.drafts[0]
    added = page.add_next_sheet()
    assert added.id != first.id and (added.x0, added.y0) == (first.x0 + first.cols, 0)
    assert page.preview.corners[added.id] == corner_labels(added.cols, added.rows,
                                                           default_scheme(system, added.id, added.rows))
    page.x0.setValue(0)
    assert "overlap" in page.problem.text() and not page.isComplete()
    page.y0.setValue(first.rows)
    assert page.isComplete(), page.problem.text()
    wizard.next()
    wizard.next()
    wizard.button(QWizard.WizardButton.FinishButton).click()
    assert wizard.result_bundle is not None
    loaded = load_bundle(wizard.result_bundle.root).bundle
    assert loaded is not None
    assert [s.id for s in loaded.maps["map"].grid.sheets] == [first.id, added.id]


@pytest.mark.parametrize("what", ["bundle", "other files"])
def test_an_existing_bundle_or_a_full_folder_is_refused_and_unchanged(window: MainWindow, tmp_path: Path,
                                                                      what: str) -> None:
    """Never overwrites: the page says why, Next is disabled, and the folder's bytes stay."""
    if what == "bundle":
        folder = tmp_path / "mini"
        shutil.copytree(MINI, folder)
    else:
        folder = tmp_path / "notes"
        folder.mkdir()
        (folder / "readme.txt").write_text("mine\n", encoding="utf-8")
    before = _files(folder)
    wizard = _open_wizard(window)
    assert wizard.system_page.select("sfn")
    wizard.next()
    wizard.folder_page.set_folder(folder)
    shown = wizard.folder_page.problem.text()
    assert ("already holds a bundle" if what == "bundle" else "is not empty") in shown
    assert str(folder) in shown
    assert not wizard.button(QWizard.WizardButton.NextButton).isEnabled()
    wizard.next()
    assert wizard.currentId() == int(PageId.FOLDER)
    with pytest.raises(AssertionError, match="FOLDER"):
        fill_and_finish(wizard, "sfn", "Over it", folder, size=(10, 10))
    assert _files(folder) == before
    assert window.doc is None


def test_folder_filled_after_the_summary_is_refused_at_finish(window: MainWindow, tmp_path: Path) -> None:
    """The folder is checked again at Finish: a file that appeared meanwhile stops the write."""
    wizard = _open_wizard(window)
    assert wizard.system_page.select("sfn")
    wizard.next()
    folder = tmp_path / "late"
    wizard.folder_page.set_folder(folder)
    for _ in range(3):
        wizard.next()
    assert wizard.currentId() == int(PageId.SUMMARY)
    folder.mkdir()
    (folder / "game.yaml").write_text("id: theirs\n", encoding="utf-8")
    wizard.button(QWizard.WizardButton.FinishButton).click()
    assert wizard.result_bundle is None and wizard.isVisible()
    assert "already holds a bundle" in wizard.summary_page.problem.text()
    assert _files(folder) == {"game.yaml": b"id: theirs\n"}


def test_a_system_file_is_copied_into_the_bundle(window: MainWindow, tmp_path: Path) -> None:
    """"Choose System File…": the file is copied as system.yaml; the bundle opens and validates."""
    root = fill_and_finish(_open_wizard(window), str(MINI / "system.yaml"), "Own system", tmp_path / "own",
                           size=(6, 5))
    assert (root / "system.yaml").read_bytes() == (MINI / "system.yaml").read_bytes()
    assert window.doc is not None and Path(window.doc.path) == root
    done = _validate(root)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_broken_system_file_is_refused_on_the_page(window: MainWindow, tmp_path: Path) -> None:
    bad = tmp_path / "broken.yaml"
    bad.write_text("id: [unclosed\n", encoding="utf-8")
    wizard = _open_wizard(window)
    assert not wizard.system_page.choose_system_file(bad)
    shown = wizard.system_page.problem.text()
    assert "cannot be used" in shown and f"{bad.resolve()}:2:1" in shown  # located: file:line:col
    assert not wizard.system_page.isComplete()
    assert not wizard.button(QWizard.WizardButton.NextButton).isEnabled()
    text = tmp_path / "notes.txt"
    text.write_text("not a system\n", encoding="utf-8")
    assert not wizard.system_page.choose_system_file(text)
    assert "choose a .yaml file" in wizard.system_page.problem.text()


def _dirty(window: MainWindow, tmp_path: Path) -> Path:
    copy = tmp_path / "mine"
    shutil.copytree(MINI, copy)
    assert window.open_path(copy)
    assert window.doc is not None
    window.doc.push(PaintTerrain(window.doc, {window.doc.hmap.parse("0502"): "woods"}))
    assert window.doc.is_modified
    return copy


def test_finish_asks_about_unsaved_changes_and_cancel_writes_nothing(window: MainWindow, tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """With a modified document, Finish asks first; Cancel keeps the document and the wizard
    open and writes nothing."""
    _dirty(window, tmp_path)
    doc = window.doc
    asked: list[bool] = []
    monkeypatch.setattr(window, "ask_save", lambda: asked.append(True) or QMessageBox.StandardButton.Cancel)
    wizard = _open_wizard(window)
    with pytest.raises(AssertionError, match="Finish"):
        fill_and_finish(wizard, "sfn", "Not now", tmp_path / "not-now", size=(8, 6))
    assert asked == [True]
    assert not (tmp_path / "not-now").exists()
    assert window.doc is doc and doc is not None and doc.is_modified
    assert "nothing written" in wizard.summary_page.problem.text()


def test_finish_after_discard_opens_the_new_bundle(window: MainWindow, tmp_path: Path, qtbot: Any) -> None:
    """helpers.no_modal_prompts answers Discard: the new bundle replaces the document, the old
    bundle's files are as they were on disk."""
    copy = _dirty(window, tmp_path)
    before = _files(copy)
    root = fill_and_finish(_open_wizard(window), "gts-utah", "After discard", tmp_path / "after", size=(12, 9))
    assert window.doc is not None and Path(window.doc.path) == root
    assert _files(copy) == before
    assert window.statusBar().currentMessage() == f"Created {root}"


def test_folder_name_follows_the_name_until_edited(window: MainWindow, qtbot: Any) -> None:
    page = _open_wizard(window).folder_page
    page.name.setText("Bastogne '44")
    assert page.folder_name.text() == "bastogne-44"
    page.folder_name.clear()
    qtbot.keyClicks(page.folder_name, "mine")
    page.name.setText("Something else")
    assert page.folder_name.text() == "mine"
    page.name.setText("")
    assert "needs a name" in page.problem.text() and not page.isComplete()


def test_terrain_page_lists_the_systems_terrain_with_swatches(window: MainWindow) -> None:
    system = load_plan_system("sfn")
    wizard = _open_wizard(window)
    assert wizard.system_page.select("sfn")
    for _ in range(3):
        wizard.next()
    listing = wizard.terrain_page.terrain
    assert [listing.item(i).data(Qt.ItemDataRole.UserRole) for i in range(listing.count())] == \
        [t.id for t in system.terrain]
    icon = listing.item(0).icon().pixmap(18, 18).toImage()
    assert icon.pixelColor(9, 9).name() == system.terrain[0].color.lower()


def test_label_fields_reach_the_written_map(window: MainWindow, tmp_path: Path) -> None:
    """A label field changed on the Map page is the scheme of the written map's sheet."""
    system = load_plan_system("sfn")
    root = fill_and_finish(_open_wizard(window), "sfn", "Shifted", tmp_path / "shifted", size=(12, 8),
                           labels={"first_col": 1, "first_row": 1, "separator": "-"})
    scheme = default_scheme(system, "main", 8).model_copy(update={"first_col": 1, "first_row": 1, "separator": "-"})
    assert window.doc is not None and Path(window.doc.path) == root
    hmap = window.doc.hmap
    labels = {hmap.label(h) for h in hmap.hexes()}
    assert set(corner_labels(12, 8, scheme).values()) <= labels
    assert "01-01" in labels and "0000" not in labels


_EDITS = st.lists(st.one_of(
    st.tuples(st.sampled_from(["cols", "rows"]), st.integers(1, 150)),
    st.tuples(st.sampled_from(["col_digits", "row_digits"]), st.integers(1, 4)),
    st.tuples(st.sampled_from(["first_col", "first_row"]), st.integers(0, 120)),
    st.tuples(st.sampled_from(["col_step", "row_step"]), st.sampled_from([1, -1])),
    st.tuples(st.just("axis_order"), st.sampled_from(["col_row", "row_col"])),
    st.tuples(st.sampled_from(["prefix", "separator"]), st.sampled_from(["", ".", "A", "-"])),
), min_size=1, max_size=8)


@pytest.mark.parametrize("system_id", sorted(PRINTED))
def test_preview_and_next_follow_any_edits(window: MainWindow, system_id: str) -> None:
    """Law: after any sequence of size and label-field edits the preview shows
    corner_labels of the scheme the fields show, and Next is enabled exactly when
    plan_problems finds nothing."""
    system = load_plan_system(system_id)
    wizard = _open_wizard(window)
    assert wizard.system_page.select(system_id)
    wizard.next()
    wizard.next()
    page = wizard.map_page
    next_button = wizard.button(QWizard.WizardButton.NextButton)

    @settings(max_examples=25, deadline=None)
    @given(_EDITS)
    def check(edits: list[tuple[str, Any]]) -> None:
        for name, value in edits:
            widget = getattr(page, name)
            if hasattr(widget, "findData"):
                widget.setCurrentIndex(widget.findData(value))
            elif hasattr(widget, "setValue"):
                widget.setValue(value)
            else:
                widget.setText(value)
        (draft,) = page.drafts
        shown = {name: getattr(page, name).value() for name in ("col_digits", "row_digits", "first_col", "first_row")}
        shown |= {name: getattr(page, name).currentData() for name in ("axis_order", "col_step", "row_step")}
        shown |= {"prefix": page.prefix.text(), "separator": page.separator.text()}
        scheme = draft.scheme(system)
        assert scheme.model_dump() == {**scheme.model_dump(), **shown}
        assert (draft.cols, draft.rows) == (page.cols.value(), page.rows.value())
        assert page.preview.corners == {draft.id: corner_labels(draft.cols, draft.rows, scheme)}
        plan = wizard.plan()
        assert plan is not None
        assert next_button.isEnabled() == (not plan_problems(plan, system))

    check()
