"""GTS activation details beyond the chit pull [7.0–10.0].

- Command and Dispatch Points per Division [10.0.3]: rolling them needs the Division's
  Command/Dispatch Ratings; the sample's ratings are ``unknown`` (scenario books not in the
  file), so ``{do: roll_points, division}`` says it cannot run that step, and the playtester
  may declare the points with ``{do: set_points, division, command, dispatch}`` (logged).
- ``{do: buy_chit, chit, division, when: this|next}``: a Formation Activation Chit costs
  2 Dispatch Points for this turn, 1 for next turn [7.2]; it goes into the mug now or at the
  start of next turn.
- ``{do: direct_command, units, division}``: only after the Direct Command chit is drawn this
  turn; 1 Command Point per unit, of that unit's Division; one activation per unit, no Second
  Action [10.0.5].
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


def roll_points(game: "PlayContext", action: dict[str, Any], cfg: "ActivationParams") -> "ActionResult":
    div = str(action.get("division"))
    r = _rating(game, div)
    rule = cfg.ratings_rule
    if r is None:
        return _ok(False, f"no ratings for {div!r} in the scenario data", rule)
    unknown = [k for k in ("command", "dispatch") if not str(r.get(k, "unknown")).lstrip("-").isdigit()]
    if unknown:
        return _ok(False, f"cannot run this step: the {' and '.join(unknown)} rating(s) of {div} are unknown in the "
                          f"scenario data; declare the points with set_points", rule)
    # The roll procedure itself is on the player aid, not in the rules file.
    return _ok(False, f"cannot run this step: the Command/Dispatch roll table is not in the rules file; "
                      f"declare the points with set_points", rule)


def set_points(game: "PlayContext", action: dict[str, Any], cfg: "ActivationParams") -> "ActionResult":
    div = str(action.get("division"))
    pts = _st(game).points.setdefault(div, DivisionPoints())
    if action.get("command") is not None:
        pts.command = int(str(action["command"]))
    if action.get("dispatch") is not None:
        pts.dispatch = int(str(action["dispatch"]))
    game.emit("points", division=div, command=pts.command, dispatch=pts.dispatch, rule=cfg.ratings_rule,
              policy="declared-points: the playtester declares the points (ratings unknown)")
    return _ok(True, f"{div}: {pts.command} CP, {pts.dispatch} DP", cfg.ratings_rule)


def buy_chit(game: "PlayContext", action: dict[str, Any], cfg: "ActivationParams") -> "ActionResult":
    div, chit = str(action.get("division")), str(action.get("chit"))
    when = str(action.get("when", "this"))
    rule = cfg.buy_rule
    if when not in BUY_COST:
        return _ok(False, "when: this or next", rule)
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
    rule = cfg.direct_command_rule
    drawn = gts_state(game).chits.drawn
    if not any("direct" in str(c).lower() for c in drawn):
        return _ok(False, "no Direct Command chit has been drawn this turn", rule)
    st = _st(game)
    if st.direct.turn != game.state.turn:
        st.direct = DirectCommand(turn=game.state.turn)
    ids = [str(u) for u in action.get("units") or [action.get("unit")] if u is not None]
    again = [u for u in ids if u in st.direct.units]
    if again:
        return _ok(False, f"one activation per unit ({', '.join(again)} already activated)", rule)
    need: dict[str, int] = {}
    for uid in ids:
        c = game.counters.get(uid)
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
    game.emit("direct_command", units=ids, spent=need, rule=rule)
    return _ok(True, f"activated {', '.join(ids)} by Direct Command", rule)
