"""GTS Opportunity Fire [17.0–17.8] and the post-landing Opportunity Fire of the Utah Beach
Overlay [Excl 4.2.3(b)], for test play.

Triggers [17.2] record *pending opportunities* in ``GtsState.opportunities``, one per
(eligible Non-Active unit, trigger hex):

- a successful ``move``: every hex of the path the stack LEAVES that is in the enemy unit's Fire
  Zone [17.2, 17.3 play note]; the 17.6 modifier is +2 when the hex entered is in any enemy Fire
  Zone (the firer's included), -1 when it is in none [17.6 #1, #2];
- ``column`` entered or left by spending MP [17.2] (leaving by a Cohesion Hit triggers nothing
  [17.2]): +2 [17.6, "also applies to … entering or exiting Column"];
- ``land_craft`` that lands passengers on a Beach hex in a German Fire Zone: one attack on one
  just-landed passenger, +2 [Excl 4.2.3(b)].

Eligible firers [17.4, 17.5]: enemy units on the map that can Direct Fire — not a printed "No"
Fire Rating, not a mortar (counter flag), not Suppressed (Suppressed units project no Fire Zone
[19.2.2]). Fire Zones [17.3] are computed with the moving units in the hex they leave (range 1
next to an enemy [15.5 2d]); artillery categories have a zone of at most three hexes [17.3].

``{do: opportunity_fire, unit, target, hex?, tq?, fire_rating?, line?, range?, modifiers?, armored?}``
resolves one: a Troop Quality Check first (d10, pass on ≤ TQ, 0 passes, 9 fails; no Command
Point [17.4]), then Direct Fire through play.gts.fire with the 17.6 modifier added, conducted
in the hex the target was in when it triggered the fire [17.2, 17.7]; artillery uses the
yellow Direct HE line [17.4]; a Company Bonus is refused [17.6 #4]. Results apply at once
[17.7]; a Suppression or elimination stops the target [17.7].

Named policies (where the text leaves the engine a choice):

- ``opportunity-fire-after-move``: the engine moves a stack in one action, so the Non-Active
  player resolves the opportunities just after it, in path order; a target stopped by a
  Suppression [17.7] is put back in the hex where it was fired on, and the later opportunities
  of that move against it lapse. Its spent MP are not refunded (its move is over).
- ``opportunity-fire-path-order``: resolving an opportunity of a move passes the earlier hexes
  of that move — their pending opportunities lapse (the Active unit went on past them [17.8]).
- ``opportunity-lapses-on-next-action``: pending opportunities lapse with the next action of
  any kind other than ``opportunity_fire`` and the queries (fire_zone, los) — the Non-Active
  player must announce before the Active player goes on [17.8].
- ``opportunity-stack-target-only``: in a moving stack only the chosen target is fired on and
  only it is stopped; the rest of the stack keeps its move [14.7, 17.8].
- ``declared-fire-value`` (from fire.py): TQ, FR, range or line the counter does not print are
  declared in the action.

Assault's Opportunity Fire (defenders [18.7 step 3], running away) is played inside
play/gts/assault.py from its declared list. Not played here: mounting/dismounting and entrenchments (not modelled), Engineer Actions, the Reinforcement-hex
exception [8.0] and pre-landing fire at the Landing Craft [Excl 4.2.3(a)] (the landing is one
action that removes the craft).
"""

from __future__ import annotations

import copy
import dataclasses
import weakref
from typing import TYPE_CHECKING, Any, Iterable

from model.hexes import Hex

from play.gts import fire as fire_mod
from play.gts.state import Opportunity, gts_state
from play.gts.params import gts_params
from play.procedure import Procedure
from play.result import result as _ok

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.gts.params import FireParams, OpportunityParams, ResultsParams
    from play.result import ActionResult
    from play.state import UnitState

def pending(game: "PlayContext") -> list[Opportunity]:
    """The pending opportunities (empty when none)."""
    return gts_state(game).opportunities


# --- who projects a Fire Zone, and which hexes --------------------------------------------


def _flags(game: "PlayContext", uid: str) -> set[str]:
    c = game.counters.get(uid)
    return {str(f) for f in (getattr(c, "flags", None) or [])} if c is not None else set()


