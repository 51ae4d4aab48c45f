"""Plain-text lines for game log events (Qt-free formatting used by the Play docks)."""

from __future__ import annotations

from typing import Any

# Events that carry a die roll or a random draw: shown in the dice log.
DICE_EVENTS = ("roll", "attack", "drop_roll", "drift", "chit", "supply_roll", "landing_roll",
               # SFN optional rules (play/sfn/optional): storms 15.2, LGAS 15.3, SAF 15.4, Blue Point 15.7
               "storm_approach_check", "storm_arrival_check", "storm_departure_check", "lgas_check", "saf_strike",
               "blue_point")
_SKIP = ("seq", "turn", "phase", "side", "type")


def is_dice(event: dict[str, Any]) -> bool:
    return event.get("type") in DICE_EVENTS or any(k in event for k in ("dice", "die", "d6", "d10"))


def _fmt(v: Any) -> str:
    if isinstance(v, list):
        return ", ".join(_fmt(x) for x in v)
    if isinstance(v, dict):
        return ", ".join(f"{k} {_fmt(x)}" for k, x in v.items())
    return str(v)


def describe_dice(e: dict[str, Any]) -> str:
    """"T1 Movement allied · 2d6 for drop table: 3 + 5 = 8" — purpose and result."""
    head = f"T{e.get('turn')} {e.get('phase')}{' ' + str(e['side']) if e.get('side') else ''} · "
    t = e.get("type")
    if t == "roll":
        return head + f"{e.get('dice')} for {e.get('reason') or 'a free roll'}: {_fmt(e.get('result'))} = {e.get('total')}"
    if t == "attack":
        return head + (f"attack on {e.get('target')} at {e.get('column')}: rolled {_fmt(e.get('dice'))} "
                       f"→ {e.get('result')}{' (illustrative CRT)' if e.get('illustrative') else ''}")
    if t == "drop_roll":
        return head + f"drop roll for {_fmt(e.get('units'))} in {e.get('hex')}: d10 {e.get('die')} → {e.get('result', '')}"
    if t == "drift":
        where = f"to {e['to']}" if e.get("to") else f"eliminated ({e.get('eliminated')})"
        return head + f"drift of {e.get('unit')}: d6 {e.get('d6')}, distance {e.get('distance')} → {where}"
    if t == "chit":
        return head + f"chit drawn: {e.get('chit')}" + (" (carried over)" if e.get("carried") else "")
    return head + describe(e, with_head=False)


def describe(e: dict[str, Any], with_head: bool = True) -> str:
    """One log line: the event type and its fields; refusals end with their rule case."""
    head = f"T{e.get('turn')} {e.get('phase')}{' ' + str(e['side']) if e.get('side') else ''} · " if with_head else ""
    t = str(e.get("type"))
    if t == "refused":
        rule = f" [{e['rule']}]" if e.get("rule") else ""
        pol = f" (policy {e['policy']})" if e.get("policy") else ""
        return head + f"REFUSED {e.get('action')}: {e.get('message')}{rule}{pol}"
    if t == "move":
        return head + f"move {_fmt(e.get('units'))} to {e.get('to')} for {e.get('cost'):g} MP via {_fmt(e.get('path'))}"
    rest = " ".join(f"{k}={_fmt(v)}" for k, v in e.items() if k not in _SKIP)
    return head + f"{t} {rest}".strip()
