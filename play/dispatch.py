"""Which callable runs each action: one handler per action, decided once per game.

The engine's generic actions (:data:`GENERIC_ACTIONS`, ``Game._do_<name>``) come first. A
procedure adds its own actions; it may take over a generic one only by saying so in its
``replaces`` (e.g. a system's combat procedure replacing the generic ``attack``). Two
procedures offering the same action, or a procedure shadowing a generic action it did not
declare, is an :class:`ActionClash` when the game is built — never "the last one wins".
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any, Callable, Iterable

if TYPE_CHECKING:
    from play.procedure import Procedure
    from play.result import ActionResult

Handler = Callable[[dict[str, Any]], "ActionResult"]

# The engine's own actions (play/game.py, ``Game._do_<name>``).
GENERIC_ACTIONS: tuple[str, ...] = ("move", "place", "next_phase", "end_turn", "roll", "step_loss", "flip",
                                    "marker", "vp", "attack")


class ActionClash(Exception):
    """Two handlers for one action (a bug in a plug-in, found when a game is built)."""


def _generic(game: Any, method: str, action: dict[str, Any]) -> "ActionResult":
    result: "ActionResult" = getattr(game, method)(action)
    return result


def dispatch_table(game: Any, generic: Iterable[str], procedures: "Iterable[Procedure]") -> dict[str, Handler]:
    """Action name -> its one handler, for ``game`` and its ``procedures``."""
    # Looked up on each call (not bound now), so the engine's method is whatever the class holds.
    table: dict[str, Handler] = {name: partial(_generic, game, f"_do_{name}") for name in generic}
    owner: dict[str, str] = {name: "the engine" for name in table}
    replaced: set[str] = set()
    for proc in procedures:
        name = type(proc).__name__
        for do, handler in proc.actions.items():
            if do in owner and owner[do] != "the engine":
                raise ActionClash(f"action {do!r} is offered by both {owner[do]} and {name}")
            if do in owner and do not in proc.replaces:
                raise ActionClash(f"{name} offers {do!r}, an engine action, without declaring it in 'replaces'")
            if do in proc.replaces and do in replaced:
                raise ActionClash(f"action {do!r} is replaced twice ({owner[do]}, {name})")
            if do in proc.replaces:
                replaced.add(do)
            owner[do] = name
            table[do] = partial(handler, game)
    return table
