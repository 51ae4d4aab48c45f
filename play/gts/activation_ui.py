"""What Play mode shows of the activation [GTS 10.0]: the chit in play, the units it activates,
what they did, the mug, and each Division's Command and Dispatch Points [10.0.3] — plain text
for the Activation panel (play/gts/ui.py), read from the game state only."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from play.gts import gate
from play.gts.params import gts_params
from play.gts.state import GtsState

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.plugin_ui import DockInput

KIND_TEXT = {"formation": "Formation Activation", "divact": "Division Activation", "direct": "Direct Command",
             "naval": "Naval chit (its own sequence)", "event": "Event! (no unit acts)", "unknown": "no activation"}
MAX_LISTED = 12  # unit ids listed before "and N more"


def _listed(ids: list[str]) -> str:
    more = len(ids) - MAX_LISTED
    return ", ".join(ids[:MAX_LISTED]) + (f" and {more} more" if more > 0 else "")


def divisions(game: "PlayContext") -> list[str]:
    """The Divisions with ratings in the scenario data or points recorded, in that order."""
    st = game.state.system
    rated = game.scenario.params.get("ratings")
    names = [str(d) for d in rated] if isinstance(rated, dict) else []
    if isinstance(st, GtsState):
        names += [d for d in st.activation.points if d not in names]
    return names


def _rating_text(game: "PlayContext", div: str) -> str:
    r = game.scenario.params.get("ratings")
    r = r.get(div) if isinstance(r, dict) else None
    if not isinstance(r, dict):
        return "ratings: none in the data"
    return f"ratings {r.get('command', 'unknown')}/{r.get('dispatch', 'unknown')}"


def activation_text(game: "PlayContext") -> str | None:
    """The Activation panel's text, or None (hidden) outside a GTS game."""
    st = game.state.system
    if not isinstance(st, GtsState):
        return None
    cfg = gts_params(game).activation
    act = st.activation.current
    lines: list[str] = []
    if act is None:
        lines.append("Chit in play: none" + (" (draw the next chit)" if st.chits.drawn else ""))
    else:
        who = act.formation or act.division or act.side or ""
        lines.append(f"Chit in play: {act.chit} — {KIND_TEXT[act.kind]}{f', {who}' if who else ''}"
                     f"{' (carried from last turn, 10.0.6)' if act.carried else ''}")
        units = gate.activated_units(game, act, cfg)
        lines.append(f"Activates {len(units)} unit(s): {_listed(units) or '—'}")
        if act.acted:
            done = [f"{u} ({a.first}{' + ' + a.second if a.second else ''})" for u, a in sorted(act.acted.items())]
            lines.append(f"Acted: {_listed(done)}")
        if act.second is not None:
            lines.append(f"Second Action declared: {', '.join(act.second.units)}")
    lines.append(f"Mug: {len(st.chits.mug)} chit(s) left; drawn this turn: {', '.join(st.chits.drawn) or '—'}")
    lines.append("Command / Dispatch Points [10.0.3]:")
    for div in divisions(game):
        p = st.activation.points.get(div)
        pts = f"{p.command} CP / {p.dispatch} DP" if p is not None else "no points recorded"
        lines.append(f"  {div}: {pts} ({_rating_text(game, div)})")
    return "\n".join(lines)


def roll_points_action(game: "PlayContext", inp: "DockInput") -> dict[str, Any] | str:
    """``roll_points`` for the Division whose DivAct chit is in play [10.0.3]."""
    st = game.state.system
    act = st.activation.current if isinstance(st, GtsState) else None
    if act is None or act.kind != "divact" or not act.division:
        return "the points are rolled when a Division Activation Chit is drawn [GTS 10.0.3]"
    return {"do": "roll_points", "division": act.division}
