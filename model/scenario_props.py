"""Pure, Qt-free edits of a scenario's properties: title, turns, weather, first player,
starting VP, playable area, optional rules, special rules and victory conditions.

As in model/scenario_edits.py every edit replaces one field of one node with a new value and
returns an undo record that restores it exactly — including "this field was not written", so an
edit undone leaves the file as it was. The Scenario Properties panel
(editor/scenario/properties.py) pushes these through editor/commands/scenario_props.py.

Variants (``extends:``) store only what they change; what they do not store they inherit.
Named policies for editing a variant:

* *variant-field-override*: setting a plain field (weather, first player, turns, playable area)
  writes it into the variant's own file; clearing it (``None``) removes the key, so the variant
  inherits the base's value again.
* *optional-rule-minimal*: an optional rule switched to the value the variant would inherit
  anyway removes the variant's own key; otherwise the key is written (``false`` is written only
  to switch off a rule the base switches on). An empty ``optional_rules`` is removed.
* *variant-lists-replace*: a variant's ``special_rules``, ``victory`` and starting ``vp`` replace
  its base's whole list or mapping (model/bundle.py ``_apply_variant``), so the first edit of an
  inherited one copies it into the variant's file and edits the copy.
"""

from __future__ import annotations

from typing import Any

from model.base import Node
from model.edits import set_property
from model.scenario import Playable, Scenario, SpecialRule, Turns, VictoryCondition
from model.scenario_edits import FieldUndo, Undo


def _set(node: Node, name: str, value: Any) -> FieldUndo:
    return FieldUndo(node, name, set_property(node, name, value))


def _unset(node: Node, name: str) -> FieldUndo:
    """Remove field ``name`` from what the file says (back to its default, not written)."""
    default = type(node).model_fields[name].get_default(call_default_factory=True)
    undo = _set(node, name, default)
    node.model_fields_set.discard(name)
    return undo


def _set_or_unset(node: Node, name: str, value: Any) -> FieldUndo:
    return _unset(node, name) if value is None else _set(node, name, value)


def _copied(old: Node, **changes: Any) -> Any:
    """A copy of node ``old`` with ``changes`` (validated), keeping its place in its file;
    a change to ``None`` drops the key."""
    data = {k: getattr(old, k) for k in old.model_fields_set}
    data.update(changes)
    data = {k: v for k, v in data.items() if v is not None}
    new = type(old)(**data)
    new.set_source(old.source_file, old.source_path)
    return new


def base_of(bundle: Any, sid: str) -> Scenario | None:
    """What scenario ``sid`` inherits: its base resolved, or None when it extends nothing (or
    its ``extends`` cannot be resolved)."""
    scen = bundle.scenarios[sid]
    if not scen.extends:
        return None
    try:
        return bundle.resolved(scen.extends, deep=False)
    except (KeyError, ValueError):
        return None


# --- plain fields ---------------------------------------------------------------------------

def retitle(scen: Scenario, name: str) -> Undo:
    """The scenario's title (``name:``); a title is never empty."""
    if not name.strip():
        raise ValueError("a scenario needs a title")
    return _set(scen, "name", name.strip())


def set_text_field(scen: Scenario, name: str, value: str | None) -> Undo:
    """``weather``, ``first_player`` or ``description``; ``None`` or "" removes the key
    (policy variant-field-override: a variant inherits it again)."""
    if name not in ("weather", "first_player", "description"):
        raise ValueError(f"{name!r} is not a text property of a scenario")
    text = value.strip() if isinstance(value, str) else None
    return _set_or_unset(scen, name, text or None)


def set_turns(scen: Scenario, first: int | str | None, last: int | str | None) -> Undo:
    """First and last turn (a number or a calendar label); both ``None`` removes ``turns``.
    A half-given range keeps the other end from the scenario's own turns."""
    if first is None and last is None:
        return _unset(scen, "turns")
    old = scen.turns
    if old is None:
        if first is None or last is None:
            raise ValueError("give both the first and the last turn")
        return _set(scen, "turns", Turns(first=first, last=last))
    return _set(scen, "turns", _copied(old, first=first if first is not None else old.first,
                                       last=last if last is not None else old.last))


