"""Utah Beach Random Events: the Event! chit [Excl 6.0].

The Event! chit goes in the mug every turn (a scenario that lists it once keeps it); drawn, it
rolls one d10 on the Random Events table kept as data (system ``params.die_tables.random_events``:
rolls 0–5 as printed, 6 and 7 "Troops are Lost" only through the errata clarification, 8–9
``unknown``). From 0700 9 June a 0 is No Event. A row the file does not give is logged as
"no event: table row not in the rules file" (policy ``event-row-not-in-file``). If the Event!
chit is the last chit in the mug at the end of the turn it is No Event and goes back in the
mug instead of being carried (extends the last-chit rule of the chit pull [GTS 10.0.6]).

What needs a player's choice waits for ``{do: resolve_event, ...}``:

- 0/1 → a second d10 on ``commander_casualty``: 0–7 ``division`` (an Allied Division, German
  choice) loses 4 Command Points; 8–9 ``formation`` (German choice): its leader flips to the
  replacement side, its Formation chit leaves the mug for the turn and cannot be bought for
  three turns or until the end of the next Night turn.
- 2 / 3 → ``division``: +4 Command Points to an Allied / German Division (its player's choice).
  Points are the ones ``set_points`` recorded (activation.py); limits 0–19 [GTS 10.0.4].
- 4 → ``ships: [a, b], targets: [x, y]``: two ships in range fire, automatically in contact, at
  German units in LOS of an In Command Airborne unit (naval.ship_fire).
- 5 → ``hex``: a Minefield marker on a hex not in an American Fire Zone nor adjacent to an
  American unit (Fire Zones of units whose Fire Range the data does not give are not known:
  policy ``fire-zone-known-ranges``).
- 6 / 7 (Troops are Lost) are logged; the 5-hex path is left to the players (policy
  ``lost-event-logged``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from model.calendar import resolve_turn

from play.gts import activation, naval
from play.gts.fire import _num, _value
from play.gts.state import DivisionPoints, EventsState, PendingEvent, gts_state
from play.result import result as _ok

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.gts.params import BeachParams, DieRow, DieTable, EventParams, FireParams, NavalParams, ResultsParams
    from play.result import ActionResult

# What each printed roll does [Excl 6.0]; the row texts themselves are in the system data.
KINDS = {0: "commander", 1: "commander", 2: "allied_cp", 3: "german_cp", 4: "naval_support", 5: "minefield",
         6: "lost", 7: "lost"}


def state(game: "PlayContext") -> EventsState:
    return gts_state(game).events


def table(game: "PlayContext", name: str) -> "DieTable":
    """The system data's d10 table ``name`` (an empty one when the data has none)."""
    from play.gts.params import DieTable, gts_params

    return gts_params(game).die_tables.get(name) or DieTable()


def row_for(tbl: "DieTable", roll: int) -> "DieRow | None":
    """The row of a d10 table whose ``roll`` (``2`` or ``0-1``) covers ``roll``."""
    for row in tbl.rows:
        lo, _, hi = row.roll.partition("-")
        try:
            if int(lo) <= roll <= int(hi or lo):
                return row
        except ValueError:
            continue
    return None


def _d10(game: "PlayContext") -> int:
    return game.dice.roll(1, 10)[0] % 10  # faces 1..10, the 10 reads 0


def on_phase_start(game: "PlayContext", cfg: "EventParams") -> None:
    """Step G / "step 6": the Event! chit goes back in the mug every turn once listed [Excl 6.0]."""
    if game.state.phase != 0:
        return
    chit = cfg.event_chit
    chits = gts_state(game).chits
    turns = game.system.calendar.all_turns
    listed = any(chit in [str(c) for c in e.get("chits", [])] and (resolve_turn(e.get("turn"), turns) or 10**9)
                 <= game.state.turn for e in game.scenario.params.get("mug") or [] if isinstance(e, dict))
    if listed and chit not in chits.mug and chit not in chits.drawn:
        chits.mug = sorted(chits.mug + [chit])
        game.emit("mug_add", chits=[chit], rule=cfg.rule)


def on_turn_end(game: "PlayContext", cfg: "EventParams") -> None:
    """The Event! chit left last is No Event, not carried: back in the mug [Excl 6.0]."""
    chits = gts_state(game).chits
    chit = cfg.event_chit
    if chits.carry == chit:
        chits.carry = None
        game.emit("no_event", chit=chit, rule=cfg.last_chit_rule,
                  message="the Event! chit was the last in the mug: No Event, back in the mug next turn")


