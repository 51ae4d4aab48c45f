"""Stacking limits by unit type, as data: ``stacking.by_type`` of the system file.

The whole-hex limits were already data and stay where they are (``stacking.max_units``,
``stacking.max_steps``, a terrain's ``stacking_limit``; :func:`play.rules.stacking_problem`).
This module adds limits per unit type, checked by the same function, so every place the engine
asks about stacking (the end of a move, an arrival, a retreat, an advance) applies them::

    stacking:
      rule: "EX 5.0"
      max_units: 3                  # units per hex (categories with counts_for_stacking: false are free)
      max_steps: 6                  # steps per hex
      by_type:
      - {categories: [armor], max: 1, rule: "EX 5.1"}              # at most one armour unit
      - {tags: [artillery], max: 2, count: steps, rule: "EX 5.2"}  # at most two artillery steps

Each ``by_type`` entry (:class:`model.generic_rules.TypeLimit`) selects units by category id
(``categories``) or by a tag of their category (``tags``; either matches) and counts them as
``units`` (default) or ``steps``. Only units that count for stacking at all are counted (the
category's ``counts_for_stacking`` and the lone-HQ exemption still apply). The validators'
CORE-STACK-001 checks the same limits on setup and same-turn arrival stacks.
"""

from __future__ import annotations

from collections.abc import Sequence

from model.counters import Counter
from model.generic_rules import TypeLimit
from model.system import GameSystem

from play.state import UnitState


def selects(system: GameSystem, limit: TypeLimit, counter: Counter | None) -> bool:
    """Whether ``limit`` counts this unit (by its category id or its category's tags)."""
    if counter is None:
        return False
    cat = system.category_by_id.get(counter.category)
    return limit.selects(counter.category, cat.tags if cat is not None else [])


def type_limit_problem(system: GameSystem, counted: Sequence[UnitState],
                       counters: dict[str, Counter]) -> tuple[str, str | None] | None:
    """(message, rule case) for the first ``stacking.by_type`` limit the counted units break, or None."""
    for limit in system.stacking.by_type:
        chosen = [u for u in counted if selects(system, limit, counters.get(u.id))]
        n = sum(u.steps for u in chosen) if limit.count == "steps" else len(chosen)
        if n > limit.max:
            return (f"{n} {'steps' if limit.count == 'steps' else 'units'} of {limit.what} (limit {limit.max})",
                    limit.rule or system.stacking.rule)
    return None
