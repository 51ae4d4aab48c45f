"""Distributions over seeds: mean and 5th/95th percentiles, and paired differences.

Percentiles interpolate linearly between order statistics (numpy's default, "linear"): the
5th percentile of 1,000 values lies between the 50th and 51st smallest. A difference between
two variants is paired seed by seed (the same seeds, so the same dice for the same rolls),
with a 95 % confidence interval by the normal approximation, policy
**paired-normal-ci**: mean ± 1.96 · s/√n, s the sample standard deviation of the differences.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Sequence

import numpy as np

CI_POLICY = "paired-normal-ci: 95 % interval of the mean per-seed difference, mean ± 1.96·s/√n (normal approximation)"
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Dist:
    n: int
    mean: float
    p5: float
    p95: float
    low: float
    high: float

    def to_dict(self) -> dict[str, float | None]:
        return _json_figures(asdict(self))

    def text(self, digits: int = 2) -> str:
        if self.n == 0:
            return "-"
        return f"{self.mean:.{digits}f} [{self.p5:.{digits}f}-{self.p95:.{digits}f}]"


def dist(values: Sequence[float]) -> Dist:
    """The distribution of ``values`` (n = 0: every figure is NaN, shown as ``-``)."""
    if not values:
        nan = float("nan")
        return Dist(0, nan, nan, nan, nan, nan)
    a = np.asarray(values, dtype=float)
    p5, p95 = np.percentile(a, [5, 95])
    return Dist(len(a), float(a.mean()), float(p5), float(p95), float(a.min()), float(a.max()))


@dataclass(frozen=True)
class Difference:
    n: int
    mean: float          # mean of (b - a) over the seeds
    ci_low: float
    ci_high: float

    def to_dict(self) -> dict[str, float | None]:
        return _json_figures(asdict(self))

    def text(self, digits: int = 2) -> str:
        return signed_with_ci(*(None if math.isnan(v) else v for v in (self.mean, self.ci_low, self.ci_high)),
                              digits=digits) if self.n else "-"


def _json_figures(figures: dict[str, float]) -> dict[str, float | None]:
    # NaN (no seeds; one seed has no interval) is None, JSON null, not NaN: NaN is not JSON,
    # and NaN != NaN made two reports of the same outcomes compare unequal
    return {k: (None if isinstance(v, float) and math.isnan(v) else round(v, 6) if isinstance(v, float) else v)
            for k, v in figures.items()}


def signed_with_ci(mean: float | None, low: float | None, high: float | None, digits: int = 2) -> str:
    """``+1.25 [+0.80, +1.70]``; ``-`` for a figure there is none of (None: no seeds, or one
    seed, which has no interval)."""
    def one(v: float | None) -> str:
        return "-" if v is None else f"{v:+.{digits}f}"

    return f"{one(mean)} [{one(low)}, {one(high)}]"


def paired_difference(a: Sequence[float], b: Sequence[float]) -> Difference:
    """B − A, seed by seed (``a[i]`` and ``b[i]`` come from the same seed)."""
    if len(a) != len(b):
        raise ValueError(f"paired samples differ in length: {len(a)} and {len(b)}")
    if not a:
        nan = float("nan")
        return Difference(0, nan, nan, nan)
    d = np.asarray(b, dtype=float) - np.asarray(a, dtype=float)
    mean = float(d.mean())
    half = Z95 * float(d.std(ddof=1)) / math.sqrt(len(d)) if len(d) > 1 else float("nan")
    return Difference(len(d), mean, mean - half, mean + half)
