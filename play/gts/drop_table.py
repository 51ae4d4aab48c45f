"""GTS Drop Table and drift [Utah Excl 3.3.1]: ``{do: drop_roll, units: [...], drop_number:
One, glider: false}`` rolls d10 for the stick, adds the terrain, drop-number and
German-units-in-zone modifiers from the system params, and applies the result: step losses,
glider/paradrop markers, Rearguard drift (d6 direction, d10 distance, 9 = roll again and
add; off map, into the sea or onto a German unit = eliminated) or the Straggler box.
On R a Leader in the stick does not drift: he stays with the Rearguard named by
``leader_with`` (else the first, policy **leader-with-first-rearguard**) and shares its fate.
On E the Units go to the Straggler box but a Leader "is removed from play and returns at the
end of the next division activation during leader movement" [Excl 3.3.1]: withdrawn and listed
with the Leaders who return (``check_leaders``, GTS 21.3), policy
**leader-e-returns-at-next-leader-check**.
Policy **drop-roll-9-plus-is-E**: the table has no row for modified rolls of 9+ (8+ for
gliders) and its E result appears nowhere; such rolls are treated as E. Rolls below 0
count as 0. Rearguard counters are not modelled: the stick's own units drift, marked
``rearguard``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from model.hexes import DIRECTION_NAMES, Hex
from play.gts.params import DIRECTIONS, gts_params
from play.procedure import Procedure
from play.result import ActionResult

if TYPE_CHECKING:
    from play.context import PlayContext

LEADER_WITH_POLICY = ("leader-with-first-rearguard: the Unit the Leader is with was not declared "
                      "(leader_with); he is placed with the stick's first Rearguard [Excl 3.3.1]")
LEADER_ALONE_POLICY = ("leader-drifts-alone: a stick of Leaders only has no Rearguard to be placed with; "
                       "the Leader drifts by himself [Excl 3.3.1 silent]")
LEADER_E_POLICY = ("leader-e-returns-at-next-leader-check: a Leader in a stick the Drop Table eliminates is "
                   "removed from play (not put in the Straggler box) and returns, with a Unit of his Formation, "
                   "at the next leader movement (check_leaders [GTS 21.3]); the engine does not time 'the end of "
                   "the next division activation' itself [Excl 3.3.1 E]")
DROP_9_POLICY = "drop-roll-9-plus-is-E: the Drop Table has no row for this roll; treated as E (Straggler box)"


class DropTable(Procedure):
    def __init__(self, game: "PlayContext") -> None:
        p = gts_params(game)
        self.table, self.drift = p.drop_table, p.drift
        self.terrain_mods, self.number_mods = p.drop_terrain_modifiers.value, p.drop_number_modifiers.value
        self.other_mods = p.drop_other_modifiers.value
        self.actions = {"drop_roll": self.roll}

    def _d10(self, game: "PlayContext") -> int:
        return game.dice.roll(1, 10)[0] % 10  # faces 1..10, the 10 reads 0

    def roll(self, game: "PlayContext", action: dict[str, Any]) -> "ActionResult":
        if self.table is None:
            return ActionResult(False, f"not available: no Drop Table in the {game.system.short} data")
        rule = self.table.rule
        units = [game.unit(str(u)) for u in (action.get("units") or [action.get("unit")]) if u is not None]
        if not units or any(not u.on_map for u in units) or len({u.hex for u in units}) != 1:
            return ActionResult(False, "a drop roll needs the stick's units together in one map hex", rule)
        h = units[0].hex
        assert h is not None
        glider = str(action.get("glider", "false")).lower() in ("1", "true", "yes")
        row = list(self.table.glider if glider else self.table.para)
        die = self._d10(game)
        mods: dict[str, int] = {}
        terrain = game.hmap.terrain_at(h) or ""
        t = game.system.terrain_by_id.get(terrain)
        if terrain in self.terrain_mods:
            mods["terrain"] = self.terrain_mods[terrain]
        elif t is not None and t.drop_modifier:
            mods["terrain"] = int(t.drop_modifier)
        number = str(action.get("drop_number", "One"))
        if self.number_mods.get(number, 0):
            mods["drop_number"] = self.number_mods[number]
        zone = next((z for z in game.scenario.drop_zones if h in z.hexes), None)
        if zone is not None:
            zone_hexes = set(zone.hexes)
            enemy = sum(1 for x in game.state.units.values()
                        if x.on_map and x.side != units[0].side and x.hex in zone_hexes)
            per = self.other_mods.get("per_german_unit_in_zone", 0)
            if enemy and per:
                mods["enemy_in_zone"] = enemy * per
        total = max(0, die + sum(mods.values()))
        policy = None
        if total >= len(row):
            result, policy = "E", DROP_9_POLICY
        else:
            result = row[total]
        game.emit("drop_roll", units=[u.id for u in units], hex=game.label(h), die=die, modifiers=mods,
                  total=total, result=result, rule=rule, policy=policy)
        self._apply(game, units, result, action.get("leader_with"))
        return ActionResult(True, f"drop roll {die}{''.join(f' {v:+d}' for v in mods.values())} = {total}: {result}",
                            rule, policy, data={"die": die, "total": total, "result": result})

    def _apply(self, game: "PlayContext", units: list[Any], result: str, action_with: Any = None) -> None:
        assert self.table is not None  # roll() refuses without one
        markers = result.count("D")
        base = result.split("(")[0]
        if base == "1":
            game.lose_step(units[0].id)
        elif base == "1*":
            for u in units:
                game.lose_step(u.id)
        for u in units:
            if u.on_map:
                u.markers.extend(["paradrop"] * markers)
        if base == "R":
            self._drift_stick(game, units, action_with)
        elif base == "E":
            from play.gts import command
            from play.gts.state import gts_state

            box = self.drift.straggler_box
            for u in units:
                if command.is_leader(game, u.id):
                    # "Any Leader landing in a stick that is eliminated is removed from play and
                    # returns at the end of the next division activation during leader movement"
                    # [Excl 3.3.1 E]: off the map, listed with the Leaders who return [21.3].
                    frm = game.label(u.hex)
                    u.where, u.hex, u.box = "withdrawn", None, None
                    removed = gts_state(game).command.leaders_removed
                    if u.id not in removed:
                        removed.append(u.id)
                    game.emit("drop_leader_removed", leader=u.id, frm=frm, rule=self.table.rule,
                              policy=LEADER_E_POLICY)
                    continue
                u.where, u.hex, u.box = "box", None, box
                game.emit("straggler", unit=u.id, box=box, rule=self.table.rule)

    def _drift_stick(self, game: "PlayContext", units: list[Any], leader_with: Any) -> None:
        """R: each Rearguard drifts; a Leader does not drift on his own. "Any Leader landing in a
        stick replaced with Rearguards must be placed with one of the Rearguard Units" and "If a
        leader was with this stick, the Unit he is with must be declared before rolling for
        drift. His fate is tied to that new Rearguard." [Excl 3.3.1]. The unit is declared with
        ``leader_with``; undeclared, the stick's first non-Leader unit (policy
        **leader-with-first-rearguard**)."""
        from play.gts import command

        leaders = [u for u in units if command.is_leader(game, u.id)]
        rearguards = [u for u in units if u not in leaders]
        if not leaders:
            for u in units:
                self._drift(game, u)
            return
        if not rearguards:
            # no Unit to be placed with: the Leader drifts himself (the case does not say)
            game.emit("drop_leader", units=[u.id for u in leaders], rule=self.drift.rule, policy=LEADER_ALONE_POLICY)
            for u in leaders:
                self._drift(game, u)
            return
        policy = None
        host = next((u for u in rearguards if u.id == str(leader_with)), None) if leader_with is not None else None
        if leader_with is not None and host is None:
            host, policy = rearguards[0], LEADER_WITH_POLICY + f" ({leader_with!r} is not a Rearguard of this stick)"
        elif host is None:
            host, policy = rearguards[0], LEADER_WITH_POLICY
        game.emit("drop_leader", leaders=[u.id for u in leaders], with_unit=host.id, rule=self.drift.rule,
                  policy=policy)  # declared before rolling for drift
        for u in rearguards:
            self._drift(game, u)
        for ldr in leaders:  # his fate is tied to that Rearguard
            if host.on_map:
                ldr.hex = host.hex
                game.emit("drift", unit=ldr.id, with_unit=host.id, to=game.label(host.hex), rule=self.drift.rule)
            else:
                ldr.where, ldr.hex, ldr.box = "eliminated", None, None
                game.emit("drift", unit=ldr.id, with_unit=host.id, eliminated=f"with {host.id}",
                          rule=self.drift.rule)

    def _drift(self, game: "PlayContext", u: Any) -> None:
        rule = self.drift.rule
        names = self.drift.directions or DIRECTIONS
        d6 = game.dice.roll(1, 6)[0]
        orient = game.hmap.grid.orientation
        try:
            direction = DIRECTION_NAMES[orient].index(str(names[d6 - 1]))
        except ValueError:
            direction = d6 % 6  # pointy maps have no N side; a fixed order, documented in docs/play.md
        distance = 0
        while True:
            r = self._d10(game)
            distance += r
            if r != 9:
                break
        h: Hex = u.hex
        for _ in range(distance):
            h = h.neighbor(direction)
        enemy = any(x.on_map and x.side != u.side and x.hex == h for x in game.state.units.values())
        terrain = game.hmap.terrain_at(h)
        t = game.system.terrain_by_id.get(terrain or "")
        sea = t is not None and ("sea" in t.tags or "sea" in t.id or all(v == "prohibited" for v in t.move.values()))
        if terrain is None or sea or enemy:
            why = "off the map" if terrain is None else ("into the sea" if sea else "onto an enemy unit")
            u.where, u.hex, u.box = "eliminated", None, None
            game.emit("drift", unit=u.id, d6=d6, distance=distance, eliminated=why, rule=rule)
            return
        u.hex = h
        u.markers.append("rearguard")
        game.emit("drift", unit=u.id, d6=d6, distance=distance, to=game.label(h), rule=rule)
