"""GTS Assault [18.0–18.7] in test play, with its results [19.2] and the optional rules Excl 18.8
(0-Step Units) and Excl 18.9 (Alone and Afraid, errata: dismounted Leg *Infantry*).

``{do: assault, units: [...], target: HEX, values?: {unit: {tq, dr, fr, ar, line, ar_line,
ar_colour, ma, steps}}, opportunity_fire?: [fire actions], defenders?: stand|run, run_to?: HEX,
run_away_fire?: [fire actions], mode?: fire|charge, continue?: bool, mode2?: fire|charge,
charge_cp?: bool, targets?: {unit: [fr target, ar target]}, modifiers?: {name: n},
leave_column?: [ids], defenders_leave_column?: [ids]}``

- Eligibility [18.1]: a numerical MA (not a star), an Assault Rating (not blank), not
  entrenched, not a Zero-Step Unit, not under a Heavy Barrage, not overstacked, not an Indirect
  Fire Unit (Fire Rating line green/brown/orange/black), and the Unit could legally enter the
  target hex (terrain and hexside). All from one hex into one adjacent enemy hex [18.4, 18.5].
- Step 2 Bravery: the best (lowest modified) Defensive value among the unsuppressed enemy Units
  that project a Fire Zone on the Assaulting hex (in range and LOS, 17.3), plus the attacker's
  TQ, minus the best modified Defensive value of the Assaulting force; one d10 per Unit, pass on
  ≤ (0 passes, 9 fails); no Fire Zone, no check. Failed Units drop out.
- Step 3 Opportunity Fire: the declared ``opportunity_fire`` list, through the fire procedure
  (policy ``assault-opfire-declared``); Suppressed attackers drop out.
- Step 4: no attackers, over; Zero-Step defenders eliminated (Excl 18.8: set aside when stacked
  with a non-0-Step Unit, and share their fate); no defenders, the attackers advance.
- Step 5: 5A stand or run away (to one adjacent hex; those that cannot run are eliminated;
  runners are Suppressed, no conversion [19.2.2]); 5B charge or Assault Fire; 5C the charge TQ
  check (a Command Point guarantees it: ``charge_cp``); 5D defender's then 5E attacker's Assault
  Fire — Fire Rating first, then Assault value (a coloured Assault value fires twice instead;
  a Suppressed defender fires only its Assault value at -2); 5F continue once (``continue``).

Ratings the counters do not print are declared (policy ``declared-assault-value``), and the
engine applies the marker, step and terrain modifiers the text gives [18.7, 19.2.2–19.2.4].
The CRT is the bundle's (ILLUSTRATIVE in the Utah sample). Parameters: ``gts-utah: assault:``
in play/gts/params.yaml.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from model.hexes import Hex

from play.gts import barrage, fire
from play.gts import crt as crt_mod
from play.gts import results
from play.result import result as _ok

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.gts.params import AssaultParams, FireParams, ResultsParams
    from play.result import ActionResult
    from play.state import UnitState

OVERSTACK_RUN_POLICY = ("overstacked-run-away-surrenders: 14.7 forbids Overstacked Units to run away from an "
                        "Assault; a run-away declared from an overstacked hex is played by 18.7 5A — Units that "
                        "cannot run away are eliminated (they surrender)")
OPT_ZERO_STEP = "Excl 18.8"
OPT_ALONE = "Excl 18.9"


def _words(values: list[str]) -> list[str]:
    """A parameter's word list, compared without case."""
    return [w.lower() for w in values]


