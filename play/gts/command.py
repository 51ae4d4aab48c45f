"""GTS Leaders and Command [21.1–21.7].

``in_command(game, unit) -> (True|False|None, reason)`` is the command check other procedures
call (naval spotters [Excl 4.4.4(c)], rally [20.0], roaming [Excl 18.6]): a Unit is In Command
within its Leader's Command Range, counted in hexes, enemy units and terrain not interfering
[21.4]. A Unit of a Formation with a Leader counter looks to that Leader; an Independent
(white/black-striped, flag ``independent``) Unit, or a Unit of a Formation without a Leader,
to any Leader of its Division [21.4, 21.4.1]. Units and Leaders off the map (reinforcement
boxes) never command or are commanded [21.4]. ``None`` means the range is unknown in the
counter data: callers then apply policy ``in-command-unless-marked`` (``is_in_command``), and
say so. An ``out_of_command`` marker always means Out of Command (policy
``out-of-command-marker``). Out of Command: TQ -1 [21.7] (``tq_modifier``).

Actions: ``{do: transfer_leader, leader, to}`` [21.2] (to a hex with a Unit of his Formation or
an Independent Unit of his Division; policy ``leader-transfer-when-declared``) and
``{do: check_leaders}`` [21.3] (a Leader with no Unit of his Formation in his hex moves to the
nearest one, or leaves play if the Formation is gone; he returns with the first Unit of it back
on the map). Parameters: ``gts-utah: command:`` in
play/gts/params.yaml.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from play.gts.fire import _num, _value
from play.gts.state import gts_state
from play.result import result as _ok

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.gts.params import CommandParams
    from play.result import ActionResult
    from play.state import UnitState


def cfg_of(game: "PlayContext") -> "CommandParams":
    from play.gts.params import gts_params

    return gts_params(game).command


def is_leader(game: "PlayContext", uid: str, cfg: "CommandParams | None" = None) -> bool:
    c = game.counters.get(uid)
    return c is not None and c.category == (cfg or cfg_of(game)).leader_category


def _formation_leaders(game: "PlayContext", formation: str | None) -> list[str]:
    if not formation:
        return []
    return sorted(cid for cid, c in game.counters.items()
                  if is_leader(game, cid) and (c.leader_of or c.formation) == formation)


def commanders(game: "PlayContext", uid: str, cfg: "CommandParams | None" = None) -> tuple[list[str], str]:
    """The Leader counter ids that can command ``uid`` and the case that says so: its Formation's
    Leader [21.4], or any Leader of its Division for an Independent Unit / a Formation with no
    Leader [21.4, 21.4.1]."""
    cfg = cfg or cfg_of(game)
    c = game.counters.get(uid)
    if c is None:
        return [], cfg.rule
    independent = cfg.independent_flag in c.flags
    own = [] if independent else _formation_leaders(game, c.formation)
    if own:
        return own, cfg.rule
    div = sorted(cid for cid, x in game.counters.items()
                 if is_leader(game, cid) and c.division is not None and x.division == c.division)
    return div, str(cfg.independent_rule if independent else cfg.rule)


def command_range(game: "PlayContext", leader: "UnitState", cfg: "CommandParams | None" = None) -> int | None:
    """The printed Command Range [21.4], or None when the counter data says ``unknown``."""
    n = _num(_value(game, leader, (cfg or cfg_of(game)).range_field))
    return int(n) if n is not None else None


def in_entry_hex(game: "PlayContext", u: "UnitState", own: bool = True) -> bool:
    """A reinforcement on its arrival turn still in one of its schedule entry's hexes (a hex,
    hexes or a named location: not a drop zone, beach or box) [21.4]; policy
    ``reinforcement-entry-arrival-turn``: the rules do not say how long a Unit counts as a
    "Reinforcement Unit", so only on the turn it arrived."""
    if u.arrived != game.state.turn or u.hex is None:
        return False
    for sched in game.scenario.schedule:
        e = getattr(sched, "entry", None)
        if e is None or (own and u.id not in (getattr(sched, "units", None) or [])):  # a Leader: any entry hex
            continue
        hexes = [h for h in ([e.hex] if e.hex is not None else []) + list(e.hexes)]
        if e.location:
            hexes += game.location_hexes(e.location)
        if u.hex in hexes:
            return True
    return False


def in_command(game: "PlayContext", unit: "str | UnitState") -> tuple[bool | None, str]:
    """(True, why) In Command; (False, why) Out of Command; (None, why) the Command Range is
    unknown in the counter data — the caller's policy decides (``is_in_command``)."""
    cfg = cfg_of(game)
    u = game.unit(unit) if isinstance(unit, str) else unit
    if cfg.out_of_command_marker in u.markers:
        return False, f"{u.id} carries an Out of Command marker"
    if not u.on_map or u.hex is None:
        return False, f"{u.id} is not on the map (reinforcement boxes are Out of Command [21.4])"
    if in_entry_hex(game, u):
        return False, f"{u.id} is a reinforcement in its entry hex {game.label(u.hex)} [GTS 21.4]"
    ids, case = commanders(game, u.id, cfg)
    if not ids:
        return None, f"no Leader for {u.id} in the counter data [{case}]"  # nothing to count from
    states = [game.state.units[i] for i in ids if i in game.state.units]
    present = [x for x in states if x.on_map and not in_entry_hex(game, x, own=False)]
    if not present and any(x.on_map for x in states):
        return False, f"Leaders in reinforcement entry hexes may not command Units ({', '.join(ids)}) [GTS 21.4]"
    if not present:
        waiting = [i for i in ids if i not in game.state.units
                   or game.state.units[i].where not in ("eliminated", "withdrawn")]  # absent from the scenario too
        if waiting:  # in a box (landing craft, drop stick, not yet arrived): policy leader-off-map-unknown
            return None, (f"no Leader that can command {u.id} is on the map ({', '.join(waiting)} off the map: "
                          f"{cfg.off_map_policy}) [{case}]")
        return False, f"no Leader that can command {u.id} is in play ({', '.join(ids)}) [{case}]"
    unknown: list[str] = []
    far: list[str] = []
    for ldr in present:
        rng = command_range(game, ldr, cfg)
        d = ldr.hex.distance(u.hex)  # type: ignore[union-attr]
        if rng is None:
            unknown.append(ldr.id)
        elif d <= rng:
            return True, f"{u.id} is {d} hexes from {ldr.id} (Command Range {rng}) [{case}]"
        else:
            far.append(f"{ldr.id} {d} > {rng}")
    if unknown:
        return None, f"the Command Range of {', '.join(unknown)} is unknown in the counter data [{case}]"
    return False, f"{u.id} is beyond Command Range ({'; '.join(far)}) [{case}]"


