"""CORE-STACK-001."""

from __future__ import annotations

from typing import Iterable

from model.base import Node
from model.counters import Counter
from model.diagnostics import Diagnostic, Severity
from model.hexes import Hex
from model.system import StackingRules
from validators.context import RuleContext
from validators.packs.core._scan import ARRIVALS, resolve_unit
from validators.rule import Rule


def known_steps(c: Counter) -> int | None:
    """A counter's steps: ``steps``, else its printed ``steps`` value; None when neither gives
    a number (``unknown``, or not given), never an invented 1."""
    if c.steps is not None:
        return c.steps
    value = c.front.values.get("steps")
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def overstack_mode(st: StackingRules) -> tuple[str, str | None]:
    """(``forbidden`` | ``penalised`` | ``legal``, its rule case) from ``stacking.limits.overstack``
    and ``overstack_rule``: the key the play engine reads too (play.rules.overstack_mode), so the
    validator and the engine follow one setting. Absent means forbidden."""
    mode = str(st.limits.get("overstack", "") or "").lower()
    mode = {"penalized": "penalised", "": "forbidden"}.get(mode, mode)
    rule = st.limits.get("overstack_rule")
    return (mode if mode in ("penalised", "legal") else "forbidden"), (str(rule) if rule else None)


class StackingLimit(Rule):
    """Setup stacks and same-turn arrival stacks respect the system's stacking limits: an error where the system forbids overstacking, a warning where it penalises it.

    Rule case: system file ``stacking`` (max_units / max_steps / by_type, with their own rule cases; limits.overstack with limits.overstack_rule)

    Why: Stacking limits are among the first things a playtester checks; a setup that
    starts over-stacked forces an immediate house rule. Rules differ on what an over-limit
    hex is: SFN 10.1 ("you may never stack two artillery units together, nor may you stack
    four divisions together") and TKG L305 ("no more than three units may stack in the same
    hex") forbid it; GTS 14.7 ("Overstacking is permitted for Units not in Column, but if you
    exceed 8 steps in a hex:" …) penalises it. The system file's ``stacking.limits.overstack``
    (``forbidden``, the default | ``penalised`` | ``legal``, cited by ``overstack_rule``; the
    key the play engine reads) says which, for every limit of its stacking section, and the
    finding is an error (forbidden) or a warning (penalised, legal) accordingly.

    Policy: *setup-and-arrival-stacks* — counted are setup units with an exact ``hex`` and,
    per turn, units arriving at one exact entry hex on that turn (plus the setup units
    there when the turn is the scenario's first turn). Only counters whose category has
    ``counts_for_stacking`` count, and a lone HQ is free where the system's
    ``stacking.limits.lone_hq_free`` says so (TKG [6.1.3]; several HQs all count, policy
    *hq-stacking-all-count-when-several*). A terrain's ``stacking_limit`` replaces
    ``max_units`` in that hex. Each ``stacking.by_type`` limit counts the units (or steps) of
    its categories or category tags. *unknown-steps-not-counted* — a counter's steps are its
    ``steps`` or printed ``steps`` value; ``unknown`` (or none given) is never counted as a
    number. Where the known steps alone exceed a step limit, the finding says how many units
    were left out; otherwise a hex of two or more counted units whose step total depends on
    unknown steps gets an info finding that its step count is unknown (a lone unit is not a
    stack, and its steps are a counter-data question). Unit counts never depend on steps.

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
        mode, mode_rule = overstack_mode(st)
        penalised = mode != "forbidden"
        step_limited = st.max_steps is not None or any(t.count == "steps" for t in st.by_type)

        def counted(ref: str) -> tuple[str, int | None, str | None] | None:
            """(counter id, its steps or None when unknown, its category); None when not counted."""
            found = resolve_unit(ctx, ref)
            if len(found) != 1:
                return None
            c = found[0]
            cat = cats.get(c.category)
            if cat is not None and not cat.counts_for_stacking:
                return None
            return c.id, known_steps(c), c.category

        def steps_text(total: int, limit: int, unknown: list[str]) -> str:
            left_out = f", not counting {len(unknown)} with unknown steps" if unknown else ""
            return f"{total} steps (limit {limit}{left_out})"

        setup: dict[Hex, list[tuple[str, Node]]] = {}
        for e in scen.setup:
            if e.hex is not None:
                setup.setdefault(e.hex, []).append((e.unit, e))
        stacks: list[tuple[str, Hex, list[tuple[str, Node]], int | None]] = [
            ("at setup", h, units, None) for h, units in setup.items()]
        arrivals: dict[tuple[int, Hex], list[tuple[str, Node]]] = {}
        for s in scen.schedule:
            n = ctx.turn_number(s.turn)
            if s.kind not in ARRIVALS or n is None or s.entry is None or s.entry.hex is None:
                continue
            arrivals.setdefault((n, s.entry.hex), []).extend((u, s) for u in s.units)
        for (n, h), units in sorted(arrivals.items()):
            base = setup.get(h, []) if n == first else []
            stacks.append((f"on turn {n}", h, base + units, n))
        for when, h, units, turn in stacks:
            found = [counted(ref) for ref, _ in units]
            # A lone HQ is free where the system says so (TKG [6.1.3]); several HQs all count.
            hq_free = ctx.system.stacking_counted([c[2] if c is not None else None for c in found])
            in_stack = [c for c, counts in zip(found, hq_free) if c is not None and counts]
            total_units = len(in_stack)
            total_steps = sum(c[1] for c in in_stack if c[1] is not None)
            unknown = [c[0] for c in in_stack if c[1] is None]
            if st.max_steps is None:  # only a by_type step limit reads steps: only its units matter
                unknown = [c[0] for c in in_stack if c[1] is None and any(
                    t.count == "steps" and t.selects(c[2], getattr(cats.get(c[2] or ""), "tags", []))
                    for t in st.by_type)]
            terrain = ctx.system.terrain_by_id.get(ctx.hmap.terrain_at(h) or "")
            max_units = terrain.stacking_limit if terrain is not None and terrain.stacking_limit is not None \
                else st.max_units
            problems = []
            if max_units is not None and total_units > max_units:
                problems.append(f"{total_units} units (limit {max_units})")
            if st.max_steps is not None and total_steps > st.max_steps:
                problems.append(steps_text(total_steps, st.max_steps, unknown))
            rules = [st.rule] if problems and st.rule else []
            for limit in st.by_type:  # limits per unit type [stacking.by_type]
                chosen = [c for c in in_stack if limit.selects(c[2], getattr(cats.get(c[2] or ""), "tags", []))]
                if limit.count == "steps":
                    n_steps = sum(c[1] for c in chosen if c[1] is not None)
                    if n_steps > limit.max:
                        problems.append(f"{steps_text(n_steps, limit.max, [c[0] for c in chosen if c[1] is None])}"
                                        f" of {limit.what}")
                        rules.append(limit.rule or st.rule or "")
                elif len(chosen) > limit.max:
                    problems.append(f"{len(chosen)} units of {limit.what} (limit {limit.max})")
                    rules.append(limit.rule or st.rule or "")
            node = units[-1][1]
            refs = [u for u, _ in units]
            turns = (turn,) if turn is not None else ()
            if problems:
                if step_limited and unknown and not any("unknown steps" in p for p in problems):
                    problems[-1] += f"; its step count is unknown ({len(unknown)} with unknown steps)"
                if penalised and mode_rule:
                    rules.append(mode_rule)
                cited = ", ".join(dict.fromkeys(r for r in rules if r))
                case = f" [{cited}]" if cited else ""
                verdict = {"penalised": ": overstacked, which the rules penalise rather than forbid",
                           "legal": ": overstacked, which the rules allow"}.get(mode, "")
                yield ctx.finding(self, f"hex {ctx.label(h)} holds {' and '.join(problems)} {when}{verdict}{case}",
                                  node, hexes=(h,), units=refs, turns=turns, policy="setup-and-arrival-stacks",
                                  severity=Severity.WARNING if penalised else Severity.ERROR)
            elif step_limited and unknown and total_units >= 2:
                case = f" [{st.rule}]" if st.rule else ""
                limit_text = f", limit {st.max_steps}" if st.max_steps is not None else ""
                yield ctx.finding(self, f"hex {ctx.label(h)} holds {total_units} units {when}; its step count is "
                                        f"unknown ({len(unknown)} with unknown steps: {', '.join(unknown)}; the known "
                                        f"steps total {total_steps}{limit_text}){case}",
                                  node, hexes=(h,), units=refs, turns=turns, policy="unknown-steps-not-counted",
                                  severity=Severity.INFO)
