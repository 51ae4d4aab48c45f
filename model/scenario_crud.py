"""Pure, Qt-free edits of a bundle's list of scenarios: new, new variant, duplicate, rename,
retitle and delete.

As in model/scenario_edits.py, every edit replaces values (a new scenario table, a new file
table, a new ``game.scenarios`` list) and returns an undo that puts the replaced objects back,
so undo is exact. A scenario lives in its own file: a new one gets a free
``scenarios/<id>.yaml`` (never the name of a file already on disk, which a save would skip
as "not ours"), and ``Bundle.save`` writes it.

Deleting never deletes a file: a save writes files, it does not remove them. The scenario
leaves ``game.yaml``'s ``scenarios:`` list (which is written out in full when the bundle
relied on finding ``scenarios/*.yaml``, or the file would be found again on the next
load) and :func:`delete_scenario` returns the files that are no longer listed, for the GUI
to offer to move aside. A scenario other scenarios extend is deleted only together with
them (``with_dependents``): :func:`scenario_dependents` names them, so the GUI can ask first.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from model.base import walk_nodes
from model.scenario import Scenario, Turns
from model.scenario_edits import AttrUndo, FieldUndo, MultiUndo, Undo
from model.edits import set_property


def _set(node: Any, name: str, value: Any) -> FieldUndo:
    return FieldUndo(node, name, set_property(node, name, value))


def _attr(owner: Any, name: str, value: Any) -> AttrUndo:
    undo = AttrUndo(owner, name, getattr(owner, name))
    setattr(owner, name, value)
    return undo


def _check_id(bundle: Any, sid: str) -> None:
    import re

    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}", sid or ""):
        raise ValueError(f"scenario id {sid!r}: use letters, digits, '-', '_' and '.' (at most 64), "
                         "starting with a letter or digit")
    if sid in bundle.scenarios:
        raise ValueError(f"a scenario with the id {sid!r} exists")


def scenario_id_problem(bundle: Any, sid: str) -> str | None:
    """Why ``sid`` cannot be a new scenario's id (None: it can): for a dialog to say inline."""
    try:
        _check_id(bundle, sid)
    except ValueError as exc:
        return str(exc)
    return None


def free_scenario_id(bundle: Any, base: str = "scenario") -> str:
    """``base`` or ``base-2`` … : an id no scenario has."""
    if base not in bundle.scenarios:
        return base
    n = 2
    while f"{base}-{n}" in bundle.scenarios:
        n += 1
    return f"{base}-{n}"


def scenario_file_for(bundle: Any, sid: str) -> str:
    """A free relative path for a new scenario: not used by the bundle, not on disk."""
    used = set(bundle.files.values()) | set(bundle.game.scenarios)
    n = 1
    while True:
        rel = f"scenarios/{sid}.yaml" if n == 1 else f"scenarios/{sid}-{n}.yaml"
        if rel not in used and not (Path(bundle.root) / rel).exists():
            return rel
        n += 1


def _listed(bundle: Any) -> list[str]:
    """``game.scenarios`` as it must be written: the bundle's own list, or (when it relied on
    finding ``scenarios/*.yaml``) the files of the scenarios it holds, in their order."""
    if bundle.game.scenarios:
        return list(bundle.game.scenarios)
    return [bundle.files[f"scenario:{sid}"] for sid in bundle.scenarios if f"scenario:{sid}" in bundle.files]


def _add(bundle: Any, scen: Scenario, after: str | None = None) -> Undo:
    rel = scenario_file_for(bundle, scen.id)
    parts: list[Any] = []
    if bundle.game.scenarios:  # a listing bundle lists it; a finding one finds scenarios/<id>.yaml
        listed = list(bundle.game.scenarios)
        at = listed.index(bundle.files[f"scenario:{after}"]) + 1 if after and bundle.files.get(
            f"scenario:{after}") in listed else len(listed)
        listed.insert(at, rel)
        parts.append(_set(bundle.game, "scenarios", listed))
    elif Path(rel).parent != Path("scenarios"):
        parts.append(_set(bundle.game, "scenarios", _listed(bundle) + [rel]))
    table = dict(bundle.scenarios)
    if after in table:
        items = list(table.items())
        i = [k for k, _ in items].index(after) + 1
        table = dict(items[:i] + [(scen.id, scen)] + items[i:])
    else:
        table[scen.id] = scen
    parts.append(_attr(bundle, "scenarios", table))
    parts.append(_attr(bundle, "files", {**bundle.files, f"scenario:{scen.id}": rel}))
    if bundle.game.default_scenario is None and len(table) == 1:
        parts.append(_set(bundle.game, "default_scenario", scen.id))
    return MultiUndo(parts)


def new_scenario(bundle: Any, sid: str, name: str, *, map_id: str | None = None,
                 turns: tuple[int | str, int | str] | None = None) -> Undo:
    """An empty scenario on ``map_id`` (default: the bundle's first map), running over
    ``turns`` (first, last) when given."""
    _check_id(bundle, sid)
    if map_id is not None and map_id not in bundle.maps:
        raise ValueError(f"no map {map_id!r} in the bundle")
    scen = Scenario(id=sid, name=name.strip() or sid)
    if map_id is not None or len(bundle.maps) > 1:
        scen.map = map_id or next(iter(bundle.maps))
    if turns is not None:
        scen.turns = Turns(first=turns[0], last=turns[1])
    return _add(bundle, scen)


