"""System procedures on top of the generic engine, switched on by the system id.

- **SFN command points** [SFN 6.0]: each side's CP are set at the start of its player turn
  (German 3, Allied 2 + bonus up to 5 [6.1]); a Move command costs 1 CP per unit or stack
  [6.2], an Attack command 2 CP [6.3]; a unit acts once per player turn and a hex is attacked
  once [6.4]; CP do not accumulate [6.4]. The bonus CP depend on map control the engine does
  not evaluate: the playtester declares them with ``{do: set_cp_bonus, side, bonus}``.
- **GTS chit pull** [GTS 9.0–10.0]: ``params.mug`` of the scenario lists the chits per turn
  (the latest entry at or before the turn applies); ``{do: draw_chit}`` draws at random with
  the game's dice; the last chit is not drawn, it is played first next turn [10.0.6].
- **GTS Drop Table and drift** [Utah Excl 3.3.1]: ``{do: drop_roll, units: [...], drop_number:
  One, glider: false}`` rolls d10 for the stick, adds the terrain, drop-number and
  German-units-in-zone modifiers from the system params, and applies the result: step losses,
  glider/paradrop markers, Rearguard drift (d6 direction, d10 distance, 9 = roll again and
  add; off map, into the sea or onto a German unit = eliminated) or the Straggler box.
  Policy **drop-roll-9-plus-is-E**: the table has no row for modified rolls of 9+ (8+ for
  gliders) and its E result appears nowhere; such rolls are treated as E. Rolls below 0
  count as 0. Rearguard counters are not modelled: the stick's own units drift, marked
  ``rearguard``.
- **TKG**: no procedure; combat reports "not available" (the draft has no CRT).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

import yaml

from model.calendar import resolve_turn
from model.hexes import DIRECTION_NAMES, Hex

if TYPE_CHECKING:
    from play.game import ActionResult, Game

DATA = Path(__file__).parent / "data" / "procedures.yaml"
DROP_9_POLICY = "drop-roll-9-plus-is-E: the Drop Table has no row for this roll; treated as E (Straggler box)"


@lru_cache(maxsize=1)
def _data() -> dict[str, Any]:
    return yaml.load(DATA.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)) or {}


def _param(game: "Game", key: str) -> Any:
    """A system param, unwrapping ``{value: …, rule: …}``; falls back to play/data."""
    v = game.system.params.get(key)
    if v is None:
        v = _data().get(game.system.id, {}).get(key)
    return v


def _value(v: Any) -> Any:
    return v.get("value") if isinstance(v, dict) and "value" in v else v


class Procedure:
    actions: dict[str, Callable[["Game", dict[str, Any]], "ActionResult"]] = {}

    def on_phase_start(self, game: "Game") -> None:
        pass

    def on_turn_end(self, game: "Game") -> None:
        pass

    def before(self, game: "Game", action: dict[str, Any]) -> "ActionResult | None":
        return None

    def after(self, game: "Game", action: dict[str, Any], result: "ActionResult") -> None:
        pass

    def ma_cap(self, game: "Game", unit: Any) -> tuple[float, str | None] | None:
        """A limit on the unit's movement allowance (value, rule case), or None."""
        return None

    def box_entries(self, game: "Game", units: list[Any], box: str, entries: list[Hex]) -> list[Hex]:
        """The entry hexes these units may use out of ``box`` (a system may narrow them)."""
        return entries

    def arrival_box(self, game: "Game", unit: Any, box: str, sched: Any) -> tuple[str, Any]:
        """Where an arrival scheduled into ``box`` is placed: (box id, None), or (box, Problem)
        when it cannot arrive, e.g. TKG single-map Transit boxes [TKG 18.4.2]."""
        return box, None

    def move_extra(self, game: "Game", units: list[Any]) -> Callable[[Hex, Hex], float | None] | None:
        """Extra MP for a step a→b of this stack (the callable returns None: step not allowed),
        e.g. TKG ZOC costs [TKG 8.2]; None: no extra."""
        return None


# --- SFN command points -------------------------------------------------------------------


