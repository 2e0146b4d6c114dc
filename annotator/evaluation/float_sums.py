"""numpy's mean and standard deviation of a float64 vector, in plain Python, bit for bit.

The official i2b2 scorer prints ``numpy.mean`` and ``numpy.std`` of the per-document scores
to four decimals, and ``--mode i2b2`` must print the same bytes. Summing floats in another
order can change the last bit, so this module sums the way numpy does (pairwise summation:
runs of fewer than 8 values one by one, up to 128 values in 8 interleaved partial sums,
longer vectors split in two halves cut at a multiple of 8). Importing numpy costs a tenth of
a second on every run of ``evaluate --mode i2b2``, about a seventh of the whole command;
``tests/evaluation/test_float_sums.py`` checks these functions against numpy itself.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import reduce
from operator import add

_BLOCK = 128
_UNROLL = 8


def pairwise_sum(values: Sequence[float], start: int = 0, count: int | None = None) -> float:
    """``numpy.add.reduce`` of ``values[start:start + count]`` (a contiguous float64 vector)."""
    n = len(values) - start if count is None else count
    if n < _UNROLL:
        total = -0.0
        for index in range(start, start + n):
            total += values[index]
        return total
    if n <= _BLOCK:
        whole = start + n - n % _UNROLL
        # Lane k adds values k, k + 8, k + 16, ... in turn (a left fold: never sum(), which
        # compensates rounding on Python 3.12 and later).
        partial = [reduce(add, values[start + lane : whole : _UNROLL]) for lane in range(_UNROLL)]
        total = ((partial[0] + partial[1]) + (partial[2] + partial[3])) + (
            (partial[4] + partial[5]) + (partial[6] + partial[7])
        )
        for rest in range(whole, start + n):
            total += values[rest]
        return total
    half = n // 2
    half -= half % _UNROLL
    return pairwise_sum(values, start, half) + pairwise_sum(values, start + half, n - half)


def mean(values: Sequence[float]) -> float:
    """``numpy.mean`` (nan for no values, as numpy gives with a warning)."""
    return pairwise_sum(values) / len(values) if values else math.nan


def std(values: Sequence[float]) -> float:
    """``numpy.std`` (population: ``ddof=0``)."""
    if not values:
        return math.nan
    centre = mean(values)
    return math.sqrt(pairwise_sum([(v - centre) * (v - centre) for v in values]) / len(values))
