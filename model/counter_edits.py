"""Pure, Qt-free edits of the counter manifest: add, duplicate, delete, set a field with its
type checked, add or remove a back, and rename a counter id everywhere it is referenced.

In the style of model/scenario_edits.py: every edit replaces whole values (a new counter
list, a new values dict, a new units list) and returns an undo that puts back the very
objects it replaced, so undo is exact — including "this field was never written". The
editor's undo commands are thin wrappers over these functions.

A cell typed by the user is checked by model/counter_fields.py, as the importers check it: a
bad value changes nothing and comes back as a located :class:`~model.diagnostics.Diagnostic`
(code CORE-UNIT-003, the rule that reports the same problem in files), for the table and the
diagnostics dock.

Counter ids are referenced by scenarios (setup, attachments, schedule, drop sticks, a
variant's overrides), by other counters (``parent``) and by scenario ``params`` (play
plug-in data such as SFN ``airdrops[].unit`` or GTS ``mug[].chits`` and ``org``: every
string value equal to the id; keys are never ids). :func:`counter_references` lists them
all; :func:`preview_rename` says how many a rename changes (and which references it cannot
change: a system file's params are outside the bundle); :func:`rename_counter` changes them
all in one undoable edit.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Iterator

from pydantic import ValidationError

from model.base import Node
from model.counter_fields import CHOICES, column_type, parse_cell
from model.counters import Counter, CounterSide
from model.diagnostics import Diagnostic, Location, Severity
from model.formats.counter_table import IDENTITY, POSITION, TRAILER
from model.scenario import Overrides, Scenario, ScheduleEntry, SetupEntry
from model.edits import set_property
from model.scenario_edits import AttrUndo, FieldUndo, MultiUndo, Undo

CODE = "CORE-UNIT-003"
REQUIRED = ("name", "side", "category")


@dataclass
class EditResult:
    """An edit that was made (``undo``) or refused (``finding``, nothing changed)."""

    undo: Undo | None = None
    finding: Diagnostic | None = None

    @property
    def ok(self) -> bool:
        return self.finding is None


def _set(node: Node, name: str, value: Any) -> FieldUndo:
    return FieldUndo(node, name, set_property(node, name, value))


def _finding(bundle: Any, counter: Counter | None, message: str, *fields: str | int) -> Diagnostic:
    where = bundle.locate(counter, *fields) if counter is not None else Location()
    if counter is not None:
        from dataclasses import replace

        where = replace(where, units=(counter.id,))
    return Diagnostic(CODE, Severity.ERROR, message, where, rule_case="Hexproof bundle format")


def _counters(bundle: Any, counters: list[Counter]) -> AttrUndo:
    """Give the bundle a new counter list; the undo puts the old list object back."""
    undo = AttrUndo(bundle, "counters", bundle.counters)
    bundle.counters = counters
    return undo


def _one(bundle: Any, counter_id: str) -> Counter:
    found = [c for c in bundle.counters if c.id == counter_id]
    if not found:
        raise KeyError(f"no counter {counter_id!r}")
    if len(found) > 1:
        raise ValueError(f"{len(found)} counters have the id {counter_id!r}; give each its own id first")
    return found[0]


# --- add, duplicate, delete -------------------------------------------------------------------------

def free_counter_id(bundle: Any, base: str = "unit") -> str:
    """``base``, or ``base-2``, ``base-3`` … : the first id no counter has and nothing references."""
    taken = {c.id for c in bundle.counters} | _reference_texts(bundle)
    if base not in taken:
        return base
    n = 2
    while f"{base}-{n}" in taken:
        n += 1
    return f"{base}-{n}"


def new_counter(bundle: Any, counter_id: str | None = None, name: str | None = None) -> Counter:
    """A blank counter for the bundle's system: its first side and first unit category."""
    system = bundle.system
    cid = counter_id or free_counter_id(bundle)
    side = system.sides[0].id if system.sides else "side"
    category = system.unit_categories[0].id if system.unit_categories else "unit"
    return Counter(id=cid, name=name or cid, side=side, category=category)


def add_counter(bundle: Any, counter: Counter, index: int | None = None) -> Undo:
    """Insert ``counter`` (at the end, or at ``index``); its id must be new."""
    if any(c.id == counter.id for c in bundle.counters):
        raise ValueError(f"a counter with the id {counter.id!r} exists")
    rows = list(bundle.counters)
    rows.insert(len(rows) if index is None else index, counter)
    return _counters(bundle, rows)