class CommandPoints(Procedure):
    def __init__(self, game: "Game") -> None:
        self.cfg = _param(game, "command_points") or {}
        self.actions = {"set_cp_bonus": self.set_bonus}

    def _st(self, game: "Game") -> dict[str, Any]:
        return game.state.extra.setdefault("cp", {"points": {}, "bonus": {}, "acted": {}, "attacked": []})

    def allowance(self, game: "Game", side: str) -> int:
        s = self.cfg.get("sides", {}).get(side, {})
        base, top = int(s.get("base", 0)), int(s.get("max", s.get("base", 0)))
        return min(top, base + int(self._st(game)["bonus"].get(side, 0)))

    def on_phase_start(self, game: "Game") -> None:
        side = game.phase.side
        first = next((i for i, p in enumerate(game.phases) if p.side == side), None)
        if side is None or first != game.state.phase:
            return
        st = self._st(game)
        # CP may not be accumulated [6.4]: the new player turn starts from the allowance.
        st["points"][side] = self.allowance(game, side)
        st["acted"] = {}
        st["attacked"] = []
        game.emit("command_points", cp_side=side, points=st["points"][side], rule=self.cfg.get("rule"))

    def set_bonus(self, game: "Game", action: dict[str, Any]) -> "ActionResult":
        from play.game import ActionResult

        side, bonus = str(action.get("side")), int(str(action.get("bonus", 0)))
        st = self._st(game)
        st["bonus"][side] = bonus
        game.emit("cp_bonus", cp_side=side, bonus=bonus, allowance=self.allowance(game, side), rule=self.cfg.get("rule"))
        return ActionResult(True, f"{side} CP allowance {self.allowance(game, side)} from next player turn",
                            self.cfg.get("rule"))

    def _units(self, action: dict[str, Any]) -> list[str]:
        if action.get("do") == "attack":
            return [str(a) for a in action.get("attackers", [])]
        return [str(u) for u in (action.get("units") or [action.get("unit")]) if u is not None]

    def before(self, game: "Game", action: dict[str, Any]) -> "ActionResult | None":
        from play.game import ActionResult

        do = action.get("do")
        if do not in ("move", "attack"):
            return None
        st = self._st(game)
        units = self._units(action)
        side = game.phase.side or ""
        acted = {u: st["acted"].get(u) for u in units}
        one = self.cfg.get("one_action_per_turn", {}).get("rule")
        if do == "move":
            if any(a == "attack" for a in acted.values()):
                return ActionResult(False, "a unit that attacked may not move this player turn", one)
            if all(a == "move" for a in acted.values()):
                return None  # continuing an activated move: no new command
            cost = int(_value(self.cfg.get("move_cost", 1)))
            rule = (self.cfg.get("move_cost") or {}).get("rule")
        else:
            if any(a is not None for a in acted.values()):
                return ActionResult(False, "a unit that moved or attacked may not attack this player turn", one)
            if game.label(game.hex_of(action.get("target"))) in st["attacked"]:
                return ActionResult(False, "that hex was already attacked this player turn", one)
            cost = int(_value(self.cfg.get("attack_cost", 2)))
            rule = (self.cfg.get("attack_cost") or {}).get("rule")
        have = int(st["points"].get(side, 0))
        if have < cost:
            return ActionResult(False, f"{side} has {have} CP left; the command costs {cost}", rule)
        return None

    def after(self, game: "Game", action: dict[str, Any], result: "ActionResult") -> None:
        do = action.get("do")
        if not result.ok or do not in ("move", "attack"):
            return
        st = self._st(game)
        units = self._units(action)
        side = game.phase.side or ""
        if do == "move" and all(st["acted"].get(u) == "move" for u in units):
            return
        cost = int(_value(self.cfg.get("move_cost" if do == "move" else "attack_cost", 1 if do == "move" else 2)))
        st["points"][side] = int(st["points"].get(side, 0)) - cost
        for u in units:
            st["acted"][u] = do
        if do == "attack":
            st["attacked"].append(game.label(game.hex_of(action.get("target"))))
        game.emit("cp_spent", cp_side=side, cost=cost, left=st["points"][side], units=units)


# --- GTS chit pull ------------------------------------------------------------------------