def on_chit(game: "PlayContext", chit: str, cfg: "EventParams") -> None:
    if chit != cfg.event_chit:
        return
    rule = cfg.rule
    tbl = table(game, cfg.table)
    die = _d10(game)
    ref = cfg.zero_no_event_from.value
    zero_from = resolve_turn(ref, game.system.calendar.all_turns) if ref is not None else None
    if die == 0 and zero_from is not None and game.state.turn >= zero_from:
        game.emit("random_event", die=die, result="No Event", rule=cfg.zero_no_event_from.rule)
        return
    row = row_for(tbl, die)
    text = None if row is None else str(row.result)
    if row is None or text == "unknown":
        game.emit("random_event", die=die, result="no event: table row not in the rules file", rule=rule,
                  policy=cfg.missing_row_policy)
        return
    kind = KINDS.get(die)
    ev: dict[str, Any] = {"die": die, "result": text, "kind": kind, "rule": row.rule or rule}
    if kind == "commander":
        sub = table(game, cfg.commander_table)
        die2 = _d10(game)
        row2 = row_for(sub, die2)
        ev.update(die2=die2, result2=None if row2 is None else row2.result)
        kind = "battalion_commander" if die2 <= 7 else "formation_leader"
        ev["kind"] = kind
    if kind == "lost":
        game.emit("random_event", policy=cfg.lost_policy, **ev)
        return
    needs = {"battalion_commander": "division (an Allied Division; German player's choice)",
             "formation_leader": "formation (German player's choice)",
             "allied_cp": "division (an Allied Division; Allied player's choice)",
             "german_cp": "division (a German Division; German player's choice)",
             "naval_support": "ships and targets (Allied player's choice)",
             "minefield": "hex (German player's choice)"}[str(kind)]
    ev["needs"] = needs
    state(game).pending = PendingEvent(die=die, result=str(text), kind=str(kind), needs=needs, turn=game.state.turn,
                                       rule=ev["rule"], die2=ev.get("die2"), result2=ev.get("result2"))
    game.emit("random_event", **ev)


def _division_side(game: "PlayContext", division: str) -> str | None:
    sides = {c.side for c in game.counters.values() if c.division == division and c.side}
    return sides.pop() if len(sides) == 1 else None


def _change_cp(game: "PlayContext", division: str, delta: int, cfg: "EventParams") -> tuple[int, int]:
    lim = cfg.cp_limits
    pts = activation._st(game).points.setdefault(division, DivisionPoints())
    old = int(pts.command)
    pts.command = max(lim.min, min(lim.max, old + delta))
    return old, pts.command


def blocked_chit(game: "PlayContext", chit: str) -> int | None:
    """The last turn a Formation chit may not be bought after Random Event 0/1 (8–9), or None."""
    until = state(game).blocked.get(chit)
    return int(until) if until is not None else None


def resolve_event(game: "PlayContext", action: dict[str, Any], cfg: "EventParams", ncfg: "NavalParams",
                  fire_cfg: "FireParams", res_cfg: "ResultsParams", beach_cfg: "BeachParams") -> "ActionResult":
    st = state(game)
    p = st.pending
    rule = cfg.rule
    if not p:
        return _ok(False, "no Random Event is waiting for a choice", rule)
    kind = p.kind
    if kind in ("battalion_commander", "allied_cp", "german_cp"):
        div = str(action.get("division"))
        want = "german" if kind == "german_cp" else "allied"
        if _division_side(game, div) != want:
            return _ok(False, f"{div!r} is not a {want.title()} Division of the counter manifest", rule)
        n = int(cfg.cp_change.value or 4)
        old, new = _change_cp(game, div, -n if kind == "battalion_commander" else n, cfg)
        game.emit("event_resolved", kind=kind, division=div, command_points=new, was=old, rule=rule,
                  limits_rule=cfg.cp_limits.rule)
        msg = f"{div}: Command Points {old} → {new}"
    elif kind == "formation_leader":
        out = _formation_leader(game, str(action.get("formation")), cfg)
        if isinstance(out, str):
            return _ok(False, out, rule)
        msg = out["message"]
    elif kind == "naval_support":
        ships = [str(s) for s in action.get("ships") or []]
        targets = [str(t) for t in action.get("targets") or []]
        need = int(cfg.naval_support_ships.value or 2)
        if len(ships) != need or len(targets) != need or len(set(ships)) != need:
            return _ok(False, f"name {need} different ships and {need} targets (one per ship)", rule)
        event = naval.SupportFire(rule=rule, airborne=tuple(str(d) for d in cfg.airborne_divisions.value))
        pairs = [({"ship": s, "target": t, "spotter": action.get("spotter")}) for s, t in zip(ships, targets)]
        for a in pairs:  # both shots must be legal before either is fired
            r = naval.ship_fire(game, a, ncfg, fire_cfg, res_cfg, beach_cfg, event=event, dry=True)
            if not r.ok:
                return r
        # The first shot's Barrage marker is in place before the second [GTS 16.6.2.1], so the
        # second may now be refused (its spotter's LOS through the barraged hex); it is reported.
        late = [r.message for r in (naval.ship_fire(game, a, ncfg, fire_cfg, res_cfg, beach_cfg, event=event)
                                    for a in pairs) if not r.ok]
        game.emit("event_resolved", kind=kind, ships=ships, targets=targets, rule=rule, refused=late or None,
                  message="contact is lost after the naval fire")
        msg = f"naval support: {', '.join(ships)} fired" + (f"; refused: {'; '.join(late)}" if late else "")
    elif kind == "minefield":
        out2 = _minefield(game, action, cfg, fire_cfg)
        if out2 is not None:
            return _ok(False, out2, cfg.minefield_rule, cfg.fire_zone_policy)
        msg = f"Minefield marker on {action.get('hex')}"
    else:
        return _ok(False, f"nothing to resolve for {kind}", rule)
    st.pending = None
    return _ok(True, msg, rule)


