"""SFN combat on the battle board [SFN 13.1-13.8] with fire modifiers [14.0-14.3].

SFN has no CRT: every unit fires shots with a decimal die (the 0 reads 10 [2.2]) against its
anti-armor value (armor/panzer targets) or anti-infantry value (every other target) [13.4]; a
roll less than or equal to the modified value hits [13.2]; a hit flips a full-strength unit
and eliminates a reduced or one-step one [2.12, 13.2], at once [13.3]. A two-step unit fires
two shots, a reduced or one-step unit one [13.2]. The sequence [13.1]:

1. deployment: all defenders take part, the attacker chooses his attackers (one unit or one
   stack, from one hex, against one adjacent enemy hex, not across an all-sea hexside [6.3,
   13.1]); artillery never attacks alone [13.5]; garrisons never attack [13.8];
2. preparatory barrage by the attacking artillery (losses never cancelled);
3. defensive fire by every surviving defender;
4. attack break-off (``break_off: true``): only after casualties, cancels one of them [13.6];
5. offensive fire by the surviving non-artillery attackers;
6. defender retreat (``retreat: true``): only after casualties from offensive fire and no
   extra hit [13.7], cancels one of them; then the survivors retreat one hex [13.6];
7. redeployment; 9. advance after combat (``advance: [ids]`` or ``all``) into an emptied hex.

The shot and its terrain modifiers are the generic form, data in ``resources/systems/sfn.yaml``
``combat:``: the fire table (``combat.crt``, kind ``fire``: d10 at or below the value hits
[13.2], the anti-armor or anti-infantry value by target [13.4], a value of 0 or less cannot hit
[14.1]) is resolved by :mod:`play.generic.crt`; the terrain of the target hex and a river /
major river hexside between the hexes, attacking fire (barrage and offensive fire) only,
artillery exempt from hexsides [14.2] (``combat.terrain_effects`` and the ``fire`` maps) by
:mod:`play.generic.terrain_combat`. What the generic form cannot say stays here: the battle
sequence, targeting, break-off, retreat, extra hits, garrisons, and the supply modifiers (any
fire, -1 for an OOS firer and +1 for a supplied firer at an OOS target [14.3]). Optional-rule modifiers (NTF 15.1, LGAS 15.3,
SAF 15.4, 79th Armored 15.9) are added by ``play/sfn/optional`` through
``play.sfn.procedure.HookedCombat`` when the scenario selects those rules.

The players' choices are arguments of the ``attack`` action; where the action is silent the
engine applies named policies (``DEFAULT_TARGET``, ``DEFAULT_CANCEL``, ``DEFAULT_RETREAT``).
A unit whose fire value the counter data does not give (``unknown``) does not fire: the result
lists its shots as not taken, "value unknown" — never a made-up value.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from model.base import hexside_between
from model.hexes import Hex

from play import rules
from play.generic.crt import fire_hits, fire_value_field
from play.generic.terrain_combat import applies, effects_between
from play.sfn.common import category_tags, cfg, enemy_zoc_of, has_tag, rule_of, value

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.result import ActionResult

DEFAULT_TARGET = ("sfn-default-target: each shot goes at the first surviving enemy on the battle board, "
                  "non-artillery first [13.5]; once all are destroyed, remaining shots fire for an extra hit [13.7]")
DEFAULT_CANCEL = "sfn-default-cancel: a break-off or retreat cancels the hit on the first unit hit in that fire step"
DEFAULT_RETREAT = ("sfn-default-retreat: the stack retreats together [13.6.5]: each retreating unit takes the hex "
                   "a stack-mate already retreated into if it is legal, else the first legal adjacent hex in "
                   "direction order, empty non-EZOC hexes first [13.6.4]")
STACK_RETREAT = ("sfn-stack-retreat-hex-counts-as-empty: a hex holding only units that retreated from this battle "
                 "is still 'entirely empty' for their stack-mates [13.6.4, 13.6.5]; those units do not negate an "
                 "EZOC there, not being 'a friendly unit not involved in the combat' [13.6.2]")
COMMAND_PHASE = ("sfn-command-phase: a sequence that splits SFN's Command & Action phase [5.2 B] into "
                 "Movement and Combat phases allows attacks in either phase of the attacking side")


@dataclass
class Fighter:
    id: str
    side: str
    steps: int
    reduced: bool
    artillery: bool
    armor: bool
    oos: bool
    start_steps: int = 0
    start_reduced: bool = False

    @property
    def alive(self) -> bool:
        return self.steps > 0


@dataclass
class Battle:
    attack_hex: Hex
    target_hex: Hex
    attackers: list[Fighter]
    defenders: list[Fighter]
    shots: list[dict[str, Any]] = field(default_factory=list)
    not_fired: list[dict[str, Any]] = field(default_factory=list)
    hits: dict[str, list[str]] = field(default_factory=dict)  # fire step -> ids hit, in order
    extra_hit: dict[str, bool] = field(default_factory=dict)  # side -> scored an extra hit
    notes: list[str] = field(default_factory=list)
    policies: set[str] = field(default_factory=set)


class SfnCombat:
    """Resolves ``{do: attack, attackers, target, ...}`` for SFN."""

    def __init__(self, game: "PlayContext") -> None:
        self.c = cfg(game, "combat")
        self.rule = self.c.get("rule", "SFN 13.1")
        combat = game.system.combat
        # The fire table and terrain effects are system data (resources/systems/sfn.yaml combat:).
        self.table = combat.crt if combat is not None and combat.crt is not None and combat.crt.kind == "fire" else None
        self.terrain = combat.terrain_effects if combat is not None else None

    # --- data lookups --------------------------------------------------------------------

    def _fire_value(self, game: "PlayContext", f: Fighter, target: Fighter) -> tuple[float | None, str]:
        assert self.table is not None
        field_ = fire_value_field(self.table, category_tags(game, target.id))  # [13.4]
        c = game.counters.get(f.id)
        if c is None:
            return None, str(field_)
        side = c.back if f.reduced and c.back is not None else c.front
        v = side.values.get(str(field_))
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            try:
                v = float(str(v))
            except (TypeError, ValueError):
                return None, str(field_)
        return float(v), str(field_)

    def _modifiers(self, game: "PlayContext", b: Battle, f: Fighter, target: Fighter, attacking: bool) -> dict[str, int]:
        mods: dict[str, int] = {}
        if self.terrain is not None and applies(self.terrain, attacking):
            # Terrain of the defenders' hex and the hexside between, attacking fire only [14.2].
            here = b.attack_hex if f.side == b.attackers[0].side else b.target_hex
            there = b.target_hex if here == b.attack_hex else b.attack_hex
            found = effects_between(game.system, game.hmap, self.terrain, [(here, category_tags(game, f.id))], there)
            mods.update({k: int(v) for k, v in found.items()})
        sup = self.c.get("supply_modifiers") or {}
        if f.oos:
            mods["oos_firer"] = int(sup.get("oos_firer", -1))
        elif target.oos:
            mods["oos_target"] = int(sup.get("supplied_at_oos_target", 1))
        return mods

    # --- the battle ------------------------------------------------------------------------

    def _fighter(self, game: "PlayContext", uid: str) -> Fighter:
        u = game.state.units[uid]
        oos_marker = str(cfg(game, "supply").get("marker", "OOS"))
        return Fighter(uid, u.side, u.steps, u.reduced,
                       has_tag(game, uid, str(value(self.c.get("artillery_tag"), "artillery"))),
                       has_tag(game, uid, str(self.c.get("armor_tag", "armor"))),
                       oos_marker in u.markers, u.steps, u.reduced)

    def _pick_target(self, b: Battle, firer: Fighter, enemies: list[Fighter], wanted: list[str]) -> tuple[Fighter, bool]:
        """(target, extra) — extra when every enemy is destroyed [13.7]."""
        alive = [e for e in enemies if e.alive]
        if not alive:
            choice = next((e for e in enemies if wanted and e.id == wanted[0]), enemies[0])
            if wanted:
                wanted.pop(0)
            return choice, True
        front = [e for e in alive if not e.artillery]
        legal = front or alive  # artillery only when no non-artillery target is left [13.5]
        while wanted:
            want = wanted.pop(0)
            hit = next((e for e in legal if e.id == want), None)
            if hit is not None:
                return hit, False
            b.notes.append(f"{firer.id} may not fire at {want} (not a legal target now [SFN 13.5]); default target used")
        b.policies.add(DEFAULT_TARGET)
        return legal[0], False

    def _fire_step(self, game: "PlayContext", b: Battle, step: str, firers: list[Fighter], enemies: list[Fighter],
                   attacking: bool, targets: dict[str, list[str]]) -> None:
        assert self.table is not None
        die = self.table.dice_count_sides[1]  # one die per shot: d10, the 0 reads 10 [2.2]
        b.hits.setdefault(step, [])
        for f in firers:
            if not f.alive:
                continue
            wanted = list(targets.get(f.id, []))
            shots = f.steps  # two-step units fire twice, reduced / one-step once [13.2]
            for n in range(shots):
                if not f.alive:
                    break
                target, extra = self._pick_target(b, f, enemies, wanted)
                base, fieldname = self._fire_value(game, f, target)
                if base is None:
                    b.not_fired.append({"step": step, "unit": f.id, "target": target.id, "field": fieldname,
                                        "why": "value unknown in the counter data", "rule": "SFN 2.10"})
                    continue
                mods = self._modifiers(game, b, f, target, attacking)
                modified = base + sum(mods.values())
                roll = game.dice.roll(1, die)[0]  # faces 1..10: the 0 reads 10 [2.2]
                hit = fire_hits(self.table, modified, roll)  # [13.2, 14.1]
                rec = {"step": step, "unit": f.id, "target": target.id, "value": base, "field": fieldname,
                       "modifiers": mods, "modified": modified, "roll": roll, "hit": hit, "shot": n + 1}
                if hit and extra:
                    rec["extra_hit"] = True
                    b.extra_hit[f.side] = True
                elif hit:
                    target.steps -= 1
                    target.reduced = True
                    b.hits[step].append(target.id)
                    rec["result"] = "eliminated" if not target.alive else "reduced"
                b.shots.append(rec)
                game.emit("sfn_shot", **rec, rule="SFN 13.2")

    def _cancel_one(self, b: Battle, step: str, fighters: list[Fighter], choice: Any) -> str | None:
        hit = b.hits.get(step) or []
        if not hit:
            return None
        uid = str(choice) if choice is not None and str(choice) in hit else hit[0]
        if choice is None or str(choice) not in hit:
            b.policies.add(DEFAULT_CANCEL)
        f = next(x for x in fighters if x.id == uid)
        f.steps += 1
        f.reduced = f.start_reduced if f.steps >= f.start_steps else True
        hit.remove(uid)
        return uid

    # --- validation and the action ----------------------------------------------------------

    def refuse(self, game: "PlayContext", action: dict[str, Any]) -> "ActionResult | tuple[list[str], Hex, Hex]":
        from play.result import ActionResult

        ph = game.phase
        attackers = [str(a) for a in action.get("attackers") or []]
        target = game.hex_of(action.get("target"))
        if not attackers:
            return ActionResult(False, "an attack needs attackers", self.rule)
        units = [game.unit(a) for a in attackers]
        side = units[0].side
        if ph.side != side or not ph.permits("attack"):
            return ActionResult(False, f"not a Command & Action phase of {side} (phase: {ph.name}"
                                       f"{', ' + ph.side if ph.side else ''})", "SFN 5.2", COMMAND_PHASE)
        if any(u.side != side for u in units):
            return ActionResult(False, "the attackers belong to different sides", "SFN 6.3")
        if any(not u.on_map for u in units) or len({u.hex for u in units}) != 1:
            return ActionResult(False, "the attackers must be one unit or one stack, together in one map hex", "SFN 6.3")
        here = units[0].hex
        assert here is not None
        if here.distance(target) != 1:
            return ActionResult(False, f"{game.label(target)} is not adjacent to {game.label(here)}", "SFN 6.3")
        defenders = [u for u in game.state.at(target) if u.side != side]
        if not defenders:
            return ActionResult(False, f"no enemy unit in {game.label(target)}", "SFN 6.3")
        key = hexside_between(here, target)
        banned = set(value(self.c.get("no_attack_across_hexside_tags"), ["all_sea"]))
        for sid in game.hmap.hexside_features(key) if key is not None else ():
            st = game.system.hexside_by_id.get(sid)
            if sid in banned or (st is not None and set(st.tags) & banned):
                return ActionResult(False, "no attack across an all-sea hexside",
                                    rule_of(self.c.get("no_attack_across_hexside_tags"), "SFN 13.1"))
        garrison = str(value(self.c.get("garrison_tag"), "garrison"))
        g = [a for a in attackers if has_tag(game, a, garrison)]
        if g:
            return ActionResult(False, f"garrison units never attack ({', '.join(g)})", rule_of(self.c.get("garrison_tag"), "SFN 13.8"))
        arty = str(value(self.c.get("artillery_tag"), "artillery"))
        if all(has_tag(game, a, arty) for a in attackers):
            return ActionResult(False, "artillery may never attack alone", rule_of(self.c.get("artillery_tag"), "SFN 13.5"))
        return attackers, here, target

    def attack(self, game: "PlayContext", action: dict[str, Any]) -> "ActionResult":
        from play.result import ActionResult

        if self.table is None:
            return ActionResult(False, f"combat not available: no fire table (combat.crt, kind fire) in the "
                                       f"{game.system.short} system data", self.rule)
        checked = self.refuse(game, action)
        if isinstance(checked, ActionResult):
            return checked
        attacker_ids, here, target = checked
        side = game.state.units[attacker_ids[0]].side
        b = Battle(here, target, [self._fighter(game, a) for a in attacker_ids],
                   [self._fighter(game, u.id) for u in game.state.at(target) if u.side != side])
        if not game.phase.permits("move"):
            b.policies.add(COMMAND_PHASE)  # a sequence that splits 5.2 B into Movement and Combat
        targets = {str(k): [str(x) for x in (v if isinstance(v, list) else [v])]
                   for k, v in (action.get("targets") or {}).items()}
        game.emit("sfn_battle", attackers=attacker_ids, defenders=[d.id for d in b.defenders],
                  attack_hex=game.label(here), target=game.label(target), rule="SFN 13.1")
        # 2. Preparatory barrage: attacking artillery [13.1.2, 13.5].
        self._fire_step(game, b, "barrage", [a for a in b.attackers if a.artillery], b.defenders, True, targets)
        # 3. Defensive fire: every surviving defender, never modified by terrain [13.1.3, 14.2].
        self._fire_step(game, b, "defensive", b.defenders, b.attackers, False, targets)
        # 4. Break-off [13.1.4]: only after casualties; cancels one of them.
        broke_off = False
        if str(action.get("break_off", "false")).lower() in ("1", "true", "yes"):
            if not b.hits.get("defensive"):
                b.notes.append("break-off refused: the attacker has suffered no casualties [SFN 13.1]")
            elif b.extra_hit.get(b.defenders[0].side):
                b.notes.append("break-off refused: the defender scored an extra hit [SFN 13.7]")
            else:
                uid = self._cancel_one(b, "defensive", b.attackers, action.get("cancel_hit"))
                broke_off = True
                game.emit("sfn_break_off", cancelled_hit=uid, rule="SFN 13.6")
        retreat = False
        if not broke_off:
            # 5. Offensive fire: surviving non-artillery attackers [13.1.5].
            self._fire_step(game, b, "offensive", [a for a in b.attackers if not a.artillery], b.defenders, True, targets)
            # 6. Defender retreat declaration [13.1.6].
            if str(action.get("retreat", "false")).lower() in ("1", "true", "yes"):
                if not b.hits.get("offensive"):
                    b.notes.append("retreat refused: the defender has suffered no casualties from offensive fire [SFN 13.1]")
                elif b.extra_hit.get(side):
                    b.notes.append("retreat refused: the attacker scored an extra hit [SFN 13.7]")
                else:
                    uid = self._cancel_one(b, "offensive", b.defenders, action.get("retreat_cancel"))
                    retreat = True
                    game.emit("sfn_retreat_declared", cancelled_hit=uid, rule="SFN 13.6")
        # 7. Redeployment: losses go onto the counters [13.1.7].
        eliminated = self._commit(game, b)
        retreats: dict[str, str] = {}
        if retreat:
            retreats = self._retreat(game, b, action.get("retreat_to") or {})
        advanced = self._advance(game, b, action.get("advance"))
        for n in b.notes:
            game.emit("sfn_combat_note", message=n)
        summary = (f"{len(b.shots)} shot(s), {sum(1 for s in b.shots if s['hit'])} hit(s)"
                   + (f", eliminated: {', '.join(eliminated)}" if eliminated else "")
                   + (", attack broken off" if broke_off else "")
                   + (f", retreated: {', '.join(f'{k} to {v}' for k, v in retreats.items())}" if retreats else "")
                   + (f", advanced: {', '.join(advanced)}" if advanced else "")
                   + (f"; not fired (value unknown): {len(b.not_fired)} shot(s)" if b.not_fired else ""))
        game.emit("sfn_battle_end", target=game.label(target), eliminated=eliminated, broke_off=broke_off or None,
                  retreats=retreats or None, advanced=advanced or None, not_fired=b.not_fired or None,
                  policy="; ".join(sorted(b.policies)) or None, rule=self.rule)
        return ActionResult(True, summary, self.rule, "; ".join(sorted(b.policies)) or None,
                            data={"shots": b.shots, "not_fired": b.not_fired, "eliminated": eliminated,
                                  "broke_off": broke_off, "retreats": retreats, "advanced": advanced,
                                  "notes": b.notes, "extra_hit": dict(b.extra_hit)})

    def _commit(self, game: "PlayContext", b: Battle) -> list[str]:
        out: list[str] = []
        elim_vp = self.c.get("commonwealth_elimination_vp") or {}
        cw = set(value(self.c.get("commonwealth_nationalities"), []))
        for f in b.attackers + b.defenders:
            u = game.state.units[f.id]
            if f.steps == u.steps:
                continue
            if not f.alive:
                u.steps, u.where, u.hex, u.box = 0, "eliminated", None, None
                out.append(f.id)
                game.emit("eliminated", unit=f.id, rule="SFN 2.12")
                c = game.counters.get(f.id)
                if c is not None and c.nationality in cw and elim_vp:
                    # Each Commonwealth unit eliminated in combat gives the German one VP [4.5].
                    vs = str(elim_vp.get("side", "german"))
                    game.state.vp[vs] = game.state.vp.get(vs, 0) + int(elim_vp.get("value", 1))
                    game.emit("vp", vp_side=vs, delta=int(elim_vp.get("value", 1)), total=game.state.vp[vs],
                              unit=f.id, rule=elim_vp.get("rule"))
            else:
                u.steps = f.steps
                c = game.counters.get(f.id)
                u.reduced = f.steps < u.max_steps and c is not None and c.back is not None
                game.emit("step_loss", unit=f.id, steps=u.steps, reduced=u.reduced, rule="SFN 13.2")
        return out

    def _retreat_problem(self, game: "PlayContext", uid: str, frm: Hex, to: Hex, ezoc: set[Hex],
                         involved: frozenset[str] = frozenset()) -> str | None:
        """Why ``uid`` may not retreat from ``frm`` to ``to`` [13.6.1-13.6.3], or None.
        ``involved``: the units of this battle (they never negate an EZOC [13.6.2])."""
        u = game.state.units[uid]
        if to.distance(frm) != 1:
            return "not adjacent"
        if not game.hmap.contains(to) or rules.terrain_entry_problem(
                game.hmap, game.system, to, rules.movement_class(game.system, game.counters.get(uid))) is not None:
            return "off the map or not land"
        key = hexside_between(frm, to)
        for sid in game.hmap.hexside_features(key) if key is not None else ():
            st = game.system.hexside_by_id.get(sid)
            if st is not None and "all_sea" in (set(st.tags) | {st.id}):
                return "across an all-sea hexside"
        there = game.state.at(to)
        if any(x.side != u.side for x in there):
            return "enemy-occupied"
        if to in ezoc and not [x for x in there if x.id not in involved]:
            return "in an enemy ZOC with no friendly unit not involved in the combat there"
        if rules.stacking_problem(game.hmap, game.system, to, there + [u], game.counters) is not None:
            return "over the stacking limit"
        return None

    def _retreat(self, game: "PlayContext", b: Battle, wanted: dict[str, Any]) -> dict[str, str]:
        """Survivors vacate the hex one hex away [13.6]; garrisons are eliminated [13.8]."""
        out: dict[str, str] = {}
        garrison = str(value(self.c.get("garrison_tag"), "garrison"))
        involved = frozenset(f.id for f in b.defenders) | frozenset(f.id for f in b.attackers)
        went: list[Hex] = []  # hexes stack-mates retreated into, in order [13.6.5]
        for f in b.defenders:
            u = game.state.units[f.id]
            if not u.on_map:
                continue
            if has_tag(game, f.id, garrison):
                u.steps, u.where, u.hex = 0, "eliminated", None
                game.emit("eliminated", unit=f.id, reason="garrison retreats", rule="SFN 13.8")
                out[f.id] = "eliminated"
                continue
            ezoc = enemy_zoc_of(game, u.side)
            legal = [n for n in b.target_hex.neighbors()
                     if self._retreat_problem(game, f.id, b.target_hex, n, ezoc, involved) is None]
            # An entirely empty hex outside EZOC rules out friendly-occupied ones [13.6.4]; a hex
            # holding only stack-mates retreated from this battle is still empty [13.6.5].
            empty = [n for n in legal if n not in ezoc and all(x.id in involved for x in game.state.at(n))]
            if any(n in went and game.state.at(n) for n in empty):
                b.policies.add(STACK_RETREAT)
            allowed = empty or legal
            choice: Hex | None = None
            if f.id in wanted:
                h = game.hex_of(wanted[f.id])
                why = self._retreat_problem(game, f.id, b.target_hex, h, ezoc, involved)
                if why is None and h not in allowed:
                    why = "an empty hex outside enemy ZOC is available [SFN 13.6]"
                if why is None:
                    choice = h
                else:
                    b.notes.append(f"{f.id} may not retreat to {wanted[f.id]}: {why}; default retreat used")
            if choice is None and allowed:
                choice = next((h for h in went if h in allowed), allowed[0])  # keep the stack together
                b.policies.add(DEFAULT_RETREAT)
            if choice is None:
                u.steps, u.where, u.hex = 0, "eliminated", None
                game.emit("eliminated", unit=f.id, reason="no legal retreat", rule="SFN 13.6")
                out[f.id] = "eliminated"
                continue
            u.hex = choice
            if choice not in went:
                went.append(choice)
            out[f.id] = str(game.label(choice))
            game.emit("sfn_retreat", unit=f.id, to=game.label(choice), rule="SFN 13.6")
        return out

    def _advance(self, game: "PlayContext", b: Battle, wanted: Any) -> list[str]:
        if not wanted:
            return []
        side = b.attackers[0].side
        if any(x.side != side for x in game.state.at(b.target_hex)):
            b.notes.append("no advance: the defenders still hold the hex [SFN 13.1]")
            return []
        garrison = str(value(self.c.get("garrison_tag"), "garrison"))
        pool = [u.id for u in game.state.at(b.attack_hex) if u.side == side]  # left-behind units may advance too
        ids = pool if str(wanted).lower() in ("all", "true") else [str(x) for x in (wanted if isinstance(wanted, list) else [wanted])]
        moved: list[str] = []
        for uid in ids:
            if uid not in pool:
                b.notes.append(f"{uid} cannot advance: not a surviving unit of the attacking hex [SFN 13.1]")
                continue
            if has_tag(game, uid, garrison):
                b.notes.append(f"{uid} cannot advance: garrisons never advance [SFN 13.8]")
                continue
            u = game.state.units[uid]
            if rules.stacking_problem(game.hmap, game.system, b.target_hex, game.state.at(b.target_hex) + [u], game.counters):
                b.notes.append(f"{uid} cannot advance: over the stacking limit [SFN 10.1]")
                continue
            u.hex = b.target_hex
            moved.append(uid)
            game.emit("sfn_advance", unit=uid, to=game.label(b.target_hex), rule="SFN 13.1")
        return moved
