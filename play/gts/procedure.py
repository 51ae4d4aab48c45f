"""The GTS procedure: Column [14.6], fire with a CRT from the data [15.5], Fire Zones and LOS
[17.3, 15.4], activation details [7.2, 10.0.3, 10.0.5] and the Utah Beach Overlay
[Excl 4.2–4.5]. Parameters: ``gts-utah:`` in play/data/procedures.yaml (cited)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from play.procedures import Procedure, _param
from play.gts import activation, beach, column, fire, stragglers
from play.gts.crt import crt_for

if TYPE_CHECKING:
    from play.game import ActionResult, Game


class GtsProcedure(Procedure):
    def __init__(self, game: "Game") -> None:
        self.fire = _param(game, "fire") or {}
        self.results = _param(game, "results") or {}
        self.column = _param(game, "column") or {}
        self.activation = _param(game, "activation") or {}
        self.beach = _param(game, "beach") or {}
        marker = str(self.column.get("marker", "column"))
        cohesion = str(self.results.get("cohesion_marker", "cohesion_hit"))
        self.actions = {
            "fire": lambda g, a: fire.fire(g, a, self.fire, self.results),
            "fire_zone": lambda g, a: fire.fire_zone(g, a, self.fire),
            "los": lambda g, a: fire.los(g, a),
            "column": lambda g, a: column.column_action(g, a, self.column, cohesion),
            "roll_points": lambda g, a: activation.roll_points(g, a, self.activation),
            "set_points": lambda g, a: activation.set_points(g, a, self.activation),
            "buy_chit": lambda g, a: activation.buy_chit(g, a, self.activation),
            "direct_command": lambda g, a: activation.direct_command(g, a, self.activation),
            "land_craft": lambda g, a: beach.land_craft(g, a, self.beach, self.results, marker),
            "beach_fire": lambda g, a: beach.beach_fire(g, a, self.beach),
            "open_gap": lambda g, a: beach.open_gap(g, a, self.beach),
        }
        self.stragglers = stragglers.cfg_of(game)
        if self.stragglers:
            self.actions["recover_stragglers"] = lambda g, a: stragglers.recover(g, a, self.stragglers)
            self.actions["spend_srp"] = lambda g, a: stragglers.spend(g, a, self.stragglers)
        self.marker = marker
        if crt_for(game) is not None:
            # With a CRT in the data, ``attack`` is GTS fire (the Play mode then offers combat).
            self.actions["attack"] = lambda g, a: fire.attack_as_fire(g, a, self.fire, self.results)

    def on_phase_start(self, game: "Game") -> None:
        if game.state.phase == 0:
            activation.start_of_turn(game)
        for ov in beach.overlays(game):
            beach.state(game, ov)  # start levels recorded on the first phase

    def before(self, game: "Game", action: dict[str, Any]) -> "ActionResult | None":
        do = action.get("do")
        if do == "move":
            return column.before_move(game, action, self.column) or \
                beach.before_move(game, action, self.beach, self.marker)
        if do in ("next_phase", "end_turn"):
            beach.mandatory_landings(game, self.beach, self.results, self.marker)
        return None

    def after(self, game: "Game", action: dict[str, Any], result: "ActionResult") -> None:
        if action.get("do") == "draw_chit" and result.ok:
            beach.on_chit(game, str(result.data.get("chit")), self.beach)
        if beach.overlays(game):
            beach.check_cleared(game, self.beach)
        if self.stragglers:
            if action.get("do") == "drop_roll" and result.ok:
                stragglers.after_drop(game, action, result, self.stragglers)
            stragglers.check_rally_points(game, self.stragglers)


def procedures(game: "Game") -> list[Procedure]:
    return [GtsProcedure(game)]
