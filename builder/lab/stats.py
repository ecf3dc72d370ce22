"""The statistics of the balance lab: Wilson intervals for rates, distribution-free
intervals for percentiles. Plain Python, no randomness: the same games give the same
figures."""

from __future__ import annotations

import math
from statistics import NormalDist


def z_for(confidence: float) -> float:
    """The two-sided normal quantile: 1.96 for 0.95."""
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def wilson(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval of a rate (E. B. Wilson, 1927): good for rates near 0 or 1
    and small samples, where the normal approximation is not."""
    if n == 0:
        return 0.0, 1.0
    z = z_for(confidence)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def rate(successes: int, n: int, confidence: float = 0.95) -> dict:
    lo, hi = wilson(successes, n, confidence)
    return {"count": successes, "games": n, "rate": round(successes / n, 6) if n else 0.0,
            "low": round(lo, 6), "high": round(hi, 6)}


def quantile(sorted_values: list[int], q: float) -> int:
    """The q-quantile as the value at rank ceil(q n) (the smallest value with at least a
    share q of the sample at or below it)."""
    n = len(sorted_values)
    k = min(max(math.ceil(q * n), 1), n)
    return sorted_values[k - 1]


def quantile_interval(sorted_values: list[int], q: float,
                      confidence: float = 0.95) -> tuple[int, int]:
    """A distribution-free interval for the q-quantile from order statistics: the ranks
    n q -/+ z sqrt(n q (1 - q)) (the normal approximation to the binomial count of values
    below the quantile)."""
    n = len(sorted_values)
    if n == 0:
        return 0, 0
    z = z_for(confidence)
    half = z * math.sqrt(n * q * (1 - q))
    lo = min(max(math.floor(n * q - half), 1), n)
    hi = min(max(math.ceil(n * q + half) + 1, 1), n)
    return sorted_values[lo - 1], sorted_values[hi - 1]


def distribution(values: list[int], confidence: float = 0.95) -> dict:
    """Median, 10th and 90th percentiles (each with its interval), the longest, and a
    histogram of the values."""
    v = sorted(values)
    out: dict = {"games": len(v)}
    if not v:
        return out
    for name, q in (("p10", 0.10), ("median", 0.50), ("p90", 0.90), ("p99", 0.99)):
        lo, hi = quantile_interval(v, q, confidence)
        out[name] = {"value": quantile(v, q), "low": lo, "high": hi}
    out["shortest"] = v[0]
    out["longest"] = v[-1]
    counts: dict[int, int] = {}
    for x in v:
        counts[x] = counts.get(x, 0) + 1
    out["histogram"] = [[x, counts[x]] for x in sorted(counts)]
    return out


def share_at_most(values: list[int], limit: int, confidence: float = 0.95) -> dict:
    return rate(sum(1 for x in values if x <= limit), len(values), confidence)


def mean_interval(values: list[float], confidence: float = 0.95,
                  bounds: tuple[float, float] | None = None) -> dict:
    """The mean with its normal interval, mean -/+ z s / sqrt(n) (s: the sample's standard
    deviation, n - 1 in its denominator): fair for a mean of many games whatever the
    shape of one game's value (the central limit theorem); ``bounds``: the least and
    most a value can be (a share: 0 and 1), which the interval does not pass. One value:
    no spread to measure, so the interval is the value itself; none: ``{"games": 0}``."""
    n = len(values)
    if n == 0:
        return {"games": 0}
    m = math.fsum(values) / n
    half = 0.0
    if n > 1:
        sd = math.sqrt(math.fsum((x - m) ** 2 for x in values) / (n - 1))
        half = z_for(confidence) * sd / math.sqrt(n)
    lo, hi = m - half, m + half
    if bounds is not None:
        lo, hi = max(lo, bounds[0]), min(hi, bounds[1])
    return {"games": n, "value": round(m, 6), "low": round(lo, 6), "high": round(hi, 6)}


def median_interval(values: list[float], confidence: float = 0.95) -> dict:
    """The median (the value at rank ceil(n / 2)) with its distribution-free interval
    (:func:`quantile_interval`); none: ``{"games": 0}``."""
    v = sorted(values)
    if not v:
        return {"games": 0}
    lo, hi = quantile_interval(v, 0.5, confidence)
    return {"games": len(v), "value": quantile(v, 0.5), "low": lo, "high": hi}
