"""SFN replacements [8.1-8.6]: Replacement Points, rebuilding and replenishing units, the OOS
dead pile, US untried -> blooded conversion and the Free French limits.

- **Points** [8.1]: each game turn's RP per pool (``german``, ``us``, ``commonwealth`` [8.3])
  come from the Turn Record Sheet (``replacements.points.known`` in play/sfn/params.yaml;
  the rules file transcribes GT 1-4 only, all 0), else the scenario's
  ``params.replacement_points`` (``{turn: {pool: n}}``, illustrative), else they are unknown:
  policy **sfn-rp-unknown-is-none** — no RP until the playtester declares them with
  ``{do: set_rp, pool, points}`` (logged). Unused RP are lost at the end of the turn [8.1].
- ``{do: replace, unit, steps: 1|2, to: HEX}`` in the unit's own player turn (policy
  **sfn-replace-in-own-player-turn**: the rules give no phase; no CP are spent [8.1]):
  * a reduced unit in play regains a step for 1 RP [8.1]; it must trace a supply path to a
    beach (Allied) or a board-edge source (German): fortress, coastal or aerial supply does
    not count [8.3]; a unit in its side's holding box counts as supplied (policy
    **sfn-box-units-may-replace**, as the resting airborne of 15.5);
  * each Commonwealth RP committed to a unit gives the German one VP [4.4] (data
    ``replacements.vp``);
  * an eliminated unit is rebuilt for 1 RP (reduced) or 2 RP (full) [8.1]; artillery (one
    step) costs 2 RP [8.1]. A German one goes to the North box, an Allied one onto an invasion
    beachhead of the active area that is not German-controlled (``to``) [8.2];
  * never a unit eliminated while OOS, or (German) in fortress supply, or (Allied) in coastal
    or aerial supply: the engine puts such units in the OOS dead pile when they die [8.4];
  * US and Commonwealth RP are never mixed; minor nationalities use their group's [8.3]; of
    the Free French only the armor divisions, from US RP [8.6];
  * a unit that received replacements may not move or attack that player turn [8.3].
- ``{do: blood, unit, advanced, all_defenders_eliminated, retreated}`` [8.5]: after a battle
  an untried US unit in supply that survived rolls the decimal die: 6-10 converts it (+1
  advance, +1 all German defenders eliminated, -2 retreat). The blooded counter (same id
  without the untried suffix, or ``params.blooded_versions``; policy
  **sfn-blooded-counterpart-by-id**) appears at two steps in the hex; the untried counter
  goes to the blooded-divisions box. The engine does not track which units just fought: the
  playtester declares the roll after the battle (policy **sfn-blood-declared**).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from play.procedure import Procedure
from play.sfn.common import has_tag
from play.sfn.params import ReplacementsParams, sfn_params
from play.sfn.state import ReplacementsState, sfn_state
from play.result import result as _result

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.result import ActionResult
    from play.state import UnitState

UNKNOWN_RP_POLICY = ("sfn-rp-unknown-is-none: the rules file transcribes the Turn Record Sheet's RP for GT 1-4 only; "
                     "no RP for this turn until the playtester declares them (set_rp)")
PHASE_POLICY = "sfn-replace-in-own-player-turn: the rules name no phase for replacements; any phase of the owner's player turn"
BOX_POLICY = "sfn-box-units-may-replace: a unit in its side's holding box counts as supplied for replacements (15.5)"
BLOODED_POLICY = "sfn-blooded-counterpart-by-id: the blooded counter is params.blooded_versions[id], else the id without '-untried'"
BLOOD_DECLARED_POLICY = "sfn-blood-declared: the engine does not track who just fought; the playtester rolls after the battle"
DECLARED_RP_POLICY = "sfn-rp-declared: replacement points declared by the playtester"


class Replacements(Procedure):
    def __init__(self, game: "PlayContext") -> None:
        params = sfn_params(game)
        self.enabled = params.replacements is not None  # off: no phase-start or before/after hooks
        # Steps 5.2 I.A.4 and II.A.5: "The ... player may use replacements to rebuild units" [8.0].
        self.plays = frozenset({"I.A.4", "II.A.5"}) if self.enabled else frozenset()
        self.c = params.replacements or ReplacementsParams()
        self.supply = params.supply
        self.marker = params.oos_marker
        self.actions = {"replace": self.replace, "set_rp": self.set_rp, "blood": self.blood}
        self._pre: dict[str, tuple[Any, bool, bool]] = {}

    # --- state ---------------------------------------------------------------------------

    def st(self, game: "PlayContext") -> ReplacementsState:
        st = sfn_state(game).replacements
        if st.turn != game.state.turn:
            self._new_turn(game, st)
        return st

    def _new_turn(self, game: "PlayContext", st: ReplacementsState) -> None:
        """RP for this turn; unused RP of the last turn are lost [8.1]."""
        st.turn = game.state.turn
        pts = self.c.points
        known = pts.known.get(game.state.turn)
        scen = (game.scenario.params.get(pts.scenario_param) or {})
        scen_turn = scen.get(str(game.state.turn)) if isinstance(scen, dict) else None
        # Sorted: saved games keep dict keys sorted, so a resumed game iterates them alike.
        pools = sorted(self.c.pools.pools)
        if known is not None:
            st.points = {p: known.get(p, 0) for p in pools}
            src, policy = "Turn Record Sheet", None
        elif isinstance(scen_turn, dict):
            st.points = {p: int(str(scen_turn.get(p, 0))) for p in pools}
            src, policy = "scenario params (illustrative)", None
        else:
            st.points = {p: 0 for p in pools}
            src, policy = "unknown", UNKNOWN_RP_POLICY
        st.source = src
        game.emit("replacement_points", points=dict(sorted(st.points.items())), source=src, rule=pts.rule,
                  policy=policy)

    def on_phase_start(self, game: "PlayContext") -> None:
        if not self.enabled:
            return
        st = self.st(game)
        side = game.phase.side
        first = next((i for i, p in enumerate(game.phases) if p.side == side), None)
        if side is not None and first == game.state.phase:
            # A new player turn: last turn's replaced units may move again [8.3].
            mark = self.c.no_move_after.marker
            for uid in list(st.replaced):
                u = game.state.units.get(uid)
                if u is not None and u.side == side:
                    st.replaced.remove(uid)
                    if mark in u.markers:
                        u.markers.remove(mark)

    # --- pools ----------------------------------------------------------------------------

    def pool_of(self, game: "PlayContext", uid: str) -> str | None:
        c = game.counters.get(uid)
        if c is None:
            return None
        for pid, spec in self.c.pools.pools.items():
            if c.side in spec.sides or c.nationality in spec.nationalities:
                return pid
        return None

    def set_rp(self, game: "PlayContext", action: dict[str, Any]) -> "ActionResult":
        st = self.st(game)
        pool = str(action.get("pool", ""))
        if pool not in st.points:
            return _result(False, f"no RP pool {pool!r} (pools: {', '.join(sorted(st.points))})", "SFN 8.3")
        st.points[pool] = int(str(action.get("points", 0)))
        game.emit("replacement_points", points=dict(sorted(st.points.items())), source="declared", rule="SFN 8.1",
                  policy=DECLARED_RP_POLICY)
        return _result(True, f"{pool} has {st.points[pool]} RP this turn", "SFN 8.1", DECLARED_RP_POLICY)

    # --- replace [8.1-8.4, 8.6] ---------------------------------------------------------------

    def _cost(self, game: "PlayContext", u: "UnitState", steps: int) -> int:
        art = self.c.artillery
        if has_tag(game, u.id, art.tag):
            return art.cost  # one-step artillery costs 2 RP [8.1]
        return steps * self.c.cost_per_step.value

    def replace(self, game: "PlayContext", action: dict[str, Any]) -> "ActionResult":
        rule = self.c.rule
        u = game.unit(str(action.get("unit")))
        st = self.st(game)
        if game.phase.side != u.side:
            return _result(False, f"{u.id} receives replacements only in its own player turn "
                                  f"(now: {game.phase.side or 'end'})", rule, PHASE_POLICY)
        pool = self.pool_of(game, u.id)
        if pool is None:
            return _result(False, f"{u.id} belongs to no replacement pool", self.c.pools.rule)
        fr = self.c.french
        c = game.counters.get(u.id)
        if fr is not None and c is not None and c.nationality == fr.nationality and c.category not in fr.categories:
            return _result(False, f"of the Free French only the armor divisions receive replacements ({u.id} is "
                                  f"{c.category})", fr.rule)
        if u.where == "eliminated":
            return self._rebuild(game, u, pool, st, action)
        if u.where not in ("hex", "box"):
            return _result(False, f"{u.id} is not in play ({u.where})", rule)
        if u.steps >= u.max_steps:
            return _result(False, f"{u.id} is at full strength", rule)
        if u.where == "hex":
            refusal = self._supply(game, u)
            if refusal is not None:
                return refusal
        steps = min(int(str(action.get("steps", u.max_steps - u.steps))), u.max_steps - u.steps)
        cost = self._cost(game, u, steps)
        if st.points.get(pool, 0) < cost:
            return _result(False, f"{pool} has {st.points.get(pool, 0)} RP; {steps} step(s) for {u.id} cost {cost}",
                           rule)
        st.points[pool] -= cost
        u.steps += steps
        u.reduced = u.steps < u.max_steps
        self._mark(game, u, st)
        game.emit("replace", unit=u.id, steps=u.steps, cost=cost, pool=pool, left=st.points[pool], rule=rule,
                  policy=BOX_POLICY if u.where == "box" else None)
        self._replacement_vp(game, u, pool, cost)
        return _result(True, f"{u.id} back to {u.steps} step(s) for {cost} {pool} RP", rule,
                       BOX_POLICY if u.where == "box" else None)

    def _supply(self, game: "PlayContext", u: "UnitState") -> "ActionResult | None":
        from play.supply import trace

        rule = self.c.supply.rule or "SFN 8.3"
        if self.supply is None:
            return None
        res = trace(game, u.side, self.supply.trace_config)
        if u.hex not in res.reached:
            return _result(False, f"{u.id} in {game.label(u.hex)} cannot trace a supply path to "
                                  f"{'a beach' if u.side != 'german' else 'a board-edge supply source'} "
                                  "(fortress, coastal or aerial supply does not count)", rule)
        return None

    def _mark(self, game: "PlayContext", u: "UnitState", st: ReplacementsState) -> None:
        mark = self.c.no_move_after.marker
        if u.id not in st.replaced:
            st.replaced.append(u.id)
        if mark not in u.markers:
            u.markers.append(mark)

    def _rebuild(self, game: "PlayContext", u: "UnitState", pool: str, st: ReplacementsState,
                 action: dict[str, Any]) -> "ActionResult":
        rule = self.c.rebuild.rule
        why = st.oos_dead.get(u.id)
        if why:
            return _result(False, f"{u.id} was eliminated {why}: it may never be recreated", self.c.oos_dead.rule)
        steps = max(1, min(int(str(action.get("steps", u.max_steps))), u.max_steps))
        cost = self._cost(game, u, steps)
        if st.points.get(pool, 0) < cost:
            return _result(False, f"{pool} has {st.points.get(pool, 0)} RP; rebuilding {u.id} at {steps} step(s) "
                                  f"costs {cost}", "SFN 8.1")
        reb = self.c.rebuild
        if u.side == reb.german_side:
            box = reb.german_box
            u.where, u.hex, u.box = "box", None, box
            where = f"the {box} box"
        else:
            if action.get("to") is None:
                return _result(False, f"name the invasion beachhead for {u.id} (to: HEX)", rule)
            h = game.hex_of(action.get("to"))
            label = game.label(h)
            areas = game.system.params.get("invasion_areas") or {}
            spec = areas.get(game.scenario.params.get("invasion_area")) if isinstance(areas, dict) else None
            beachheads = [str(x) for x in (spec or {}).get("beachheads", [])]
            if label not in beachheads:
                return _result(False, f"{label} is not an invasion beachhead of the active area "
                                      f"({', '.join(beachheads) or 'none'})", rule)
            control = sfn_state(game).victory.beachheads.get(label)
            enemy_there = any(x.side != u.side for x in game.state.at(h))
            if control == "german" or enemy_there:
                return _result(False, f"beachhead {label} is German-controlled", rule)
            refused = game.overstack_refusal(h, [u])
            if refused is not None:
                return refused
            u.where, u.hex, u.box = "hex", h, None
            where = str(label)
        st.points[pool] -= cost
        u.steps, u.reduced = steps, steps < u.max_steps
        self._mark(game, u, st)
        game.emit("replace", unit=u.id, rebuilt=True, steps=steps, cost=cost, pool=pool, left=st.points[pool],
                  to=where, rule=rule)
        self._replacement_vp(game, u, pool, cost)
        return _result(True, f"{u.id} rebuilt at {steps} step(s) in {where} for {cost} {pool} RP", rule)

    def _replacement_vp(self, game: "PlayContext", u: "UnitState", pool: str, cost: int) -> None:
        """Each Commonwealth RP committed to a unit gives the German one VP [4.4]."""
        vp = self.c.vp
        if vp is None or pool != vp.pool:
            return
        side, delta = vp.side, cost * vp.per_point
        game.state.vp[side] = game.state.vp.get(side, 0) + delta
        game.emit("vp", vp_side=side, delta=delta, total=game.state.vp[side], unit=u.id,
                  reason=f"{cost} {pool} RP committed", rule=vp.rule)

    # --- no move or attack after replacements [8.3]; the OOS dead pile [8.4] ---------------------

    def before(self, game: "PlayContext", action: dict[str, Any]) -> "ActionResult | None":
        if not self.enabled:
            return None
        do = action.get("do")
        st = self.st(game)
        if do in ("move", "strategic_move", "attack"):
            ids = [str(a) for a in action.get("attackers", [])] if do == "attack" else \
                [str(x) for x in (action.get("units") or [action.get("unit")]) if x is not None]
            hit = [i for i in ids if i in st.replaced]
            if hit:
                return _result(False, f"{', '.join(hit)} received replacements this player turn: no move or attack",
                               self.c.no_move_after.rule)
        if do in self.c.eliminating_actions:
            self._snapshot(game)
        else:
            self._pre = {}
        return None

    def _snapshot(self, game: "PlayContext") -> None:
        """Each on-map unit's hex, OOS marker and whether it draws only fortress/coastal supply."""
        from play.supply import trace

        scfg = self.supply.trace_config if self.supply is not None else None
        reached = {s.id: trace(game, s.id, scfg).reached for s in game.system.sides} if scfg else {}
        self._pre = {u.id: (u.hex, self.marker in u.markers, bool(reached) and u.hex not in reached.get(u.side, set()))
                     for u in game.state.units.values() if u.on_map}

    def after(self, game: "PlayContext", action: dict[str, Any], result: "ActionResult") -> None:
        if not self._pre:
            return
        pre, self._pre = self._pre, {}
        od = self.c.oos_dead
        st = self.st(game)
        for uid, (h, oos, special) in sorted(pre.items()):
            u = game.state.units.get(uid)
            if u is None or u.where != "eliminated" or uid in st.oos_dead:
                continue
            if oos:
                why = "while out of supply"
            elif special:
                why = "while drawing fortress supply" if u.side == "german" else "while drawing coastal or aerial supply"
            else:
                continue
            st.oos_dead[uid] = why
            box = od.boxes.get(u.side)
            u.box = box  # shown in the OOS dead pile; still ``eliminated``
            game.emit("oos_dead", unit=uid, hex=game.label(h), reason=why, box=box, rule=od.rule)

    # --- US untried -> blooded [8.5] -----------------------------------------------------------

    def blood(self, game: "PlayContext", action: dict[str, Any]) -> "ActionResult":
        b = self.c.blooding
        rule = b.rule
        u = game.unit(str(action.get("unit")))
        c = game.counters.get(u.id)
        if c is None or b.untried_flag not in c.flags:
            return _result(False, f"{u.id} is not an untried unit", rule)
        if c.nationality not in b.nationalities:
            return _result(False, f"only untried US units convert ({u.id} is {c.nationality})", rule)
        if u.where != "hex" or u.hex is None:
            return _result(False, f"{u.id} did not survive a battle on the map ({u.where})", rule)
        if self.marker in u.markers:
            return _result(False, f"{u.id} is out of supply: only units in supply convert", rule)
        versions = game.scenario.params.get("blooded_versions") or game.system.params.get("blooded_versions") or {}
        target_id = str(versions.get(u.id) or u.id.removesuffix(b.suffix))
        if target_id == u.id or target_id not in game.counters:
            return _result(False, f"no blooded counter for {u.id} ({target_id!r} is not in the manifest)", rule,
                           BLOODED_POLICY)
        mods = {}
        if str(action.get("advanced", "false")).lower() in ("1", "true", "yes"):
            mods["advance"] = b.advance
        if str(action.get("all_defenders_eliminated", "false")).lower() in ("1", "true", "yes"):
            mods["all_defenders_eliminated"] = b.all_defenders_eliminated
        if str(action.get("retreated", "false")).lower() in ("1", "true", "yes"):
            mods["retreat"] = b.retreat
        die = game.dice.roll(1, 10)[0]  # the decimal die's 0 reads 10 [2.2]: faces 1..10
        total = die + sum(mods.values())
        ok = total >= b.success_at
        data = {"die": die, "modifiers": mods, "total": total, "converted": ok}
        if ok:
            h = u.hex
            new = game.unit(target_id)
            new.where, new.hex, new.box = "hex", h, None
            new.steps, new.reduced = new.max_steps, False  # "appears at two-step strength" [8.5]
            new.arrived = game.state.turn
            u.where, u.hex, u.box = "box", None, b.box
            game.emit("blooded", unit=u.id, blooded=target_id, hex=game.label(h), die=die, modifiers=mods, total=total,
                      rule=rule, policy=BLOOD_DECLARED_POLICY)
            return _result(True, f"{u.id} rolled {die}{''.join(f' {v:+d}' for v in mods.values())} = {total}: "
                                 f"converted to {target_id}", rule, BLOOD_DECLARED_POLICY, **data)
        game.emit("blood_roll", unit=u.id, die=die, modifiers=mods, total=total, rule=rule, policy=BLOOD_DECLARED_POLICY)
        return _result(True, f"{u.id} rolled {die}{''.join(f' {v:+d}' for v in mods.values())} = {total}: "
                             "remains untried", rule, BLOOD_DECLARED_POLICY, **data)