def set_playable(scen: Scenario, **changes: Any) -> Undo:
    """Change the playable area (``sheets``, ``area``, ``half_hexes``, ``note``…); a value of
    ``None`` drops that key, and an area left with nothing in it is removed."""
    old = scen.playable
    new = _copied(old, **changes) if old is not None else Playable(**{k: v for k, v in changes.items() if v is not None})
    if not new.model_fields_set:
        return _unset(scen, "playable")
    return _set(scen, "playable", new)


def set_start_vp(scen: Scenario, side: str, value: int | None, base: Scenario | None = None) -> Undo:
    """Starting VP of ``side`` (``vp:``); ``None`` removes that side's entry. A variant's ``vp``
    replaces its base's whole mapping (policy variant-lists-replace applies to it too), so the
    first edit of an inherited one copies it into the variant."""
    own = dict(scen.vp) if "vp" in scen.model_fields_set or base is None else dict(base.vp)
    if value is None:
        own.pop(side, None)
    else:
        own[side] = int(value)
    if not own and (base is None or not base.vp):
        return _unset(scen, "vp")
    return _set(scen, "vp", own)


# --- optional rules ---------------------------------------------------------------------------

def set_optional_rule(scen: Scenario, rule_id: str, on: bool, inherited: bool = False) -> Undo:
    """Switch optional rule ``rule_id`` on or off (policy optional-rule-minimal); ``inherited``
    is whether the scenario's base switches it on."""
    own = dict(scen.optional_rules)
    if on == inherited:
        own.pop(rule_id, None)
    else:
        own[rule_id] = on
    if not own:
        return _unset(scen, "optional_rules")
    return _set(scen, "optional_rules", own)


def optional_rule_on(scen: Scenario | None, rule_id: str) -> bool:
    """Whether (a resolved) scenario switches ``rule_id`` on."""
    return bool(scen is not None and scen.optional_rules.get(rule_id))


# --- special rules and victory conditions ------------------------------------------------------

LIST_FIELDS = {"special_rules": SpecialRule, "victory": VictoryCondition}


def _own_list(scen: Scenario, name: str, base: Scenario | None) -> list[Any]:
    """The list to edit: the scenario's own, or (policy variant-lists-replace) a copy of the one
    a variant inherits, which the edit then writes into the variant's file."""
    if name not in LIST_FIELDS:
        raise ValueError(f"{name!r} is not a list property of a scenario")
    if name in scen.model_fields_set or base is None:
        return list(getattr(scen, name))
    inherited = [item.model_copy(deep=True) for item in getattr(base, name)]
    for item in inherited:
        item.set_source(None, ())  # not in the base's file any more: findings must not point there
    return inherited


def add_item(scen: Scenario, name: str, item: SpecialRule | VictoryCondition, base: Scenario | None = None,
             index: int | None = None) -> Undo:
    """Add a special rule or victory condition (at ``index``, default the end)."""
    items = _own_list(scen, name, base)
    if name == "special_rules" and any(r.id == item.id for r in items):  # type: ignore[union-attr]
        raise ValueError(f"a special rule with the id {item.id!r} exists")  # type: ignore[union-attr]
    items.insert(len(items) if index is None else index, item)
    return _set(scen, name, items)


def change_item(scen: Scenario, name: str, index: int, base: Scenario | None = None, **changes: Any) -> Undo:
    """Replace item ``index`` by a copy with ``changes`` (``text=…``, ``refs=[…]``, ``side=…``);
    raises ValueError for an invalid value, before anything changes."""
    items = _own_list(scen, name, base)
    items[index] = _copied(items[index], **changes)
    return _set(scen, name, items)


def remove_item(scen: Scenario, name: str, index: int, base: Scenario | None = None) -> Undo:
    items = _own_list(scen, name, base)
    del items[index]
    return _set(scen, name, items)


def free_rule_id(rules: list[SpecialRule], base: str = "ssr") -> str:
    """``ssr-1``, ``ssr-2`` … : a special-rule id not used in ``rules``."""
    taken = {r.id for r in rules}
    n = 1
    while f"{base}-{n}" in taken:
        n += 1
    return f"{base}-{n}"


def parse_refs(text: str) -> list[str]:
    """Rule references as typed in one field: separated by ``;`` (a case title may hold commas)."""
    return [part.strip() for part in text.split(";") if part.strip()]