def can_opportunity_fire(game: "PlayContext", u: "UnitState", cfg: "OpportunityParams") -> tuple[bool, str, str]:
    """(eligible, reason, rule case) for a Non-Active unit [17.4, 17.5, 19.2.2]."""
    if not u.on_map or u.hex is None:
        return False, f"{u.id} is not on the map", cfg.rule
    fr = fire_mod._value(game, u, cfg.fr_field)
    if str(fr).strip().lower() in [str(x).lower() for x in cfg.no_fire_ratings]:
        return False, f"{u.id} has a 'No' Fire Rating", cfg.no_fr_rule
    c = game.counters.get(u.id)
    mortar = cfg.mortar_flag
    if mortar in _flags(game, u.id) or (c is not None and c.category in cfg.mortar_categories):
        return False, f"{u.id} is a Mortar Unit: no Fire Zone", cfg.no_fr_rule
    if cfg.suppressed_marker in u.markers:
        return False, f"{u.id} is Suppressed: it projects no Fire Zone", cfg.suppressed_rule
    return True, "", cfg.rule


def zone_range(game: "PlayContext", u: "UnitState", fire_cfg: "FireParams", cfg: "OpportunityParams",
               foes: frozenset[Hex] | None = None) -> int:
    """The Fire Zone radius [17.3]: 1 next to an enemy [15.5 2d]; artillery 3 [17.3]; else the
    printed Fire Range (none printed = the default one hex [15.0]; unreadable = the default too,
    never an invented one). ``foes``: the hexes holding units of the other side, if known."""
    assert u.hex is not None
    if foes is None:
        foes = frozenset(x.hex for x in game.state.units.values()
                         if x.side != u.side and x.on_map and x.hex is not None)
    default = fire_cfg.default_range.value
    if any(n in foes for n in u.hex.neighbors()):
        return fire_cfg.adjacent_enemy_range.value
    from play.gts import barrage
    from play.gts.params import gts_params

    cap = barrage.fire_range_cap(game, u.hex, gts_params(game).barrage)
    if cap is not None:  # "or is in a hex with a barrage marker ... Fire Zone is limited to the hexes adjacent" [17.3]
        return cap
    c = game.counters.get(u.id)
    if c is not None and c.category in cfg.artillery_categories:
        return cfg.artillery_zone.value  # "Up to three hexes within their Line of Sight" [17.3]
    n = fire_mod._num(fire_mod._value(game, u, fire_cfg.range_field))
    return int(n) if n is not None else default


class _Zones:
    """Fire Zones of the enemy units of one side, cached per (hex, radius) for one trigger check."""

    def __init__(self, game: "PlayContext") -> None:
        self.game = game
        self.cache: dict[tuple[Hex, int], frozenset[Hex]] = {}

    def zone(self, u: "UnitState", rng: int) -> frozenset[Hex]:
        assert u.hex is not None
        key = (u.hex, rng)
        if key not in self.cache:
            if rng <= 1:
                # Adjacent hexes need no LOS trace (fire.fire checks LOS only beyond one hex).
                seen = {n for n in u.hex.neighbors() if self.game.hmap.contains(n)}
            else:
                seen = _engine(self.game).viewshed(u.hex, rng, **fire_mod.conditions(self.game))
            self.cache[key] = frozenset(h for h in seen if h.distance(u.hex) <= rng) | {u.hex}
        return self.cache[key]


_ENGINES: "weakref.WeakKeyDictionary[Any, Any]" = weakref.WeakKeyDictionary()


def _engine(game: "PlayContext") -> Any:
    """One LOS engine per game: building its arrays costs ~70 ms on the Utah map, so it is kept
    (the map does not change during test play; the engine rebuilds them when conditions change)."""
    from model.los_fast import FastLos

    fl = _ENGINES.get(game)
    if fl is None or fl.hmap is not game.hmap:
        fl = _ENGINES[game] = FastLos(game.hmap, game.system)
    return fl


def _zones_at(game: "PlayContext", movers: list["UnitState"], at: Hex, enemies: list["UnitState"],
              fire_cfg: "FireParams", cfg: "OpportunityParams", zones: _Zones) -> dict[str, frozenset[Hex]]:
    """Each enemy's Fire Zone with the movers standing in ``at`` (the hex they leave) [17.2]."""
    side, ids = movers[0].side, {m.id for m in movers}
    foes = frozenset([at] + [x.hex for x in game.state.units.values()
                             if x.side == side and x.on_map and x.hex is not None and x.id not in ids])
    saved = [(m, m.where, m.hex, m.box) for m in movers]
    for m in movers:
        m.where, m.hex, m.box = "hex", at, None
    try:
        return {e.id: zones.zone(e, zone_range(game, e, fire_cfg, cfg, foes)) for e in enemies}
    finally:
        for m, where, h, box in saved:
            m.where, m.hex, m.box = where, h, box


