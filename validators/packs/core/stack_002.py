"""CORE-STACK-002."""

from __future__ import annotations

from typing import Iterable, Iterator

from model.diagnostics import Diagnostic, Severity
from model.hexes import Hex
from model.scenario import SetupEntry
from model.system import StackingRules
from validators.context import RuleContext
from validators.packs.core._scan import ARRIVALS, resolve_unit
from validators.rule import Rule


def enemy_sharing(st: StackingRules) -> tuple[bool, str | None]:
    """(whether the system forbids enemy units in one hex, its rule case), from the system
    file's ``stacking.limits.with_enemy`` (``forbidden``; anything else, or absent, is not a
    prohibition) and ``with_enemy_rule``."""
    mode = str(st.limits.get("with_enemy", "") or "").lower()
    rule = st.limits.get("with_enemy_rule")
    return mode == "forbidden", (str(rule) if rule else None)


class NoEnemyStackAtSetup(Rule):
    """No hex holds units of two sides at setup, nor do first-turn arrivals enter one held by the enemy, where the system's rules forbid it.

    Rule case: system file ``stacking.limits.with_enemy: forbidden`` with the system's case in ``with_enemy_rule``

    Why: A unit set up (or dropped, in a setup written after a drop) in an enemy unit's hex
    starts the game in a position its rules never allow, and play has no procedure to undo
    it. Each system says so in its own words: SFN 10.1 "Units may never stack with enemy
    units"; TKG [7.2.1] "A unit may never enter a hex occupied by an enemy unit"; GTS 14.1
    "Units may never use a Movement Action to enter a hex occupied by an enemy Unit". The
    system file sets ``stacking.limits.with_enemy: forbidden`` and cites the case in
    ``with_enemy_rule``; a system without the flag is not checked, so shared code names no
    system.

    Policy: *enemy-sharing-setup* — a setup placement counts as entering its hex, so where
    the rules forbid entering (TKG, GTS) or stacking with (SFN) an enemy-occupied hex, two
    sides set up in one hex is an error. Only exact ``hex`` placements are compared
    (``adjacent_to`` leaves the player a choice); a unit whose counter or side is unknown is
    left to the reference rules. Arrivals are checked on the scenario's first turn only, at
    an exact entry ``hex``, against the setup (later, the enemy may have moved), citing
    ``with_enemy_entry_rule`` where the system gives one (SFN 7.3: "No units of either side
    may enter the map directly into an enemy-occupied hex").

    Violating example:
        # system: stacking: {limits: {with_enemy: forbidden, with_enemy_rule: SFN 10.1}}
        setup:
        - {unit: x1, hex: '0402'}    # axis
        - {unit: a1, hex: '0402'}    # allied

    Correct example:
        setup:
        - {unit: x1, hex: '0402'}
        - {unit: a1, hex: '0403'}    # adjacent, not in the same hex
    """

    code = "CORE-STACK-002"
    name = "no-enemy-stack-at-setup"
    severity = Severity.ERROR
    groups = ("stacking", "setup")
    rule_case = "system stacking rules"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        forbidden, case = enemy_sharing(ctx.system.stacking)
        if not forbidden:
            return
        by_hex: dict[Hex, dict[str, list[SetupEntry]]] = {}
        last_at: dict[Hex, SetupEntry] = {}  # the finding sits on the hex's last placement, in file order
        for e in scen.setup:
            if e.hex is None:
                continue
            found = resolve_unit(ctx, e.unit)
            if len(found) != 1 or not found[0].side:
                continue
            by_hex.setdefault(e.hex, {}).setdefault(found[0].side, []).append(e)
            last_at[e.hex] = e
        cited = f" [{case}]" if case else ""
        yield from self._first_turn_arrivals(ctx, by_hex)
        for h, sides in by_hex.items():
            if len(sides) < 2:
                continue
            entries = [e for group in sides.values() for e in group]
            parts = "; ".join(f"{side}: {', '.join(e.unit for e in group)}" for side, group in sides.items())
            yield ctx.finding(self, f"hex {ctx.label(h)} holds enemy units at setup ({parts}){cited}", last_at[h], "hex",
                              hexes=(h,), units=tuple(e.unit for e in entries), policy="enemy-sharing-setup")

    def _first_turn_arrivals(self, ctx: RuleContext, by_hex: dict[Hex, dict[str, list[SetupEntry]]]
                             ) -> Iterator[Diagnostic]:
        """Arrivals on the scenario's first turn at one exact hex where an enemy unit sets up."""
        scen = ctx.scenario
        assert scen is not None
        if scen.turns is None:
            return
        first = ctx.turn_number(scen.turns.first)
        rule = ctx.system.stacking.limits.get("with_enemy_entry_rule") or enemy_sharing(ctx.system.stacking)[1]
        cited = f" [{rule}]" if rule else ""
        for s in scen.schedule:
            if s.kind not in ARRIVALS or s.entry is None or s.entry.hex is None or first is None:
                continue
            if ctx.turn_number(s.turn) != first:
                continue
            sides = {c[0].side for c in (resolve_unit(ctx, u) for u in s.units) if len(c) == 1 and c[0].side}
            side = s.side or (next(iter(sides)) if len(sides) == 1 else None)
            if side is None:
                continue
            enemies = [e.unit for other, group in by_hex.get(s.entry.hex, {}).items() if other != side for e in group]
            if enemies:
                yield ctx.finding(self, f"{side} units arrive on the first turn at {ctx.label(s.entry.hex)}, where "
                                  f"enemy units set up ({', '.join(enemies)}){cited}", s.entry, "hex",
                                  hexes=(s.entry.hex,), units=tuple(s.units) + tuple(enemies),
                                  policy="enemy-sharing-setup")