def new_variant(bundle: Any, base_id: str, sid: str, name: str) -> Undo:
    """A variant that ``extends:`` ``base_id``: it changes nothing until it is edited (setup
    edits of a variant go to its ``overrides``, model/scenario_edits.py)."""
    if base_id not in bundle.scenarios:
        raise KeyError(f"no scenario {base_id!r}")
    _check_id(bundle, sid)
    return _add(bundle, Scenario(id=sid, name=name.strip() or sid, extends=base_id), after=base_id)


def duplicate_scenario(bundle: Any, sid: str, new_id: str, name: str | None = None) -> Undo:
    """An independent copy of ``sid`` as stored (a variant's copy extends the same base),
    placed after it."""
    if sid not in bundle.scenarios:
        raise KeyError(f"no scenario {sid!r}")
    _check_id(bundle, new_id)
    original: Scenario = bundle.scenarios[sid]
    copy_ = original.model_copy(deep=True)
    for node, _ in walk_nodes(copy_):
        node.set_source(None, ())  # not in the original's file: diagnostics must not point there
    copy_.id = new_id
    copy_.name = name.strip() if name and name.strip() else f"{original.name} (copy)"
    return _add(bundle, copy_, after=sid)


def retitle_scenario(bundle: Any, sid: str, name: str) -> Undo:
    """Change the scenario's title (``name:``)."""
    if not name.strip():
        raise ValueError("a scenario needs a title")
    return _set(bundle.scenarios[sid], "name", name.strip())


def rename_scenario(bundle: Any, old: str, new: str) -> Undo:
    """Change a scenario's id, and every ``extends:`` and ``default_scenario`` naming it. The
    file keeps its name (its history stays with it)."""
    if old not in bundle.scenarios:
        raise KeyError(f"no scenario {old!r}")
    if new == old:
        raise ValueError(f"the scenario is already called {old!r}")
    _check_id(bundle, new)
    parts: list[Any] = []
    for scen in bundle.scenarios.values():
        if scen.extends == old:
            parts.append(_set(scen, "extends", new))
    parts.append(_set(bundle.scenarios[old], "id", new))
    parts.append(_attr(bundle, "scenarios", {(new if k == old else k): v for k, v in bundle.scenarios.items()}))
    parts.append(_attr(bundle, "files", {(f"scenario:{new}" if k == f"scenario:{old}" else k): v
                                         for k, v in bundle.files.items()}))
    if bundle.game.default_scenario == old:
        parts.append(_set(bundle.game, "default_scenario", new))
    return MultiUndo(parts)


def scenario_dependents(bundle: Any, sid: str) -> list[str]:
    """The scenarios that extend ``sid``, directly or through another variant (nearest first):
    deleting ``sid`` would leave them extending nothing."""
    out: list[str] = []
    frontier = [sid]
    while frontier:
        nxt = [k for k, s in bundle.scenarios.items() if s.extends in frontier and k not in out and k != sid]
        out.extend(nxt)
        frontier = nxt
    return out


@dataclass
class Deleted:
    undo: Undo
    removed: list[str]                                    # scenario ids, the asked one first
    unlisted_files: list[str] = field(default_factory=list)  # still on disk, no longer in the bundle


def delete_scenario(bundle: Any, sid: str, *, with_dependents: bool = False) -> Deleted:
    """Remove ``sid`` from the bundle (and, with ``with_dependents``, every scenario that
    extends it). Refused while others extend it: ask with :func:`scenario_dependents` first."""
    if sid not in bundle.scenarios:
        raise KeyError(f"no scenario {sid!r}")
    dependents = scenario_dependents(bundle, sid)
    if dependents and not with_dependents:
        raise ValueError(f"scenario {sid!r} is extended by {', '.join(dependents)}; delete them with it, "
                         "or change what they extend first")
    gone = [sid, *dependents]
    files = [bundle.files[f"scenario:{g}"] for g in gone if f"scenario:{g}" in bundle.files]
    remaining = [rel for rel in _listed(bundle) if rel not in files]
    found_again = [rel for rel in files if Path(rel).parent == Path("scenarios") and rel.endswith(".yaml")
                   and (Path(bundle.root) / rel).exists()]
    if not remaining and found_again:
        # An empty ``scenarios:`` means "every scenarios/*.yaml": the file would be read again.
        raise ValueError(f"{sid!r} is the bundle's last scenario; a bundle without a scenarios list reads every "
                         f"scenarios/*.yaml, so {found_again[0]} would come back: add another scenario first")
    parts: list[Any] = [_set(bundle.game, "scenarios", remaining)]
    parts.append(_attr(bundle, "scenarios", {k: v for k, v in bundle.scenarios.items() if k not in gone}))
    parts.append(_attr(bundle, "files", {k: v for k, v in bundle.files.items()
                                         if k not in {f"scenario:{g}" for g in gone}}))
    if bundle.game.default_scenario in gone:
        parts.append(_set(bundle.game, "default_scenario", next(iter(bundle.scenarios), None)))
    on_disk = [rel for rel in files if (Path(bundle.root) / rel).exists()]
    return Deleted(MultiUndo(parts), gone, on_disk)