def enemy_zones_at(game: "PlayContext", unit_ids: list[str], at: Hex) -> list[str]:
    """The enemy units whose Fire Zone [17.3] holds ``at`` with these units standing there (the
    test of "move into an enemy Fire Zone" [7.1, 13.2])."""
    from play.gts.params import gts_params

    movers = [game.unit(u) for u in unit_ids]
    if not movers or not game.hmap.contains(at):
        return []
    p = gts_params(game)
    every = _enemies(game, movers[0].side, p.opportunity, eligible_only=False)
    zones = _zones_at(game, movers, at, every, p.fire, p.opportunity, _Zones(game))
    return [e for e, z in zones.items() if at in z]


def projects_zone(game: "PlayContext", u: "UnitState", cfg: "OpportunityParams") -> bool:
    """Whether the unit has a Fire Zone at all [17.3]: not a mortar, not Suppressed [19.2.2]."""
    ok, reason, _ = can_opportunity_fire(game, u, cfg)
    return ok or "'No' Fire Rating" in reason  # a "No" FR unit still has a range and LOS [17.3]


def _enemies(game: "PlayContext", side: str | None, cfg: "OpportunityParams", eligible_only: bool) -> list["UnitState"]:
    out = []
    for e in sorted(game.state.units.values(), key=lambda x: x.id):
        if e.side == side or e.side is None or not e.on_map or e.hex is None:
            continue
        if (can_opportunity_fire(game, e, cfg)[0] if eligible_only else projects_zone(game, e, cfg)):
            out.append(e)
    return out


# --- triggers -----------------------------------------------------------------------------


def _record(game: "PlayContext", entries: list[Opportunity], policy: str | None = None) -> None:
    """Number the new opportunities after the pending ones and log them as one event."""
    if not entries:
        return
    pend = pending(game)
    base = max((int(p.id) for p in pend), default=len(game.log))
    for i, e in enumerate(entries, 1):
        e.id = base + i
        pend.append(e)
    game.emit("opportunity", trigger=entries[0].trigger, targets=entries[0].targets, count=len(entries),
              firers=sorted({e.firer for e in entries}),
              hexes=list(dict.fromkeys(e.hex for e in entries)), rule=entries[0].rule, policy=policy)


def on_move(game: "PlayContext", unit_ids: list[str], path: list[str], fire_cfg: "FireParams",
            cfg: "OpportunityParams") -> None:
    """Opportunities from leaving each hex of ``path`` that lies in an enemy Fire Zone [17.2]."""
    movers = [game.unit(u) for u in unit_ids]
    if not movers:
        return
    hexes: list[Hex] = []
    for x in path:
        try:
            h = game.hex_of(x)
        except Exception:  # a box entry's off-map start: entering from a box leaves no map hex
            continue
        if game.hmap.contains(h):
            hexes.append(h)
    side = movers[0].side
    every = _enemies(game, side, cfg, eligible_only=False)
    able = {e.id for e in _enemies(game, side, cfg, eligible_only=True)}
    zones = _Zones(game)
    group = len(game.log)
    entries: list[Opportunity] = []
    for i in range(len(hexes) - 1):
        left, entered = hexes[i], hexes[i + 1]
        here = _zones_at(game, movers, left, every, fire_cfg, cfg, zones)
        there = _zones_at(game, movers, entered, every, fire_cfg, cfg, zones)
        into_zone = any(entered in z for z in there.values())
        mod = cfg.into_zone if into_zone else cfg.out_of_zone
        for e in every:
            if e.id in able and left in here[e.id]:
                entries.append(Opportunity(id=0, trigger="move", group=group, step=i, firer=e.id,
                                           targets=[m.id for m in movers], hex=str(game.label(left)),
                                           to=game.label(entered), modifier=mod.value,
                                           modifier_rule=mod.rule, rule=cfg.trigger_rule))
    _record(game, entries, cfg.after_move_policy)


def on_action_in_hex(game: "PlayContext", trigger: str, unit_ids: list[str], fire_cfg: "FireParams",
                     cfg: "OpportunityParams", rule: str, once: bool = False) -> None:
    """Opportunities from an Action done in the units' hex (Column, a landing) [17.2, Excl 4.2.3(b)]."""
    movers = [game.unit(u) for u in unit_ids if game.unit(u).on_map and game.unit(u).hex is not None]
    if not movers:
        return
    at = movers[0].hex
    assert at is not None
    able = _enemies(game, movers[0].side, cfg, eligible_only=True)
    zones = _zones_at(game, movers, at, able, fire_cfg, cfg, _Zones(game))
    mod = cfg.into_zone
    group = len(game.log)
    _record(game, [Opportunity(id=0, trigger=trigger, group=group, step=0, firer=e.id, targets=[m.id for m in movers],
                               hex=str(game.label(at)), to=None, modifier=mod.value,
                               modifier_rule=mod.rule, rule=rule, once=once or None)
                   for e in able if at in zones[e.id]])


