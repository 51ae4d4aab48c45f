"""Argument specs for every play action, checked once at :meth:`play.game.Game.apply` before
the action runs, so no procedure ever sees an argument of the wrong type or size.

Why one table here rather than try/except in each procedure: a hostile-input audit found 302
non-``GameError`` exceptions from 18 places (``int('3211x')``, ``'a1'`` iterated as a list of
units, ``'73.056'.items()``) and two hangs (a billion dice). Checking at the boundary keeps
the procedures as they are and gives every refusal the same shape::

    <action>: argument '<name>' is <value>; expected <what>

Arguments are looked up by name: :data:`COMMON` gives the kind a name has in every action,
:data:`ACTIONS` overrides it where an action means something else by it (``to`` is a hex for
``move``, a box id for ``omm_move``, a leader→hex map for ``check_leaders``) and marks the
arguments an action cannot do without. A name in neither is refused (a typo such as ``unti``
would otherwise be silently ignored). Values arrive as YAML text from scripts (numbers stay
text, see ``model/formats/yamlio.py``) or as Python values from the editor; both are accepted.

Limits (also in docs/reliability.md, "Play engine at its boundary"): see the ``MAX_*``
constants below. They are generous for play and small enough that no single action can hang.
"""

from __future__ import annotations

import difflib
import math
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from model.scenario import MAX_TURN_NUMBER
from play.errors import ArgumentError, GameError, show

if TYPE_CHECKING:
    from play.context import PlayContext

MAX_DICE = 1000        # dice in one roll: {do: roll, dice: 1000d6} is the most
MAX_SIDES = 1000       # faces per die
MAX_TEXT = 200         # characters in an id, label or word
MAX_ITEMS = 200        # units in a stack, entries in a list or map argument
MAX_NUMBER = 10 ** 6   # |value| of a generic whole number (VP delta, points)
MAX_RATING = 1000      # |value| of a rating, modifier, range or TQ
MAX_STEPS = 100        # steps lost or replaced at once
MAX_DEPTH = 6          # nesting of a free-form argument (assault ``values``, shot lists)
MAX_TURN = MAX_TURN_NUMBER  # a turn number (10 000), the same cap as a scenario's turns

_INT = re.compile(r"[+-]?\d{1,12}")
_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")


@dataclass(frozen=True)
class Kind:
    """What one argument must be. ``check`` returns None when the value is fine, else a short
    problem ('' when "not what was expected" says it all)."""

    expected: str
    check: Callable[["PlayContext", Any], str | None]
    nullable: bool = False  # an explicit null is the same as leaving it out


def _scalar(v: Any) -> bool:
    return isinstance(v, (str, int, float)) and not isinstance(v, bool)


def _text_problem(v: Any) -> str | None:
    if not _scalar(v):
        return f"a {type(v).__name__}"
    if isinstance(v, float) and not math.isfinite(v):
        return "not a finite value"
    if len(str(v)) > MAX_TEXT:
        return f"{len(str(v))} characters; at most {MAX_TEXT}"
    if not str(v).strip():
        return "empty"
    return None


def text(expected: str = "a word or id (text, at most 200 characters)") -> Kind:
    return Kind(expected, lambda g, v: _text_problem(v), nullable=True)


def integer(lo: int, hi: int, what: str = "a whole number") -> Kind:
    def check(g: "PlayContext", v: Any) -> str | None:
        if isinstance(v, bool) or not isinstance(v, (int, str)) or not _INT.fullmatch(str(v).strip()):
            return "" if _scalar(v) else f"a {type(v).__name__}"
        n = int(str(v))
        return None if lo <= n <= hi else "out of range"
    return Kind(f"{what} from {lo:,} to {hi:,}", check)


def number(lo: float, hi: float, what: str = "a number") -> Kind:
    def check(g: "PlayContext", v: Any) -> str | None:
        if not _scalar(v) or len(str(v)) > 40:
            return "" if _scalar(v) else f"a {type(v).__name__}"
        try:
            x = float(str(v))
        except ValueError:
            return ""
        return None if math.isfinite(x) and lo <= x <= hi else "out of range"
    return Kind(f"{what} from {lo:g} to {hi:g}", check, nullable=True)


def _bool(g: "PlayContext", v: Any) -> str | None:
    if isinstance(v, bool) or (isinstance(v, int) and v in (0, 1)):
        return None
    return None if isinstance(v, str) and v.strip().lower() in _TRUE + _FALSE else ""


BOOL = Kind("true or false (also yes/no, on/off, 1/0)", _bool, nullable=True)


