"""Utah Beach Stragglers [Excl 3.4]: straggler points from the Drop Table, Rally Points,
the recovery roll and spending Straggler Recovery Points (SRPs).

- Points: after a ``drop_roll`` of the first drop (the 325th GIR: its Fourth drop
  [3.4.1.1]) each result component adds to the unit's battalion track (1 → +1; 1* → +2,
  D → +1, DD → +2, R → +3, E → +4 per unit [3.3.1]; a combined result such as 1*(D) adds
  both: policy **drop-points-sum-components**). Leaders add nothing.
- R and E: the units go to the division's Straggler box [Err 3.3.1]. Rearguard counters are
  not in the counter data: policy **rearguard-stand-in**: after R the drifted counter (marked
  ``rearguard`` by the drop engine) stays as the Rearguard, and the unit is listed in the box
  (``GtsState.stragglers.box``) until SRPs return it to its Rally Point.
- A unit of another side on a battalion's Rally Point removes it for good and that
  battalion's stragglers and SRPs are lost [3.4.1, 3.4.3(2)].
- ``{do: recover_stragglers, division}``: once per draw of the division's DivAct chit
  [3.4.2]; per battalion with a Rally Point and points, roll d10 (+4 Night 5 June, +2 6 June,
  none 7 June; >9 reads 9; an unmodified 0 stays 0) on the table from the data (row iii,
  9+, wins [Err 3.4.2(iii)]) up to the turn cap (4 / 2 / 1; none from 8 June).
- ``{do: spend_srp, unit, battalion?}``: from the Straggler box to the Rally Point at one
  step, or a reduced unit within 3 hexes of the Rally Point back to full; 1 SRP for
  paratroop/glider infantry, 2 for others [3.4.3(3)]; every unit of the battalion at half
  strength before any is restored to full [3.4.3(2)]. Policy **srp-spend-any-time**: the
  engine does not restrict spending to the division's activation.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from play.gts.params import gts_params
from play.gts.state import Rearguard, StragglerState, gts_state

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.gts.params import RecoveryRow, RecoveryTable, StragglerParams
    from play.result import ActionResult
    from play.state import UnitState

SUM_POLICY = "drop-points-sum-components: a combined result (e.g. 1*(D)) adds the points of each part"
REARGUARD_POLICY = ("rearguard-stand-in: Rearguard counters are not in the counter data; the drifted counter "
                    "stands in for the Rearguard and the unit is listed in the Straggler box until SRPs return it")
SPEND_POLICY = "srp-spend-any-time: spending is not restricted to the division's activation"


def _ok(ok: bool, msg: str, rule: str | None = None, policy: str | None = None,
        data: dict[str, Any] | None = None) -> "ActionResult":
    from play.result import ActionResult

    return ActionResult(ok, msg, rule, policy, data or {})


def cfg_of(game: "PlayContext") -> "StragglerParams | None":
    """The straggler parameters, or None when the system has no straggler rules."""
    return gts_params(game).stragglers


def state(game: "PlayContext") -> StragglerState:
    """Tracks and SRPs per battalion, lost Rally Points, rearguards."""
    return gts_state(game).stragglers


def battalion_of(game: "PlayContext", uid: str) -> str | None:
    c = game.counters.get(uid)
    return c.battalion if c is not None else None


def division_of(game: "PlayContext", uid: str) -> str | None:
    c = game.counters.get(uid)
    return c.division if c is not None else None


def rally_point(game: "PlayContext", battalion: str, cfg: "StragglerParams") -> Any:
    """The battalion's Rally Point hex (a scenario location of kind rally_point, owner = battalion)."""
    if battalion in state(game).lost:
        return None
    kind = cfg.rally_point_kind
    for loc in game.bundle.locations(game.scenario):
        if getattr(loc, "kind", None) == kind and getattr(loc, "owner", None) == battalion:
            hexes = loc.all_hexes()
            return hexes[0] if hexes else None
    return None


def _box(game: "PlayContext", uid: str, cfg: "StragglerParams") -> str:
    return str(cfg.boxes.value.get(division_of(game, uid) or "", gts_params(game).drift.straggler_box))


