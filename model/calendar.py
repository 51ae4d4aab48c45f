"""Turn calendars: expand a compact calendar spec into numbered, labelled turns."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from model.base import Node

if TYPE_CHECKING:
    from model.system import Calendar


class TurnDef(Node):
    """One numbered, labelled game turn."""

    n: int
    label: str
    date: dt.date | None = None
    night: bool = False


def build_turns(cal: "Calendar") -> list[TurnDef]:
    if cal.kind == "explicit":
        return list(cal.turns)
    if cal.kind == "daily":
        if cal.start is None or cal.count is None:
            return []
        out = []
        for i in range(cal.count):
            n = cal.first + i
            date = cal.start + dt.timedelta(days=i)
            out.append(TurnDef(n=n, label=cal.label_format.format(n=n, date=date), date=date))
        return out
    # slots: every day gets every slot; the first day may start at first_slot
    out = []
    n = cal.first
    for d_index, day in enumerate(cal.days):
        slots = cal.slots
        if d_index == 0 and cal.first_slot and cal.first_slot in slots:
            slots = slots[slots.index(cal.first_slot):]
        for slot in slots:
            label = f"{slot} {day.day} {day:%B}"
            out.append(TurnDef(n=n, label=label, date=day, night=slot in cal.night_slots))
            n += 1
            if cal.count is not None and len(out) >= cal.count:
                return out
    return out


def turn_lookup(turns: list["TurnDef"]) -> dict[str, int]:
    """Map labels (case-insensitive, spaces collapsed) and numbers-as-text to turn numbers."""
    out: dict[str, int] = {}
    for t in turns:
        out[_norm(t.label)] = t.n
        out[str(t.n)] = t.n
    return out


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


def resolve_turn(ref: int | str, turns: list["TurnDef"]) -> int | None:
    if isinstance(ref, int):
        return ref
    text = str(ref).strip()
    if text.lstrip("-").isdigit():
        return int(text)
    return turn_lookup(turns).get(_norm(text))