def _unit(g: "PlayContext", v: Any) -> str | None:
    p = _text_problem(v)
    if p is not None:
        return p
    return None if str(v) in g.state.units or str(v) in g.counters else "no such unit in the game or counter manifest"


UNIT = Kind("a unit id of this game", _unit, nullable=True)


def _units(g: "PlayContext", v: Any) -> str | None:
    if not isinstance(v, (list, tuple)):
        return f"a {type(v).__name__}, not a list"
    if len(v) > MAX_ITEMS:
        return f"{len(v)} items; at most {MAX_ITEMS}"
    for x in v:
        p = _unit(g, x)
        if p is not None:
            return f"item {show(x)}: {p}"
    return None


UNITS = Kind("a list of unit ids of this game", _units, nullable=True)


def _hex(g: "PlayContext", v: Any) -> str | None:
    p = _text_problem(v)
    if p is not None:
        return p
    try:
        g.hmap.parse(str(v))
    except Exception as exc:  # label schemes raise ValueError/KeyError/IndexError on bad text
        return f"not a hex label of this map: {show(str(exc), 80)}"
    return None


HEX = Kind("a hex label of this map (e.g. '0402')", _hex, nullable=True)


def _hex_or_box(g: "PlayContext", v: Any) -> str | None:
    if isinstance(v, str) and v.startswith("box:"):
        return _text_problem(v[4:]) if v[4:] else "no box id after 'box:'"
    return _hex(g, v)


HEX_OR_BOX = Kind("a hex label of this map or box:ID", _hex_or_box, nullable=True)


def _dice(g: "PlayContext", v: Any) -> str | None:
    p = _text_problem(v)
    if p is not None:
        return p
    m = re.fullmatch(r"(\d{1,40})?(?:[dD](\d{1,40}))?", str(v).strip())
    if m is None or not str(v).strip():
        return ""
    count, sides = int(m.group(1) or 1), int(m.group(2) or 6)
    if not 1 <= count <= MAX_DICE:
        return f"{count} dice; 1 to {MAX_DICE}"
    if not 2 <= sides <= MAX_SIDES:
        return f"{sides} sides; 2 to {MAX_SIDES}"
    return None


DICE = Kind(f"dice written NdS such as 2d6 (N 1-{MAX_DICE}, S 2-{MAX_SIDES}), or N for Nd6", _dice, nullable=True)


def _plain(v: Any, depth: int = 0) -> str | None:
    if v is None or isinstance(v, bool) or _scalar(v):
        return _text_problem(v) if _scalar(v) and len(str(v)) > MAX_TEXT else None
    if depth >= MAX_DEPTH:
        return f"nested deeper than {MAX_DEPTH} levels"
    if isinstance(v, (list, tuple)):
        items: list[Any] = list(v)
    elif isinstance(v, dict):
        if not all(_scalar(k) for k in v):
            return "a map with a key that is not text"
        items = list(v.values())
    else:
        return f"a {type(v).__name__}"
    if len(items) > MAX_ITEMS:
        return f"{len(items)} items; at most {MAX_ITEMS}"
    return next((p for p in (_plain(x, depth + 1) for x in items) if p is not None), None)


def plain(expected: str, container: type | None = None) -> Kind:
    """Free-form plain data (the procedure reads what it understands and ignores the rest)."""
    def check(g: "PlayContext", v: Any) -> str | None:
        if container is not None and not isinstance(v, container):
            return f"a {type(v).__name__}"
        return _plain(v)
    return Kind(expected, check, nullable=True)


def mapping(key: Kind, value: Kind, expected: str) -> Kind:
    def check(g: "PlayContext", v: Any) -> str | None:
        if not isinstance(v, dict):
            return f"a {type(v).__name__}, not a map"
        if len(v) > MAX_ITEMS:
            return f"{len(v)} entries; at most {MAX_ITEMS}"
        for k, x in v.items():
            p = key.check(g, k)
            if p is not None:
                return f"key {show(k)}: {p or key.expected}"
            p = value.check(g, x)
            if p is not None:
                return f"{k}: {show(x)}: {p or value.expected}"
        return None
    return Kind(expected, check, nullable=True)


def listing(item: Kind, expected: str) -> Kind:
    def check(g: "PlayContext", v: Any) -> str | None:
        if not isinstance(v, (list, tuple)):
            return f"a {type(v).__name__}, not a list"
        if len(v) > MAX_ITEMS:
            return f"{len(v)} items; at most {MAX_ITEMS}"
        for x in v:
            p = item.check(g, x)
            if p is not None:
                return f"item {show(x)}: {p or item.expected}"
        return None
    return Kind(expected, check, nullable=True)


