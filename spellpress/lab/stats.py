"""The statistics of a report: Wilson intervals for rates, nearest-rank quantiles for lengths."""

from __future__ import annotations

import math
from collections import Counter

Z95 = 1.959963984540054  # the normal quantile of a two-sided 95% interval


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a rate wins/n (0..1 both ends; (0, 1) when n is 0)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def quantile(counts: Counter[int], q: float) -> int | None:
    """The nearest-rank q-quantile of integer values given as value -> how often (None if empty)."""
    n = sum(counts.values())
    if n == 0:
        return None
    rank = max(1, math.ceil(q * n))
    seen = 0
    for value in sorted(counts):
        seen += counts[value]
        if seen >= rank:
            return value
    raise AssertionError("unreachable: the ranks add up to n")
