"""Combat results tables as data: ``combat.crt`` of the system file, and the pure lookups that
resolve them (no game state here; :mod:`play.generic.attack` plays an attack with them).

**Odds** and **differential** tables (one attack on one hex)::

    combat:
      rule: "EX 7.0"
      crt:
        kind: odds                # odds: attack ÷ defence | differential: attack − defence
        rule: "EX 7.1"
        dice: 1d6                 # NdS; every total N..N×S needs a row
        attack_field: attack      # the counter values summed (the reduced side's when reduced)
        defense_field: defense
        columns: ["1:2", "1:1", "2:1", "3:1"]   # lowest to highest; differential: ["-1", "0", "+1", "+3"]
        below: refused            # below the first column: refused, or a result code (e.g. AE)
        rows:                     # die total → one result per column
          1: [AR, DR, DR, DE]
          …
        results:
          AE: {attacker: eliminated}
          AR: {attacker: {retreat: 1}}
          DR: {defender: {retreat: 1}}
          D1: {defender: {steps: 1}}
          DE: {defender: eliminated}
          EX: {exchange: true}
          NE: {}
        shifts:                   # column shifts besides terrain (+ favours the attacker)
        - {defender_marker: dug_in, shift: -1}
        - {attackers_tag: armor, shift: 1}

The column is the highest one at or below the attack's odds or differential: odds are rounded
in the defender's favour (7 against 3 is 2:1 on a table with 2:1 and 3:1 columns), and odds
above the last column use the last. Column shifts
(terrain, ``shifts``) then move it; a shift past the last column stays on the last (policy
**crt-shift-clamped**), one to before the first column is treated as below it. A modified die
total outside the rows reads the nearest row (policy **crt-roll-clamped**).

**Fire** tables (one unit's shot at one unit: a die at or below the firer's value hits)::

      crt:
        kind: fire
        rule: "XX 13.2"
        dice: 1d10
        hit: at_or_below          # the shot hits when the roll is at or below the modified value
        no_hit_at_or_below: 0     # a value modified to this or less never hits
        value_fields:             # the counter value a unit fires with, by its target's tags
        - {target_tags: [armor], field: attack}
        - {field: defense}        # the default: no target_tags

A fire table has no columns or result codes: a hit is one step lost by the target. It is a
resolver for a system's own battle sequence (a plug-in's; docs/new-system.md shows a real
one); the generic ``attack`` procedure plays odds and differential tables only.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from model.generic_rules import CrtTable

SHIFT_CLAMPED_POLICY = "crt-shift-clamped: a column shift past the last column stays on the last column"
ROLL_CLAMPED_POLICY = "crt-roll-clamped: a modified die total outside the table reads the nearest row"


def ratio(attack: float, defense: float) -> Fraction:
    """Attack ÷ defence as an exact fraction (strengths may be fractional: halved units)."""
    return Fraction(attack).limit_denominator(1000) / Fraction(defense).limit_denominator(1000)


def base_column(crt: CrtTable, attack: float, defense: float) -> int:
    """Index of the highest column at or below the odds (or differential); -1 below the first."""
    x = ratio(attack, defense) if crt.kind == "odds" else Fraction(attack).limit_denominator(1000) - \
        Fraction(defense).limit_denominator(1000)
    best = -1
    for i, v in enumerate(crt.column_values):
        if v <= x:
            best = i
    return best


@dataclass(frozen=True)
class Column:
    """Where an attack lands on the table: the index (-1: below the first column), the shift
    applied, and the policy when the shift was clamped at the top."""

    index: int
    base: int
    shift: int
    policy: str | None = None


def shifted(crt: CrtTable, base: int, shift: int) -> Column:
    """The column after ``shift`` (clamped at the last column; below the first is -1)."""
    top = len(crt.columns) - 1
    i = base + shift
    if i > top:
        return Column(top, base, shift, SHIFT_CLAMPED_POLICY)
    return Column(max(i, -1), base, shift)


def row_total(crt: CrtTable, total: int) -> tuple[int, str | None]:
    """The row a modified die total reads, and the policy when it had to be clamped."""
    lo, hi = min(crt.rows), max(crt.rows)
    if total < lo:
        return lo, ROLL_CLAMPED_POLICY
    if total > hi:
        return hi, ROLL_CLAMPED_POLICY
    return total, None


def lookup(crt: CrtTable, column: int, total: int) -> tuple[str, str | None]:
    """(result code, policy) at a column index (0..len-1) for a modified die total."""
    row, policy = row_total(crt, total)
    return crt.rows[row][column], policy


def fire_value_field(crt: CrtTable, target_tags: set[str]) -> str:
    """Kind fire: the counter field a unit fires with at a target with these tags."""
    for vf in crt.value_fields:
        if vf.target_tags and set(vf.target_tags) <= target_tags:
            return vf.field
    return next(vf.field for vf in crt.value_fields if not vf.target_tags)


def fire_hits(crt: CrtTable, modified: float, roll: int) -> bool:
    """Kind fire: does a roll hit at this modified value?"""
    if crt.no_hit_at_or_below is not None and modified <= crt.no_hit_at_or_below:
        return False
    return roll <= modified if crt.hit == "at_or_below" else roll >= modified