def either(*kinds: Kind, expected: str) -> Kind:
    """A value that is any one of ``kinds``."""
    def check(g: "PlayContext", v: Any) -> str | None:
        return None if any(k.check(g, v) is None for k in kinds) else ""
    return Kind(expected, check, nullable=True)


def word(*choices: str) -> Kind:
    def check(g: "PlayContext", v: Any) -> str | None:
        return None if isinstance(v, str) and v.strip().lower() in choices else ""
    return Kind(" or ".join(repr(c) for c in choices), check, nullable=True)


TEXT = text()
TURN = integer(0, MAX_TURN, "a turn number")
RATING = number(-MAX_RATING, MAX_RATING)
MODIFIERS = mapping(TEXT, integer(-MAX_RATING, MAX_RATING), f"a map of modifier name → whole number (±{MAX_RATING})")

# The kind each argument name has in every action that takes it.
COMMON: dict[str, Kind] = {
    "do": TEXT,
    # units
    "unit": UNIT, "units": UNITS, "attackers": UNITS, "passengers": UNITS, "ships": UNITS,
    "losses": UNITS,  # generic CRT results: the order in which units take step losses
    "leader": UNIT, "ship": UNIT, "spotter": UNIT, "leader_with": UNIT,
    # places
    "hex": HEX, "from": HEX, "run_to": HEX, "to": TEXT, "target": TEXT, "box": TEXT,
    "hexside": TEXT, "overlay": TEXT, "track": TEXT,
    # numbers
    "dice": DICE, "steps": integer(1, MAX_STEPS, "a number of steps"),
    "delta": integer(-MAX_NUMBER, MAX_NUMBER), "bonus": integer(-MAX_RATING, MAX_RATING),
    "points": integer(-MAX_NUMBER, MAX_NUMBER), "command": integer(-MAX_RATING, MAX_RATING),
    "dispatch": integer(-MAX_RATING, MAX_RATING), "turn": TURN, "step": integer(-MAX_NUMBER, MAX_NUMBER),
    "by": TEXT, "range": number(0, MAX_RATING, "a range in hexes"), "fire_rating": RATING, "tq": RATING,
    "contact_value": RATING, "modifiers": MODIFIERS,
    # switches
    "glider": BOOL, "column": BOOL, "enter": BOOL, "apply": BOOL, "armored": BOOL, "counter_battery": BOOL,
    "retreat": BOOL, "break_off": BOOL, "advanced": BOOL, "retreated": BOOL, "all_defenders_eliminated": BOOL,
    "launch": BOOL, "contest": BOOL, "ntf": BOOL, "saf_cancel": BOOL, "continue": BOOL, "charge_cp": BOOL,
    "in_fire_zone": BOOL,
    "advance": either(BOOL, word("all"), UNIT, UNITS, expected="true, 'all', a unit id or a list of unit ids"),
    # words and ids the procedures compare as text
    "check": TEXT, "roaming_check": TEXT, "s_check": TEXT, "side": TEXT, "division": TEXT, "formation": TEXT,
    "battalion": TEXT, "straggler_battalion": TEXT, "chit": TEXT, "when": TEXT, "park": TEXT, "force": TEXT,
    "line": TEXT, "drop_number": TEXT, "pool": TEXT, "mode": TEXT, "defenders": TEXT, "together": TEXT,
    "reason": TEXT, "add": TEXT, "remove": TEXT, "nest_target": TEXT, "nests": TEXT, "cancel_hit": TEXT,
    "retreat_cancel": TEXT,
    # free-form data the procedures read selectively
    "values": plain("a map of unit id → {field: value}", dict),
    "opportunity_fire": plain("a list of shots ({unit, target, …})", list),
    "run_away_fire": plain("a list of shots ({unit, target, …})", list),
    "retreat_to": mapping(TEXT, HEX, "a map of unit id → hex label"),
    "targets": plain("a list of unit ids, or a map of unit id → target(s)"),
    "mode2": TEXT, "leave_column": UNITS, "defenders_leave_column": UNITS,
}


@dataclass(frozen=True)
class Spec:
    """One action's overrides of :data:`COMMON` and the arguments it cannot do without."""

    args: dict[str, Kind]
    required: tuple[str, ...] = ()


def _s(required: tuple[str, ...] = (), **args: Kind) -> Spec:
    return Spec(args, required)