def duplicate_counter(bundle: Any, counter_id: str, new_id: str | None = None) -> tuple[Undo, str]:
    """A copy of the counter, right after it, with a new id (``<id>-copy`` by default)."""
    original = _one(bundle, counter_id)
    cid = new_id or free_counter_id(bundle, f"{counter_id}-copy")
    if any(c.id == cid for c in bundle.counters):
        raise ValueError(f"a counter with the id {cid!r} exists")
    # Through the written form, so the copy shares no value with the original and keeps
    # "not written" fields unwritten.
    copy_ = Counter.model_validate({**original.model_dump(mode="json", exclude_unset=True), "id": cid})
    rows = list(bundle.counters)
    rows.insert(rows.index(original) + 1, copy_)
    return _counters(bundle, rows), cid


def delete_counters(bundle: Any, ids: list[str] | set[str]) -> Undo:
    """Remove the counters with these ids. References to them stay as written (the validator
    reports them): ask first with :func:`counter_references`."""
    gone = set(ids)
    missing = gone - {c.id for c in bundle.counters}
    if missing:
        raise KeyError(f"no counter {sorted(missing)[0]!r}")
    return _counters(bundle, [c for c in bundle.counters if c.id not in gone])


# --- one field, typed -------------------------------------------------------------------------------

def editable_columns(bundle: Any, counter: Counter | None = None) -> list[str]:
    """The columns :func:`set_counter_field` takes (the spreadsheet layout without ``id``);
    the sheet position columns too when game.yaml declares ``counter_sheets``."""
    from model.formats.counter_table import columns_for

    sheets = bool(getattr(getattr(bundle, "game", None), "counter_sheets", None))
    cols = columns_for([counter] if counter is not None else bundle.counters, bundle.system, positions=sheets)
    return [c for c in cols if c != "id"]


def set_counter_field(bundle: Any, counter: Counter, column: str, text: str) -> EditResult:
    """Set one layout column (``name``, ``side``, ``steps``, ``front.tq``, ``back.state``,
    ``flags`` as ``a;b`` …) from the text a user typed. An empty text clears an optional
    value. A value that does not fit the column changes nothing and returns a located
    finding. The id is changed with :func:`rename_counter` (it is referenced elsewhere)."""
    if column == "id":
        raise ValueError("a counter id is changed with rename_counter, which updates its references")
    text = text.strip()
    system = bundle.system
    side_name, dot, key = column.partition(".")
    if dot and side_name in ("front", "back"):
        return _set_side_field(bundle, counter, side_name, key, text)
    if column not in IDENTITY and column not in POSITION and column not in TRAILER:
        raise ValueError(f"unknown counter column {column!r}")
    if column in REQUIRED and not text:
        return EditResult(finding=_finding(bundle, counter, f"{column} cannot be empty: every counter has one", column))
    ctype = column_type(column, system)
    value, problem = parse_cell(ctype, text, system.name)
    if problem is not None:
        return EditResult(finding=_finding(bundle, counter, problem, column))
    if column == "flags":
        value = [f.strip() for f in text.split(";") if f.strip()]
    elif column == "count" and value is None:
        value = 1
    elif column == "parent" and value is not None and value not in {c.id for c in bundle.counters}:
        return EditResult(finding=_finding(bundle, counter, f"parent: {value!r} is not a counter id", column))
    if getattr(counter, column) == value:
        return EditResult()
    try:
        return EditResult(undo=_set(counter, column, value))
    except ValidationError as exc:  # whatever the model still refuses, said where it is
        return EditResult(finding=_finding(bundle, counter, f"{column}: {exc.errors()[0]['msg']}", column))


def _set_side_field(bundle: Any, counter: Counter, side_name: str, key: str, text: str) -> EditResult:
    side: CounterSide | None = getattr(counter, side_name)
    if side is None:
        return EditResult(finding=_finding(bundle, counter, f"{counter.id} has no {side_name} side; add one first",
                                           side_name))
    if key in ("designation", "state"):
        value: Any = text or None
        if getattr(side, key) == value:
            return EditResult()
        return EditResult(undo=_set(side, key, value))
    ctype = column_type(f"{side_name}.{key}", bundle.system)
    value, problem = parse_cell(ctype, text, bundle.system.name)
    if problem is not None:
        return EditResult(finding=_finding(bundle, counter, problem, side_name, "values", key))
    values = dict(side.values)
    if value is None:
        if key not in values:
            return EditResult()
        del values[key]
    else:
        values[key] = value
    if values == side.values:
        return EditResult()
    return EditResult(undo=_set(side, "values", values))


