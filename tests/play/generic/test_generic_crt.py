"""The CRT lookups of play/generic/crt.py: laws (hypothesis) and the rounding they promise.

The tables here are the format example's (illustrative, docs/new-system.md) and small
made-up ones; no real game's values are used."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from model.generic_rules import CrtTable
from play.generic import crt as table

ODDS = CrtTable(kind="odds", columns=["1:2", "1:1", "2:1", "3:1", "4:1"],
                rows={n: ["AR", "DR", "DR", "DE", "DE"] for n in range(1, 7)},
                results={"AR": {"attacker": {"retreat": 1}}, "DR": {"defender": {"retreat": 1}}, "DE": {"defender": "eliminated"}})
DIFF = CrtTable(kind="differential", dice="2d6", columns=["-2", "0", "+1", "+3"],
                rows={n: ["NE", "NE", "D1", "D1"] for n in range(2, 13)},
                results={"NE": {}, "D1": {"defender": {"steps": 1}}})
FIRE = CrtTable(kind="fire", dice="1d10", hit="at_or_below", no_hit_at_or_below=0,
                value_fields=[{"target_tags": ["armor"], "field": "attack"}, {"field": "defense"}])

STRENGTH = st.integers(0, 60).map(float) | st.floats(0.5, 60, allow_nan=False).map(lambda x: round(x * 2) / 2)
DEFENCE = st.integers(1, 60).map(float)
TABLES = st.sampled_from([ODDS, DIFF])


@pytest.mark.parametrize(("att", "dfn", "column"), [
    (7, 3, "2:1"),    # 2.33 rounds down, for the defender
    (10, 3, "3:1"),
    (6, 3, "2:1"),    # exactly on a column
    (3, 3, "1:1"),
    (2, 3, "1:2"),
    (40, 3, "4:1"),   # above the last column: the last
])
def test_odds_round_for_the_defender(att: float, dfn: float, column: str) -> None:
    assert ODDS.columns[table.base_column(ODDS, att, dfn)] == column


def test_below_the_first_column_is_minus_one_and_differences_round_down() -> None:
    assert table.base_column(ODDS, 1, 3) == -1
    assert table.base_column(DIFF, 1, 4) == -1       # -3 < -2
    assert DIFF.columns[table.base_column(DIFF, 3, 3)] == "0"
    assert DIFF.columns[table.base_column(DIFF, 5, 3)] == "+1"     # +2: the highest column at or below
    assert DIFF.columns[table.base_column(DIFF, 9, 3)] == "+3"     # +6: above the last, the last


@given(crt=TABLES, att=STRENGTH, more=STRENGTH, dfn=DEFENCE)
def test_more_attack_never_lowers_the_column(crt: CrtTable, att: float, more: float, dfn: float) -> None:
    assert table.base_column(crt, att + more, dfn) >= table.base_column(crt, att, dfn)


@given(crt=TABLES, att=STRENGTH, dfn=DEFENCE, more=st.integers(0, 30))
def test_more_defence_never_raises_the_column(crt: CrtTable, att: float, dfn: float, more: int) -> None:
    assert table.base_column(crt, att, dfn + more) <= table.base_column(crt, att, dfn)


@given(crt=TABLES, att=STRENGTH, dfn=DEFENCE)
def test_the_column_is_the_highest_at_or_below_the_attack(crt: CrtTable, att: float, dfn: float) -> None:
    i = table.base_column(crt, att, dfn)
    x = table.ratio(att, dfn) if crt.kind == "odds" else Fraction(att) - Fraction(dfn)
    values = crt.column_values
    assert -1 <= i < len(values)
    if i >= 0:
        assert values[i] <= x
    if i + 1 < len(values):
        assert values[i + 1] > x


@given(crt=TABLES, base=st.integers(-1, 4), a=st.integers(-8, 8), b=st.integers(-8, 8))
def test_shifts_are_monotone_and_stay_on_the_table(crt: CrtTable, base: int, a: int, b: int) -> None:
    assume(base < len(crt.columns))
    lo, hi = sorted((a, b))
    x, y = table.shifted(crt, base, lo), table.shifted(crt, base, hi)
    assert -1 <= x.index <= y.index <= len(crt.columns) - 1
    assert (y.policy == table.SHIFT_CLAMPED_POLICY) == (base + hi > len(crt.columns) - 1)


@given(crt=TABLES, column=st.integers(0, 4), total=st.integers(-20, 40))
def test_every_lookup_reads_a_declared_result(crt: CrtTable, column: int, total: int) -> None:
    assume(column < len(crt.columns))
    code, policy = table.lookup(crt, column, total)
    assert code in crt.results
    n, s = crt.dice_count_sides
    assert (policy is None) == (n <= total <= n * s)


@given(value=st.integers(-5, 12), roll=st.integers(1, 10), more=st.integers(0, 5))
def test_a_fire_value_that_hits_still_hits_when_higher(value: int, roll: int, more: int) -> None:
    if table.fire_hits(FIRE, value, roll):
        assert table.fire_hits(FIRE, value + more, roll)
    if value <= 0:
        assert not table.fire_hits(FIRE, value, roll)  # zero or less never hits (the format of SFN 14.1)
    else:
        assert table.fire_hits(FIRE, value, roll) == (roll <= value)


def test_fire_value_field_by_target_tags() -> None:
    assert table.fire_value_field(FIRE, {"armor", "panzer"}) == "attack"
    assert table.fire_value_field(FIRE, {"infantry"}) == "defense"


@given(cols=st.lists(st.tuples(st.integers(1, 9), st.integers(1, 9)), min_size=1, max_size=6))
def test_odds_columns_must_ascend(cols: list[tuple[int, int]]) -> None:
    labels = [f"{a}:{b}" for a, b in cols]
    values = [Fraction(a, b) for a, b in cols]
    ok = all(x < y for x, y in zip(values, values[1:]))
    rows = {n: ["X"] * len(labels) for n in range(1, 7)}
    try:
        CrtTable(kind="odds", columns=labels, rows=rows, results={"X": {}})
    except ValueError:
        assert not ok
    else:
        assert ok