TARGET_UNIT = {"target": UNIT}  # actions whose target is a unit, not a hex
ACTIONS: dict[str, Spec] = {
    "move": _s(("to",), to=HEX_OR_BOX),
    "place": _s(("unit", "to"), to=HEX_OR_BOX),
    "roll": _s(),
    "step_loss": _s(("unit",)),
    "flip": _s(("unit",)),
    "marker": _s(("unit",)),
    "vp": _s(("side",)),
    "attack": _s(("attackers", "target"), target=HEX,
                 targets=mapping(TEXT, plain("a unit id or a list of unit ids"), "a map of attacker → target unit(s)")),
    "assault": _s(("target",), target=HEX),
    "fire": _s(("unit", "target"), **TARGET_UNIT),
    "fire_zone": _s(("unit",)),
    "los": _s(("from", "to"), to=HEX),
    "indirect_fire": _s(("unit",), **TARGET_UNIT),
    "opportunity_fire": _s(("unit", "target"), **TARGET_UNIT),
    "ship_fire": _s((), by=integer(1, MAX_STEPS, "a number of boxes"), **TARGET_UNIT),
    "battery_fire": _s(("unit", "target"), **TARGET_UNIT),
    "beach_fire": _s(("track",), by=integer(1, MAX_STEPS, "a number of boxes")),
    "transfer_leader": _s(("to",), to=HEX),
    "check_leaders": _s((), to=mapping(TEXT, TEXT, "a map of leader id → unit or hex to move to")),
    "land_craft": _s(("unit", "to"), to=HEX),
    "replace": _s(("unit",), to=HEX),
    "plot_drop": _s(("unit", "hex", "turn")),
    "cancel_drop": _s(("unit",)),
    "airdrop": _s(),
    "plot_saf": _s(("hex", "turn")),
    "set_cp_bonus": _s(("side", "bonus")),
    "set_points": _s(("division",)),
    "roll_points": _s(("division",)),
    "buy_chit": _s(("division", "chit")),
    "second_action": _s(("units",)),
    "pass": _s(("units",)),
    "move_assault_force": _s(("force",), to=HEX),
    "column": _s((), to=HEX_OR_BOX),
    "rally": _s(("unit",)),
    "contact": _s(("unit",)),
    "drop_contact": _s(("unit",)),
    "open_gap": _s(("hexside",)),
    "naval_step": _s(("step",)),
    "set_rp": _s(("pool", "points")),
    "italy_transfer": _s(("unit",)),
    "schedule_italy": _s(("unit",)),
    "hq_to_cp": _s(("unit",)),
    "airborne_withdraw": _s(("unit",)),
    "rail_to_transit": _s(("unit", "to")),
    "land": _s(("unit", "to"), to=HEX),
    "omm_move": _s(("to",)),
    "strategic_move": _s(("to",)),
    "move_ship": _s(),
    "resolve_event": _s((), targets=listing(TEXT, "a list of unit ids")),
}


def kind_of(do: str, name: str) -> Kind | None:
    spec = ACTIONS.get(do)
    if spec is not None and name in spec.args:
        return spec.args[name]
    return COMMON.get(name)


def check_action(game: "PlayContext", do: str, action: dict[str, Any]) -> None:
    """Raise :class:`ArgumentError` for the first argument of ``action`` that is unknown,
    missing, of the wrong type or out of range; return when every one is fine."""
    spec = ACTIONS.get(do, Spec({}))
    for name in spec.required:
        if action.get(name) is None and not (name == "unit" and action.get("units")) \
                and not (name == "to" and action.get("box") is not None):
            kind = kind_of(do, name)
            raise ArgumentError(do, name, None, kind.expected if kind else "a value", missing=True)
    for name, value in action.items():
        if not isinstance(name, str):
            raise ArgumentError(do, str(name), value, "argument names are text")
        kind = kind_of(do, name)
        if kind is None:
            close = difflib.get_close_matches(name, sorted(set(COMMON) | set(spec.args)), n=1)
            raise ArgumentError(do, name, value, "an argument name from docs/play.md (Actions)"
                                + (f"; did you mean {close[0]!r}?" if close else ""),
                                problem="no action takes an argument of this name")
        if value is None and kind.nullable:
            continue
        problem = "a null" if value is None else kind.check(game, value)
        if problem is not None:
            raise ArgumentError(do, name, value, kind.expected, problem=problem or None)


__all__ = ["ACTIONS", "COMMON", "ArgumentError", "GameError", "Kind", "MAX_DICE", "MAX_SIDES", "MAX_TURN",
           "check_action", "kind_of"]