def add_back(counter: Counter, state: str | None = None) -> Undo:
    """Give the counter a back side (empty, or with ``state``: reduced, cadre, column …)."""
    if counter.back is not None:
        raise ValueError(f"{counter.id} already has a back")
    return _set(counter, "back", CounterSide(state=state) if state else CounterSide())


def remove_back(counter: Counter) -> Undo:
    """Take the back side away (undo gives back the very same side, values and all)."""
    if counter.back is None:
        raise ValueError(f"{counter.id} has no back")
    return _set(counter, "back", None)


# --- references and rename ------------------------------------------------------------------------------

@dataclass(frozen=True)
class IdRef:
    """One place that names a counter id: ``node.field`` (at ``path`` inside it, for a list
    or a params mapping), in ``scenario`` (None: the counter manifest)."""

    kind: str
    scenario: str | None
    node: Node = field(compare=False)
    field: str
    path: tuple[str | int, ...] = ()

    def location(self, bundle: Any) -> Location:
        return bundle.locate(self.node, self.field, *self.path)

    def describe(self) -> str:
        where = f"scenario {self.scenario}" if self.scenario else "counters"
        inside = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in self.path)
        return f"{where}: {self.kind} ({self.field}{inside})"


def _setup_refs(e: SetupEntry, cid: str, scen: str, kind: str) -> Iterator[IdRef]:
    if e.unit == cid:
        yield IdRef(kind, scen, e, "unit")
    if e.attached_to == cid:
        yield IdRef(f"{kind} attachment", scen, e, "attached_to")


def _schedule_refs(e: ScheduleEntry, cid: str, scen: str, kind: str) -> Iterator[IdRef]:
    for j, u in enumerate(e.units):
        if u == cid:
            yield IdRef(kind, scen, e, "units", (j,))
    if e.attached_to == cid:
        yield IdRef(f"{kind} attachment", scen, e, "attached_to")
    if e.drop is not None:
        for i, stick in enumerate(e.drop.sticks):
            for j, u in enumerate(stick):
                if u == cid:
                    yield IdRef("drop stick", scen, e.drop, "sticks", (i, j))


