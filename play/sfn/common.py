"""Helpers shared by the SFN procedures: unit classes, ZOC, command points.

Parameters are typed (:func:`play.sfn.params.sfn_params`). :func:`cfg`, :func:`value` and
:func:`rule_of` read them untyped; they remain for ``play/sfn/combat.py`` alone, whose
``combat`` section stays untyped while SFN's CRT moves into a shared, data-driven form.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from model.hexes import Hex

from play.procedure import param_value, system_param

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.result import ActionResult
    from play.sfn.command_points import CommandPoints
    from play.state import UnitState


def cfg(game: "PlayContext", key: str) -> dict[str, Any]:
    """A param section untyped (play/sfn/combat.py only; see the module docstring)."""
    v = system_param(game, key)
    return v if isinstance(v, dict) else {}


def value(v: Any, default: Any = None) -> Any:
    out = param_value(v)
    return default if out is None else out


def rule_of(v: Any, default: str | None = None) -> str | None:
    return v.get("rule", default) if isinstance(v, dict) else default


def category_tags(game: "PlayContext", uid: str) -> set[str]:
    c = game.counters.get(uid)
    if c is None:
        return set()
    cat = game.system.category_by_id.get(c.category)
    return (set(cat.tags) if cat is not None else set()) | {c.category} | set(c.flags)


def has_tag(game: "PlayContext", uid: str, tag: str) -> bool:
    return tag in category_tags(game, uid)


def other_side(game: "PlayContext", side: str) -> list[str]:
    return [s.id for s in game.system.sides if s.id != side]


def zoc_of(game: "PlayContext", side: str) -> set[Hex]:
    """Hexes in the ZOC of ``side``'s units [SFN 11.1], not across all-sea hexsides [11.2]."""
    from play.sfn.params import sfn_params
    from play.supply import enemy_zoc

    blocking = sfn_params(game).zoc_blocking_tags
    out: set[Hex] = set()
    for enemy in other_side(game, side):
        out |= enemy_zoc(game, enemy, blocking)  # ZOC of the enemies of ``enemy`` = ours
    return out


def enemy_zoc_of(game: "PlayContext", side: str) -> set[Hex]:
    from play.sfn.params import sfn_params
    from play.supply import enemy_zoc

    return enemy_zoc(game, side, sfn_params(game).zoc_blocking_tags)


def command_points(game: "PlayContext") -> "CommandPoints | None":
    """The SFN CommandPoints procedure of this game, or None."""
    from play.sfn.command_points import CommandPoints

    return game.procedure_of(CommandPoints)


def check_cp(game: "PlayContext", units: list[str], cost: int, rule: str | None) -> "ActionResult | None":
    """A refusal when a command cannot be paid for or a unit already acted [SFN 6.2-6.4]."""
    from play.result import ActionResult

    cp = command_points(game)
    if cp is None:
        return None
    st = cp.st(game)
    one = cp.params.one_action_per_turn.rule
    acted = [u for u in units if st.acted.get(u)]
    if acted:
        return ActionResult(False, f"{', '.join(acted)} already acted this player turn", one)
    side = game.phase.side or ""
    have = st.points.get(side, 0)
    if have < cost:
        return ActionResult(False, f"{side} has {have} CP left; the command costs {cost}", rule)
    return None


def spend_cp(game: "PlayContext", units: list[str], cost: int, kind: str, rule: str | None) -> None:
    cp = command_points(game)
    if cp is None:
        return
    st = cp.st(game)
    side = game.phase.side or ""
    st.points[side] = st.points.get(side, 0) - cost
    for u in units:
        st.acted[u] = kind
    game.emit("cp_spent", cp_side=side, cost=cost, left=st.points[side], units=units, command=kind, rule=rule)


def in_play(u: "UnitState") -> bool:
    return u.where in ("hex", "box")