class ChitPull(Procedure):
    def __init__(self, game: "Game") -> None:
        self.cfg = _param(game, "chits") or {}
        self.actions = {"draw_chit": self.draw}

    def _st(self, game: "Game") -> dict[str, Any]:
        return game.state.extra.setdefault("chits", {"mug": [], "carry": None, "drawn": []})

    def _chits_for_turn(self, game: "Game") -> tuple[list[str], str | None]:
        mug = game.scenario.params.get("mug") or []
        turns = game.system.calendar.all_turns
        best: tuple[int, list[str], str | None] | None = None
        for entry in mug if isinstance(mug, list) else []:
            t = resolve_turn(entry.get("turn"), turns) if isinstance(entry, dict) else None
            if t is not None and t <= game.state.turn and (best is None or t >= best[0]):
                best = (t, [str(c) for c in entry.get("chits", [])], entry.get("rule"))
        return (best[1], best[2]) if best else ([], None)

    def on_phase_start(self, game: "Game") -> None:
        if game.state.phase != 0:
            return
        st = self._st(game)
        chits, rule = self._chits_for_turn(game)
        carry = st.get("carry")
        st["mug"] = sorted(c for c in chits if c != carry)
        st["drawn"] = []
        if carry:
            st["drawn"].append(carry)
            game.emit("chit", chit=carry, carried=True, rule=self.cfg.get("last_chit_rule"))
        st["carry"] = None
        game.emit("mug", chits=list(st["mug"]), rule=game.system.cite(str(rule)) if rule else self.cfg.get("mug_rule"))

    def on_turn_end(self, game: "Game") -> None:
        st = self._st(game)
        if len(st["mug"]) == 1:
            st["carry"] = st["mug"].pop()
            game.emit("chit_carried", chit=st["carry"], rule=self.cfg.get("last_chit_rule"))

    def draw(self, game: "Game", action: dict[str, Any]) -> "ActionResult":
        from play.game import ActionResult

        st = self._st(game)
        if not st["mug"]:
            return ActionResult(False, "the mug is empty", self.cfg.get("mug_rule"))
        if len(st["mug"]) == 1:
            return ActionResult(False, f"the last chit ({st['mug'][0]}) is not drawn: it is played first next turn",
                                self.cfg.get("last_chit_rule"))
        chit = st["mug"].pop(game.dice.choice_index(len(st["mug"])))
        st["drawn"].append(chit)
        game.emit("chit", chit=chit, left=len(st["mug"]), rule=self.cfg.get("mug_rule"))
        return ActionResult(True, f"drew {chit}", data={"chit": chit})


# --- GTS Drop Table and drift ---------------------------------------------------------------


class DropTable(Procedure):
    def __init__(self, game: "Game") -> None:
        self.table = _param(game, "drop_table") or {}
        self.drift = _param(game, "drift") or {}
        self.actions = {"drop_roll": self.roll}

    def _d10(self, game: "Game") -> int:
        return game.dice.roll(1, 10)[0] % 10  # faces 1..10, the 10 reads 0

    def roll(self, game: "Game", action: dict[str, Any]) -> "ActionResult":
        from play.game import ActionResult

        rule = self.table.get("rule")
        if not self.table:
            return ActionResult(False, f"not available: no Drop Table in the {game.system.short} data")
        units = [game.unit(str(u)) for u in (action.get("units") or [action.get("unit")]) if u is not None]
        if not units or any(not u.on_map for u in units) or len({u.hex for u in units}) != 1:
            return ActionResult(False, "a drop roll needs the stick's units together in one map hex", rule)
        h = units[0].hex
        assert h is not None
        glider = str(action.get("glider", "false")).lower() in ("1", "true", "yes")
        row = [str(x) for x in self.table.get("glider" if glider else "para", [])]
        die = self._d10(game)
        mods: dict[str, int] = {}
        terrain = game.hmap.terrain_at(h) or ""
        tmods = _value(_param(game, "drop_terrain_modifiers")) or {}
        t = game.system.terrain_by_id.get(terrain)
        if terrain in tmods:
            mods["terrain"] = int(str(tmods[terrain]))
        elif t is not None and t.drop_modifier:
            mods["terrain"] = int(t.drop_modifier)
        dmods = _value(_param(game, "drop_number_modifiers")) or {}
        number = str(action.get("drop_number", "One"))
        if int(str(dmods.get(number, 0))):  # system values arrive as text from the located loader
            mods["drop_number"] = int(str(dmods[number]))
        zone = next((z for z in game.scenario.drop_zones if h in z.hexes), None)
        if zone is not None:
            zone_hexes = set(zone.hexes)
            enemy = sum(1 for x in game.state.units.values()
                        if x.on_map and x.side != units[0].side and x.hex in zone_hexes)
            per = int(str((_value(_param(game, "drop_other_modifiers")) or {}).get("per_german_unit_in_zone", 0)))
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
        self._apply(game, units, result)
        return ActionResult(True, f"drop roll {die}{''.join(f' {v:+d}' for v in mods.values())} = {total}: {result}",
                            rule, policy, data={"die": die, "total": total, "result": result})

    def _apply(self, game: "Game", units: list[Any], result: str) -> None:
        markers = result.count("D")
        base = result.split("(")[0]
        if base == "1":
            game._do_step_loss({"unit": units[0].id})
        elif base == "1*":
            for u in units:
                game._do_step_loss({"unit": u.id})
        for u in units:
            if u.on_map:
                u.markers.extend(["paradrop"] * markers)
        if base == "R":
            for u in units:
                self._drift(game, u)
        elif base == "E":
            box = self.drift.get("straggler_box", "stragglers")
            for u in units:
                u.where, u.hex, u.box = "box", None, box
                game.emit("straggler", unit=u.id, box=box, rule=self.table.get("rule"))

    def _drift(self, game: "Game", u: Any) -> None:
        rule = self.drift.get("rule")
        names = self.drift.get("directions") or ["N", "NE", "SE", "S", "SW", "NW"]
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


