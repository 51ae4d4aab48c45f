"""What a procedure may see and do in a game: the :class:`PlayContext` protocol.

Procedures (every plug-in's, and the shared ones) are typed against this protocol, not
against :class:`play.game.Game`, so no plug-in imports the engine and the engine imports
its plug-ins through one table (:mod:`play.plugins`) — no import circle. ``Game`` is the one
implementation. What used to be reached through private members is a public verb here:
``stack`` (the units an action names), ``lose_step``, ``location_hexes``, ``procedure_of``.

The map is ``hmap`` (a :class:`model.mapdata.HexMap`): ``map`` would shadow the builtin.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, TypeVar

if TYPE_CHECKING:
    from model.bundle import Bundle
    from model.counters import Counter
    from model.hexes import Hex
    from model.mapdata import HexMap
    from model.scenario import Scenario
    from model.system import GameSystem
    from play.dice import Dice
    from play.moves import MoveTables, Reach
    from play.plugin import SystemPlugin
    from play.procedure import Procedure
    from play.result import ActionResult
    from play.rules import Problem
    from play.sequence import Phase
    from play.state import GameState, UnitState

P = TypeVar("P", bound="Procedure")


class PlayContext(Protocol):
    # --- what the game is ---------------------------------------------------------------
    bundle: "Bundle"
    scenario: "Scenario"
    scenario_id: str
    system: "GameSystem"
    plugin: "SystemPlugin"
    hmap: "HexMap"
    counters: "dict[str, Counter]"
    dice: "Dice"
    phases: "list[Phase]"
    first_turn: int
    last_turn: int
    procedures: "list[Procedure]"
    move_tables: "MoveTables"
    keep_undo: bool

    # --- where it stands ----------------------------------------------------------------
    state: "GameState"
    log: list[dict[str, Any]]
    actions: list[dict[str, Any]]

    @property
    def phase(self) -> "Phase": ...

    def turn_label(self) -> str: ...

    # --- reading hexes and units ----------------------------------------------------------
    def label(self, h: "Hex | None") -> str | None: ...

    def hex_of(self, text: Any) -> "Hex": ...

    def unit(self, uid: str) -> "UnitState": ...

    def stack(self, action: dict[str, Any]) -> "list[UnitState]": ...

    def location_hexes(self, loc_id: str) -> "list[Hex]": ...

    def box_entry_hexes(self, box_id: str) -> "list[Hex]": ...

    def procedure_of(self, kind: type[P]) -> P | None: ...

    # --- movement -------------------------------------------------------------------------
    def play_costs(self) -> dict[str, float] | None: ...

    def movement_allowance(self, u: "UnitState") -> float | None: ...

    def legal_moves(self, units: "list[UnitState]", column: bool = False) -> "tuple[Reach | None, Problem | None]": ...

    def overstack_refusal(self, dest: "Hex", units: list) -> "ActionResult | None": ...

    # --- changing it ----------------------------------------------------------------------
    def emit(self, type_: str, **data: Any) -> dict[str, Any]: ...

    def lose_step(self, uid: str, n: int = 1) -> "ActionResult": ...

    def apply(self, action: dict[str, Any]) -> "ActionResult": ...
