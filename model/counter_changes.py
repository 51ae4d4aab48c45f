"""What importing a counter sheet would do to a manifest, before it is done: the dry run.

:func:`plan_import` is pure. It compares the manifest now with the imported counters by id
and returns the counters added, changed (with each changed column, old and new text, in
the spreadsheet's column names) and removed, and the manifest that applying it gives. Two
ways to apply:

* ``replace`` — the sheet is the whole manifest (``hexproof counters import``): counters not
  in it are removed, and the manifest takes the sheet's order;
* ``merge`` — the sheet updates the manifest (the editor's import): counters with an id in
  the sheet are replaced in place, new ones are appended, none are removed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from model.counters import Counter
from model.formats.counter_table import columns_for, counter_cells

Mode = Literal["replace", "merge"]


@dataclass(frozen=True)
class FieldChange:
    column: str  # layout column: "name", "front.attack", "back.state" …
    old: str     # as the spreadsheet writes it; "" = not set
    new: str


@dataclass(frozen=True)
class CounterChange:
    id: str
    fields: tuple[FieldChange, ...]


@dataclass(frozen=True)
class ImportPlan:
    mode: Mode
    added: tuple[str, ...]
    changed: tuple[CounterChange, ...]
    removed: tuple[str, ...]
    unchanged: int
    reordered: bool           # same counters, another order (replace only): the file changes
    result: tuple[Counter, ...]  # the manifest after applying

    @property
    def changes_nothing(self) -> bool:
        return not (self.added or self.changed or self.removed or self.reordered)

    def summary(self) -> str:
        text = (f"{len(self.added)} added, {len(self.changed)} changed, {len(self.removed)} removed, "
                f"{self.unchanged} unchanged")
        return text + (" (new order)" if self.reordered else "")

    def lines(self) -> list[str]:
        """One line per counter added, changed (and per changed column) or removed."""
        out = [f"+ {cid}" for cid in self.added]
        for ch in self.changed:
            out.append(f"~ {ch.id}")
            out += [f"    {f.column}: {f.old or '(empty)'} → {f.new or '(empty)'}" for f in ch.fields]
        out += [f"- {cid}" for cid in self.removed]
        return out


def counter_delta(old: Counter, new: Counter) -> tuple[FieldChange, ...]:
    """The layout columns whose text differs between two versions of one counter."""
    cols = columns_for([old, new])
    return tuple(FieldChange(col, a, b) for col, a, b in zip(cols, counter_cells(old, cols), counter_cells(new, cols))
                 if a != b)


def plan_import(current: list[Counter], incoming: list[Counter], mode: Mode = "replace") -> ImportPlan:
    """The dry run of importing ``incoming`` (ids unique, as an accepted import guarantees)."""
    if mode not in ("replace", "merge"):
        raise ValueError(f"mode is replace or merge, not {mode!r}")
    now = {c.id: c for c in current}
    added = tuple(c.id for c in incoming if c.id not in now)
    changed: list[CounterChange] = []
    unchanged = 0
    for c in incoming:
        old = now.get(c.id)
        if old is None:
            continue
        delta = counter_delta(old, c)
        if delta:
            changed.append(CounterChange(c.id, delta))
        else:
            unchanged += 1
    if mode == "replace":
        ids = {c.id for c in incoming}
        removed = tuple(c.id for c in current if c.id not in ids)
        result = tuple(incoming)
        kept_order = [c.id for c in current if c.id in ids]
        reordered = not added and not removed and kept_order != [c.id for c in incoming]
    else:
        by_id = {c.id: c for c in incoming}
        removed = ()
        result = tuple([by_id.get(c.id, c) for c in current] + [c for c in incoming if c.id not in now])
        reordered = False
        unchanged += len(current) - len([c for c in current if c.id in by_id])
    return ImportPlan(mode, added, tuple(changed), removed, unchanged, reordered, result)