class Assault:
    """One Assault action: the state of the contest and its steps [18.7]."""

    def __init__(self, game: "PlayContext", action: dict[str, Any], cfg: "AssaultParams", fire_cfg: "FireParams",
                 res_cfg: "ResultsParams") -> None:
        self.g, self.a, self.c, self.fc, self.rc = game, action, cfg, fire_cfg, res_cfg
        self.rule = cfg.rule
        raw = action.get("values")
        self.declared: dict[str, dict[str, Any]] = {str(k): dict(v) for k, v in raw.items() if isinstance(v, dict)} \
            if isinstance(raw, dict) else {}
        self.policies: list[str] = []
        self.opt = game.scenario.optional_rules
        self.leaders: list[UnitState] = []
        self.aside: list[UnitState] = []

    # ---- values -------------------------------------------------------------------------
    def raw(self, u: "UnitState", field: str) -> Any:
        v = fire._value(self.g, u, field)
        if v is None or str(v).lower() == "unknown":
            v = self.declared.get(u.id, {}).get(field)
            if v is not None:
                self._policy(self.c.declared_policy)
        return v

    def num(self, u: "UnitState", field: str) -> int | None:
        n = fire._num(self.raw(u, field))
        return None if n is None else int(n)

    def _policy(self, text: str) -> None:
        p = text.strip()
        if p and p not in self.policies:
            self.policies.append(p)

    def cohesion(self, u: "UnitState") -> int:
        return min(2, u.markers.count(self.rc.cohesion_marker))

    def suppressed(self, u: "UnitState") -> bool:
        return self.rc.suppressed_marker in u.markers

    def alone(self, u: "UnitState") -> bool:
        return self.c.alone_marker in u.markers

    def rating(self, u: "UnitState", field: str) -> int | None:
        """A Fire/Assault/TQ value with the step, Cohesion, Suppression [19.2] and Alone and
        Afraid [Excl 18.9] modifiers."""
        base = self.num(u, field)
        if base is None:
            return None
        idx = {"ar": 0, "fr": 1, "tq": 2}[field]
        coh = self.c.cohesion_ratings.value
        n = self.cohesion(u)
        mod = (coh.get(n) or (0, 0, 0))[idx] if n else 0
        if u.reduced:
            mod += self.c.reduced_ratings.value
        if self.suppressed(u) and field in ("ar", "tq"):
            mod += (self.c.suppressed_ar if field == "ar" else self.c.suppressed_tq).value
        if self.alone(u):
            mod += self.c.alone_ratings.value.get(field, 0)
        return base + mod

    def defense(self, u: "UnitState", attacker: bool) -> int | None:
        """The modified Defensive value [18.7 step 2]: markers, defender's terrain (Bocage);
        negative modifiers do not apply to a Unit in Column."""
        base = self.num(u, "dr")
        if base is None:
            return None
        mods: list[int] = []
        for marker, spec in self.c.defense_modifiers.value.items():
            if marker in u.markers and spec[1 if attacker else 2]:
                mods.append(spec[0])
        boc = self.c.bocage.value
        if not attacker and u.hex is not None and self.g.hmap.terrain_at(u.hex) == boc.terrain:
            mods.append(boc.modifier)
        if self.alone(u):
            mods.append(self.c.alone_ratings.value.get("dr", 1))
        if self.c.column_marker in u.markers:
            mods = [m for m in mods if m >= 0]
        return base + sum(mods)

    def _opportunity_tq(self, shooter: "UnitState", shot: dict[str, Any]) -> bool:
        """Opportunity Fire starts with a Troop Quality Check [17.4] (no Command Point); a
        unit whose TQ is neither printed nor declared fires without one."""
        otq = fire._num(shot.get("tq")) if shot.get("tq") is not None else self.rating(shooter, "tq")
        if otq is None:
            return True
        d, ok = self.tq_check(int(otq))
        self.g.emit("assault_tq", unit=shooter.id, tq=int(otq), die=d, passed=ok, why="opportunity fire",
                    rule="GTS 17.4")
        return ok

    def tq_check(self, value: int) -> tuple[int, bool]:
        d = self.g.dice.roll(1, 10)[0] % 10
        ok = d == self.c.always_pass.value or (d != self.c.always_fail.value and d <= value)
        return d, ok

    # ---- eligibility [18.1, 18.4] ---------------------------------------------------------
    def refuse_unit(self, u: "UnitState", target: Hex) -> str | None:
        g, c = self.g, self.c
        ma = self.raw(u, "ma")
        if ma is None:
            return f"{u.id}'s movement allowance is unknown; declare 'ma' in values"
        if str(ma).lower() in _words(c.no_ma.value) or fire._num(ma) is None:
            return f"{u.id} has no numerical movement allowance ({ma})"
        ar = self.raw(u, "ar")
        if ar is None:
            return f"{u.id}'s Assault Rating is unknown; declare 'ar' in values"
        if str(ar).strip().lower() in _words(c.blank_ar.value):
            return f"{u.id} has a blank Assault Rating"
        steps = self.num(u, "steps")
        if u.steps == 0 or steps == 0:
            return f"{u.id} is a Zero-Step Unit"
        if any(m in _words(c.entrenchment_markers.value) for m in (x.lower() for x in u.markers)):
            return f"{u.id} occupies an entrenchment"
        if barrage.at(g, u.hex) == "heavy":
            return f"{u.id} is under a Heavy Barrage"
        line = str(self.declared.get(u.id, {}).get("line") or fire._value(g, u, "fr_colour") or "").lower()
        if line in _words(c.indirect_lines.value):
            return f"{u.id} has a {line} Fire Rating (an Indirect Fire Unit)"
        if self.suppressed(u):
            return f"{u.id} is Suppressed [19.2.2]"
        assert u.hex is not None
        from play.gts import overstack

        if overstack.overstacked(g, u.hex):
            return f"{u.id} is in an overstacked hex: \"You may never Assault out of an overstacked hex\" [14.7]"
        from play import rules
        from play.moves import enter_cost

        mclass = rules.movement_class(g.system, g.counters.get(u.id))
        column = c.column_marker in u.markers
        cost, why, _r, _p = enter_cost(g.hmap, g.system, u.hex, target, mclass, column=column)
        if cost is None and "unknown" not in why:
            return f"{u.id} could not legally move into {g.label(target)}: {why}"
        return None

    # ---- fire helpers --------------------------------------------------------------------
    def fire_zone_on(self, shooter: "UnitState", h: Hex) -> bool:
        if not shooter.on_map or shooter.hex is None or self.suppressed(shooter):
            return False  # Suppressed Units project no Fire Zones [19.2.2]
        if str(getattr(self.g.counters.get(shooter.id), "category", "")).lower() in \
                _words(self.c.non_combat_categories.value):
            return False  # a Leader, marker or ship counter is not a Unit with a Fire Zone here
        rng, _p = fire.fire_range(self.g, shooter, self.fc)
        d = shooter.hex.distance(h)
        if rng is None or d > rng:
            return False
        if d <= 1:
            return True
        seen, recip = fire.sight(self.g, shooter.hex, h, barraged=False)
        return seen and recip is None  # a reciprocal Hill sight projects no Fire Zone [Excl 2.1.10]

    def shoot(self, shooter: "UnitState", targets: list["UnitState"], which: str, value: int, line: str,
              mods: dict[str, int], step: str) -> None:
        table = crt_mod.crt_for(self.g)
        live = [t for t in targets if t.on_map]
        if not live or table is None or line not in table["lines"]:
            return
        targets_raw = self.a.get("targets")
        chosen = targets_raw.get(shooter.id) if isinstance(targets_raw, dict) else None
        pick = chosen[0 if which == "fr" else -1] if isinstance(chosen, list) and chosen else chosen
        t = next((x for x in live if x.id == str(pick)), None) if pick else None
        if t is None:
            t = live[0]
            self._policy(self.c.target_policy)
        tc = self.g.counters.get(t.id)
        armored = bool(tc is not None and tc.category in self.fc.armored_categories)
        r = crt_mod.roll(self.g, table, line, armored, value + sum(mods.values()))
        self.g.emit("assault_fire", unit=shooter.id, target=t.id, rating=which, step=step, modifiers=mods or None,
                    rule=self.rule, **r.event())
        self.apply(t, r.result, "assault fire")

    def apply(self, t: "UnitState", result: str | None, cause: str) -> None:
        if result == "S?":
            tq = self.rating(t, "tq")
            if tq is None:
                results.apply(self.g, [t.id], result, self.rc, cause=cause)
                return
            d, ok = self.tq_check(tq)
            self.g.emit("assault_tq", unit=t.id, tq=tq, die=d, passed=ok, why="S?", rule="GTS 19.2.1")
            if ok:
                return
            result = "S"
        results.apply(self.g, [t.id], result, self.rc, cause=cause)

    def assault_fire(self, side: list["UnitState"], enemy: list["UnitState"], step: str, defending: bool) -> None:
        raw = self.a.get("modifiers")
        mods = {str(k): int(n) for k, v in (raw.items() if isinstance(raw, dict) else [])
                if (n := fire._num(v)) is not None}
        if mods:
            self._policy(self.c.fire_modifier_policy)
        for u in side:
            if not u.on_map:
                continue
            fr_raw = self.raw(u, "fr")
            if fr_raw is not None and str(fr_raw) in _words(self.c.no_fire.value) + ["No"]:
                continue  # "No" Fire Rating: no Assault Fire at all [18.7 5D]
            if self.suppressed(u) and not defending:
                continue
            line = str(self.declared.get(u.id, {}).get("line") or fire._value(self.g, u, "fr_colour") or "")
            ar_line = str(self.declared.get(u.id, {}).get("ar_line") or line)
            if ar_line == line:
                self._policy(self.c.ar_line_policy)
            colour = str(self.raw(u, "ar_colour") or "").lower()
            coloured = colour not in ("", "black", "white")
            fr, ar = self.rating(u, "fr"), self.rating(u, "ar")
            shots: list[tuple[str, int | None, str]] = []
            if not self.suppressed(u):
                shots.append(("ar", ar, ar_line) if coloured else ("fr", fr, line))
            shots.append(("ar", ar, ar_line))
            for which, val, ln in shots:
                if val is None:
                    self.g.emit("assault_fire", unit=u.id, rating=which, step=step, skipped=True, rule=self.rule,
                                message=f"{which.upper()} unknown: declare it in values")
                    continue
                self.shoot(u, enemy, which, val, ln, mods, step)

    # ---- the procedure [18.7] -----------------------------------------------------------
    def run(self) -> "ActionResult":
        g = self.g
        if crt_mod.crt_for(g) is None:
            return _ok(False, "combat not available: the rules provided have no CRT (GTS)", policy="no-crt-no-combat")
        ids = [str(x) for x in (self.a.get("units") or ([self.a["unit"]] if self.a.get("unit") else []))]
        if not ids:
            return _ok(False, "name the Assaulting Units in 'units'", self.rule)
        units = [g.unit(i) for i in ids]
        target = g.hex_of(self.a.get("target"))
        src = units[0].hex
        if any(not u.on_map or u.hex != src for u in units) or src is None:
            return _ok(False, "Units from more than one hex cannot Assault together", str(self.c.adjacent_rule))
        if src.distance(target) != 1:
            return _ok(False, f"{g.label(target)} is not adjacent to {g.label(src)}", str(self.c.adjacent_rule))
        side = units[0].side
        if any(u.side != side for u in units):
            return _ok(False, "the Assaulting Units must be on one side", self.rule)
        # Leaders (and markers) are not defending Units: their fate is for Leaders [21.0]
        # (policy assault-leaders-not-combatants).
        skip = _words(self.c.non_combat_categories.value)
        enemy = [x for x in g.state.at(target) if x.side != side and x.on_map]
        defenders = [x for x in enemy if str(getattr(g.counters.get(x.id), "category", "")).lower() not in skip]
        self.leaders = [x for x in enemy if x not in defenders]
        if not defenders:
            return _ok(False, f"no enemy Unit in {g.label(target)}", str(self.c.adjacent_rule))
        for u in units:
            why = self.refuse_unit(u, target)
            if why:
                return _ok(False, f"{why}: it may not Assault", str(self.c.eligibility_rule),
                           "; ".join(self.policies) or None)
        # "Units in Column cannot stack together, so only one Vehicle Unit could Assault into a
        # city or town hex" [18.1, 14.7]: at most one Assaulting Unit in Column.
        col = self.c.column_marker
        if sum(col in u.markers for u in units) > 1:
            return _ok(False, "Units in Column cannot stack together: only one of them may Assault a hex",
                       str(self.c.eligibility_rule))
        # Command Points are checked before anything is rolled, and spent only once all is legal.
        spend: dict[str, int] = {}
        together = str(self.a.get("together", "")).lower()
        if len(units) > 1:
            # Several Units Assault together only as a Formation's first Action or for one CP each [18.3].
            if together not in ("first_action", "cp"):
                return _ok(False, "several Units Assault together only when declared as the Formation Activation's "
                                  "first Action (together: first_action) or for one Command Point per Unit "
                                  "(together: cp)", self.c.together_rule)
            if together == "cp":
                for u in units:
                    div = str(getattr(g.counters.get(u.id), "division", "") or "")
                    spend[div] = spend.get(div, 0) + 1
        charge_cp = str(self.a.get("charge_cp", "false")).lower() in ("1", "true", "yes")
        if charge_cp and str(self.a.get("mode", "fire")).lower() == "charge":
            div = str(getattr(g.counters.get(defenders[0].id), "division", "") or "")
            spend[div] = spend.get(div, 0) + 1  # the charge check passed with a Command Point [18.7 5C]
        from play.gts.activation import _st

        points = _st(g).points
        for div, n in spend.items():
            have = int(p.command) if div and (p := points.get(div)) is not None else 0
            if have < n:
                return _ok(False, f"{div or 'a Unit without a Division'} has {have} Command Points; the Assault "
                                  f"needs {n} (declare them with set_points)", "GTS 10.0.3")
        for div, n in spend.items():
            points[div].command -= n
        if together == "first_action" and len(units) > 1:
            self._policy(self.c.together_policy)
        alone_marker = self.c.alone_marker
        if self.opt.get(OPT_ALONE):
            for d in defenders:
                if self.is_alone(d):
                    d.markers.append(alone_marker)  # from the declaration until the Assault ends [Excl 18.9]
                    g.emit("alone_and_afraid", unit=d.id, hex=g.label(target), rule=OPT_ALONE)
        g.emit("assault", units=ids, hex=g.label(src), target=g.label(target), defenders=[d.id for d in defenders],
               together=together or None, cp_spent=spend or None, rule=self.rule)
        try:
            outcome = self.steps(units, defenders, src, target)
        finally:
            for d in defenders:
                while alone_marker in d.markers:
                    d.markers.remove(alone_marker)
        policy = "; ".join(self.policies) or None
        g.emit("assault_end", target=g.label(target), outcome=outcome, rule=self.rule, policy=policy)
        return _ok(True, f"Assault on {g.label(target)}: {outcome}", self.rule, policy, outcome=outcome)

    def is_alone(self, d: "UnitState") -> bool:
        """A wheeled or tracked defender with no LOS to a friendly dismounted Leg Infantry Unit
        [Excl 18.9, errata]."""
        from model.los import line_of_sight
        from play import rules

        g = self.g
        if rules.movement_class(g.system, g.counters.get(d.id)) not in _words(self.c.alone_classes.value):
            return False
        legs = _words(self.c.leg_categories.value)
        for x in g.state.units.values():
            c = g.counters.get(x.id)
            if x is d or x.side != d.side or not x.on_map or x.hex is None or c is None:
                continue
            if str(c.category).lower() not in legs or rules.movement_class(g.system, c) != "leg":
                continue
            if self.c.column_marker in x.markers:
                continue  # in Column: not dismounted (policy alone-column-not-dismounted)
            assert d.hex is not None
            if x.hex == d.hex or line_of_sight(g.hmap, g.system, d.hex, x.hex, **fire.conditions(g)).visible:
                return False
        return True

    def bravery(self, units: list["UnitState"], src: Hex) -> list["UnitState"]:
        g = self.g
        side = units[0].side
        zone = [x for x in g.state.units.values() if x.side != side and self.fire_zone_on(x, src)]
        if not zone:
            g.emit("bravery", units=[u.id for u in units], required=False, rule="GTS 18.7",
                   message="no enemy Fire Zone on the Assaulting hex: no Bravery Check")
            return units
        dvals = [(v, x.id) for x in zone if (v := self.defense(x, False)) is not None]
        avals = [v for u in units if (v := self.defense(u, True)) is not None]
        if not dvals or not avals:
            g.emit("bravery", units=[u.id for u in units], required=True, rule="GTS 18.7",
                   message="Defensive values unknown: declare 'dr' in values; every Unit is taken as passing",
                   policy="bravery-unknown-passes")
            self.policies.append("bravery-unknown-passes: with no Defensive values the Bravery Check is not rolled")
            return units
        best_d, best_id = min(dvals)
        best_a = min(avals)
        out = []
        for u in units:
            tq = self.rating(u, "tq")
            if tq is None:
                g.emit("bravery", unit=u.id, required=True, rule="GTS 18.7",
                       message="TQ unknown: declare 'tq' in values; taken as passing", policy="bravery-unknown-passes")
                out.append(u)
                continue
            need = tq + best_d - best_a
            d, ok = self.tq_check(need)
            g.emit("bravery", unit=u.id, tq=tq, defender=best_id, defense=best_d, attacker_defense=best_a,
                   need=need, die=d, passed=ok, rule="GTS 18.7")
            if ok:
                out.append(u)
        return out

    def advance(self, units: list["UnitState"], target: Hex) -> None:
        live = [u for u in units if u.on_map]
        for u in live:
            u.hex = target
        left = [x.id for x in self.leaders if x.on_map and x.hex == target]
        # The text says nothing of a Leader left behind: logged for the players (Leaders [21.0]).
        self.g.emit("assault_advance", units=[u.id for u in live], to=self.g.label(target), leaders_left=left or None,
                    rule=self.rule, policy="assault-leaders-not-combatants" if left else None)

    def zero_step(self, u: "UnitState") -> bool:
        return u.steps == 0 or self.num(u, "steps") == 0

    def eliminate(self, us: list["UnitState"], cause: str, rule: str) -> None:
        rc = self.rc.model_copy(update={"rule": rule})
        results.apply(self.g, [u.id for u in us if u.on_map], "E", rc, cause=cause)

    def steps(self, units: list["UnitState"], defenders: list["UnitState"], src: Hex, target: Hex) -> str:
        g = self.g
        attackers = self.bravery(units, src)
        if not attackers:
            return "every Assaulting Unit failed its Bravery Check"
        # Step 3 — Opportunity Fire by the defenders (declared fire actions) [18.7 step 3].
        for shot in [x for x in (self.a.get("opportunity_fire") or []) if isinstance(x, dict)]:
            self._policy(self.c.opfire_policy)
            if str(shot.get("target")) not in [u.id for u in attackers]:
                continue  # only at the Assaulting Units
            shooter = g.unit(str(shot.get("unit")))
            if shooter.hex != target or shooter.side == attackers[0].side:
                continue  # the Units being assaulted fire, in-hex [18.7 step 3]
            if not self._opportunity_tq(shooter, shot):
                continue
            r = fire.fire(g, {**shot, "unit": shot.get("unit")}, self.fc, self.rc)
            if r.ok and r.data.get("result") == "S?":
                # fire logged S?; settle it for the Assault with a TQ check [19.2.1]
                t = g.unit(str(shot.get("target")))
                tq = self.rating(t, "tq")
                if tq is not None:
                    d, ok = self.tq_check(tq)
                    g.emit("assault_tq", unit=t.id, tq=tq, die=d, passed=ok, why="S?", rule="GTS 19.2.1")
                    if not ok:
                        results.apply(g, [t.id], "S", self.rc, cause="opportunity fire")
        attackers = [u for u in attackers if u.on_map and not self.suppressed(u)]
        # Step 4
        if not attackers:
            return "no Assaulting Units left"
        zero = [d for d in defenders if d.on_map and self.zero_step(d)]
        others = [d for d in defenders if d.on_map and not self.zero_step(d)]
        aside: list[UnitState] = []
        if zero and others and self.opt.get(OPT_ZERO_STEP):
            aside = zero  # set aside in Step 5; their fate follows the others' [Excl 18.8]
            self.aside = aside
            g.emit("zero_step_aside", units=[d.id for d in aside], rule=OPT_ZERO_STEP)
        elif zero:
            self.eliminate(zero, "zero-step unit in an Assault", "GTS 18.7")
        defenders = others
        try:
            if not defenders:
                self.advance(attackers, target)
                return "no defenders: the attackers advance"
            return self.round5(attackers, defenders, target)
        finally:
            if aside:
                if any(d.on_map for d in others):  # stood and survived, or ran away with them
                    g.emit("zero_step_survive", units=[d.id for d in aside], rule=OPT_ZERO_STEP)
                else:
                    self.eliminate(aside, "0-step unit surrenders", OPT_ZERO_STEP)

    def run_away(self, attackers: list["UnitState"], defenders: list["UnitState"], target: Hex) -> str:
        from play import rules
        from play.moves import enter_cost

        g = self.g
        dest_raw = self.a.get("run_to")
        dest = g.hex_of(dest_raw) if dest_raw else None
        bad = ""
        if dest is None:
            bad = "no 'run_to' hex given"
        elif dest.distance(target) != 1 or not g.hmap.contains(dest):
            bad = f"{g.label(dest)} is not an adjacent map hex"
        elif any(x.side != defenders[0].side for x in g.state.at(dest) if x.on_map):
            bad = f"{g.label(dest)} holds enemy Units"
        runners, stuck = [], []
        ent = _words(self.c.entrenchment_markers.value) + _words(self.c.ip_markers.value)
        over = self.overstacked_defence(target)
        for d in defenders:
            ma = self.raw(d, "ma")
            why = bad
            if not why and over:
                why = "in an overstacked hex [14.7]"
            if not why and self.suppressed(d):
                why = "Suppressed"
            elif not why and (ma is None or str(ma).lower() in _words(self.c.no_ma.value)):
                why = "no numerical movement allowance" if ma is not None else "movement allowance unknown"
            elif not why and barrage.at(g, target) == "heavy":
                why = "under a Heavy Barrage"
            elif not why and dest is not None:
                mclass = rules.movement_class(g.system, g.counters.get(d.id))
                cost, w, _r, _p = enter_cost(g.hmap, g.system, target, dest, mclass,
                                             column=self.c.column_marker in d.markers)
                if cost is None and "unknown" not in w:
                    why = w
            (stuck if why else runners).append((d, why))
        for d, _w in runners:
            d.markers[:] = [m for m in d.markers if m.lower() not in ent]  # IP/ENT lost on declaring [18.7 5A]
        self.run_away_fire([d for d, _ in runners], attackers, target)
        runners = [(d, w) for d, w in runners if d.on_map]
        if runners:
            runners += [(ldr, "") for ldr in self.leaders]  # Leaders stacked with them go along [18.7 5A]
            # A set-aside 0-step Unit shares the others' fate [Excl 18.8]: it runs with them
            # (policy zero-step-runs-along).
            runners += [(z, "") for z in self.aside if z.on_map]
        for d, _w in runners:
            d.hex = dest
            if not self.suppressed(d) and d not in self.leaders:
                d.markers.append(self.rc.suppressed_marker)  # no conversion [19.2.2]
        if runners:
            g.emit("assault_run_away", units=[d.id for d, _ in runners], to=g.label(dest), rule="GTS 18.7")
        for d, why in stuck:
            g.emit("assault_surrender", unit=d.id, why=why, rule="GTS 14.7, 18.7" if over else "GTS 18.7",
                   policy=OVERSTACK_RUN_POLICY if over else None)
        self.eliminate([d for d, _ in stuck], "cannot run away (surrenders)", "GTS 18.7")
        self.advance(attackers, target)
        return "the defenders ran away; the attackers advance"

    def overstacked_defence(self, target: Hex) -> bool:
        """"Overstacked Units may not retreat out of, or choose to run away from, an Assault"
        [14.7]; "Units that may not run away: [...] Units in an overstacked hex" and "If the
        decision is to run away and one or more defending Units cannot do so [...] those Units
        are eliminated" [18.7 5A]. Policy **overstacked-run-away-surrenders**: a run-away declared
        from an overstacked hex is played as 5A says, the Units surrender (the declaration is
        not refused). An unknown step count applies nothing (``overstack_unknown``)."""
        from play.gts import overstack

        p = overstack.problem(self.g, target)
        if p is None:
            return False
        if p.code != "overstack":
            self.g.emit("overstack_unknown", hex=self.g.label(target), message=p.message, rule=p.rule,
                        policy=p.policy, penalty="not applied: the step count is unknown (the run-away ban)")
            return False
        self._policy(OVERSTACK_RUN_POLICY)
        return True

    def run_away_fire(self, runners: list["UnitState"], attackers: list["UnitState"], target: Hex) -> None:
        """"The retreat is an Opportunity Fire chance for any eligible non-Assaulting Units —
        including Units that failed their Bravery Checks" with a Fire Zone on the defender's hex
        [18.7 5A]: the declared ``run_away_fire`` shots, resolved while the runners are still in
        the hex they leave [17.2] (policy assault-opfire-declared)."""
        g = self.g
        ids = {u.id for u in runners}
        for shot in [x for x in (self.a.get("run_away_fire") or []) if isinstance(x, dict)]:
            self._policy(self.c.opfire_policy)
            shooter = g.unit(str(shot.get("unit")))
            if str(shot.get("target")) not in ids or shooter in attackers or shooter.side == runners[0].side:
                g.emit("assault_stopped", message=f"run-away fire by {shooter.id} at {shot.get('target')} "
                       "is not allowed (a non-Assaulting Unit at a Unit running away)", rule="GTS 18.7")
                continue
            if not self.fire_zone_on(shooter, target):
                g.emit("assault_stopped", message=f"{shooter.id} projects no Fire Zone on {g.label(target)}",
                       rule="GTS 17.3")
                continue
            if not self._opportunity_tq(shooter, shot):
                continue
            fire.fire(g, dict(shot), self.fc, self.rc)

    def round5(self, attackers: list["UnitState"], defenders: list["UnitState"], target: Hex) -> str:
        g = self.g
        if str(self.a.get("defenders", "stand")).lower() in ("run", "run_away", "run away"):
            return self.run_away(attackers, defenders, target)
        rounds = 2 if str(self.a.get("continue", "false")).lower() in ("1", "true", "yes") else 1
        for n in (1, 2)[:rounds]:
            # 5B is declared again on the second pass (``mode2``; default: the first pass's choice)
            mode = str(self.a.get("mode2" if n == 2 and self.a.get("mode2") else "mode", "fire")).lower()
            g.emit("assault_round", round=n, mode=mode, rule="GTS 18.7")
            if mode == "charge":
                live = [d for d in defenders if d.on_map]
                best = max(live, key=lambda d: self.rating(d, "tq") if self.rating(d, "tq") is not None else -99)
                if str(self.a.get("charge_cp", "false")).lower() in ("1", "true", "yes"):
                    g.emit("assault_tq", unit=best.id, passed=True, command_point=True, why="charge", rule="GTS 18.7")
                else:
                    tq = self.rating(best, "tq")
                    if tq is None:
                        return self._stop("TQ of the defender unknown: declare 'tq' in values (or charge_cp)")
                    d, ok = self.tq_check(tq)
                    g.emit("assault_tq", unit=best.id, tq=tq, die=d, passed=ok, why="charge", rule="GTS 18.7")
                    if not ok:
                        self.eliminate(live, "surrenders to a charge", "GTS 18.7")
                        self.advance(attackers, target)
                        return "the charge broke the defenders; the attackers advance"
            # 5D the defender's Assault Fire
            self.assault_fire([d for d in defenders if d.on_map], [u for u in attackers if u.on_map], "5D", True)
            attackers = [u for u in attackers if u.on_map and not self.suppressed(u)]
            if not attackers:
                return "no unsuppressed attackers remain"
            if mode == "charge":
                return "the defenders held against the charge"
            # 5E the attacker's Assault Fire
            self.assault_fire(attackers, [d for d in defenders if d.on_map], "5E", False)
            if not any(d.on_map and d.hex == target for d in defenders):
                self.advance(attackers, target)
                return "the defenders are gone; the attackers advance"
            self.leave_column(attackers, "leave_column")
            self.leave_column(defenders, "defenders_leave_column")
        return "the attacker withdraws" if rounds == 1 else "two rounds fought; the Assault is over"

    def leave_column(self, units: list["UnitState"], key: str) -> None:
        """After 5E, Units still in Column may leave it for one Cohesion Hit [18.7 5E]: the ids
        listed in ``leave_column`` (attackers) / ``defenders_leave_column``."""
        wanted = {str(x) for x in (self.a.get(key) or [])}
        marker = self.c.column_marker
        for u in units:
            if u.id in wanted and u.on_map and marker in u.markers:
                u.markers.remove(marker)
                self.g.emit("assault_leave_column", unit=u.id, rule="GTS 18.7")
                results.cohesion_hit(self.g, u, self.rc, "leaving Column in an Assault", "GTS 18.7")

    def _stop(self, msg: str) -> str:
        self.g.emit("assault_stopped", message=msg, rule=self.rule)
        return msg


def assault(game: "PlayContext", action: dict[str, Any], cfg: "AssaultParams", fire_cfg: "FireParams",
            res_cfg: "ResultsParams") -> "ActionResult":
    return Assault(game, action, cfg, fire_cfg, res_cfg).run()
