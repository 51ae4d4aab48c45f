"""CORE-STACK-001."""

from __future__ import annotations

from typing import Iterable

from model.base import Node
from model.diagnostics import Diagnostic, Severity
from model.hexes import Hex
from validators.context import RuleContext
from validators.packs.core._scan import ARRIVALS, resolve_unit
from validators.rule import Rule


class StackingLimit(Rule):
    """Setup stacks and same-turn arrival stacks respect the system's stacking limits.

    Rule case: system file ``stacking`` (max_units / max_steps / by_type, with their own rule cases)

    Why: Stacking limits are among the first things a playtester checks; a setup that
    starts over-stacked forces an immediate house rule.

    Policy: *setup-and-arrival-stacks* — counted are setup units with an exact ``hex`` and,
    per turn, units arriving at one exact entry hex on that turn (plus the setup units
    there when the turn is the scenario's first turn). Only counters whose category has
    ``counts_for_stacking`` count, and a lone HQ is free where the system's
    ``stacking.limits.lone_hq_free`` says so (TKG [6.1.3]; several HQs all count, policy
    *hq-stacking-all-count-when-several*); a counter without ``steps`` counts as one step. A terrain's
    ``stacking_limit`` replaces ``max_units`` in that hex. Each ``stacking.by_type`` limit
    counts the units (or steps) of its categories or category tags.

    Violating example:
        # system: stacking: {max_units: 1}
        setup:
        - {unit: x1, hex: '0402'}
        - {unit: a1, hex: '0402'}

    Correct example:
        # system: stacking: {max_units: 1}
        setup:
        - {unit: x1, hex: '0402'}
        - {unit: a1, hex: '0403'}
    """

    code = "CORE-STACK-001"
    name = "stacking-limit"
    severity = Severity.ERROR
    groups = ("stacking",)
    rule_case = "system stacking rules"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        st = ctx.system.stacking
        if st.max_units is None and st.max_steps is None and not st.by_type and not any(
                t.stacking_limit is not None for t in ctx.system.terrain):
            return
        cats = ctx.system.category_by_id
        first = ctx.turn_number(scen.turns.first) if scen.turns is not None else None

        def counted(ref: str) -> tuple[int, int, str | None] | None:
            found = resolve_unit(ctx, ref)
            if len(found) != 1:
                return None
            c = found[0]
            cat = cats.get(c.category)
            if cat is not None and not cat.counts_for_stacking:
                return None
            return 1, c.steps or 1, c.category

        setup: dict[Hex, list[tuple[str, Node]]] = {}
        for e in scen.setup:
            if e.hex is not None:
                setup.setdefault(e.hex, []).append((e.unit, e))
        stacks: list[tuple[str, Hex, list[tuple[str, Node]], int | None]] = [
            ("at setup", h, units, None) for h, units in setup.items()]
        arrivals: dict[tuple[int, Hex], list[tuple[str, Node]]] = {}
        for e in scen.schedule:
            n = ctx.turn_number(e.turn)
            if e.kind not in ARRIVALS or n is None or e.entry is None or e.entry.hex is None:
                continue
            arrivals.setdefault((n, e.entry.hex), []).extend((u, e) for u in e.units)
        for (n, h), units in sorted(arrivals.items()):
            base = setup.get(h, []) if n == first else []
            stacks.append((f"on turn {n}", h, base + units, n))
        for when, h, units, n in stacks:
            total_units = total_steps = 0
            found = [counted(ref) for ref, _ in units]
            # A lone HQ is free where the system says so (TKG [6.1.3]); several HQs all count.
            hq_free = ctx.system.stacking_counted([c[2] if c is not None else None for c in found])
            for c, counts in zip(found, hq_free):
                if c is not None and counts:
                    total_units += c[0]
                    total_steps += c[1]
            terrain = ctx.system.terrain_by_id.get(ctx.hmap.terrain_at(h) or "")
            max_units = terrain.stacking_limit if terrain is not None and terrain.stacking_limit is not None \
                else st.max_units
            problems = []
            if max_units is not None and total_units > max_units:
                problems.append(f"{total_units} units (limit {max_units})")
            if st.max_steps is not None and total_steps > st.max_steps:
                problems.append(f"{total_steps} steps (limit {st.max_steps})")
            rules = [st.rule] if problems and st.rule else []
            for limit in st.by_type:  # limits per unit type [stacking.by_type]
                chosen = [c for c, counts in zip(found, hq_free) if c is not None and counts and limit.selects(
                    c[2], getattr(cats.get(c[2] or ""), "tags", []))]
                n = sum(c[1] for c in chosen) if limit.count == "steps" else len(chosen)
                if n > limit.max:
                    problems.append(f"{n} {'steps' if limit.count == 'steps' else 'units'} of {limit.what} "
                                    f"(limit {limit.max})")
                    rules.append(limit.rule or st.rule or "")
            if problems:
                node = units[-1][1]
                cited = ", ".join(dict.fromkeys(r for r in rules if r))
                case = f" [{cited}]" if cited else ""
                yield ctx.finding(self, f"hex {ctx.label(h)} holds {' and '.join(problems)} {when}{case}",
                                  node, hexes=(h,), units=[u for u, _ in units],
                                  turns=(n,) if n is not None else (), policy="setup-and-arrival-stacks")
