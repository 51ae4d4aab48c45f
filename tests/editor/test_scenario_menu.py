"""The Scenario menu (editor/scenario/menu.py): New Scenario, New Variant, Duplicate, Rename and
Delete are each one undo step, ids are checked as they are typed, Delete of a scenario others
extend asks first and names them, the chooser follows, and the bundle re-validates live."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QMessageBox

from conftest import REPO
from editor.main_window import MainWindow
from editor.scenario.menu import ScenarioMenu
from helpers import no_modal_prompts, show_window  # noqa: F401 (autouse fixture)
from model.bundle import load_bundle

UTAH = REPO / "scenarios" / "utah-beach"


def settle(qtbot: Any, w: MainWindow) -> None:
    r = w.diagnostics.runner
    assert r is not None
    r.flush()
    qtbot.waitUntil(lambda: not r.busy and r.completed == r.generation, timeout=30000)


@pytest.fixture()
def utah_copy(tmp_path: Path) -> Path:
    root = tmp_path / "utah-beach"
    shutil.copytree(UTAH, root)
    return root


def open_menu(qtbot: Any, path: Path = UTAH, sid: str = "night-drop") -> tuple[MainWindow, ScenarioMenu]:
    w = show_window(qtbot, path, (1300, 850))
    assert w.scenario_mode.open_scenario(sid)
    settle(qtbot, w)
    return w, w.scenario_mode.menu


def chooser_ids(w: MainWindow) -> list[str]:
    c = w.scenario_mode.chooser
    return [c.itemData(i) for i in range(c.count())]


def current(w: MainWindow) -> str | None:
    return w.scenario_mode.chooser.currentData()


def test_menu_sits_before_help_with_its_items(qtbot: Any) -> None:
    w, menu = open_menu(qtbot)
    titles = [a.text().replace("&", "") for a in w.menuBar().actions()]
    assert titles.index("Scenario") == titles.index("Help") - 1
    names = [a.objectName() for a in menu.menu.actions() if not a.isSeparator()]
    assert names == ["scenario.new", "scenario.new_variant", "scenario.duplicate", "scenario.rename",
                     "scenario.delete", "scenario.properties"]
    assert all(a.isEnabled() and a.statusTip() for a in menu.actions.values())


def test_new_scenario_from_the_menu_is_one_undo_step_and_the_chooser_follows(qtbot: Any, monkeypatch: Any) -> None:
    w, menu = open_menu(qtbot)
    doc = w.doc
    assert doc is not None
    monkeypatch.setattr(menu, "ask_id", lambda *a, **k: ("fresh", "A fresh scenario"))
    start = doc.undo_stack.index()
    w.actions_by_id["scenario.new"].trigger()
    assert "fresh" in doc.bundle.scenarios and doc.bundle.scenarios["fresh"].name == "A fresh scenario"
    assert doc.undo_stack.index() == start + 1 and doc.undo_stack.undoText() == "New scenario fresh"
    assert "fresh" in chooser_ids(w) and current(w) == "fresh"
    assert w.active_mode is w.scenario_mode
    assert w.scenario_mode.panels.properties.title.text() == "A fresh scenario"  # type: ignore[union-attr]
    doc.undo_stack.undo()
    assert "fresh" not in doc.bundle.scenarios and "fresh" not in chooser_ids(w) and current(w) == "night-drop"
    doc.undo_stack.redo()
    assert current(w) == "fresh"


def test_new_scenario_saves_its_file_and_lists_it_in_game_yaml(qtbot: Any, utah_copy: Path, monkeypatch: Any) -> None:
    w, menu = open_menu(qtbot, utah_copy)
    game = utah_copy / "game.yaml"
    before = game.read_text(encoding="utf-8").splitlines()
    assert menu.new_scenario("fresh", "A fresh scenario")
    # File ▸ Save: the new file is not mistaken for one another program changed on disk.
    monkeypatch.setattr(w, "ask_overwrite", lambda files, summary: pytest.fail(f"asked to overwrite {files}"))
    assert w.save() and not w.doc.is_modified  # type: ignore[union-attr]
    after = game.read_text(encoding="utf-8").splitlines()
    changed = [i for i, (a, b) in enumerate(zip(before, after)) if a != b]
    assert len(before) == len(after) and len(changed) == 1 and "scenarios/fresh.yaml" in after[changed[0]]
    assert (utah_copy / "scenarios" / "fresh.yaml").read_text(encoding="utf-8") == \
        "schema_version: 1\nid: fresh\nname: A fresh scenario\n"
    again = load_bundle(utah_copy)
    assert again.bundle is not None and "fresh" in again.bundle.scenarios


def test_variant_duplicate_rename_follow_and_undo(qtbot: Any) -> None:
    w, menu = open_menu(qtbot)
    doc = w.doc
    assert doc is not None
    assert menu.new_variant("night-drop-v", "Night Drop, varied")
    assert doc.bundle.scenarios["night-drop-v"].extends == "night-drop" and current(w) == "night-drop-v"
    assert chooser_ids(w).index("night-drop-v") == chooser_ids(w).index("night-drop") + 1  # placed after its base
    assert menu.duplicate("night-drop-v2", None)
    assert doc.bundle.scenarios["night-drop-v2"].name == "Night Drop, varied (copy)" and current(w) == "night-drop-v2"
    w.scenario_mode.selection.set_scenario("night-drop")  # type: ignore[union-attr]
    assert menu.rename("nd", "Night Drop, renamed")
    assert "night-drop" not in doc.bundle.scenarios and current(w) == "nd"
    assert {doc.bundle.scenarios[k].extends for k in ("night-drop-v", "night-drop-leader-losses")} == {"nd"}
    assert doc.undo_stack.undoText() == "Rename scenario night-drop to nd"
    doc.undo_stack.undo()
    assert current(w) == "night-drop" and doc.bundle.scenarios["night-drop-v"].extends == "night-drop"
    assert doc.bundle.scenarios["night-drop"].name.startswith("Night Drop (101st")
    for _ in range(2):
        doc.undo_stack.undo()
    assert not doc.bundle.pending_texts()


def test_ids_are_checked_as_typed(qtbot: Any) -> None:
    w, menu = open_menu(qtbot)
    dlg = menu.id_dialog("New Scenario", "fresh", "Fresh")
    qtbot.addWidget(dlg)
    assert dlg.accepted_ok and not dlg.problem.text()
    dlg.id_edit.setText("beach-landing")
    assert not dlg.accepted_ok and "exists" in dlg.problem.text()
    dlg.id_edit.setText("bad id!")
    assert not dlg.accepted_ok and "letters, digits" in dlg.problem.text()
    dlg.id_edit.setText("good-id")
    assert dlg.accepted_ok and dlg.values() == ("good-id", "Fresh")
    rename = menu.id_dialog("Rename", "night-drop", "Night Drop", keep="night-drop")
    qtbot.addWidget(rename)
    assert rename.accepted_ok  # its own id is accepted when renaming


def test_a_refused_edit_says_why_and_pushes_nothing(qtbot: Any) -> None:
    w, menu = open_menu(qtbot)
    doc = w.doc
    assert doc is not None
    start, shown = doc.undo_stack.index(), len(w.dialogs)
    assert not menu.new_scenario("beach-landing", "Again")
    assert doc.undo_stack.index() == start
    assert len(w.dialogs) == shown + 1 and "exists" in w.dialogs[-1].text()
    assert w.dialogs[-1].icon() == QMessageBox.Icon.Warning


def test_delete_of_an_extended_scenario_asks_naming_them(qtbot: Any, monkeypatch: Any) -> None:
    w, menu = open_menu(qtbot)
    doc = w.doc
    assert doc is not None
    asked: list[tuple[str, list[str]]] = []
    monkeypatch.setattr(menu, "ask_delete", lambda sid, deps: asked.append((sid, deps)) or "cancel")
    w.actions_by_id["scenario.delete"].trigger()
    assert asked == [("night-drop", ["night-drop-leader-losses", "night-drop-playtest"])]
    assert "night-drop" in doc.bundle.scenarios  # cancelled: nothing happened
    box, answers = menu.delete_box("night-drop", asked[0][1])
    assert "night-drop-leader-losses, night-drop-playtest" in box.text() and "with" in answers.values()
    box.deleteLater()
    monkeypatch.setattr(menu, "ask_delete", lambda sid, deps: "with")
    assert menu.delete()
    assert not {"night-drop", "night-drop-leader-losses", "night-drop-playtest"} & set(doc.bundle.scenarios)
    assert current(w) == "beach-landing" and chooser_ids(w) == ["beach-landing"]
    assert doc.undo_stack.undoText() == "Delete scenario night-drop and its variants"
    doc.undo_stack.undo()
    assert chooser_ids(w) == list(load_bundle(UTAH).bundle.scenarios) and current(w) == "night-drop"  # type: ignore[union-attr]
    assert not doc.bundle.pending_texts()


def test_delete_revalidates_the_bundle(qtbot: Any, monkeypatch: Any) -> None:
    """Findings about a deleted scenario go with it, and come back with undo."""
    w, menu = open_menu(qtbot, sid="beach-landing")
    doc = w.doc
    assert doc is not None

    def about(sid: str) -> list[str]:
        return [d.code for d in w.diagnostics.panel.diagnostics if d.location.scenario == sid]

    assert about("beach-landing"), "the sample's beach-landing has a finding to watch (CORE-STACK-001)"
    monkeypatch.setattr(menu, "ask_delete", lambda sid, deps: "delete")
    assert menu.delete()
    settle(qtbot, w)
    assert about("beach-landing") == [] and "beach-landing" not in doc.bundle.scenarios
    doc.undo_stack.undo()
    settle(qtbot, w)
    assert about("beach-landing")


def test_scenario_properties_item_opens_the_dock(qtbot: Any) -> None:
    w = show_window(qtbot, UTAH, (1300, 850))
    assert w.active_mode is not w.scenario_mode
    w.actions_by_id["scenario.properties"].trigger()
    assert w.active_mode is w.scenario_mode
    qtbot.waitUntil(lambda: w.scenario_mode.properties_dock.isVisible())


def test_a_new_scenario_is_validated_live(qtbot: Any) -> None:
    """The Utah pack warns about a scenario without victory tasks (GTS-VIC-001): an empty new
    scenario gets that finding once the bundle is re-validated, and loses it with undo."""
    w, menu = open_menu(qtbot)
    assert menu.new_scenario("fresh", "Fresh")
    settle(qtbot, w)
    assert "GTS-VIC-001" in {d.code for d in w.diagnostics.panel.diagnostics if d.location.scenario == "fresh"}
    w.doc.undo_stack.undo()  # type: ignore[union-attr]
    settle(qtbot, w)
    assert not [d for d in w.diagnostics.panel.diagnostics if d.location.scenario == "fresh"]
