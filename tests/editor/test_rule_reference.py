"""Help ▸ Rule Reference (F1): the rulebook text when it is found; when it is missing a plain
note, a file dialog whose choice is remembered (QSettings, per game system); and the case
titles of the bundle's rulebook index when no text is available at all (a plain install)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QFileDialog

from conftest import REPO, SETTINGS_DIR, rulebook_path, use_settings_dir
from editor.main_window import MainWindow
from editor.rule_reference import RuleReferenceDialog, rulebook_candidates, settings_key
from helpers import MINI, no_modal_prompts  # noqa: F401 (autouse fixture)

UTAH = REPO / "scenarios" / "utah-beach"
MINI_RULES = "1.0 Introduction\n\nSome words.\n\n2.0 Moving\n\n2.1 Roads\n\nRoads are fast.\n"
MINI_INDEX = "rulebook:\n  source: rules/mini-rules.txt\n  cases:\n    '1.0': Introduction\n    '2.1': Roads\n"


@pytest.fixture
def settings(tmp_path: Path) -> Iterator[Path]:
    """This test's own QSettings folder, so a remembered choice cannot leak into another test."""
    d = tmp_path / "settings"
    d.mkdir()
    use_settings_dir(d)
    yield d
    use_settings_dir(SETTINGS_DIR)


def _mini(tmp_path: Path, with_text: bool) -> Path:
    root = tmp_path / "mini"
    shutil.copytree(MINI, root)
    with (root / "game.yaml").open("a", encoding="utf-8") as f:
        f.write(MINI_INDEX)
    if with_text:
        (root / "rules").mkdir()
        (root / "rules" / "mini-rules.txt").write_text(MINI_RULES, encoding="utf-8")
    return root


def _f1(qtbot: Any, path: Path) -> tuple[MainWindow, RuleReferenceDialog]:
    w = MainWindow(autosave_seconds=3600)
    qtbot.addWidget(w)
    assert w.open_path(path) and w.doc is not None
    w.actions_by_id["help.rules"].trigger()
    dialog = w.rule_reference_dialog
    assert dialog is not None and dialog.isVisible()
    return w, dialog


