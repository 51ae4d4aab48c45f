"""GTS Column [14.6–14.7]: ``{do: column, unit|units, enter: true|false, by: mp|cohesion}``.

Entering Column costs 1 MP; leaving costs 1 MP or a Cohesion Hit [14.6]; at most one unit in
Column per hex [14.7]. A unit in Column moves with ``model.movement``'s column flag (roads
that require Column, Column-only terrain and, through the path data, bridges); a ``move``
with ``column: true`` by units not in Column is refused, and a unit in Column always moves
as such. A DD tank may not land in Column [Excl 4.5.5] (play/gts/beach.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from play.result import result as _ok

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.gts.params import ColumnParams
    from play.result import ActionResult
    from play.state import UnitState


def in_column(u: "UnitState", cfg: "ColumnParams") -> bool:
    return cfg.marker in u.markers


def column_action(game: "PlayContext", action: dict[str, Any], cfg: "ColumnParams", cohesion_marker: str) -> "ActionResult":
    from play.rules import MOVE_PHASE_POLICY

    units = game.stack(action)
    enter = str(action.get("enter", "true")).lower() in ("1", "true", "yes")
    marker = cfg.marker
    ph = game.phase
    if not units or not ph.permits("move") or (ph.side is not None and any(u.side != ph.side for u in units)):
        return _ok(False, "Column changes are part of a move: only in the unit's Movement phase", ph.rule, MOVE_PHASE_POLICY)
    if any(not u.on_map for u in units):
        return _ok(False, "the units are not on the map")
    spec = cfg.enter_cost if enter else cfg.leave_cost
    rule = spec.rule or cfg.rule
    if any(in_column(u, cfg) == enter for u in units):
        return _ok(False, f"already {'in' if enter else 'out of'} Column", rule)
    if enter:
        for u in units:
            others = [x for x in game.state.at(u.hex) if x not in units and in_column(x, cfg)] if u.hex else []
            if others or len(units) > cfg.one_per_hex.value:
                return _ok(False, "only one unit in Column per hex", cfg.one_per_hex.rule)
    by_cohesion = not enter and str(action.get("by", "mp")) == "cohesion"
    cost = 0.0 if by_cohesion else float(spec.value)
    for u in units:
        ma = game.movement_allowance(u)
        if cost and ma is None:
            return _ok(False, f"{u.id} has no printed movement allowance in the counter data",
                       policy="unknown-ma-cannot-move: use 'marker' to set Column by hand")
        if cost and ma is not None and ma - u.mp_spent < cost:
            return _ok(False, f"{u.id} needs {cost:g} MP, has {ma - u.mp_spent:g}", rule)
    for u in units:
        u.mp_spent += cost
        if enter:
            u.markers.append(marker)
        else:
            u.markers.remove(marker)
            if by_cohesion:
                u.markers.append(cohesion_marker)
    game.emit("column", units=[u.id for u in units], enter=enter, cost=cost,
              cohesion_hit=by_cohesion or None, rule=rule)
    return _ok(True, f"{'entered' if enter else 'left'} Column ({'a Cohesion Hit' if by_cohesion else f'{cost:g} MP'})", rule)


def before_move(game: "PlayContext", action: dict[str, Any], cfg: "ColumnParams") -> "ActionResult | None":
    """A unit in Column moves in Column; ``column: true`` needs every unit in Column; one
    Column unit per hex at the end of the move."""
    units = game.stack(action)
    col = [in_column(u, cfg) for u in units]
    asked = str(action.get("column", "false")).lower() in ("1", "true", "yes")
    rule = cfg.rule
    if asked and not all(col):
        return _ok(False, "enter Column first ({do: column}): only units in Column use Column movement", rule)
    if any(col) and not all(col):
        return _ok(False, "a stack moving together must be all in Column or all out of it", rule)
    if all(col) and units:
        action["column"] = True  # the move handler reads the same dict: move as a Column
        dest = game.hex_of(action.get("to")) if not str(action.get("to", "")).startswith("box:") else None
        if dest is not None and any(in_column(x, cfg) for x in game.state.at(dest) if x not in units):
            return _ok(False, f"{game.label(dest)} already holds a unit in Column", cfg.one_per_hex.rule)
    return None
