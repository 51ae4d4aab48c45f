"""Helpers shared by the SFN rules: system parameters, the active invasion area, printed
set-up codes and nationality groups. Not a rule module (the leading underscore)."""

from __future__ import annotations

import re
from typing import Any

from model.counters import Counter
from model.hexes import Hex
from model.scenario import SetupEntry
from validators.context import RuleContext

SYSTEMS = ("sfn",)
HEX_CODE = re.compile(r"^(\d{4})(\*?)$")
TURN_CODE = re.compile(r"^(\d{1,2})$")


def param(ctx: RuleContext, name: str) -> Any:
    return ctx.system.params.get(name, {})


def hexes_of(ctx: RuleContext, labels: list[str]) -> list[Hex]:
    return [ctx.hmap.parse(str(lab)) for lab in labels]


def active_area(ctx: RuleContext) -> str | None:
    """The scenario's invasion area id (``params.invasion_area``), or None."""
    if ctx.scenario is None:
        return None
    value = ctx.scenario.params.get("invasion_area")
    return str(value) if value is not None else None


def beachheads(ctx: RuleContext, area: str) -> list[Hex]:
    areas = param(ctx, "invasion_areas")
    entry = areas.get(area) if isinstance(areas, dict) else None
    if not isinstance(entry, dict):
        return []
    return hexes_of(ctx, list(entry.get("beachheads", [])))


def all_areas(ctx: RuleContext) -> list[str]:
    areas = param(ctx, "invasion_areas")
    return [k for k, v in areas.items() if isinstance(v, dict)] if isinstance(areas, dict) else []


def setup_code(counter: Counter | None) -> str:
    """The printed set-up/entry code, '' when the corner is blank."""
    if counter is None:
        return ""
    value = counter.front.values.get("setup")
    return "" if value is None else str(value).strip()


def hex_code(counter: Counter | None) -> tuple[str, bool] | None:
    """(hex label, asterisk) for a four-digit set-up code."""
    m = HEX_CODE.match(setup_code(counter))
    return (m.group(1), m.group(2) == "*") if m else None


def starts_reduced(counter: Counter | None) -> bool:
    """A printed code ending in '*' means the unit begins at one step (2.5, 3.4)."""
    return setup_code(counter).endswith("*")


def entry_hexes(entry: SetupEntry) -> list[Hex]:
    """Hexes a set-up entry names: its hex, its centre hex and its listed alternatives."""
    return entry.hexes()


def nationality_group(ctx: RuleContext, counter: Counter | None) -> str | None:
    """'us' or 'commonwealth' per 10.2 (and the 2.8 design note)."""
    if counter is None or counter.nationality is None:
        return None
    groups = ctx.system.stacking.limits.get("nationality_groups", {})
    for group, members in groups.items():
        if counter.nationality in members:
            return str(group)
    return None


def as_int(value: Any) -> int | None:
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        return None
