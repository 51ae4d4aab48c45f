"""GTS Indirect Fire for land artillery and mortars [GTS 16.0–16.7], for test play.

- ``{do: indirect_fire, unit, target? | hex?, spotter?, line?, fire_rating?, range?, modifiers?,
  counter_battery?}``: one Indirect Fire mission [16.5] on the bundle CRT (crt.py). The Weapons
  Class comes from the Fire Rating colour [16.1] (``classes`` in the data: green Mortar, orange
  Indirect HE, black Emplaced, brown Organic); non-mortars fire indirectly only at 4+ hexes
  (nearer: ``fire``, the Direct Fire procedure [16.5]). Self-spotted when the firer has LOS
  (Park units may not self-spot [16.2.3]; an Emplaced unit that self-spots loses contact
  [16.3.1]); otherwise the named ``spotter`` must be unsuppressed, In Command, not in a Park,
  with LOS to the target, and of the firer's Formation (mortar/organic) or of the Formation
  whose Leader holds the firer's In Contact marker (orange/black; orange must be in a Park)
  [16.4, 16.5 steps 1–6]. No range modifiers [16.5 step 7]. A 9 breaks contact and places no
  barrage [16.5, 16.3.1]. After the result: 16.6.1 S? on the other units in the target hex
  (not for mortars), a Barrage marker (barrage.place) [16.6.2.1]; a Park unit firing flips its
  Park to Fired [16.7]. ``hex`` without ``target`` fires at an empty hex only to place a marker.
- ``counter_battery: true``: the target is a unit in an enemy Park on its Fired side; the firer
  must be in a Park and in contact; no spotter; Fire Rating −2; a result on the target gives S?
  to every unit of that Park [16.7].
- ``{do: artillery_park, units, park?}`` creates a Park in the units' hex (1 Dispatch Point of
  their Division) or adds them to the Division's Park there [16.2.1–16.2.2]; ``{do:
  disband_park, park}`` [16.2.4] (contacts lost [16.3.1]).
- ``{do: contact, unit, leader, contact_value?}``: a d10 ≤ the Contact number (−3 for another
  Division's Leader) puts the In Contact marker on the Leader [16.3]; ``{do: drop_contact, unit}``.

State (``GtsState.indirect``, play/gts/state.py): parks, contacts, attempts. Named
policies (data ``gts-utah: indirect:``): Step E actions only in Step E (the step's ``allows:``,
play/gts/action_kinds.yaml) [GTS 4.0 E]; In Command
unless marked; values the counters do not print are declared (``declared-fire-value``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from model.hexes import Hex
from play.gts import barrage, results
from play.gts import crt as crt_mod
from play.gts.fire import RECIPROCAL_POLICY, _num, _value, blocked_sight, conditions, fire_range, sight
from play.gts.state import IndirectState, Park, gts_state
from play.result import result as _ok

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.gts.params import BarrageParams, FireParams, IndirectParams, ResultsParams
    from play.result import ActionResult
    from play.state import UnitState


def state(game: "PlayContext") -> IndirectState:
    return gts_state(game).indirect


def weapons_class(game: "PlayContext", u: "UnitState", cfg: "IndirectParams", line: Any = None) -> tuple[str | None, str]:
    """(class, line) from the declared line or the counter's Fire Rating colour [16.1]."""
    colour = str(line or _value(game, u, "fr_colour") or "")
    return cfg.classes.value.get(colour), colour


def park_of(game: "PlayContext", uid: str) -> str | None:
    return next((pid for pid, p in state(game).parks.items() if uid in p.units), None)


def _counter(game: "PlayContext", uid: str) -> Any:
    return game.counters.get(uid)


def _div(game: "PlayContext", uid: str) -> str | None:
    c = _counter(game, uid)
    return getattr(c, "division", None) if c is not None else None


def _formation(game: "PlayContext", uid: str) -> str | None:
    c = _counter(game, uid)
    return getattr(c, "formation", None) if c is not None else None


def in_command(game: "PlayContext", u: "UnitState", cfg: "IndirectParams") -> bool:
    """A Park unit is always In Command [16.2]; else play/gts/command.py decides [21.4] (policy
    ``in-command-unless-marked`` when the Command Range is unknown)."""
    from play.gts.command import is_in_command

    return park_of(game, u.id) is not None or is_in_command(game, u)[0]