def in_straggler_box(game: "PlayContext", u: "UnitState", cfg: "StragglerParams") -> bool:
    if u.id in state(game).box:
        return True  # an R unit: listed in the box, its counter the Rearguard stand-in
    boxes = set(cfg.boxes.value.values()) | {gts_params(game).drift.straggler_box}
    return u.where == "box" and u.box in boxes


# --- generation [3.4.1] -------------------------------------------------------------------


def _points_for(result: str, cfg: "StragglerParams") -> list[tuple[str, int, bool]]:
    """(component, value, per_unit) for each part of a Drop Table result like ``1*(DD)``."""
    codes = cfg.points.codes
    base, _, extra = result.partition("(")
    parts = [base.strip(), extra.rstrip(")").strip()] if extra else [base.strip()]
    out = []
    for p in parts:
        spec = codes.get(p)
        if spec is not None:
            out.append((p, spec.value, spec.per_unit))
    return out


def generates(game: "PlayContext", uid: str, drop_number: str, cfg: "StragglerParams") -> bool:
    """First drop only; the 325th GIR on its Fourth drop instead [3.4.1, 3.4.1.1]."""
    c = game.counters.get(uid)
    if c is None or c.category in set(cfg.no_points_categories):
        return False
    divs = cfg.airborne_divisions.value
    if divs and c.division not in divs:
        return False
    late = cfg.late_drop_formations.value
    if c.formation in late:
        return drop_number == late[c.formation]
    return drop_number == cfg.first_drop.value


def after_drop(game: "PlayContext", action: dict[str, Any], result: "ActionResult", cfg: "StragglerParams") -> None:
    res = str(result.data.get("result") or "")
    if not res:
        return
    uids = [str(u) for u in (action.get("units") or [action.get("unit")]) if u is not None]
    drop_number = str(action.get("drop_number", "One"))
    st = state(game)
    counted = [u for u in uids if generates(game, u, drop_number, cfg)]
    comps = _points_for(res, cfg)
    added: dict[str, int] = {}
    for i, (part, value, per_unit) in enumerate(comps):
        for n, uid in enumerate(counted):
            if not per_unit and n > 0:
                break  # "1": one unit lost a step, +1 for the stick
            bn = battalion_of(game, uid) or (str(action["straggler_battalion"]) if action.get("straggler_battalion") else None)
            if bn is None:
                game.emit("straggler_points_unassigned", unit=uid, points=value, rule=cfg.generation_rule,
                          message="an independent unit: name a battalion dropping in the same zone (straggler_battalion)")
                continue
            added[bn] = added.get(bn, 0) + value
    for bn, pts in sorted(added.items()):
        if bn in st.lost:
            continue
        st.track[bn] = int(st.track.get(bn, 0)) + pts
        game.emit("straggler_points", battalion=bn, added=pts, track=st.track[bn], result=res,
                  rule=cfg.points.rule, policy=SUM_POLICY if len(comps) > 1 else None)
    base = res.split("(")[0]
    if base not in ("R", "E"):
        return
    for uid in uids:
        u = game.unit(uid)
        c = game.counters.get(uid)
        if c is not None and c.category in set(cfg.no_points_categories):
            continue  # leaders: with the Rearguard / return later, not modelled here
        box = _box(game, uid, cfg)
        if base == "R":
            # The drifted counter stays where the drop engine put it, standing in for the
            # Rearguard (or eliminated with it); the unit itself is listed in the box.
            st.rearguards.append(Rearguard(unit=uid, hex=game.label(u.hex) if u.on_map else None,
                                           eliminated=u.where == "eliminated"))
            st.box[uid] = box
        else:
            u.where, u.hex, u.box = "box", None, box
        game.emit("straggler_box", unit=uid, box=box, result=base,
                  rule=cfg.r_to_box_rule if base == "R" else cfg.points.rule,
                  policy=REARGUARD_POLICY if base == "R" else None)


def check_rally_points(game: "PlayContext", cfg: "StragglerParams") -> None:
    """A unit of another side on a Rally Point: the Rally Point is removed, stragglers lost."""
    st = state(game)
    kind = cfg.rally_point_kind
    for loc in game.bundle.locations(game.scenario):
        bn = getattr(loc, "owner", None)
        if getattr(loc, "kind", None) != kind or not bn or bn in st.lost:
            continue
        hexes = set(loc.all_hexes())
        side = getattr(loc, "side", None)
        enemy = [u.id for u in game.state.units.values() if u.on_map and u.hex in hexes and side and u.side != side]
        if enemy:
            st.lost.append(bn)
            lost_track, lost_srp = st.track.pop(bn, 0), st.srp.pop(bn, 0)
            game.emit("rally_point_lost", battalion=bn, by=sorted(enemy), stragglers_lost=lost_track,
                      srp_lost=lost_srp, rule=cfg.rally_point_lost_rule)