def expire(game: "PlayContext", cfg: "OpportunityParams", reason: str) -> None:
    pend = pending(game)
    if pend:
        game.emit("opportunity_expired", count=len(pend), reason=reason, rule=cfg.procedure_rule,
                  policy=cfg.lapse_policy)
        pend.clear()


# --- resolving one ------------------------------------------------------------------------


def _tq_check(game: "PlayContext", u: "UnitState", action: dict[str, Any], cfg: "OpportunityParams") -> tuple[bool | None, dict[str, Any]]:
    """(passed, event data); passed None when the TQ is unknown and not declared."""
    raw = fire_mod._num(fire_mod._value(game, u, cfg.tq_field))
    policy = None
    if raw is None:
        raw = fire_mod._num(action.get("tq"))
        if raw is None:
            return None, {}
        policy = str(cfg.declared_policy)
    d = game.dice.roll(1, 10)[0] % 10  # faces 1..10, the 10 reads 0
    always_pass, always_fail = cfg.tq_always_pass.value, cfg.tq_always_fail.value
    passed = d == always_pass or (d != always_fail and d <= raw)
    return passed, {"die": d, "tq": int(raw), "passed": passed, "policy": policy}


def opportunity_fire(game: "PlayContext", action: dict[str, Any], cfg: "OpportunityParams", fire_cfg: "FireParams",
                     res_cfg: "ResultsParams") -> "ActionResult":
    rule = cfg.procedure_rule
    firer = game.unit(str(action.get("unit")))
    target = game.unit(str(action.get("target")))
    want_hex = str(action["hex"]) if action.get("hex") is not None else None
    if want_hex is not None:
        want_hex = game.label(game.hex_of(want_hex))
    pend = pending(game)
    mine = [p for p in pend if p.firer == firer.id and target.id in p.targets
            and (want_hex is None or p.hex == want_hex)]
    if not mine:
        where = f" at {want_hex}" if want_hex else ""
        return _ok(False, f"no pending Opportunity Fire for {firer.id} at {target.id}{where}: it must leave (or act "
                          "in) a hex in that unit's Fire Zone first", cfg.trigger_rule)
    entry = mine[0]
    ok, reason, why = can_opportunity_fire(game, firer, cfg)
    if not ok:
        return _ok(False, reason, why)
    if any(str(k).replace(" ", "_").lower() in ("company_bonus", "company") for k in (action.get("modifiers") or {})):
        return _ok(False, "no Company Bonus for Opportunity Fire", cfg.company_rule)
    if not target.on_map or target.hex is None:
        return _ok(False, f"{target.id} is no longer on the map", rule)
    # Roll back everything (state, dice, log) if the fire itself is refused below.
    saved = (copy.deepcopy(game.state), game.dice.get_state(), len(game.log))

    def rollback(r: "ActionResult") -> "ActionResult":
        game.state, log_len = saved[0], saved[2]
        game.dice.set_state(saved[1])
        del game.log[log_len:]
        return r

    pend = pending(game)
    # Path order: the earlier hexes of the same move are passed [policy opportunity-fire-path-order].
    passed = [p for p in pend if p.group == entry.group and p.step < entry.step]
    for p in passed:
        pend.remove(p)
    pend.remove(next(p for p in pend if p.id == entry.id))
    if entry.once:  # one attack on one just-landed unit [Excl 4.2.3(b)]
        pend[:] = [p for p in pend if p.group != entry.group]
    ok_tq, tq_ev = _tq_check(game, firer, action, cfg)
    if ok_tq is None:
        return rollback(_ok(False, f"{firer.id}'s Troop Quality is unknown in the counter data; declare one with 'tq'",
                            cfg.tq_rule))
    if passed:
        tq_ev["policy"] = "; ".join(x for x in (tq_ev.get("policy"), cfg.path_order_policy) if x)
    game.emit("opportunity_tq", unit=firer.id, target=target.id, hex=entry.hex, passed_by=len(passed) or None,
              rule=cfg.tq_rule, **tq_ev)
    if not ok_tq:
        return _ok(True, f"{firer.id} failed its Troop Quality Check (d10 {tq_ev['die']} vs TQ {tq_ev['tq']}): "
                         "no Opportunity Fire", cfg.tq_rule, tq_ev.get("policy"),
                   **{k: v for k, v in tq_ev.items() if k != "policy"})
    # Fire from the hex the target was in when it triggered the fire [17.2, 17.7].
    at = game.hex_of(entry.hex)
    now = target.hex
    target.hex = at
    mods = {str(k): v for k, v in (action.get("modifiers") or {}).items()}
    mods[f"opportunity ({entry.modifier_rule or 'GTS 17.6'})"] = entry.modifier
    c = game.counters.get(firer.id)
    line = action.get("line")
    policy = cfg.after_move_policy
    if c is not None and c.category in cfg.artillery_categories:
        line = cfg.artillery_line.value  # Direct HE when an artillery unit Opportunity Fires [17.4]
    fired = fire_mod.fire(game, {**action, "target": target.id, "line": line, "modifiers": mods},
                          fire_cfg.model_copy(update={"rule": entry.rule if entry.trigger == "landing" else cfg.rule}),
                          res_cfg)
    if not fired.ok:
        return rollback(fired)
    stopped = None
    if target.on_map and target.hex is not None:
        sup = res_cfg.suppressed_marker
        if fired.data.get("result") == "S" and sup in target.markers and entry.trigger == "move":
            stopped = entry.hex  # a Suppression stops the move in the hex being left [17.7]
            for p in [p for p in pend if p.group == entry.group and p.step > entry.step]:
                p.targets = [t for t in p.targets if t != target.id]
            pend[:] = [p for p in pend if p.targets]
        else:
            target.hex = now
    elif not target.on_map:
        pend[:] = [dataclasses.replace(p, targets=[t for t in p.targets if t != target.id]) for p in pend]
        pend[:] = [p for p in pend if p.targets]
    game.emit("opportunity_fire", unit=firer.id, target=target.id, hex=entry.hex, modifier=entry.modifier,
              result=fired.data.get("result"), stopped=stopped, rule=cfg.effects_rule,
              policy=policy if stopped else None)
    msg = f"Opportunity Fire ({entry.modifier:+d}) in {entry.hex}: {fired.message}"
    if stopped:
        msg += f"; {target.id} is stopped in {stopped}"
    return _ok(True, msg, fired.rule, fired.policy, stopped=stopped, **{k: v for k, v in fired.data.items()})