def _no_file_dialog(monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(*args: Any, **kwargs: Any) -> tuple[str, str]:
        raise AssertionError("the file dialog must not open")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", fail)


def test_f1_is_the_rule_reference_shortcut(qtbot: Any) -> None:
    w = MainWindow(autosave_seconds=3600)
    qtbot.addWidget(w)
    assert w.actions_by_id["help.rules"].shortcut().toString() == "F1"


def test_text_found_beside_the_bundle(qtbot: Any, tmp_path: Path, settings: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    _no_file_dialog(monkeypatch)
    root = _mini(tmp_path, with_text=True)
    _, dialog = _f1(qtbot, root)
    assert dialog.text_path == (root / "rules" / "mini-rules.txt").resolve()
    assert dialog.text.isVisibleTo(dialog) and not dialog.choose_button.isVisibleTo(dialog)
    assert dialog.text.toPlainText() == MINI_RULES
    assert dialog.case_titles() == ["1.0  Introduction", "2.1  Roads"]
    assert dialog.show_case("2.1")
    assert dialog.text.textCursor().blockNumber() == 6  # line 7: "2.1 Roads"
    dialog.filter.setText("road")
    assert dialog.case_titles() == ["2.1  Roads"]


def test_text_found_in_shared_above_the_bundle(qtbot: Any, tmp_path: Path, settings: Path) -> None:
    """The working-copy layout: <parent>/shared/rules/<name> beside the folder holding the bundle."""
    root = _mini(tmp_path / "work" / "repo", with_text=False)
    shared = tmp_path / "work" / "shared" / "rules"
    shared.mkdir(parents=True)
    (shared / "mini-rules.txt").write_text(MINI_RULES, encoding="utf-8")
    _, dialog = _f1(qtbot, root)
    assert dialog.text_path == (shared / "mini-rules.txt").resolve()


def test_missing_text_says_so_then_choose_is_remembered(qtbot: Any, tmp_path: Path, settings: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    root = _mini(tmp_path / "bundles", with_text=False)
    elsewhere = tmp_path / "downloads" / "my-copy.txt"
    elsewhere.parent.mkdir()
    elsewhere.write_text(MINI_RULES, encoding="utf-8")
    w, dialog = _f1(qtbot, root)
    assert dialog.text_path is None and not dialog.text.isVisibleTo(dialog)
    assert dialog.choose_button.isVisibleTo(dialog)
    banner = dialog.banner.text()
    assert "rules/mini-rules.txt was not found" in banner and "choose the text file" in banner
    assert dialog.case_titles() == ["1.0  Introduction", "2.1  Roads"]  # the index meanwhile

    asked: list[str] = []
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        lambda *a, **k: (asked.append("yes") or str(elsewhere), "Text files (*.txt)"))
    dialog.choose_button.click()
    assert asked == ["yes"] and dialog.text_path == elsewhere
    assert dialog.text.toPlainText() == MINI_RULES and dialog.show_case("1.0")
    assert w.doc is not None
    assert QSettings("Hexproof", "Hexproof").value(settings_key(w.doc.system.id)) == str(elsewhere)
    assert Path(QSettings("Hexproof", "Hexproof").fileName()).is_relative_to(settings)

    # Next time (a new window, settings read afresh) the choice is used without asking.
    _no_file_dialog(monkeypatch)
    _, again = _f1(qtbot, root)
    assert again is not dialog and again.text_path == elsewhere and not again.choose_button.isVisibleTo(again)


def test_a_remembered_file_that_is_gone_is_said_plainly(qtbot: Any, tmp_path: Path, settings: Path) -> None:
    root = _mini(tmp_path, with_text=False)
    QSettings("Hexproof", "Hexproof").setValue(settings_key("mini"), str(tmp_path / "deleted.txt"))
    _, dialog = _f1(qtbot, root)
    assert dialog.text_path is None
    assert f"The file chosen before, {tmp_path / 'deleted.txt'}, is no longer there" in dialog.banner.text()


def test_choosing_a_file_that_is_not_text_is_refused_and_not_remembered(
        qtbot: Any, tmp_path: Path, settings: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _mini(tmp_path, with_text=False)
    binary = tmp_path / "scan.pdf"
    binary.write_bytes(b"%PDF-1.7\n\xff\xfe\x00\x81 not text")
    w, dialog = _f1(qtbot, root)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(binary), ""))
    assert dialog.choose_text() is None
    assert "cannot be read: it is not UTF-8 text" in dialog.banner.text()
    assert dialog.text_path is None
    assert w.doc is not None and QSettings("Hexproof", "Hexproof").value(settings_key(w.doc.system.id)) is None


def test_index_only_fallback_on_the_default_sample(qtbot: Any, tmp_path: Path, settings: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A plain install: the Utah Beach sample without any rulebook text still lists the case
    titles of its game.yaml index."""
    root = tmp_path / "utah-beach"
    shutil.copytree(UTAH, root)
    _, dialog = _f1(qtbot, root)
    assert all(not p.exists() for p in rulebook_candidates(dialog.bundle))  # the premise: no text anywhere
    assert dialog.text_path is None and not dialog.text.isVisibleTo(dialog)
    assert "rules/gts-utah-beach.txt was not found" in dialog.banner.text()
    book = dialog.bundle.game.rulebook
    assert book is not None and len(dialog.case_titles()) == len(book.cases) > 50
    assert "1.0  Introduction" in dialog.case_titles()
    assert not dialog.show_case("1.0")  # no text to scroll to, and no crash


def test_default_sample_reads_the_shared_rulebook_where_present(qtbot: Any, settings: Path) -> None:
    """In a working copy or CI (../shared/rules present) F1 shows the real text."""
    expected = rulebook_path("gts-utah-beach.txt")  # skips in a plain clone
    _, dialog = _f1(qtbot, UTAH)
    assert dialog.text_path == expected.resolve()
    assert dialog.show_case("1.0")