def _param_paths(value: Any, cid: str, path: tuple[str | int, ...] = ()) -> Iterator[tuple[str | int, ...]]:
    if isinstance(value, str):
        if value == cid:
            yield path
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _param_paths(v, cid, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _param_paths(v, cid, path + (i,))


def scenario_references(scen: Scenario, cid: str) -> Iterator[IdRef]:
    """Every place ``scen`` (as stored, not resolved) names counter id ``cid``."""
    sid = scen.id
    for placed in scen.setup:
        yield from _setup_refs(placed, cid, sid, "setup")
    for row in scen.schedule:
        yield from _schedule_refs(row, cid, sid, "schedule")
    ov: Overrides | None = scen.overrides
    if ov is not None:
        for placed in ov.setup_add:
            yield from _setup_refs(placed, cid, sid, "variant setup")
        for j, u in enumerate(ov.setup_remove):
            if u == cid:
                yield IdRef("variant setup removal", sid, ov, "setup_remove", (j,))
        for row in ov.schedule_add:
            yield from _schedule_refs(row, cid, sid, "variant schedule")
        for j, u in enumerate(ov.schedule_remove):
            if u == cid:
                yield IdRef("variant schedule removal", sid, ov, "schedule_remove", (j,))
    for path in _param_paths(scen.params, cid):
        yield IdRef("params", sid, scen, "params", path)


def counter_references(bundle: Any, counter_id: str) -> list[IdRef]:
    """Every place in the bundle that names ``counter_id``: scenarios (in file order) and
    other counters' ``parent``."""
    out = [IdRef("parent", None, c, "parent") for c in bundle.counters if c.parent == counter_id]
    for scen in bundle.scenarios.values():
        out.extend(scenario_references(scen, counter_id))
    return out


def _reference_texts(bundle: Any) -> set[str]:
    """Every text that is, or could be read as, a counter reference in the bundle."""
    out: set[str] = {c.parent for c in bundle.counters if c.parent}
    for scen in bundle.scenarios.values():
        entries = list(scen.setup) + (list(scen.overrides.setup_add) if scen.overrides else [])
        out.update(e.unit for e in entries)
        out.update(e.attached_to for e in entries if e.attached_to)
        sched = list(scen.schedule) + (list(scen.overrides.schedule_add) if scen.overrides else [])
        for row in sched:
            out.update(row.units)
            if row.attached_to:
                out.add(row.attached_to)
            if row.drop is not None:
                out.update(u for stick in row.drop.sticks for u in stick)
        if scen.overrides:
            out.update(scen.overrides.setup_remove)
            out.update(scen.overrides.schedule_remove)
        out.update(_strings(scen.params))
    return out


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


@dataclass
class RenamePreview:
    """What renaming ``old`` to ``new`` would change, before it is done."""

    old: str
    new: str
    references: list[IdRef] = field(default_factory=list)  # changed with the id
    outside: list[str] = field(default_factory=list)       # naming it outside the bundle: not changed
    problems: list[str] = field(default_factory=list)      # why it cannot be done (empty: it can)

    @property
    def count(self) -> int:
        """References that change (the counter's own id is not counted)."""
        return len(self.references)

    @property
    def ok(self) -> bool:
        return not self.problems


def preview_rename(bundle: Any, old: str, new: str) -> RenamePreview:
    """How many references a rename changes, which it cannot change, and why it may not be
    done: the new id is empty, taken, or already written somewhere as a reference (it would
    then capture what that text names now, by id or by name)."""
    preview = RenamePreview(old, new)
    ids = [c.id for c in bundle.counters]
    if old not in ids:
        preview.problems.append(f"no counter has the id {old!r}")
        return preview
    if ids.count(old) > 1:
        preview.problems.append(f"{ids.count(old)} counters have the id {old!r}; give each its own id first")
    if not new or new != new.strip():
        preview.problems.append("a counter id cannot be empty or start or end with spaces")
    elif new == old:
        preview.problems.append(f"the counter is already called {old!r}")
    elif new in ids:
        preview.problems.append(f"another counter has the id {new!r}")
    elif new in _reference_texts(bundle):
        taken = len(counter_references(bundle, new))
        preview.problems.append(f"{taken} reference(s) already read {new!r} (another counter's name, or a unit not "
                                "in the manifest); renaming to it would make them name this counter")
    preview.references = counter_references(bundle, old)
    for path in _param_paths(bundle.system.params, old):
        inside = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)
        preview.outside.append(f"system {bundle.system.id}: params{inside} (in the system file; not changed)")
    return preview


def rename_counter(bundle: Any, old: str, new: str) -> Undo:
    """Rename counter ``old`` to ``new`` and every reference :func:`counter_references`
    lists, as one edit. Raises ValueError with the preview's problems."""
    preview = preview_rename(bundle, old, new)
    if preview.problems:
        raise ValueError("; ".join(preview.problems))
    counter = _one(bundle, old)
    parts: list[Any] = []
    grouped: dict[tuple[int, str], list[IdRef]] = {}
    for ref in preview.references:
        grouped.setdefault((id(ref.node), ref.field), []).append(ref)
    for refs in grouped.values():
        node, name = refs[0].node, refs[0].field
        value = getattr(node, name)
        if not refs[0].path:
            parts.append(_set(node, name, new))
            continue
        value = copy.deepcopy(value)  # a new value: the undo keeps the old one untouched
        for ref in refs:
            value = _replaced(value, ref.path, new)
        parts.append(_set(node, name, value))
    parts.append(_set(counter, "id", new))
    return MultiUndo(parts)


def _replaced(value: Any, path: tuple[str | int, ...], new: str) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    value[head] = _replaced(value[head], rest, new)  # type: ignore[index]
    return value


def choices_for(bundle: Any, column: str) -> list[str]:
    """The ids a ``choice`` column offers (``side`` → the system's sides), for a picker."""
    if column not in CHOICES:
        return []
    return [x.id for x in getattr(bundle.system, CHOICES[column])]