def lose_contact(game: "PlayContext", uid: str, why: str, rule: str | None) -> None:
    st = state(game)
    leader = st.contacts.pop(uid, None)
    if leader is not None:
        game.emit("contact_lost", unit=uid, leader=leader, why=why, rule=rule)


def _los(game: "PlayContext", a: Hex, b: Hex, purpose: str = "direct") -> bool:
    """LOS with the turn's conditions; barraged hexes block like Blocking Terrain [GTS 16.6.2.2];
    ``purpose="spot"`` lets an OP count for spotting for others [15.4.2]."""
    from model.los import line_of_sight

    return a == b or line_of_sight(game.hmap, game.system, a, b, barrage=barrage.hexes(game), purpose=purpose,
                                   **conditions(game)).visible


def _suppressed(u: "UnitState", res_cfg: "ResultsParams") -> bool:
    return res_cfg.suppressed_marker in u.markers


def _spotter_ok(game: "PlayContext", u: "UnitState", s: "UnitState", cls: str, th: Hex, cfg: "IndirectParams",
                res_cfg: "ResultsParams") -> str | None:
    """Why ``s`` cannot spot for ``u`` (None: it can) [16.4, 16.5 steps 2–6]."""

    if s.side != u.side or not s.on_map or s.hex is None:
        return f"{s.id} is not a friendly unit on the map"
    from play.gts import command

    if command.in_entry_hex(game, s):  # same reading as 21.4: policy reinforcement-entry-arrival-turn
        return f"{s.id} is in a reinforcement entry hex: it may not act as a spotter [16.4]"
    if _suppressed(s, res_cfg) or not in_command(game, s, cfg):
        return f"the spotter must be Unsuppressed and In Command; {s.id} is not"
    if park_of(game, s.id) is not None:
        return f"{s.id} is in an Artillery Park: Park units may not spot [16.2.3]"
    if not _los(game, s.hex, th, "spot"):
        why = blocked_sight(game, s.hex, th, purpose="spot").reason  # names the deciding case
        return f"the spotter {s.id} has no line of sight to {game.label(th)}: {why}"
    sf, independent = _formation(game, s.id), _formation(game, s.id) is None
    if cls in ("mortar", "organic"):
        own = _formation(game, u.id)
        if sf == own or (independent and _div(game, s.id) == _div(game, u.id)):
            return None
        return f"a Mortar/Organic spotter must be of {u.id}'s Formation ({own})"
    leader = state(game).contacts.get(u.id)
    if leader is None:
        return f"{u.id} is in contact with no Leader: no spotter Formation [16.4]"
    lf = getattr(_counter(game, leader), "leader_of", None)
    if sf == lf or (independent and _div(game, s.id) == _div(game, u.id)):
        return None
    return f"{s.id} is not of {lf}, the Formation in contact with {u.id}"


def _fire_range(game: "PlayContext", u: "UnitState", fire_cfg: "FireParams", declared: Any) -> tuple[int | None, str | None]:
    """fire.fire_range, except that a counter without a range field takes the declared one
    (policy ``declared-fire-value``) instead of the default; an adjacent enemy still cuts it
    to one hex [16.5 step 1]."""
    d = _num(declared)
    if _value(game, u, fire_cfg.range_field) is None and d is not None:
        from play.gts.params import cite

        near, _ = fire_range(game, u, fire_cfg.model_copy(update={"default_range": cite(int(d))}), barraged=False)
        return min(near, int(d)), str(fire_cfg.declared_policy)
    return fire_range(game, u, fire_cfg, declared, barraged=False)  # the barrage cap is applied below [16.6.2.2]


