"""GTS activation details beyond the chit pull [7.0–10.0].

- Command and Dispatch Points per Division [10.0.3]: ``{do: roll_points, division}`` during
  that Division's DivAct activation (once per draw; policy ``points-rolled-on-request``) rolls
  by the 10.0.3 table (``activation.command_roll`` / ``dispatch_roll`` in params.yaml, each row
  cited), adds the pre-night bonus on the turn before the Night turn and keeps both totals
  within the 10.0.4 limits (0–19). A Division whose ratings are ``unknown`` in the scenario data
  (the Utah sample: its scenario books are not in the rules file) cannot roll: the playtester
  declares its points with ``{do: set_points, division, command, dispatch}`` (logged, policy
  ``declared-points``).
- ``{do: buy_chit, chit, division, when: this|next}``: in Step D [4.0 D] (the sequence's
  ``dispatch`` step), a Formation Activation Chit costs 2 Dispatch Points for this turn, 1 for
  next turn [7.2]; it goes into the mug now or at the start of next turn.
- ``{do: direct_command, units}``: only while that side's Direct Command chit is in play;
  1 Command Point per unit, of that unit's Division; In Command, non-independent units only
  (play/gts/command.py), one activation per unit, no Second Action [10.0.5].
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from play.gts.state import ActivationState, DirectCommand, DivisionPoints, gts_state
from play.result import result as _ok

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.gts.params import ActivationParams
    from play.result import ActionResult

BUY_COST = {"this": 2, "next": 1}  # Dispatch Points [7.2]


def _st(game: "PlayContext") -> ActivationState:
    return gts_state(game).activation


def _rating(game: "PlayContext", division: str) -> dict[str, Any] | None:
    r = game.scenario.params.get("ratings")
    return r.get(division) if isinstance(r, dict) and isinstance(r.get(division), dict) else None


def _int(v: Any) -> int | None:
    text = str(v).strip()
    return int(text) if text.lstrip("-").isdigit() else None


def _clamp(n: int, cfg: "ActivationParams") -> int:
    """Within the 10.0.4 limits: "never fewer than zero or more than nineteen"."""
    return max(cfg.points_min.value, min(cfg.points_max.value, n))


def pre_night(game: "PlayContext") -> bool:
    """This is the turn before the Night turn [10.0.3] (the calendar's night slots)."""
    nxt = next((t for t in game.system.calendar.all_turns if t.n == game.state.turn + 1), None)
    return nxt is not None and nxt.night


def dispatch_change(die: int, rating: int, current: int, cfg: "ActivationParams") -> tuple[int, list[str]]:
    """The Dispatch Point change of one die roll: every applicable row of the table, stacked
    [10.0.3] (the texts of the rows applied)."""
    total, applied = 0, []
    for row in cfg.dispatch_roll.rows:
        hit = {"roll_is": die == row.value, "at_most_rating": die <= rating, "below_points": die < current}[row.test]
        if hit:
            total += row.change
            applied.append(row.text or row.test)
    return total, applied


def roll_points(game: "PlayContext", action: dict[str, Any], cfg: "ActivationParams") -> "ActionResult":
    """``{do: roll_points, division}``: "Each time a Division Activation Chit is drawn, roll for
    that Division for both Command Points and Dispatch Points" [10.0.3]."""
    from play.gts.gate import current

    div = str(action.get("division"))
    rule = cfg.ratings_rule
    act = current(game)
    if act is None or act.kind != "divact" or act.division != div:
        return _ok(False, f"the points are rolled when {div}'s Division Activation Chit is drawn "
                          f"(in play: {act.chit if act else 'none'})", rule)
    if act.rolled:
        return _ok(False, f"{div} has rolled for this Division Activation already", rule)
    r = _rating(game, div)
    if r is None:
        return _ok(False, f"no ratings for {div!r} in the scenario data", rule)
    command, dispatch = _int(r.get("command", "unknown")), _int(r.get("dispatch", "unknown"))
    unknown = [k for k, v in (("command", command), ("dispatch", dispatch)) if v is None]
    if unknown or command is None or dispatch is None:
        return _ok(False, f"cannot roll: the {' and '.join(unknown)} rating(s) of {div} are unknown in the "
                          f"scenario data; declare the points with set_points", rule)
    pts = _st(game).points.setdefault(div, DivisionPoints())
    cr, dr = cfg.command_roll, cfg.dispatch_roll
    c_die = game.dice.roll(1, cr.die)[0] % 10  # faces 1..10, the 10 reads 0
    gained = c_die + c_die // cr.half_divisor + command
    d_die = game.dice.roll(1, dr.die)[0] % 10
    change, rows = dispatch_change(d_die, dispatch, pts.dispatch, cfg)
    bonus = cfg.pre_night_bonus.value if pre_night(game) else 0
    before = (pts.command, pts.dispatch)
    pts.command = _clamp(pts.command + gained, cfg)
    pts.dispatch = _clamp(pts.dispatch + change + bonus, cfg)
    act.rolled = True
    game.emit("points_roll", division=div, command_die=c_die, command_rating=command, command_gained=gained,
              dispatch_die=d_die, dispatch_rating=dispatch, dispatch_change=change, rows=rows,
              pre_night_bonus=bonus or None, command=pts.command, dispatch=pts.dispatch,
              limited=(pts.command != before[0] + gained or pts.dispatch != before[1] + change + bonus) or None,
              rule=rule, policy=cfg.policies.points_on_request)
    return _ok(True, f"{div}: CP roll {c_die} (+{gained}) -> {pts.command} CP; DP roll {d_die} ({change:+d}"
                     f"{f', pre-night +{bonus}' if bonus else ''}) -> {pts.dispatch} DP", rule,
               cfg.policies.points_on_request, command=pts.command, dispatch=pts.dispatch)


def set_points(game: "PlayContext", action: dict[str, Any], cfg: "ActivationParams") -> "ActionResult":
    div = str(action.get("division"))
    lo, hi = cfg.points_min.value, cfg.points_max.value
    values = {k: _int(action[k]) for k in ("command", "dispatch") if action.get(k) is not None}
    for k, v in values.items():
        if v is None or not lo <= v <= hi:
            return _ok(False, f"{k}: {action[k]!r} is not a number of points from {lo} to {hi}", cfg.points_max.rule)
    pts = _st(game).points.setdefault(div, DivisionPoints())
    if values.get("command") is not None:
        pts.command = int(values["command"])  # type: ignore[arg-type]
    if values.get("dispatch") is not None:
        pts.dispatch = int(values["dispatch"])  # type: ignore[arg-type]
    game.emit("points", division=div, command=pts.command, dispatch=pts.dispatch, rule=cfg.ratings_rule,
              policy="declared-points: the playtester declares the points (ratings unknown)")
    return _ok(True, f"{div}: {pts.command} CP, {pts.dispatch} DP", cfg.ratings_rule)


def buy_chit(game: "PlayContext", action: dict[str, Any], cfg: "ActivationParams") -> "ActionResult":
    div, chit = str(action.get("division")), str(action.get("chit"))
    when = str(action.get("when", "this"))
    rule = cfg.buy_rule
    if when not in BUY_COST:
        return _ok(False, "when: this or next", rule)
    step = cfg.buy_step
    if any(ph.id == step.value for ph in game.phases) and game.phase.id != step.value:
        return _ok(False, f"Formation Activation Chits are bought in Step D ({step.value}), not in "
                          f"{game.phase.name}", step.rule)
    st = _st(game)
    pts = st.points.get(div)
    if pts is None:
        r = _rating(game, div)
        why = "ratings unknown" if r is not None else "no such Division in the scenario ratings"
        return _ok(False, f"{div} has no Dispatch Points recorded ({why}); declare them with set_points", rule)
    cost = BUY_COST[when]
    if pts.dispatch < cost:
        return _ok(False, f"{div} has {pts.dispatch} Dispatch Points; the chit costs {cost}", rule)
    chits = gts_state(game).chits
    if chit in chits.mug or chit in st.next_chits:
        return _ok(False, f"{chit} is already in play", rule)
    pts.dispatch -= cost
    if when == "this":
        chits.mug = sorted(chits.mug + [chit])
    else:
        st.next_chits.append(chit)
    game.emit("buy_chit", chit=chit, division=div, when=when, cost=cost, dispatch_left=pts.dispatch, rule=rule)
    return _ok(True, f"bought {chit} for {when} turn ({cost} DP)", rule)


def start_of_turn(game: "PlayContext") -> None:
    st = _st(game)
    if st.next_chits:
        chits = gts_state(game).chits
        chits.mug = sorted(chits.mug + st.next_chits)
        game.emit("mug_add", chits=list(st.next_chits), rule="GTS 7.2")
        st.next_chits = []


def direct_command(game: "PlayContext", action: dict[str, Any], cfg: "ActivationParams") -> "ActionResult":
    from play.gts.gate import current

    rule = cfg.direct_command_rule
    act = current(game)
    if act is None or act.kind != "direct":
        return _ok(False, f"no Direct Command chit is in play (in play: {act.chit if act else 'none'})", rule)
    st = _st(game)
    if st.direct.turn != game.state.turn:
        st.direct = DirectCommand(turn=game.state.turn)
    ids = [str(u) for u in action.get("units") or [action.get("unit")] if u is not None]
    again = [u for u in ids if u in act.direct_units]
    if again:
        return _ok(False, f"one activation per unit ({', '.join(again)} already activated)", rule)
    need: dict[str, int] = {}
    for uid in ids:
        c = game.counters.get(uid)
        if c is not None and act.side is not None and c.side != act.side:
            return _ok(False, f"{uid} is not a unit of {act.chit}'s side ({act.side})", rule)
        div = getattr(c, "division", None) if c is not None else None
        if not div:
            return _ok(False, f"{uid} has no Division: only a Division's Command Points activate its units", rule)
        need[div] = need.get(div, 0) + 1
    for div, n in need.items():
        have = p.command if (p := st.points.get(div)) is not None else 0
        if have < n:
            return _ok(False, f"{div} has {have} Command Points; activating {n} unit(s) needs {n}", rule)
    for div, n in need.items():
        st.points[div].command -= n
    st.direct.units.extend(ids)
    act.direct_units.extend(ids)
    game.emit("direct_command", units=ids, spent=need, chit=act.chit, rule=rule)
    return _ok(True, f"activated {', '.join(ids)} by Direct Command", rule)
