"""Counter manifest undo commands (verb + noun) over the pure edits of model/counter_edits.py.

Every command wraps one pure edit that returns an undo record. The editor checks a typed
edit before it pushes it (a refused cell must leave no step on the stack), so the commands
here may be built from an edit that has *already been applied*: ``applied`` is then its undo
record, the first ``redo`` (which ``QUndoStack.push`` calls) only announces the change, and
later redos run the edit again. Every command is one undo step, however many counters or
references it changes; all emit ``PropertyChanged(owner="Counter")`` so the table, the
preview and the live validation refresh (a rename also changes scenarios: the runner
re-validates everything after a counter change).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from editor.commands.base import MapCommand
from model import counter_edits as ce
from model.changes import PropertyChanged
from model.counters import Counter
from model.scenario_edits import AttrUndo, MultiUndo, Undo

if TYPE_CHECKING:
    from editor.document import MapDocument


class CounterCommand(MapCommand):
    """Runs ``edit()`` in redo (unless ``applied`` says it ran already) and undoes its record.

    ``replays_list``: the edit gives the bundle a new counter list (add, duplicate, delete,
    import). Its first run keeps that list, and every later redo puts the *same* list back
    instead of running the edit again: a run again would make new counter objects, and the
    commands after this one on the stack hold the objects of the first run."""

    replays_list = False

    def __init__(self, doc: "MapDocument", text: str, edit: Callable[[], Undo], field: str,
                 applied: Undo | None = None) -> None:
        super().__init__(doc, text)
        self._edit = edit
        self._undo: Undo | None = applied
        self._pending_first = applied is not None
        self._after: list[Counter] | None = None
        self.field = field

    def _announce(self) -> None:
        self.emit(PropertyChanged(None, "Counter", self.field))

    def redo(self) -> None:
        bundle = self.doc.bundle
        if self._pending_first:
            self._pending_first = False
        elif self._after is not None:
            self._undo = AttrUndo(bundle, "counters", bundle.counters)
            bundle.counters = self._after
        else:
            self._undo = self._edit()
        if self.replays_list and self._after is None:
            self._after = bundle.counters
        self._announce()

    def undo(self) -> None:
        assert self._undo is not None
        self._undo.undo()
        self._announce()


class AddCounters(CounterCommand):
    """Append new counters (one step for all of them)."""

    replays_list = True

    def __init__(self, doc: "MapDocument", counters: list[Counter]) -> None:
        def edit() -> Undo:
            return MultiUndo([ce.add_counter(doc.bundle, c) for c in counters])

        what = f"counter {counters[0].id}" if len(counters) == 1 else f"{len(counters)} counters"
        super().__init__(doc, f"Add {what}", edit, "counters")
        self.counters = counters


class DuplicateCounters(CounterCommand):
    """A copy of each counter right after it, with a free ``<id>-copy`` id."""

    replays_list = True

    def __init__(self, doc: "MapDocument", ids: list[str]) -> None:
        self.new_ids: list[str] = []

        def edit() -> Undo:
            parts: list[Undo] = []
            self.new_ids = []
            for cid in ids:
                undo, new = ce.duplicate_counter(doc.bundle, cid)
                parts.append(undo)
                self.new_ids.append(new)
            return MultiUndo(parts)

        what = f"counter {ids[0]}" if len(ids) == 1 else f"{len(ids)} counters"
        super().__init__(doc, f"Duplicate {what}", edit, "counters")


class DeleteCounters(CounterCommand):
    replays_list = True
    def __init__(self, doc: "MapDocument", ids: list[str]) -> None:
        what = f"counter {ids[0]}" if len(ids) == 1 else f"{len(ids)} counters"
        super().__init__(doc, f"Delete {what}", lambda: ce.delete_counters(doc.bundle, ids), "counters")


class SetCounterFields(CounterCommand):
    """One column of several counters set from typed text (a cell, or a bulk edit).

    Built from edits already applied and checked (``applied``); a redo after undo sets the
    same texts again through the same typed check."""

    def __init__(self, doc: "MapDocument", counters: list[Counter], column: str, text: str, applied: Undo) -> None:
        def edit() -> Undo:
            parts = []
            for c in counters:
                result = ce.set_counter_field(doc.bundle, c, column, text)
                if result.undo is not None:
                    parts.append(result.undo)
            return MultiUndo(parts)

        who = counters[0].id if len(counters) == 1 else f"{len(counters)} counters"
        super().__init__(doc, f"Set {column} of {who}", edit, column, applied)


class AddBack(CounterCommand):
    def __init__(self, doc: "MapDocument", counters: list[Counter]) -> None:
        who = counters[0].id if len(counters) == 1 else f"{len(counters)} counters"
        super().__init__(doc, f"Add back to {who}", lambda: MultiUndo([ce.add_back(c) for c in counters]), "back")


class RemoveBack(CounterCommand):
    def __init__(self, doc: "MapDocument", counters: list[Counter]) -> None:
        who = counters[0].id if len(counters) == 1 else f"{len(counters)} counters"
        super().__init__(doc, f"Remove back of {who}", lambda: MultiUndo([ce.remove_back(c) for c in counters]),
                         "back")


class RenameCounter(CounterCommand):
    """A new id for a counter and every reference to it (setup, schedule, attachments,
    drop sticks, variant overrides, params, parents): one step."""

    def __init__(self, doc: "MapDocument", old: str, new: str) -> None:
        super().__init__(doc, f"Rename counter {old} to {new}", lambda: ce.rename_counter(doc.bundle, old, new), "id")
        self.old, self.new = old, new


class ApplyCounterImport(CounterCommand):
    """The manifest a dry run computed (model/counter_changes.ImportPlan.result): one step."""

    replays_list = True

    def __init__(self, doc: "MapDocument", result: list[Counter], summary: str) -> None:
        def edit() -> Undo:
            undo = AttrUndo(doc.bundle, "counters", doc.bundle.counters)
            doc.bundle.counters = list(result)
            return undo

        super().__init__(doc, f"Import counters ({summary})", edit, "counters")