def indirect_fire(game: "PlayContext", action: dict[str, Any], cfg: "IndirectParams", fire_cfg: "FireParams",
                  res_cfg: "ResultsParams", bar_cfg: "BarrageParams") -> "ActionResult":
    rule = cfg.rule
    table = crt_mod.crt_for(game)
    if table is None:
        return _ok(False, "combat not available: the rules provided have no CRT (GTS)", policy="no-crt-no-combat")
    u = game.unit(str(action.get("unit")))
    if not u.on_map or u.hex is None:
        return _ok(False, f"{u.id} is not on the map", rule)
    cls, line = weapons_class(game, u, cfg, action.get("line"))
    if cls is None:
        return _ok(False, f"{u.id} fires on the {line or 'unknown'!r} line: not an Indirect Fire Weapons Class "
                          f"(green, orange, black, brown); declare 'line' or use 'fire'", str(cfg.class_rule))
    if line not in table["lines"]:
        return _ok(False, f"the CRT has no {line!r} line ({', '.join(table['lines'])})", rule)
    t = game.unit(str(action["target"])) if action.get("target") is not None else None
    if t is not None and (not t.on_map or t.hex is None or t.side == u.side):
        return _ok(False, "the target must be an enemy unit on the map", rule)
    if t is None and action.get("hex") is None:
        return _ok(False, "give a 'target' unit or an empty target 'hex'", rule)
    th: Hex = t.hex if t is not None else game.hex_of(action.get("hex"))  # type: ignore[assignment]
    if t is None and any(x.side != u.side for x in game.state.at(th)):
        return _ok(False, f"{game.label(th)} holds enemy units: name the 'target'", rule)
    policies: list[str] = []
    dist = u.hex.distance(th)
    minimum = cfg.min_range.value
    if cls != "mortar" and dist < minimum:
        return _ok(False, f"{game.label(th)} is {dist} hexes away: {line} fire at {minimum - 1} or fewer hexes "
                          f"uses the Direct Fire procedure (fire)", str(cfg.class_rule))
    st = state(game)
    my_park = park_of(game, u.id)
    cb = str(action.get("counter_battery", "false")).lower() in ("1", "true", "yes")
    cb_rule = cfg.counter_battery_rule
    target_park = park_of(game, t.id) if t is not None else None
    if cb:
        if t is None or target_park is None or not st.parks[target_park].fired:
            return _ok(False, "counter-battery fire needs a target unit in an enemy Artillery Park on its Fired side",
                       cb_rule)
        if my_park is None:
            return _ok(False, f"{u.id} is not in an Artillery Park: only Park units fire counter-battery", cb_rule)
        leader = st.contacts.get(u.id)
        active = action.get("formation")
        if leader is None or (active is not None and getattr(_counter(game, leader), "leader_of", None) != active):
            return _ok(False, f"{u.id} must be in contact with the active Formation", cb_rule)
        if active is None:
            policies.append(str(cfg.active_formation_policy))
    # Fire Range [16.5 step 1]: adjacent enemy -> 1; barrage in the firer's hex -> 1, except a Park
    # unit or an Emplaced unit firing spotted [16.6.2.2, 15.4].
    rng, pol = _fire_range(game, u, fire_cfg, action.get("range"))
    if pol:
        policies.append(pol)
    if rng is None:
        return _ok(False, f"{u.id}'s Fire Range is unknown in the counter data; declare one with 'range'", rule)
    sees, recip = sight(game, u.hex, th)
    self_spot = sees and my_park is None and not cb
    if not self_spot:
        recip = None
    spotter = None
    if not self_spot and not cb:
        if action.get("spotter") is None:
            why = ("Park units may not self-spot [16.2.3]" if my_park else
                   f"no line of sight to {game.label(th)} ({blocked_sight(game, u.hex, th).reason})")
            return _ok(False, f"{u.id}: {why}; name a 'spotter'", rule)
        if not in_command(game, u, cfg):
            return _ok(False, f"{u.id} is Out of Command: it may not use spotters", rule)
        if cls == "indirect_he" and my_park is None:
            return _ok(False, f"{u.id} must be in an Artillery Park to use spotted Indirect Fire",
                       cfg.park_rule)
        spotter = game.unit(str(action.get("spotter")))
        why = _spotter_ok(game, u, spotter, cls, th, cfg, res_cfg)
        if why:
            return _ok(False, why, rule)
        assert spotter.hex is not None
        recip = sight(game, spotter.hex, th, purpose="spot")[1]
    exempt = (cls == "emplaced" or my_park is not None) and not self_spot
    if barrage.at(game, u.hex) and not exempt:
        rng = min(rng, bar_cfg.fire_range.value)
    if dist > rng:
        return _ok(False, f"{game.label(th)} is {dist} hexes away, beyond Fire Range {rng}", rule)
    fr = _num(_value(game, u, fire_cfg.fr_field))
    if fr is None:
        fr = _num(action.get("fire_rating"))
        if fr is None:
            return _ok(False, f"{u.id}'s Fire Rating is unknown in the counter data; declare one with 'fire_rating'",
                       rule)
        policies.append(str(fire_cfg.declared_policy))
    mods = {str(k): int(str(v)) for k, v in (action.get("modifiers") or {}).items() if str(k) != "range"}
    placed_fr = int(fr) + sum(mods.values())  # printed FR + Company Bonus/unit markers [16.6.2.1]
    bmod = barrage.fire_modifier(game, u.hex, bar_cfg)
    if bmod:
        mods["barrage"] = bmod
    if cb:
        mods["counter_battery"] = cfg.counter_battery_modifier.value
    armored = bool(t is not None and (c := game.counters.get(t.id)) is not None
                   and c.category in fire_cfg.armored_categories)
    r = crt_mod.roll(game, table, line, armored, int(fr) + sum(mods.values()))
    policy = "; ".join(dict.fromkeys(p for p in policies if p and p != "None")) or None
    game.emit("indirect_fire", unit=u.id, target=t.id if t else None, hex=game.label(th), weapons_class=cls,
              spotter=spotter.id if spotter else None, self_spotted=self_spot or None, counter_battery=cb or None,
              modifiers=mods or None, rule=cb_rule if cb else rule, policy=policy, **r.event())
    if my_park is not None and not st.parks[my_park].fired:
        st.parks[my_park].fired = True
        game.emit("park_fired", park=my_park, rule=cb_rule)
    contact_rule = cfg.contact_rule
    if r.die == bar_cfg.no_barrage_roll.value:
        lose_contact(game, u.id, "a 9 was rolled on the fire mission", contact_rule)
        return _ok(True, f"{u.id} rolled 9: no Indirect Fire, contact lost", cb_rule if cb else rule, policy,
                   **r.event())
    if cls == "emplaced" and self_spot:
        lose_contact(game, u.id, "an Emplaced Artillery unit self-spotted", contact_rule)
    if t is not None and r.result and recip:
        # seen only because the Hill sees back: "the Barrage would be the same as firing on an
        # empty hex, no damage will be caused to the Unit occupying the Hill" [Excl 2.1.10]
        game.emit("no_damage", unit=u.id, target=t.id, hex=game.label(th), result=r.result, rule=recip,
                  policy=RECIPROCAL_POLICY, message="a reciprocal Hill sight: the Barrage only, no damage")
    elif t is not None and r.result:
        others = [x.id for x in game.state.at(th) if x.id != t.id]
        _apply(game, [t.id], r.result, res_cfg, cfg)
        spread: list[str] = []
        if r.result != "S?":
            if cb and target_park is not None:
                park = st.parks.get(target_park)
                spread = [x for x in (park.units if park is not None else []) if x != t.id]
            elif cls != "mortar":
                spread = others
        if spread:
            game.emit("stack_effect", target=t.id, units=spread, result="S?",
                      rule=cb_rule if cb else str(cfg.stack_rule))
            _apply(game, spread, "S?", res_cfg, cfg)
        elif r.result == "S?" and others and cls != "mortar":
            game.emit("stack_effect", target=t.id, units=[], result=None, rule=str(cfg.stack_rule),
                      policy=str(cfg.stack_tq_policy))
    placed = barrage.place(game, th, placed_fr, r.die, bar_cfg, by=u.id, rule=str(bar_cfg.rule))
    return _ok(True, f"{u.id} Indirect Fire at {t.id if t else game.label(th)}: {r.text()}"
                     f"{f'; {placed} barrage' if placed else ''}", cb_rule if cb else rule, policy,
               **r.event(), barrage=placed)


