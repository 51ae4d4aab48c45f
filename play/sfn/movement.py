"""SFN box-to-map entry [7.3, 6.2] and strategic movement [12.5].

- **Box entry** (hook ``box_entries`` of ``Game.legal_moves``): US and Free French units leave
  the England box only through the Utah and Omaha beaches, Commonwealth units through Gold,
  Juno and Sword [7.3], of the active invasion area only [3.3]; North-box units through the
  board-edge hexes 3100-2828, South-box units through 4013-3421 (the map's entry-edge areas)
  [7.3]. Units in a box are unstacked: one Move command brings out one unit [6.2]. The entry
  hex is the first hex of movement [7.3] (the engine's box-entry-costs-entry-hex).
- **Strategic movement** (``{do: strategic_move, unit(s), to}``): twice the printed movement
  factor for a unit (or stack: the slowest unit's [12.2]) in regular overland supply — a traced
  path, not fortress, coastal or aerial supply, not OOS — that neither starts in, enters nor ends
  in an enemy ZOC [12.5, 11.4]; one CP per unit or stack, one unit per CP out of a box [12.5];
  no Allied strategic move out of the England box (it would land on a beachhead that player
  turn) [12.5]; the German may move one unit per game turn between the North and South boxes for
  one CP (``to: box:south``) [12.5].
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from model.hexes import Hex

from play import rules
from play.rules import MOVE_PHASE_POLICY
from play.moves import Reach, reachable
from play.procedure import Procedure
from play.sfn.common import check_cp, enemy_zoc_of, spend_cp
from play.sfn.params import sfn_params
from play.sfn.state import sfn_state

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.result import ActionResult
    from play.state import UnitState


class SfnMovement(Procedure):
    def __init__(self, game: "PlayContext") -> None:
        params = sfn_params(game)
        self.entry = params.box_entry
        self.strat = params.strategic_movement
        self.move_cost = params.command_points.move_cost
        self.supply = params.supply
        self.marker = params.oos_marker
        self.actions = {"strategic_move": self.strategic_move}

    # --- box entry [7.3] ---------------------------------------------------------------------

    def box_entries(self, game: "PlayContext", units: list[Any], box: str, entries: list[Hex]) -> list[Hex]:
        spec = self.entry.boxes.get(box)
        if spec is None or not units:
            return entries
        if spec.area:
            area = game.hmap.area(spec.area)
            return list(area.hexes) if area is not None else []
        c = game.counters.get(units[0].id)
        beaches = spec.by_nationality.get(c.nationality) if c is not None and c.nationality is not None else None
        if beaches is None:
            return entries
        area = str(game.scenario.params.get("invasion_area") or "")
        pattern = spec.location_pattern
        out: list[Hex] = []
        for b in beaches:
            for h in game.location_hexes(pattern.format(beach=b, area=area)):
                if h not in out:
                    out.append(h)
        return out

    def before(self, game: "PlayContext", action: dict[str, Any]) -> "ActionResult | None":
        from play.result import ActionResult

        if action.get("do") != "move":
            return None
        units = game.stack(action)
        if len(units) > 1 and any(u.where == "box" for u in units):
            return ActionResult(False, "units in a holding box are unstacked: one Move command brings out one unit",
                                self.entry.one_unit_per_command.rule or "SFN 6.2")
        if len(units) == 1 and units[0].where == "box" and not str(action.get("to", "")).startswith("box:"):
            return self._box_entry_zoc(game, units, action)
        return None

    def _box_entry_zoc(self, game: "PlayContext", units: list["UnitState"],
                       action: dict[str, Any]) -> "ActionResult | None":
        """The 11.4 stop for a unit entering from a box: the entry hex is its first hex of
        movement [7.3], so entering an enemy ZOC there (or later) ends its move [11.4]. The
        engine's box-entry reach knows no ZOC (play/generic/zoc.py acts on map moves only)."""
        from play.generic.zoc import enemy_zoc_hexes
        from play.result import ActionResult

        z = game.system.zoc
        if z is None or z.kind != "stop":
            return None
        reach, problem = game.legal_moves(units, bool(action.get("column", False)))
        dest = game.hex_of(str(action.get("to", "")))
        if problem is not None or reach is None or dest not in reach.cost:
            return None  # refused for another reason: the engine says which
        side = units[0].side
        ezoc = enemy_zoc_hexes(game, side, z)
        if not ezoc:
            return None
        ma = self._ma(game, units)
        if ma is None:
            return None
        enemy = {u.hex for u in game.state.units.values() if u.on_map and u.side != side and u.hex is not None}
        c = game.counters.get(units[0].id)
        mclass = rules.movement_class(game.system, c)
        costs = game.play_costs() or {}
        box = str(units[0].box)
        for e in self.box_entries(game, units, box, game.box_entry_hexes(box)):
            t = game.system.terrain_by_id.get(game.hmap.terrain_at(e) or "")
            cost = costs.get(t.id, t.move.get(mclass)) if t is not None else None
            if e in enemy or not isinstance(cost, (int, float)) or cost > ma:
                continue
            if e == dest:
                return None
            if e in ezoc:
                continue  # entered an enemy ZOC on its first hex: the move ends there [11.4]
            r = reachable(game.hmap, game.system, e, ma - float(cost), mclass, blocked=enemy, stop=ezoc,
                          costs=costs or None)
            if dest in r.cost:
                return None
        return ActionResult(False, f"cannot move to {game.label(dest)}: a unit entering from the {box} box "
                                   "stops on entering an enemy ZOC", z.rule or "SFN 11.4")

    # --- strategic movement [12.5] ------------------------------------------------------------

    def _ma(self, game: "PlayContext", units: list["UnitState"]) -> float | None:
        mas = [game.movement_allowance(u) for u in units]
        if any(m is None for m in mas):
            return None
        return min(m for m in mas if m is not None)  # the slowest unit's factor [12.2]

    def strategic_move(self, game: "PlayContext", action: dict[str, Any]) -> "ActionResult":
        from play.result import ActionResult

        rule = self.strat.rule
        units = game.stack(action)
        if not units:
            return ActionResult(False, "no unit given", rule)
        side = units[0].side
        ph = game.phase
        if not ph.permits("move") or ph.side != side or any(u.side != side for u in units):
            return ActionResult(False, f"not the movement phase of {side} (phase: {ph.name})", ph.rule, MOVE_PHASE_POLICY)
        to = str(action.get("to", ""))
        if to.startswith("box:"):
            return self._box_to_box(game, units, to[4:])
        cost = self.move_cost.value
        refusal = check_cp(game, [u.id for u in units], cost, self.move_cost.rule or "SFN 6.2")
        if refusal is not None:
            return refusal
        factor = self.strat.factor.value
        ma = self._ma(game, units)
        if ma is None:
            return ActionResult(False, "a unit has no printed movement factor in the counter data", rule,
                                "unknown-ma-cannot-move: use 'place' to reposition it")
        mp = factor * ma
        ezoc = enemy_zoc_of(game, side)
        enemy = {u.hex for u in game.state.units.values() if u.on_map and u.side != side and u.hex is not None}
        dest = game.hex_of(to)
        in_box = [u for u in units if u.where == "box"]
        if in_box:
            reach_or_refusal = self._from_box(game, units, ezoc, enemy, mp)
        else:
            reach_or_refusal = self._on_map(game, units, ezoc, enemy, mp)
        if isinstance(reach_or_refusal, ActionResult):
            return reach_or_refusal
        reach = reach_or_refusal
        if dest not in reach.cost or dest == reach.start:
            why = "in an enemy ZOC" if dest in ezoc else reach.refused.get(dest, ("out of reach", None))[0]
            return ActionResult(False, f"cannot move strategically to {game.label(dest)}: {why}", rule)
        refused = game.overstack_refusal(dest, units)
        if refused is not None:
            return refused
        spent = reach.cost[dest]
        path = [game.label(h) for h in reach.path_to(dest)]
        for u in units:
            u.where, u.hex, u.box = "hex", dest, None
            u.mp_spent = max(u.mp_spent, spent)
        spend_cp(game, [u.id for u in units], cost, "move", rule)
        game.emit("strategic_move", units=[u.id for u in units], to=game.label(dest), path=path, cost=spent,
                  mp=mp, rule=rule)
        return ActionResult(True, f"strategic move to {game.label(dest)} for {spent:g} of {mp:g} MP", rule,
                            data={"cost": spent, "path": path, "mp": mp})

    def _on_map(self, game: "PlayContext", units: list["UnitState"], ezoc: set[Hex], enemy: set[Hex],
                mp: float) -> "Reach | ActionResult":
        from play.result import ActionResult
        from play.supply import trace

        rule = self.strat.rule
        if any(not u.on_map for u in units) or len({u.hex for u in units}) != 1:
            return ActionResult(False, "the units are not together in one map hex", "SFN 6.2")
        start = units[0].hex
        assert start is not None
        if start in ezoc:
            return ActionResult(False, f"{game.label(start)} is in an enemy ZOC: no strategic movement from it", rule)
        if any(self.marker in u.markers for u in units):
            return ActionResult(False, "an out-of-supply unit may not use strategic movement", rule)
        if self.supply is not None:
            res = trace(game, units[0].side, self.supply.trace_config)
            if start not in res.reached:
                # Fortress, coastal or aerial supply is not regular overland supply [12.5].
                return ActionResult(False, f"{game.label(start)} has no regular overland supply path "
                                           "(fortress or coastal supply does not count)", rule)
        c = game.counters.get(units[0].id)
        return reachable(game.hmap, game.system, start, mp, rules.movement_class(game.system, c),
                         blocked=enemy | ezoc, costs=game.play_costs())

    def _from_box(self, game: "PlayContext", units: list["UnitState"], ezoc: set[Hex], enemy: set[Hex],
                  mp: float) -> "Reach | ActionResult":
        from play.result import ActionResult

        rule = self.strat.rule
        if len(units) != 1:
            return ActionResult(False, "units in a holding box are unstacked: one CP moves one unit out", rule)
        u = units[0]
        banned = self.strat.no_strategic_from_boxes
        if u.box in banned.boxes:
            return ActionResult(False, f"no strategic movement out of the {u.box} box: the unit lands on a "
                                       "beachhead this player turn", banned.rule or rule)
        entries = [h for h in self.box_entries(game, units, str(u.box), game.box_entry_hexes(str(u.box)))
                   if h not in enemy and h not in ezoc]
        if not entries:
            return ActionResult(False, f"box {u.box} has no entry hex free of enemy units and ZOC", "SFN 7.3")
        c = game.counters.get(u.id)
        mclass = rules.movement_class(game.system, c)
        combined = Reach(start=Hex(10 ** 6, 10 ** 6))  # off-map start: every map hex is a destination
        for e in entries:
            if rules.terrain_entry_problem(game.hmap, game.system, e, mclass) is not None:
                continue
            t = game.system.terrain_by_id.get(game.hmap.terrain_at(e) or "")
            cost = t.move.get(mclass) if t is not None else None
            if not isinstance(cost, (int, float)) or cost > mp:
                continue
            # The entry hex is the first hex of movement [7.3]: it costs its terrain cost.
            r = reachable(game.hmap, game.system, e, mp - float(cost), mclass, blocked=enemy | ezoc,
                          costs=game.play_costs())
            for h, v in r.cost.items():
                if v + float(cost) < combined.cost.get(h, float("inf")):
                    combined.cost[h] = v + float(cost)
                    if h in r.parent:
                        combined.parent[h] = r.parent[h]
                    else:
                        combined.parent.pop(h, None)
        return combined

    def _box_to_box(self, game: "PlayContext", units: list["UnitState"], box: str) -> "ActionResult":
        from play.result import ActionResult

        spec = self.strat.box_to_box
        rule = spec.rule or "SFN 12.5"
        boxes = spec.boxes
        if len(units) != 1:
            return ActionResult(False, "one unit per game turn moves between the North and South boxes", rule)
        u = units[0]
        if u.side != (spec.side or u.side) or u.where != "box" or u.box not in boxes or box not in boxes or box == u.box:
            return ActionResult(False, f"strategic box moves go between the {' and '.join(boxes)} boxes only "
                                       f"({u.id} is in {u.box or u.where})", rule)
        moves = sfn_state(game).box_moves
        done = moves.get(game.state.turn, 0)
        if done >= spec.per_game_turn:
            return ActionResult(False, "the German already moved a unit between the North and South boxes this game turn", rule)
        cost = spec.cost
        refusal = check_cp(game, [u.id], cost, rule)
        if refusal is not None:
            return refusal
        frm = u.box
        u.box = box
        moves[game.state.turn] = done + 1
        spend_cp(game, [u.id], cost, "move", rule)
        game.emit("strategic_move", units=[u.id], box=box, from_box=frm, rule=rule)
        return ActionResult(True, f"{u.id} moved from the {frm} box to the {box} box", rule)