# --- recovery [3.4.2] ---------------------------------------------------------------------


def _by_date(table: dict[str, int], day: dt.date, none_from: str | None) -> int | None:
    if none_from and day >= dt.date.fromisoformat(str(none_from)):
        return None
    v = table.get(day.isoformat())
    return int(v) if v is not None else None


def _turn_day(game: "PlayContext") -> dt.date | None:
    for t in game.system.calendar.all_turns:
        if t.n == game.state.turn:
            return t.date
    return None


def cap_for(game: "PlayContext", bn: str, day: dt.date, cfg: "StragglerParams") -> tuple[int | None, str | None]:
    caps = cfg.caps
    opt = cfg.optional_344
    if opt is not None and game.scenario.optional_rules.get(str(opt.optional_rule)):
        forms = set(opt.formations)
        if any(battalion_of(game, uid) == bn and (game.counters[uid].formation in forms)
               for uid in game.state.units if uid in game.counters):
            return _by_date(opt.caps, day, caps.none_from), opt.rule
    return _by_date(caps.value, day, caps.none_from), caps.rule


def table_row(roll: int, track: int, table: "RecoveryTable") -> "RecoveryRow":
    """The row for a modified roll against the track; ``precedence`` rows are tried first."""
    first = table.precedence
    ordered = [r for r in table.rows if r.id in first] + [r for r in table.rows if r.id not in first]
    for r in ordered:
        lo, hi = r.roll if isinstance(r.roll, tuple) else (r.roll, r.roll)
        if not lo <= roll <= hi:
            continue
        t = r.track
        if t == "any" or (t == "le" and roll <= track) or (t == "gt" and roll > track):
            return r
    raise ValueError(f"no straggler recovery row for roll {roll}, track {track}")


def recover(game: "PlayContext", action: dict[str, Any], cfg: "StragglerParams") -> "ActionResult":
    rule = cfg.recovery_rule
    table = gts_params(game).straggler_recovery
    if table is None:
        return _ok(False, f"not available: no straggler rules in the {game.system.short} data")
    division = str(action.get("division") or "")
    chits = cfg.divact_chits.value
    if division not in chits:
        return _ok(False, f"{division!r} is not an airborne division with stragglers", cfg.rule)
    st = state(game)
    drawn = gts_state(game).chits.drawn
    draws = sum(1 for c in drawn if c == chits[division])
    key = f"{game.state.turn}:{division}"
    if draws <= int(st.recoveries.get(key, 0)):
        return _ok(False, f"roll for stragglers when the {division} DivAct chit is drawn "
                          f"({draws} draw(s) this turn, {st.recoveries.get(key, 0)} recovery roll(s) made)", rule)
    day = _turn_day(game)
    if day is None:
        return _ok(False, "the turn has no date in the calendar", rule)
    st.recoveries[key] = int(st.recoveries.get(key, 0)) + 1
    mod = cfg.modifiers.value.get(day.isoformat(), 0)
    top = cfg.roll_cap.value
    bns = sorted({bn for uid in game.state.units if division_of(game, uid) == division
                  and (bn := battalion_of(game, uid))} | {b for b in st.track
                                                          if any(battalion_of(game, u) == b and division_of(game, u) == division
                                                                 for u in game.state.units)})
    summary: dict[str, dict[str, int]] = {}
    for bn in bns:
        track = int(st.track.get(bn, 0))
        if track <= 0 or rally_point(game, bn, cfg) is None:
            continue  # "no rolls after the Straggler Points reach 0"; no Rally Point, no rolls
        cap, cap_rule = cap_for(game, bn, day, cfg)
        rkey = f"{game.state.turn}:{bn}"
        got = int(st.received.get(rkey, 0))
        if cap is None:
            game.emit("straggler_recovery_over", battalion=bn, rule=cap_rule,
                      message="no further Straggler Recovery from 8 June")
            continue
        gained = 0
        while track > 0 and got < cap:
            die = game.dice.roll(1, 10)[0] % 10  # faces 1..10, the 10 reads 0
            roll = 0 if die == 0 else min(top, die + mod)
            row = table_row(roll, track, table)
            srp = row.srp
            track += row.track_change
            got += srp
            gained += srp
            game.emit("straggler_roll", battalion=bn, die=die, modifier=mod, roll=roll, row=row.id,
                      srp=srp, track=track, rule=table.precedence_rule if row.id in table.precedence else rule)
            if not row.roll_again:
                break
        st.track[bn] = track
        st.received[rkey] = got
        st.srp[bn] = int(st.srp.get(bn, 0)) + gained
        summary[bn] = {"srp": gained, "track": track}
        if got >= cap and track > 0:
            game.emit("straggler_cap", battalion=bn, cap=cap, rule=cap_rule)
    text = ", ".join(f"{bn}: +{v['srp']} SRP, track {v['track']}" for bn, v in summary.items()) or "no battalion to roll for"
    return _ok(True, f"straggler recovery ({division}, modifier {mod:+d}): {text}", rule, data={"battalions": summary})