# --- the procedure ------------------------------------------------------------------------


QUERIES = ("opportunity_fire", "fire_zone", "los", "second_action")  # a Second Action declared is not an Action yet [10.0.2]


class OpportunityFire(Procedure):
    """Records opportunities after the trigger actions and offers ``opportunity_fire`` [17.0]."""

    plays = frozenset({"activation"})  # during the Activation Phase [GTS 4.0 H, 17.0]

    def __init__(self, game: "PlayContext") -> None:
        p = gts_params(game)
        self.cfg, self.fire, self.results = p.opportunity, p.fire, p.results
        self._log_len = 0
        self.actions = {"opportunity_fire": lambda g, a: opportunity_fire(g, a, self.cfg, self.fire, self.results)}

    def before(self, game: "PlayContext", action: dict[str, Any]) -> "ActionResult | None":
        self._log_len = len(game.log)
        return None

    def after(self, game: "PlayContext", action: dict[str, Any], result: "ActionResult") -> None:
        do = str(action.get("do"))
        if do in QUERIES or not result.ok:
            return
        expire(game, self.cfg, f"next action: {do}")
        events = game.log[self._log_len:]
        if do == "move":
            ids = [str(u) for u in (action.get("units") or [action.get("unit")]) if u is not None]
            on_move(game, ids, [str(x) for x in result.data.get("path") or []], self.fire, self.cfg)
        elif do == "column":
            for ev in _of(events, "column"):
                if not ev.get("cohesion_hit"):  # leaving Column by a Cohesion Hit triggers nothing [17.2]
                    on_action_in_hex(game, "column", list(ev["units"]), self.fire, self.cfg,
                                     self.cfg.trigger_rule)
        for ev in _of(events, "landing"):
            landed = [p for p in ev.get("passengers") or [] if game.unit(p).on_map]
            if landed:
                # One attack on one just-landed passenger [Excl 4.2.3(b)]: the passengers are the
                # target choices of one opportunity group, spent by the first shot.
                on_action_in_hex(game, "landing", landed, self.fire, self.cfg,
                                 self.cfg.landing_rule, once=True)


def _of(events: Iterable[dict[str, Any]], type_: str) -> list[dict[str, Any]]:
    return [e for e in events if e.get("type") == type_]