def _apply(game: "PlayContext", uids: list[str], result: str, res_cfg: "ResultsParams", cfg: "IndirectParams") -> None:
    results.apply(game, uids, result, res_cfg, cause="indirect_fire")
    if result in cfg.effective_results.value:
        for uid in uids:  # effective fire breaks the artillery unit's contact [16.3.1]
            lose_contact(game, uid, f"took effective fire ({result})", cfg.contact_rule)


def artillery_park(game: "PlayContext", action: dict[str, Any], cfg: "IndirectParams") -> "ActionResult":
    from play.gts.activation import _st as act_state

    rule = cfg.park_rule
    ids = [str(x) for x in action.get("units") or [action.get("unit")] if x is not None]
    if not ids:
        return _ok(False, "name the 'units'", rule)
    units = [game.unit(x) for x in ids]
    hexes = {x.hex for x in units}
    if any(not x.on_map for x in units) or len(hexes) != 1:
        return _ok(False, "the units must be on the map in one hex", rule)
    divs = {_div(game, x) for x in ids}
    if len(divs) != 1 or None in divs:
        return _ok(False, "Park units must be of one Division", rule)
    div = str(divs.pop())  # one Division, not None (checked above)
    for x in units:
        if weapons_class(game, x, cfg, action.get("line"))[0] != "indirect_he":
            return _ok(False, f"{x.id}: only Orange Fire Rating (Indirect HE) units enter an Artillery Park", rule)
        if park_of(game, x.id):
            return _ok(False, f"{x.id} is already in an Artillery Park", rule)
    st = state(game)
    h = units[0].hex
    label = str(game.label(h))
    here = [pid for pid, p in st.parks.items() if p.hex == label]
    own = [pid for pid in here if st.parks[pid].division == div]
    if own:
        st.parks[own[0]].units.extend(ids)
        game.emit("park_joined", park=own[0], units=ids, hex=label, rule=str(cfg.park_join_rule))
        return _ok(True, f"{', '.join(ids)} join {own[0]}", str(cfg.park_join_rule))
    if here:
        return _ok(False, f"{label} already holds an Artillery Park: one per hex", rule)
    cost = cfg.park_cost.value
    pts = act_state(game).points.get(div)
    have = pts.dispatch if pts is not None else 0
    if pts is None or have < cost:
        return _ok(False, f"{div} has {have} Dispatch Points; a Park costs {cost} "
                          f"(declare points with set_points)", rule)
    pts.dispatch -= cost
    pid = str(action.get("park") or f"park-{st.next_park}")
    st.next_park += 1
    st.parks[pid] = Park(hex=label, division=div, units=ids, fired=False, side=units[0].side)
    game.emit("park_created", park=pid, hex=label, division=div, units=ids, dp=cost, rule=rule,
              policy=cfg.step_e_policy)
    return _ok(True, f"Artillery Park {pid} in {label} ({div}, {cost} DP)", rule, park=pid)


