"""Undo commands for the bundle's list of scenarios (Scenario menu): New Scenario, New Variant,
Duplicate Scenario, Rename Scenario and Delete Scenario, over the pure edits in
:mod:`model.scenario_crud`.

An edit can be refused (an id in use, a base others extend, the last scenario of a bundle that
lists none): :meth:`ScenarioListCommand.apply` runs it before the command goes on the stack,
so a refusal raises there and nothing is pushed; the stack's first ``redo`` then only reports
the change. Every later redo runs the edit again, and undo restores what it replaced. Each
emits :class:`~model.changes.ScenarioListChanged`, which re-validates the whole bundle and
tells the scenario chooser which scenario to show.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from editor.commands.base import MapCommand
from model import scenario_crud as crud
from model.changes import ScenarioListChanged
from model.scenario_edits import MultiUndo, Undo

if TYPE_CHECKING:
    from editor.document import MapDocument


class ScenarioListCommand(MapCommand):
    """Runs ``edit(bundle)``; shows ``after`` once done and ``before`` once undone."""

    def __init__(self, doc: "MapDocument", text: str, edit: Callable[[Any], Undo],
                 after: str | None, before: str | None) -> None:
        super().__init__(doc, text)
        self._edit = edit
        self.after, self.before = after, before
        self._undo: Undo | None = None
        self._applied = False  # apply() ran the edit: the first redo must not run it again

    def apply(self) -> None:
        """Run the edit now (before the push); ValueError/KeyError: refused, nothing changed."""
        self._undo = self._edit(self.doc.bundle)
        self._applied = True

    def redo(self) -> None:
        if not self._applied:
            self._undo = self._edit(self.doc.bundle)
        self._applied = False
        self.emit(ScenarioListChanged(None, None, self.after))

    def undo(self) -> None:
        assert self._undo is not None
        self._undo.undo()
        self.emit(ScenarioListChanged(None, None, self.before))


class NewScenario(ScenarioListCommand):
    def __init__(self, doc: "MapDocument", sid: str, title: str, shown: str | None,
                 turns: tuple[int | str, int | str] | None = None) -> None:
        super().__init__(doc, f"New scenario {sid}", lambda b: crud.new_scenario(b, sid, title, turns=turns),
                         sid, shown)


class NewVariant(ScenarioListCommand):
    def __init__(self, doc: "MapDocument", base: str, sid: str, title: str) -> None:
        super().__init__(doc, f"New variant {sid} of {base}", lambda b: crud.new_variant(b, base, sid, title),
                         sid, base)


class DuplicateScenario(ScenarioListCommand):
    def __init__(self, doc: "MapDocument", source: str, sid: str, title: str | None) -> None:
        super().__init__(doc, f"Duplicate scenario {source}",
                         lambda b: crud.duplicate_scenario(b, source, sid, title), sid, source)


class RenameScenario(ScenarioListCommand):
    """A new id (and every ``extends:`` naming the old one) and, if given, a new title."""

    def __init__(self, doc: "MapDocument", old: str, new: str, title: str | None = None) -> None:
        def edit(bundle: Any) -> Undo:
            parts: list[Undo] = []
            if new != old:
                parts.append(crud.rename_scenario(bundle, old, new))
            try:
                if title is not None and title.strip() != bundle.scenarios[new].name:
                    parts.append(crud.retitle_scenario(bundle, new, title))
            except ValueError:
                for part in reversed(parts):
                    part.undo()
                raise
            if not parts:
                raise ValueError("nothing to rename: the id and title are as they were")
            return MultiUndo(parts)

        super().__init__(doc, f"Rename scenario {old}" + (f" to {new}" if new != old else ""), edit, new, old)


class DeleteScenario(ScenarioListCommand):
    """Delete a scenario, and with ``with_dependents`` every scenario that extends it."""

    def __init__(self, doc: "MapDocument", sid: str, with_dependents: bool = False) -> None:
        self.deleted: crud.Deleted | None = None

        def edit(bundle: Any) -> Undo:
            self.deleted = crud.delete_scenario(bundle, sid, with_dependents=with_dependents)
            return self.deleted.undo

        others = [k for k in doc.bundle.scenarios if k != sid and k not in crud.scenario_dependents(doc.bundle, sid)]
        text = f"Delete scenario {sid}" + (" and its variants" if with_dependents else "")
        super().__init__(doc, text, edit, others[0] if others else None, sid)
