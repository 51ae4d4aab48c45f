"""The Scenario menu: New Scenario…, New Variant…, Duplicate…, Rename…, Delete… and Scenario
Properties.

Each item pushes one undo command (editor/commands/scenario_list.py) on the document's stack,
so Edit ▸ Undo takes it back. Ids are asked for in a :class:`ScenarioIdDialog`, which checks them
as they are typed. Deleting a scenario that other scenarios extend asks first and names them
(delete it with them, or cancel). After New, New Variant and Duplicate the window switches to
Scenario mode on the new scenario; the chooser follows every change (ScenarioMode).

Every action has a method that takes its answers as arguments (``new_scenario("id", "Title")``),
so a test or a script can drive the menu without dialogs; with no arguments it asks. The ``ask_*``
methods are the dialogs (tests replace them, as they do the window's).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDialog, QMenu, QMessageBox

from editor.commands.scenario_list import (DeleteScenario, DuplicateScenario, NewScenario, NewVariant, RenameScenario,
                                           ScenarioListCommand)
from editor.scenario.id_dialog import ScenarioIdDialog
from model import scenario_crud as crud

if TYPE_CHECKING:
    from editor.main_window import MainWindow
    from editor.scenario.mode import ScenarioMode

# (object name, text, method, shortcut, status tip)
ITEMS = (
    ("scenario.new", "&New Scenario…", "new_scenario", "Ctrl+Alt+N", "Add an empty scenario to the bundle"),
    ("scenario.new_variant", "New &Variant…", "new_variant", None,
     "Add a variant that extends the current scenario (it changes nothing until edited)"),
    ("scenario.duplicate", "&Duplicate…", "duplicate", None, "Copy the current scenario under a new id"),
    ("scenario.rename", "&Rename…", "rename", None, "Change the current scenario's id and title"),
    ("scenario.delete", "De&lete…", "delete", None,
     "Remove the current scenario from the bundle (its file stays on disk, no longer listed)"),
)


class ScenarioMenu(QObject):
    def __init__(self, window: "MainWindow", mode: "ScenarioMode") -> None:
        super().__init__(window)
        self.window, self.mode = window, mode
        self.menu = QMenu("&Scenario", window)
        self.menu.setObjectName("scenario-menu")
        help_menu = next((a for a in window.menuBar().actions() if a.text().replace("&", "") == "Help"), None)
        window.menuBar().insertMenu(help_menu, self.menu) if help_menu is not None else window.menuBar().addMenu(self.menu)
        self.actions: dict[str, QAction] = {}
        for name, text, method, shortcut, tip in ITEMS:
            act = QAction(text, window)
            act.setObjectName(name)
            if shortcut:
                act.setShortcut(QKeySequence(shortcut))
            act.setStatusTip(tip)
            act.triggered.connect(lambda _=False, m=method: getattr(self, m)())
            if name == "scenario.delete":
                self.menu.addSeparator()
            self.menu.addAction(act)
            self.actions[name] = act
            window.actions_by_id[name] = act
        self.menu.addSeparator()
        props = QAction("Scenario &Properties", window)
        props.setObjectName("scenario.properties")
        props.setShortcut(QKeySequence("Ctrl+Alt+P"))
        props.setStatusTip("Show the current scenario's title, turns, optional and special rules, victory")
        props.triggered.connect(lambda _=False: self.show_properties())
        self.menu.addAction(props)
        self.actions["scenario.properties"] = props
        window.actions_by_id["scenario.properties"] = props
        self.menu.aboutToShow.connect(self.update_actions)
        self.update_actions()

    def update_actions(self) -> None:
        has_doc = self.mode.document is not None
        current = self.current()
        for name, act in self.actions.items():
            act.setEnabled(has_doc and (name == "scenario.new" or current is not None))

    # --- what the actions work on -------------------------------------------------------------

    def current(self) -> str | None:
        """The scenario the menu acts on: the one selected in Scenario mode."""
        sel = self.mode.selection
        if sel is None or sel.scenario_id not in self.mode.document.bundle.scenarios:  # type: ignore[union-attr]
            return None
        return sel.scenario_id

    def _check(self, sid: str) -> str | None:
        doc = self.mode.document
        return crud.scenario_id_problem(doc.bundle, sid) if doc is not None else "no bundle is open"

    def _push(self, cmd: ScenarioListCommand, follow: bool) -> bool:
        """Run the edit; a refusal is shown and nothing goes on the stack."""
        doc = self.mode.document
        assert doc is not None
        try:
            cmd.apply()
        except (ValueError, KeyError) as exc:
            self.window.message(QMessageBox.Icon.Warning, "Scenario", str(exc).strip("'\""))
            return False
        doc.push(cmd)
        if follow and cmd.after is not None:
            self.mode.open_scenario(cmd.after)
        return True

    # --- the actions ----------------------------------------------------------------------------

    def new_scenario(self, sid: str | None = None, title: str | None = None) -> bool:
        doc = self.mode.document
        if doc is None:
            return False
        if sid is None:
            got = self.ask_id("New Scenario", crud.free_scenario_id(doc.bundle), "New scenario",
                              "An empty scenario on the bundle's map; it gets its own file, listed in game.yaml.")
            if got is None:
                return False
            sid, title = got
        return self._push(NewScenario(doc, sid, title or sid, self.current()), follow=True)

    def new_variant(self, sid: str | None = None, title: str | None = None, base: str | None = None) -> bool:
        doc, base = self.mode.document, base or self.current()
        if doc is None or base is None:
            return False
        if sid is None:
            name = doc.bundle.scenarios[base].name
            got = self.ask_id("New Variant", crud.free_scenario_id(doc.bundle, f"{base}-variant"), f"{name} (variant)",
                              f"A variant that extends “{name}” ({base}): it changes nothing until you edit it.")
            if got is None:
                return False
            sid, title = got
        return self._push(NewVariant(doc, base, sid, title or sid), follow=True)

    def duplicate(self, sid: str | None = None, title: str | None = None, source: str | None = None) -> bool:
        doc, source = self.mode.document, source or self.current()
        if doc is None or source is None:
            return False
        if sid is None:
            name = doc.bundle.scenarios[source].name
            got = self.ask_id("Duplicate Scenario", crud.free_scenario_id(doc.bundle, f"{source}-copy"),
                              f"{name} (copy)", f"An independent copy of “{name}” ({source}).")
            if got is None:
                return False
            sid, title = got
        return self._push(DuplicateScenario(doc, source, sid, title), follow=True)

    def rename(self, new_id: str | None = None, title: str | None = None, source: str | None = None) -> bool:
        doc, source = self.mode.document, source or self.current()
        if doc is None or source is None:
            return False
        if new_id is None:
            extending = [k for k, s in doc.bundle.scenarios.items() if s.extends == source]
            got = self.ask_id("Rename Scenario", source, doc.bundle.scenarios[source].name,
                              "The file keeps its name." + (f" Variants that extend it follow the new id: "
                                                            f"{', '.join(extending)}." if extending else ""),
                              keep=source)
            if got is None:
                return False
            new_id, title = got
        return self._push(RenameScenario(doc, source, new_id, title), follow=False)

    def delete(self, source: str | None = None, with_dependents: bool | None = None) -> bool:
        """Delete ``source`` (default: the current scenario). When others extend it, asks
        (unless ``with_dependents`` is given): delete them with it, or cancel."""
        doc, source = self.mode.document, source or self.current()
        if doc is None or source is None:
            return False
        dependents = crud.scenario_dependents(doc.bundle, source)
        if dependents and with_dependents is None:
            if self.ask_delete(source, dependents) != "with":
                return False
            with_dependents = True
        elif not dependents and with_dependents is None:
            if self.ask_delete(source, []) != "delete":
                return False
        cmd = DeleteScenario(doc, source, bool(with_dependents))
        if not self._push(cmd, follow=False):
            return False
        if cmd.deleted is not None and cmd.deleted.unlisted_files:
            self.window.statusBar().showMessage(
                f"Deleted {', '.join(cmd.deleted.removed)}; on save game.yaml no longer lists "
                f"{', '.join(cmd.deleted.unlisted_files)} (the files stay on disk)", 10000)
        return True

    def show_properties(self) -> bool:
        """Scenario mode on the current scenario, with the Scenario Properties dock in front."""
        if not self.mode.open_scenario():
            return False
        self.mode.properties_dock.show()
        self.mode.properties_dock.raise_()
        return True

    # --- dialogs (tests replace these) ------------------------------------------------------------

    def ask_id(self, title: str, sid: str, name: str | None, intro: str = "",
               keep: str | None = None) -> tuple[str, str | None] | None:
        """(id, title) from a :class:`ScenarioIdDialog`, or None when cancelled. ``keep`` is an
        id that is accepted although it exists (the scenario being renamed keeps its own)."""
        dlg = self.id_dialog(title, sid, name, intro, keep)
        return dlg.values() if dlg.exec() == QDialog.DialogCode.Accepted else None

    def id_dialog(self, title: str, sid: str, name: str | None, intro: str = "",
                  keep: str | None = None) -> ScenarioIdDialog:
        def check(text: str) -> str | None:
            return None if keep is not None and text == keep else self._check(text)

        return ScenarioIdDialog(self.window, title, check, sid, name, intro)

    def delete_box(self, sid: str, dependents: list[str]) -> tuple[QMessageBox, dict[object, str]]:
        """The question Delete asks: the box and its buttons' answers."""
        doc = self.mode.document
        assert doc is not None
        name = doc.bundle.scenarios[sid].name
        box = QMessageBox(QMessageBox.Icon.Warning, "Delete Scenario", "", QMessageBox.StandardButton.NoButton,
                          self.window)
        answers: dict[object, str] = {}
        if dependents:
            box.setText(f"“{name}” ({sid}) is extended by {len(dependents)} other scenario"
                        f"{'s' if len(dependents) > 1 else ''}: {', '.join(dependents)}.")
            box.setInformativeText("Deleting it would leave them extending nothing. Delete them with it, or cancel "
                                   "(and change what they extend first). Edit ▸ Undo brings them all back.")
            answers[box.addButton(f"Delete {len(dependents) + 1} Scenarios", QMessageBox.ButtonRole.DestructiveRole)] = "with"
        else:
            box.setText(f"Delete the scenario “{name}” ({sid})?")
            box.setInformativeText("Its file stays on disk; game.yaml no longer lists it once saved. "
                                   "Edit ▸ Undo brings it back.")
            answers[box.addButton("Delete", QMessageBox.ButtonRole.DestructiveRole)] = "delete"
        cancel = box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(cancel)
        box.setEscapeButton(cancel)
        return box, answers

    def ask_delete(self, sid: str, dependents: list[str]) -> str:
        """"with" (delete with its dependents), "delete" (no dependents) or "cancel"."""
        box, answers = self.delete_box(sid, dependents)
        box.exec()
        return answers.get(box.clickedButton(), "cancel")