def disband_park(game: "PlayContext", action: dict[str, Any], cfg: "IndirectParams", why: str = "disbanded") -> "ActionResult":
    rule = cfg.disband_rule
    st = state(game)
    pid = str(action.get("park"))
    p = st.parks.pop(pid, None)
    if p is None:
        return _ok(False, f"no Artillery Park {pid!r}", rule)
    game.emit("park_disbanded", park=pid, hex=p.hex, units=p.units, why=why, rule=rule)
    for uid in p.units:
        lose_contact(game, uid, "its Artillery Park was disbanded", cfg.contact_rule)
    return _ok(True, f"Artillery Park {pid} disbanded", rule)


def contact(game: "PlayContext", action: dict[str, Any], cfg: "IndirectParams", res_cfg: "ResultsParams") -> "ActionResult":
    rule = cfg.contact_attempt_rule
    u = game.unit(str(action.get("unit")))
    leader = str(action.get("leader"))
    lc = _counter(game, leader)
    if lc is None or not getattr(lc, "leader_of", None) or lc.side != u.side:
        return _ok(False, f"{leader} is not a friendly Formation Leader", rule)
    cls = weapons_class(game, u, cfg, action.get("line"))[0]
    if cls not in ("indirect_he", "emplaced"):
        return _ok(False, f"{u.id}: only Orange and Black Fire Rating units make contact (Mortar/Organic "
                          f"contact is automatic [16.4])", rule)
    if _suppressed(u, res_cfg):
        return _ok(False, f"{u.id} is Suppressed", rule)
    if cls == "indirect_he" and park_of(game, u.id) is None:
        return _ok(False, f"{u.id} must be in an Artillery Park to attempt contact", rule)
    st = state(game)
    turn = game.state.turn
    if st.tried.get(u.id) == turn or st.blocked.get(u.id, -1) >= turn:
        return _ok(False, f"{u.id} cannot attempt contact again until next turn", rule)
    current = st.contacts.get(u.id)
    if current == leader:
        return _ok(False, f"{u.id} is already in contact with {leader}", rule)
    field = "contact_in" if current else "contact_pending"  # the marker's visible side [16.3.2]
    policies: list[str] = []
    value = _num(_value(game, u, field))
    if value is None:
        value = _num(action.get("contact_value"))
        if value is None:
            return _ok(False, f"{u.id}'s {field.replace('_', ' ')} number is not in the counter data; "
                              f"declare one with 'contact_value'", rule)
        policies.append(cfg.declared_policy)
    mod = cfg.other_division_modifier.value if _div(game, leader) != _div(game, u.id) else 0
    d = game.dice.roll(1, 10)[0] % 10
    st.tried[u.id] = turn
    ok = d <= int(value) + mod
    if cfg.step_e_policy:
        policies.append(cfg.step_e_policy)
    policy = "; ".join(p for p in policies if p and p != "None") or None
    game.emit("contact", unit=u.id, leader=leader, die=d, need=int(value) + mod, success=ok, was=current,
              rule=rule, policy=policy)
    if ok:
        st.contacts[u.id] = leader
    return _ok(True, f"{u.id} → {leader}: rolled {d} vs {int(value) + mod}: {'In Contact' if ok else 'failed'}",
               rule, policy, success=ok)


