"""The procedure interface: what a system's rules hook into the engine.

A game runs its plug-in's procedures in the plug-in's order (:mod:`play.plugin`). Each may
add actions (``actions``: action name -> handler; exactly one handler per action in a game,
:mod:`play.dispatch` refuses a clash), refuse or follow any action (``before``,
``after``), run at phase start and turn end, and narrow movement (``ma_cap``, ``move_extra``),
box entry and arrivals. Procedures see the game through :class:`play.context.PlayContext`.

Parameters: :func:`system_param` reads a value from the system file's ``params`` first, then
from the plug-in's defaults (``play/<plug-in>/params.yaml``, every value with its rule case).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Callable, Mapping

from model.hexes import Hex

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.result import ActionResult


def system_param(game: "PlayContext", key: str) -> Any:
    """A system param (``params.<key>`` of the system file), else the plug-in's default."""
    v = game.system.params.get(key)
    if v is None:
        v = game.plugin.defaults.get(key)
    return v


def param_value(v: Any) -> Any:
    """A param's value, unwrapping the cited form ``{value: …, rule: …}``."""
    return v.get("value") if isinstance(v, dict) and "value" in v else v


class Procedure:
    actions: dict[str, Callable[["PlayContext", dict[str, Any]], "ActionResult"]] = {}
    # Engine actions (play.dispatch.GENERIC_ACTIONS) this procedure's ``actions`` take over.
    replaces: frozenset[str] = frozenset()
    # The steps (or step-less phases) of the system's sequence of play this procedure plays, by
    # the ids of the system file's ``sequence_of_play``; the engine logs the ones nothing plays
    # (play/sequence.py, ``step_not_played``).
    plays: frozenset[str] = frozenset()
    # Steps it plays only in part: id -> ``"policy-name: what is played and what is not"``,
    # logged as ``step_partly_played`` with that policy.
    partly: Mapping[str, str] = MappingProxyType({})

    def on_setup(self, game: "PlayContext") -> None:
        """The scenario's units are set up, before the first phase is entered: a roll the rules
        make as part of the set-up (a landing's casualties) is made here, once per game."""

    def on_phase_start(self, game: "PlayContext") -> None:
        pass

    def on_turn_end(self, game: "PlayContext") -> None:
        pass

    def before(self, game: "PlayContext", action: dict[str, Any]) -> "ActionResult | None":
        return None

    def after(self, game: "PlayContext", action: dict[str, Any], result: "ActionResult") -> None:
        pass

    def ma_cap(self, game: "PlayContext", unit: Any) -> tuple[float, str | None] | None:
        """A limit on the unit's movement allowance (value, rule case), or None."""
        return None

    def box_entries(self, game: "PlayContext", units: list[Any], box: str, entries: list[Hex]) -> list[Hex]:
        """The entry hexes these units may use out of ``box`` (a system may narrow them)."""
        return entries

    def arrival_box(self, game: "PlayContext", unit: Any, box: str, sched: Any) -> tuple[str, Any]:
        """Where an arrival scheduled into ``box`` is placed: (box id, None), or (box, Problem)
        when it cannot arrive, e.g. TKG single-map Transit boxes [TKG 18.4.2]."""
        return box, None

    def after_arrival(self, game: "PlayContext", unit: Any) -> None:
        """A scheduled arrival (reinforcement, landing, drop) has just put ``unit`` on a map hex:
        a system may judge the stack it ends in, e.g. overstacking penalised, not refused [GTS 14.7]."""

    def move_extra(self, game: "PlayContext", units: list[Any]) -> Callable[[Hex, Hex], float | None] | None:
        """Extra MP for a step a→b of this stack (the callable returns None: step not allowed),
        e.g. TKG ZOC costs [TKG 8.2]; None: no extra."""
        return None