def is_in_command(game: "PlayContext", unit: "str | UnitState") -> tuple[bool, str, str | None]:
    """``in_command`` with policy ``in-command-unless-marked`` for an unknown range:
    (in command, reason, policy applied or None)."""
    ok, why = in_command(game, unit)
    if ok is None:
        return True, why, cfg_of(game).unknown_policy
    return ok, why, None


def tq_modifier(game: "PlayContext", unit: "str | UnitState") -> tuple[int, str | None]:
    """-1 to the Troop Quality Rating when Out of Command [21.7] (0 otherwise), and the policy used."""
    ok, _, policy = is_in_command(game, unit)
    return (0 if ok else cfg_of(game).tq_penalty.value), policy


def _units_of(game: "PlayContext", h: Any) -> list["UnitState"]:
    return [x for x in game.state.at(h) if x.on_map]


def _formation(game: "PlayContext", leader_id: str) -> str | None:
    c = game.counters.get(leader_id)
    return (c.leader_of or c.formation) if c is not None else None


def _of_formation(game: "PlayContext", uid: str, formation: str | None) -> bool:
    c = game.counters.get(uid)
    return c is not None and formation is not None and c.formation == formation and not is_leader(game, uid)


def transfer_leader(game: "PlayContext", action: dict[str, Any], cfg: "CommandParams") -> "ActionResult":
    """``{do: transfer_leader, leader, to}`` [21.2]: to any hex with a Unit of his Formation, or an
    Independent Unit of his Division — but a Leader now with no Unit of his Formation must go to
    one of his Formation [21.2]."""
    rule = cfg.transfer_rule
    ldr = game.unit(str(action.get("leader") or action.get("unit")))
    if not is_leader(game, ldr.id, cfg):
        return _ok(False, f"{ldr.id} is not a Leader", rule)
    if not ldr.on_map:
        return _ok(False, f"{ldr.id} is not on the map", rule)
    to = game.hex_of(action.get("to"))
    form = _formation(game, ldr.id)
    lc = game.counters[ldr.id]
    here = _units_of(game, to)
    mine = [x.id for x in here if _of_formation(game, x.id, form)]
    indep_flag = cfg.independent_flag
    indep = [x.id for x in here if (c := game.counters.get(x.id)) is not None and indep_flag in c.flags
             and c.division == lc.division]
    alone = not any(_of_formation(game, x.id, form) for x in _units_of(game, ldr.hex))
    if not mine and (alone or not indep):
        need = "a Unit of his Formation" if alone else "a Unit of his Formation or an Independent Unit of his Division"
        return _ok(False, f"{ldr.id} may transfer only to a hex with {need} ({form}); {game.label(to)} has none", rule)
    frm = game.label(ldr.hex)
    ldr.hex = to
    policy = str(cfg.transfer_policy) if cfg.transfer_policy else None
    game.emit("leader_transfer", leader=ldr.id, frm=frm, to=game.label(to), with_units=mine or indep,
              rule=rule, policy=policy)
    return _ok(True, f"{ldr.id} transfers from {frm} to {game.label(to)}", rule, policy)