def drop_contact(game: "PlayContext", action: dict[str, Any], cfg: "IndirectParams") -> "ActionResult":
    rule = cfg.contact_rule
    uid = str(action.get("unit"))
    if uid not in state(game).contacts:
        return _ok(False, f"{uid} is in contact with no Leader", rule)
    lose_contact(game, uid, "the Leader gave up contact", rule)
    state(game).blocked[uid] = game.state.turn
    return _ok(True, f"{uid}: contact given up; no new contact until next turn", rule)


def before_move(game: "PlayContext", action: dict[str, Any]) -> "ActionResult | None":
    """A Park unit may not move until its Park is disbanded [16.2.3] (a refusal)."""
    ids = [str(x) for x in action.get("units") or [action.get("unit")] if x is not None]
    moving = next((x for x in ids if park_of(game, x) is not None), None)
    if moving is None:
        return None
    return _ok(False, f"{moving} is in Artillery Park {park_of(game, moving)}: it may not move until the Park "
                      f"is disbanded", "GTS 16.2.3")


def after_direct_fire(game: "PlayContext", action: dict[str, Any], result: "ActionResult", cfg: "IndirectParams") -> None:
    """After a Direct Fire (``fire``/``attack``): a Park holding the target is disbanded — the text
    disbands it when the fire is announced, before resolution; the order changes nothing in test
    play, and a refused fire leaves the Park [16.2.5] — and effective fire breaks the target's
    contact [16.3.1]."""
    if action.get("do") not in ("fire", "attack") or not result.ok:
        return
    fired = next((e for e in reversed(game.log) if e.get("type") == "fire"), None)
    if fired is None or not fired.get("target"):
        return
    uid = str(fired["target"])
    pid = park_of(game, uid)
    if pid is not None:
        disband_park(game, {"park": pid}, cfg, why="Direct Fire at one of its units")
    if fired.get("result") in cfg.effective_results.value:
        lose_contact(game, uid, f"took effective fire ({fired['result']})", cfg.contact_rule)


def cleanup(game: "PlayContext", cfg: "IndirectParams") -> None:
    """Step I: every Park back to its Non-Fired side [GTS 4.0 I, 16.7]."""
    fired = [pid for pid, p in state(game).parks.items() if p.fired]
    for pid in fired:
        state(game).parks[pid].fired = False
    if fired:
        game.emit("parks_unfired", parks=fired, rule=cfg.cleanup_rule)
