"""Distributions and paired differences (play/analysis/stats.py)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from play.analysis.stats import dist, paired_difference

values = st.lists(st.integers(min_value=-50, max_value=50), min_size=1, max_size=200)


@given(values)
def test_percentiles_are_ordered(xs: list[int]) -> None:
    d = dist(xs)
    assert d.low <= d.p5 <= d.p95 <= d.high
    assert d.low <= d.mean <= d.high + 1e-9 and d.n == len(xs)


def test_percentiles_interpolate_linearly() -> None:
    d = dist(list(range(101)))  # 0..100: the 5th percentile is 5, the 95th 95
    assert (d.p5, d.p95, d.mean) == (5.0, 95.0, 50.0)


@given(values)
def test_difference_with_itself_is_zero(xs: list[int]) -> None:
    d = paired_difference(xs, xs)
    assert d.mean == 0 and (len(xs) == 1 or d.ci_low == d.ci_high == 0)


def test_difference_interval() -> None:
    a = [0.0] * 4
    b = [1.0, 2.0, 3.0, 4.0]       # differences: mean 2.5, s = 1.2910, s/√4 = 0.6455
    d = paired_difference(a, b)
    assert d.mean == 2.5
    assert d.ci_low == pytest.approx(2.5 - 1.959964 * 0.645497, abs=1e-5)
    assert d.ci_high == pytest.approx(2.5 + 1.959964 * 0.645497, abs=1e-5)


def test_empty_and_unequal() -> None:
    assert dist([]).n == 0 and math.isnan(dist([]).mean) and dist([]).text() == "-"
    with pytest.raises(ValueError):
        paired_difference([1], [1, 2])


def test_empty_distribution_is_json_null() -> None:
    """No value (no unit drifted): the figures are null in the JSON, and two reports of the same
    outcomes compare equal (NaN would not: NaN != NaN)."""
    import json

    from play.analysis.stats import dist

    d = dist([]).to_dict()
    assert d == {"n": 0, "mean": None, "p5": None, "p95": None, "low": None, "high": None}
    assert json.loads(json.dumps(d)) == d and dist([]).text() == "-"


@given(st.lists(st.integers(-50, 50), min_size=0, max_size=3))
def test_a_difference_is_valid_json_and_text_for_any_few_seeds(xs: list[int]) -> None:
    """0 seeds: nothing; 1 seed: a mean and no interval (None, printed ``-``); 2 or more: all."""
    import json

    d = paired_difference([0] * len(xs), xs)
    out = d.to_dict()
    assert json.loads(json.dumps(out, allow_nan=False)) == out
    assert (out["mean"] is None) == (len(xs) == 0)
    assert (out["ci_low"] is None) == (out["ci_high"] is None) == (len(xs) < 2)
    assert "nan" not in d.text().lower()
    assert d.text() == "-" if not xs else d.text().startswith(f"{sum(xs) / len(xs):+.2f} [")