# --- spending [3.4.3] ---------------------------------------------------------------------


def spend(game: "PlayContext", action: dict[str, Any], cfg: "StragglerParams") -> "ActionResult":
    sp = cfg.spend
    rule = sp.rule
    u = game.unit(str(action.get("unit")))
    c = game.counters.get(u.id)
    own = battalion_of(game, u.id)
    bn = own or (str(action["battalion"]) if action.get("battalion") else None)
    if bn is None:
        return _ok(False, f"{u.id} has no battalion: name the battalion whose SRPs are spent", rule)
    if own is not None and action.get("battalion") and str(action["battalion"]) != own:
        return _ok(False, f"SRPs of {action['battalion']} may go only to its own or independent units", rule)
    st = state(game)
    rp = rally_point(game, bn, cfg)
    if rp is None:
        return _ok(False, f"{bn} has no Rally Point (lost or not set up): its SRPs are forfeit", cfg.rally_point_lost_rule)
    cheap = c is not None and c.category in set(sp.cheap_categories)
    cost = sp.cheap_cost if cheap else sp.other_cost
    have = int(st.srp.get(bn, 0))
    if have < cost:
        return _ok(False, f"{bn} has {have} SRP; {u.id} needs {cost}", sp.cost_rule)
    if in_straggler_box(game, u, cfg):
        st.box.pop(u.id, None)
        if "rearguard" in u.markers:
            u.markers.remove("rearguard")  # the stand-in leaves its Rearguard post
        u.where, u.box, u.hex = "hex", None, rp
        u.steps = 1
        u.reduced = u.max_steps > 1
        what = f"returned to the Rally Point {game.label(rp)} at one step"
    elif u.on_map and u.steps < u.max_steps:
        radius = sp.radius.value
        assert u.hex is not None
        if u.hex.distance(rp) > radius:
            return _ok(False, f"{u.id} is {u.hex.distance(rp)} hexes from the Rally Point {game.label(rp)} "
                              f"(at most {radius})", sp.radius.rule if sp.radius.rule is not None else rule)
        if own is not None:
            behind = sorted(x.id for x in game.state.units.values()
                            if x.id != u.id and battalion_of(game, x.id) == bn and in_straggler_box(game, x, cfg))
            if behind:
                return _ok(False, f"every unit of {bn} must be back at half strength first ({', '.join(behind)} "
                                  "in the Straggler box)", sp.half_first_rule)
        u.steps, u.reduced = u.max_steps, False
        what = "restored to full strength"
    elif u.where == "eliminated":
        return _ok(False, f"{u.id} was eliminated: units eliminated in combat do not return by SRPs", "Excl 3.4.3(4)")
    else:
        return _ok(False, f"{u.id} is neither in the Straggler box nor a reduced unit on the map", rule)
    st.srp[bn] = have - cost
    game.emit("spend_srp", unit=u.id, battalion=bn, cost=cost, left=st.srp[bn], hex=game.label(u.hex),
              steps=u.steps, rule=sp.cost_rule, policy=SPEND_POLICY)
    return _ok(True, f"{u.id} {what} for {cost} SRP ({bn}: {st.srp[bn]} left)", sp.cost_rule, SPEND_POLICY)
