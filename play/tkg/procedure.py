"""The TKG procedure: ZOC movement costs [8.2], regiment stacking [6.1.2], OMM boxes [7.5],
the single-map Transit Display [18.4.2], Build-Up landings [18.1]. Parameters: play/tkg/params.yaml (cited), or the
system's own params when it carries them."""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Callable

from model.hexes import Hex

from play.procedure import Procedure
from play.tkg import boxes, transit, zoc
from play.tkg.params import OmmParams, StackingParams, TransitParams, ZocParams, tkg_params

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.result import ActionResult
    from play.state import UnitState


REPLACEMENT_POLICY = ("tkg-reinforcements-only: in the Replacement Segment the scheduled reinforcements arrive (and "
                      "land [18.1]); replacement points, rebuilding and resting [19.0, 17.1.2] are not built")


class TkgProcedure(Procedure):
    # Tactical movement [TKG 4.0 3.3.1, 4.4.1] with its ZOC costs [8.2], OMM boxes [7.5] and the
    # Transit Display [18.4.2]; the Replacement Segments only in part (their reinforcements).
    plays = frozenset({"3.3.1", "4.4.1"})
    partly = MappingProxyType({"3.2.2": REPLACEMENT_POLICY, "4.2.2": REPLACEMENT_POLICY})

    def __init__(self, game: "PlayContext") -> None:
        params = tkg_params(game)  # validated here, once: a bad value stops the game before it starts
        self.params = params
        self.zoc: ZocParams | None = params.zoc
        self.stacking: StackingParams = params.stacking
        self.omm: OmmParams | None = params.omm
        self.landing = params.landing
        self.transit: TransitParams | None = params.transit
        # The box and rail actions still run, with the defaults, when their section is missing.
        self._omm_rules = params.omm or OmmParams()
        rail_rules = params.transit or TransitParams()
        self.actions = {"omm_move": self._omm_move,
                        "rail_to_transit": lambda g, a: transit.rail_to_transit(g, a, rail_rules),
                        "land": lambda g, a: boxes.land(g, a, self.landing)}
        self._no_zoc = False  # set while asking "would it be reachable without ZOC?"

    def _omm_move(self, game: "PlayContext", action: dict[str, Any]) -> "ActionResult":
        """OMM boxes [7.5.2]; moves from or onto the single-map Transit Display [18.4.2]."""
        if self.transit is not None:
            units = game.stack(action)
            target = game.bundle.box(str(action.get("to", "")))
            src = game.bundle.box(str(units[0].box)) if units and units[0].where == "box" else None
            if transit.is_transit(src, self.transit):
                return transit.transit_move(game, units, target, str(action.get("to", "")), self.transit)
            if target is not None:
                refused = transit.refuse_entry(game, units, target, self.transit)
                if refused is not None:
                    return refused
        return boxes.omm_move(game, action, self._omm_rules)

    def arrival_box(self, game: "PlayContext", unit: Any, box: str, sched: Any) -> tuple[str, Any]:
        placed, problem = transit.arrival_box(game, unit, box, self.transit)
        if problem is not None:
            return placed, problem
        # "German reinforcements may not be placed in a OMM box that is controlled by an Allied unit" [18.4.1]
        b = game.bundle.box(placed)
        if self.omm is not None and b is not None and b.kind in self.omm.kinds \
                and unit.side == self.omm.german_side and boxes.allied_controls(game, b.id, self.omm):
            from play.rules import Problem

            return placed, Problem("blocked", f"{unit.id}: OMM box {b.id} is Allied-controlled; German "
                                              "reinforcements may not be placed there", self.omm.reinforcement_rule)
        return placed, None

    def move_extra(self, game: "PlayContext", units: list["UnitState"]) -> Callable[[Hex, Hex], float | None] | None:
        if self._no_zoc or self.zoc is None:
            return None
        return zoc.move_hook(game, units, self.zoc)

    def on_phase_start(self, game: "PlayContext") -> None:
        if game.phase.kind == "reinforcement":
            boxes.box_capacity_events(game, self.landing)

    def before(self, game: "PlayContext", action: dict[str, Any]) -> "ActionResult | None":
        from play.result import ActionResult

        do = action.get("do")
        if do == "attack":
            in_box = [str(a) for a in action.get("attackers", []) if game.unit(str(a)).where == "box"]
            if in_box:
                return ActionResult(False, f"no combat in off-map boxes ({', '.join(in_box)})",
                                    self._omm_rules.no_combat.rule)
            return None
        if do != "move" or str(action.get("to", "")).startswith("box:"):
            return None
        units = game.stack(action)
        dest = game.hex_of(action.get("to"))
        problem = self._regiments(game, units, dest)
        if problem is not None:
            return problem
        return self._zoc_reason(game, units, dest)

    def _regiments(self, game: "PlayContext", units: list["UnitState"], dest: Hex) -> "ActionResult | None":
        from play.result import ActionResult

        cap = self.stacking.max_regiments
        if cap is None:
            return None
        tags = set(self.stacking.regiment_category_tags)
        stack = {u.id: u for u in game.state.at(dest)}
        stack.update({u.id: u for u in units})
        regs = [uid for uid in stack if uid in game.counters and
                tags & set(getattr(game.system.category_by_id.get(game.counters[uid].category), "tags", []))]
        if len(regs) > cap.value:
            return ActionResult(False, f"cannot end the move in {game.label(dest)}: {len(regs)} regiments "
                                       f"(limit {cap.value})", cap.rule)
        return None

    def _zoc_reason(self, game: "PlayContext", units: list["UnitState"], dest: Hex) -> "ActionResult | None":
        """A move refused only because of enemy ZOC gets the ZOC rule case, not "out of reach"."""
        from play.result import ActionResult

        if self.zoc is None or any(not u.on_map for u in units):
            return None
        reach, problem = game.legal_moves(units, bool(units and "column" in units[0].markers))
        if problem is not None or reach is None or dest in reach.cost:
            return None
        self._no_zoc = True
        try:
            free, _ = game.legal_moves(units)
        finally:
            self._no_zoc = False
        if free is None or dest not in free.cost:
            return None
        z2, costs = self.zoc.zoc_to_zoc, self.zoc.rzoc_extra.costs
        return ActionResult(False, f"cannot move to {game.label(dest)}: enemy zones of control (stop on entering; "
                                   f"+{costs.get('nonmech', 1)}/+{costs.get('mech', 3)} MP for an RZOC; no ZOC to ZOC)",
                            f"{self.zoc.rule}, {z2.rule}" if z2.rule else self.zoc.rule)

    def after(self, game: "PlayContext", action: dict[str, Any], result: "ActionResult") -> None:
        if action.get("do") != "move" or not result.ok or self.zoc is None:
            return
        units = game.stack(action)
        if not units or units[0].hex is None:
            return
        zmap, _ = zoc.enemy_zoc(game, units[0].side, self.zoc)
        z = zmap.get(units[0].hex)
        if z is not None:
            game.emit("zoc_stop", units=[u.id for u in units], hex=game.label(units[0].hex),
                      zoc="RZOC" if z == "R" else "BZOC", rule=self.zoc.rule)


def procedures(game: "PlayContext") -> list[Procedure]:
    return [TkgProcedure(game)]