def check_leaders(game: "PlayContext", action: dict[str, Any], cfg: "CommandParams") -> "ActionResult":
    """``{do: check_leaders, side?, to?}`` [21.3]: every Leader on the map in a hex with no Unit of
    his Formation moves to the nearest Unit of it (owner's choice: ``to: {leader: hex}``, else
    policy ``nearest-formation-unit-first-label``); with his Formation gone he leaves play."""
    rule = cfg.relocate_rule
    side = action.get("side")
    chosen = {str(k): str(v) for k, v in (action.get("to") or {}).items()}
    moved: list[str] = []
    for ldr in sorted(game.state.units.values(), key=lambda x: x.id):
        if not ldr.on_map or not is_leader(game, ldr.id, cfg) or (side and ldr.side != side):
            continue
        form = _formation(game, ldr.id)
        if any(_of_formation(game, x.id, form) for x in _units_of(game, ldr.hex)):
            continue
        units = [x for x in game.state.units.values() if x.on_map and _of_formation(game, x.id, form)]
        if not units:
            frm = game.label(ldr.hex)
            ldr.where, ldr.hex, ldr.box = "withdrawn", None, None
            gts_state(game).command.leaders_removed.append(ldr.id)
            game.emit("leader_removed", leader=ldr.id, frm=frm, formation=form, rule=rule,
                      message="his whole Formation is gone: no legal place for him")
            moved.append(ldr.id)
            continue
        best = min(x.hex.distance(ldr.hex) for x in units)  # type: ignore[union-attr]
        near = sorted({x.hex for x in units if x.hex.distance(ldr.hex) == best},  # type: ignore[union-attr]
                      key=lambda h: str(game.label(h)))
        pick = near[0]
        policy: str | None = str(cfg.nearest_policy) if len(near) > 1 else None
        if ldr.id in chosen:
            want = game.hex_of(chosen[ldr.id])
            if want not in near:
                return _ok(False, f"{chosen[ldr.id]} is not a nearest hex with a Unit of {form} "
                                  f"({', '.join(str(game.label(h)) for h in near)})", rule)
            pick, policy = want, None
        frm = game.label(ldr.hex)
        ldr.hex = pick
        game.emit("leader_relocated", leader=ldr.id, frm=frm, to=game.label(pick), distance=best, rule=rule,
                  policy=policy)
        moved.append(ldr.id)
    removed = gts_state(game).command.leaders_removed
    for lid in list(removed):
        # "If Units of that Formation arrive later as reinforcements, the Leader returns and is
        # placed with them" [21.3]: the first such Unit by id (owner's choice; policy as above).
        form = _formation(game, lid)
        back = sorted((x for x in game.state.units.values() if x.on_map and _of_formation(game, x.id, form)),
                      key=lambda x: x.id)
        if back and (side is None or game.unit(lid).side == side):
            ldr = game.unit(lid)
            want = game.hex_of(chosen[lid]) if lid in chosen else back[0].hex
            if not any(x.hex == want for x in back):
                return _ok(False, f"{chosen[lid]} holds no Unit of {form} for {lid} to return to", rule)
            ldr.where, ldr.hex, ldr.box = "hex", want, None
            removed.remove(lid)
            game.emit("leader_returns", leader=lid, to=game.label(want), formation=form, rule=rule)
            moved.append(lid)
    if not moved:
        return _ok(True, "every Leader is stacked with a Unit of his Formation", rule, leaders=[])
    return _ok(True, f"{len(moved)} Leader(s) moved or removed: {', '.join(moved)}", rule, leaders=moved)


def command_status(game: "PlayContext", action: dict[str, Any], cfg: "CommandParams") -> "ActionResult":
    """``{do: command, unit}``: the command check [21.4] as an action (logs ``command_check``)."""
    u = game.unit(str(action.get("unit")))
    ok, why = in_command(game, u)
    policy = cfg.unknown_policy if ok is None else (
        str(cfg.marker_policy) if cfg.out_of_command_marker in u.markers else None)
    state = {True: "in", False: "out", None: "unknown"}[ok]
    game.emit("command_check", unit=u.id, command=state, reason=why, rule=cfg.rule,
              policy=policy)
    text = {"in": "In Command", "out": "Out of Command", "unknown": "In Command by policy (range unknown)"}[state]
    return _ok(True, f"{u.id}: {text} — {why}", cfg.rule, policy, command=state)


def before_direct_command(game: "PlayContext", action: dict[str, Any], cfg: "CommandParams") -> "ActionResult | None":
    """A Command Point activation [GTS 10.0.5] of an Out of Command Unit is refused ("you can't
    spend a Command Point on it" [21.7]), and Independent Units never activate under the Direct
    Command chit [21.4.1]. An unknown range lets it through (policy in-command-unless-marked)."""
    flag = cfg.independent_flag
    for uid in [str(u) for u in action.get("units") or [action.get("unit")] if u is not None]:
        c = game.counters.get(uid)
        if c is not None and flag in c.flags:
            return _ok(False, f"{uid} is an Independent Unit: it never activates under the Direct Command chit",
                       cfg.independent_rule)
        if uid in game.state.units:
            ok, why = in_command(game, uid)
            if ok is False:
                return _ok(False, f"{uid} is Out of Command ({why}): no Command Point may be spent on it",
                           cfg.out_of_command_rule)
    return None