def _formation_leader(game: "PlayContext", formation: str, cfg: "EventParams") -> dict[str, Any] | str:
    leaders = [c for c in game.counters.values() if c.category == "leader" and c.side == "allied"
               and (getattr(c, "leader_of", None) == formation or c.formation == formation)]
    chits = [c for c in game.counters.values() if "formation_chit" in c.flags and c.formation == formation]
    if not leaders and not chits:
        return f"{formation!r} is not an Allied Formation with a leader or a Formation chit in the manifest"
    flipped = []
    for c in leaders:
        u = game.unit(c.id)
        if c.back is not None and not u.reduced:
            u.reduced = True  # the replacement side; one already there stays there [Excl 6.0]
        flipped.append(c.id)
    removed = []
    mug = gts_state(game).chits
    n = int(cfg.formation_block_turns.value or 3)
    night = next((t.n for t in game.system.calendar.all_turns if t.night and t.n > game.state.turn), None)
    until = min(game.state.turn + n, night) if night is not None else game.state.turn + n
    for c in chits:
        if c.id in mug.mug:
            mug.mug.remove(c.id)
            removed.append(c.id)
        state(game).blocked[c.id] = until
    game.emit("event_resolved", kind="formation_leader", formation=formation, leaders=flipped or None,
              chits_removed=removed or None, blocked_until=until, rule=cfg.rule,
              message="Contact markers on the leader go back to their artillery, Contact Pending (players)")
    return {"message": f"{formation}: leader {'/'.join(flipped) or '(none in the manifest)'} on its replacement side; "
                       f"Formation chit out until turn {until}"}


def _minefield(game: "PlayContext", action: dict[str, Any], cfg: "EventParams", fire_cfg: "FireParams") -> str | None:
    from play.gts.fire import fire_range

    h = game.hex_of(action.get("hex"))
    if not game.hmap.contains(h):
        return f"{game.label(h)} is not on the map"
    american = [u for u in game.state.units.values() if u.side == "allied" and u.on_map and u.hex is not None
                and getattr(game.counters.get(u.id), "nationality", None) == "us"]
    for u in american:
        assert u.hex is not None
        if u.hex.distance(h) <= 1:
            return f"{game.label(h)} is {'occupied by' if u.hex == h else 'adjacent to'} the American unit {u.id}"
    for u in american:
        assert u.hex is not None
        c = game.counters.get(u.id)
        if c is None or _num(_value(game, u, fire_cfg.range_field)) is None:
            continue  # Fire Range not in the data (policy fire-zone-known-ranges)
        rng, _ = fire_range(game, u, fire_cfg)
        if rng is not None and u.hex.distance(h) <= rng and naval._los(game, u.hex, h):
            return f"{game.label(h)} is in the Fire Zone of {u.id}"
    st = state(game)
    st.minefields.append(str(game.label(h)))
    game.emit("minefield", hex=game.label(h), marker=cfg.minefield_marker, rule=cfg.minefield_rule,
              policy=cfg.fire_zone_policy)
    return None
