"""Game-rule lookups the engine needs, all read from system/scenario data.

Unit movement class and allowance, stacking limits, ZOC and drop-prohibited terrain. Where
the data is silent the engine applies a named policy (returned next to the answer), never a
constant invented for one game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from model.counters import Counter
from model.hexes import Hex
from model.mapdata import HexMap
from model.system import GameSystem

from play.state import UnitState

# A unit moves only in its side's Movement phase (the engine's move, and every plug-in's own moves).
MOVE_PHASE_POLICY = "moves-in-own-movement-phase: a unit moves only in its side's Movement phase"

MA_FIELDS = ("movement", "ma", "mp", "move", "mf")
# The cases behind it are the system's (``stacking.limits.lone_hq_policy_rule``), appended in brackets.
HQ_STACKING_POLICY = ("hq-stacking-all-count-when-several: a lone HQ stacks free; when several HQs share "
                      "a hex every one counts")
NO_ZOC_POLICY = "no-zoc-data: the system defines no ZOC, so none is applied"


@dataclass(frozen=True)
class Problem:
    """Why something cannot happen legally: a message, the rule case, a named policy."""

    code: str  # short machine key: off_map, prohibited, blocked, overstack, …
    message: str
    rule: str | None = None
    policy: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out = {"problem": self.code, "message": self.message}
        if self.rule:
            out["rule"] = self.rule
        if self.policy:
            out["policy"] = self.policy
        return out


def movement_class(system: GameSystem, counter: Counter | None) -> str:
    if counter is not None and counter.movement_class:
        return counter.movement_class
    if system.movement_classes:
        return system.movement_classes[0].id
    for t in system.terrain:
        if t.move:
            return next(iter(t.move))
    return "default"


def movement_allowance(system: GameSystem, counter: Counter | None, reduced: bool,
                       play_ma: dict[str, float] | None = None) -> float | None:
    """The printed MA (back side when reduced), or None when the counter does not give it.

    ``play_ma`` (see :func:`play_ma_lookup`) fills in only where the counter prints no number:
    counter id first, then its category id. The printed value always wins."""
    if counter is None:
        return None
    fields = [system.params.get("movement_field")] if system.params.get("movement_field") else list(MA_FIELDS)
    sides = [counter.back, counter.front] if reduced and counter.back else [counter.front]
    for side in sides:
        for f in fields:
            v = side.values.get(f)
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                return float(v)
    if play_ma:
        for key in (counter.id, counter.category):
            if key is not None and key in play_ma:
                return play_ma[key]
    return None


def play_ma_lookup(*sources: Any) -> dict[str, float] | None:
    """Illustrative movement allowances for test play, from ``params.play_ma`` (counter id or
    category id → MA; later sources win, so pass system params before scenario params).
    Non-numeric entries (``rule``, ``illustrative``, ``note``) are skipped; no data → None,
    and a counter without a printed MA stays unable to move (policy ``unknown-ma-cannot-move``)."""
    merged: dict[str, float] = {}
    for src in sources:
        if isinstance(src, dict):
            for k, v in src.items():
                if isinstance(v, bool):
                    continue
                try:
                    merged[str(k)] = float(v)
                except (TypeError, ValueError):
                    continue
    return merged or None


def terrain_entry_problem(hmap: HexMap, system: GameSystem, h: Hex, mclass: str) -> Problem | None:
    """Can a unit of ``mclass`` be placed in ``h`` at all (on the map, not prohibited)?"""
    tid = hmap.terrain_at(h)
    if tid is None:
        return Problem("off_map", "off the map")
    t = system.terrain_by_id.get(tid)
    if t is None:
        return None
    cost = t.move.get(mclass)
    if cost == "prohibited":
        return Problem("prohibited", f"prohibited terrain ({t.name})", t.rule)
    if "impassable" in t.tags or "prohibited" in t.tags:
        return Problem("prohibited", f"prohibited terrain ({t.name})", t.rule)
    return None


def drop_problem(hmap: HexMap, system: GameSystem, h: Hex, mclass: str) -> Problem | None:
    """Airborne drop into ``h``: terrain tagged ``no_drop`` / listed in
    ``params.drop_prohibited_terrain``, or terrain a unit may not enter at all."""
    p = terrain_entry_problem(hmap, system, h, mclass)
    if p is not None:
        return Problem("drop_prohibited" if p.code == "prohibited" else p.code, f"drop into {p.message}", p.rule)
    tid = hmap.terrain_at(h)
    t = system.terrain_by_id.get(tid or "")
    banned = system.params.get("drop_prohibited_terrain") or []
    if isinstance(banned, dict):
        rule = banned.get("rule")
        banned = banned.get("terrain", [])
    else:
        rule = None
    if t is not None and ("no_drop" in t.tags or "drop_prohibited" in t.tags or t.id in banned):
        return Problem("drop_prohibited", f"drop into prohibited terrain ({t.name})", rule or t.rule)
    return None


def counts_for_stacking(system: GameSystem, counter: Counter | None) -> bool:
    if counter is None:
        return True
    cat = system.category_by_id.get(counter.category)
    return cat.counts_for_stacking if cat is not None else True


STEPS_UNKNOWN_POLICY = ("stack-steps-unknown: counters whose steps are 'unknown' are not counted as any "
                        "number; the hex's step count is reported unknown when it could exceed the limit")


def known_steps(u: UnitState, counters: dict[str, Counter]) -> int | None:
    """The unit's steps for stacking, or None when its counter gives them as ``unknown`` (the
    state's 1 or 2 is only the engine's placeholder then, never a count)."""
    c = counters.get(u.id)
    if c is not None and c.steps is None and str(c.front.values.get("steps", "")).lower() == "unknown":
        return None
    return u.steps


def overstack_mode(system: GameSystem) -> str:
    """``stacking.limits.overstack``: "" (refused), "legal", or "penalised"."""
    mode = str(system.stacking.limits.get("overstack", "")).lower()
    return "penalised" if mode == "penalized" else mode


def overstack_penalty(hmap: HexMap, system: GameSystem, h: Hex, units: list[UnitState],
                      counters: dict[str, Counter]) -> Problem | None:
    """In a system where overstacking is penalised, not refused (``limits.overstack:
    penalised``, e.g. GTS 14.7): the overstack of ``h`` as a warning (code ``overstack``), or
    ``overstack_unknown`` when steps are unknown and the limit could be exceeded; else None."""
    if overstack_mode(system) != "penalised":
        return None
    return _limit_problem(hmap, system, h, units, counters)


def stacking_problem(hmap: HexMap, system: GameSystem, h: Hex, units: list[UnitState],
                     counters: dict[str, Counter]) -> Problem | None:
    """The refusal for a stack in ``h`` over its limit, or None (see :func:`_limit_problem`).
    ``limits.overstack: legal | penalised``: never refused (penalties: :func:`overstack_penalty`).
    A count that is only unknown (steps ``unknown``) is not refused either."""
    if overstack_mode(system) in ("legal", "penalised"):
        return None  # the system says overstacking is legal (with penalties applied elsewhere)
    p = _limit_problem(hmap, system, h, units, counters)
    return None if p is None or p.code == "overstack_unknown" else p


def _limit_problem(hmap: HexMap, system: GameSystem, h: Hex, units: list[UnitState],
                   counters: dict[str, Counter]) -> Problem | None:
    """Stacking limit for the units that would be in ``h``: ``system.stacking.max_units``,
    ``max_steps``, the terrain's ``stacking_limit`` and ``stacking.by_type`` (play/generic/stacking.py);
    a lone HQ is free where the system says so (``limits.lone_hq_free``; policy
    hq-stacking-all-count-when-several). Other limits in
    ``stacking.limits`` (regiment counts, combined arms) are left to the validators."""
    # Category exemptions and a lone HQ (GameSystem.stacking_counted).
    cats = [getattr(counters.get(u.id), "category", None) for u in units]
    counted = [u for u, c in zip(units, system.stacking_counted(cats)) if c]
    st = system.stacking
    tid = hmap.terrain_at(h)
    t = system.terrain_by_id.get(tid or "")
    # Several HQs in the hex all count: say so, with the case and the policy.
    hqs = [u for u, c in zip(units, cats) if "hq" in getattr(system.category_by_id.get(c or ""), "tags", [])]
    several = bool(st.limits.get("lone_hq_free")) and len(hqs) > 1
    note = f" ({len(hqs)} HQs: every one counts)" if several else ""
    hq_rule = st.limits.get("lone_hq_rule") if several else None
    policy_case = st.limits.get("lone_hq_policy_rule")
    policy = (HQ_STACKING_POLICY + (f" [{policy_case}]" if policy_case else "")) if several else None

    def cite(rule: str | None) -> str | None:
        return ", ".join(r for r in (rule, hq_rule) if r) or None

    if t is not None and t.stacking_limit is not None and len(counted) > t.stacking_limit:
        return Problem("overstack", f"{len(counted)} units in {t.name} (limit {t.stacking_limit}){note}",
                       cite(t.rule or st.rule), policy)
    if st.max_units is not None and len(counted) > st.max_units:
        return Problem("overstack", f"{len(counted)} units (limit {st.max_units}){note}", cite(st.rule), policy)
    if st.max_steps is not None:
        each = [known_steps(u, counters) for u in counted]
        steps = sum(n for n in each if n is not None)
        unknown = [u.id for u, n in zip(counted, each) if n is None]
        more = f" and {len(unknown)} unit(s) whose steps are unknown" if unknown else ""
        if steps > st.max_steps:
            return Problem("overstack", f"{steps} steps{more} (limit {st.max_steps})", st.rule,
                           STEPS_UNKNOWN_POLICY if unknown else None)
        if unknown and steps + len(unknown) > st.max_steps:  # over the limit if each had one step or more
            return Problem("overstack_unknown", f"step count unknown: {steps} known steps{more} "
                                                f"({', '.join(unknown)}; limit {st.max_steps})",
                           st.rule, STEPS_UNKNOWN_POLICY)
    if st.by_type:
        from play.generic.stacking import type_limit_problem  # limits per unit type [stacking.by_type]

        by_type = type_limit_problem(system, counted, counters)
        if by_type is not None:
            return Problem("overstack", by_type[0], by_type[1])
    return None


def zoc_rules(system: GameSystem) -> dict[str, Any] | None:
    """``params.zoc`` if the system defines ZOC, e.g. ``{rule: "SFN 11.0", stop_on_entry: true}``."""
    z = system.params.get("zoc")
    return z if isinstance(z, dict) else None


def exerts_zoc(system: GameSystem, counter: Counter | None) -> bool:
    if counter is None:
        return True
    cat = system.category_by_id.get(counter.category)
    tags = set(cat.tags) if cat is not None else set()
    if "no_zoc" in tags or "no_zoc" in counter.flags:
        return False
    z = zoc_rules(system) or {}
    only = z.get("categories")
    return not only or counter.category in only


def enemy_zoc(system: GameSystem, units: dict[str, UnitState], counters: dict[str, Counter], side: str) -> set[Hex]:
    out: set[Hex] = set()
    for u in units.values():
        if u.on_map and u.side != side and u.hex is not None and exerts_zoc(system, counters.get(u.id)):
            out.update(u.hex.neighbors())
    return out
