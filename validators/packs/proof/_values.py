"""Helpers shared by the counter proofing rules."""

from __future__ import annotations

from model.counters import Counter, normalize_name
from model.system import GameSystem

# Fields that may legitimately be higher on a reduced side (a lighter unit moves further,
# a weaker one may be easier to hit). Systems override with params.proofing.reduced_not_above.
DEFAULT_NOT_MONOTONE = frozenset({"movement", "ma", "dr", "range", "defense_rating"})


def numeric(value: object) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    return None


def monotone_fields(system: GameSystem, front: dict[str, object], back: dict[str, object]) -> list[str]:
    """Fields whose reduced value must not exceed the full value."""
    proofing = system.params.get("proofing", {}) if isinstance(system.params, dict) else {}
    chosen = proofing.get("reduced_not_above") if isinstance(proofing, dict) else None
    if isinstance(chosen, list):
        return [f for f in chosen if f in front and f in back]
    return sorted(k for k in front if k in back and k not in DEFAULT_NOT_MONOTONE)


def is_reduced_back(counter: Counter) -> bool:
    back = counter.back
    if back is None:
        return False
    state = (back.state or "").lower()
    return state in {"reduced", "cadre", "depleted"} or (not state and "reduced" in counter.flags)


def base_designation(text: str | None) -> str:
    return normalize_name(text or "")