# --- SFN supply -----------------------------------------------------------------------------

SUPPLY_POLICY = ("supply-check-at-player-turn-start: the sequence has no supply step (A.5/A.6), "
                 "so each side's supply is checked when its player turn starts")


class SupplyCheck(Procedure):
    """SFN supply [9.0]: at the start of each side's player turn its units trace supply
    (:mod:`play.supply`); unsupplied units get the OOS marker, supplied ones lose it [9.2], and
    an OOS unit's movement allowance is 1 [9.1]. ``{do: check_supply}`` re-checks the side to
    move (or ``side``) on demand."""

    def __init__(self, game: "Game") -> None:
        self.cfg = _param(game, "supply") or {}
        self.marker = str(self.cfg.get("marker", "OOS"))
        self.actions = {"check_supply": self.check_action}

    def on_phase_start(self, game: "Game") -> None:
        side = game.phase.side
        first = next((i for i, p in enumerate(game.phases) if p.side == side), None)
        if side is None or first != game.state.phase or not self.cfg:
            return
        seq = game.system.params.get("sequence_of_play")
        self.check(game, side, policy=None if isinstance(seq, dict) and seq.get("supply_phase") else SUPPLY_POLICY)

    def check(self, game: "Game", side: str, policy: str | None = None) -> Any:
        from play.supply import trace

        res = trace(game, side, self.cfg)
        for uid in sorted(res.supplied | res.unsupplied):
            u = game.state.units[uid]
            if uid in res.unsupplied and self.marker not in u.markers:
                u.markers.append(self.marker)
            elif uid in res.supplied and self.marker in u.markers:
                u.markers.remove(self.marker)
        game.emit("supply", supply_side=side, supplied=sorted(res.supplied), unsupplied=sorted(res.unsupplied),
                  sources=len(res.sources), rule=self.cfg.get("check_rule") or self.cfg.get("rule"), policy=policy)
        return res

    def check_action(self, game: "Game", action: dict[str, Any]) -> "ActionResult":
        from play.game import ActionResult

        if not self.cfg:
            return ActionResult(False, "the system defines no supply rules")
        side = str(action.get("side") or game.phase.side or "")
        if side not in {s.id for s in game.system.sides}:
            return ActionResult(False, f"no side {side!r} to check")
        res = self.check(game, side)
        return ActionResult(True, f"{side}: {len(res.supplied)} supplied, {len(res.unsupplied)} out of supply",
                            self.cfg.get("rule"), data={"unsupplied": sorted(res.unsupplied)})

    def ma_cap(self, game: "Game", unit: Any) -> tuple[float, str | None] | None:
        cap = self.cfg.get("oos_movement")
        if self.marker in unit.markers and cap is not None:
            return float(_value(cap)), cap.get("rule") if isinstance(cap, dict) else self.cfg.get("rule")
        return None


def procedures_for(game: "Game") -> list[Procedure]:
    sid = game.system.id
    if sid == "sfn" or game.system.short == "SFN":
        from play.sfn import sfn_procedures  # combat, strategic movement, box entry, airdrops, VP

        return [CommandPoints(game), SupplyCheck(game), *sfn_procedures(game)]
    if sid.startswith("gts"):
        from play.gts import procedures as gts_procedures  # column, fire, beach overlay …

        return [ChitPull(game), DropTable(game), *gts_procedures(game)]
    if sid == "tkg" or game.system.short == "TKG":
        from play.tkg import procedures as tkg_procedures  # ZOC costs, stacking, OMM boxes

        return tkg_procedures(game)
    return []
