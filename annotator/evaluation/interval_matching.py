"""Maximum one-to-one matching of overlapping spans in O(n log n), for piles of tags.

The engine's matching (:func:`annotator.evaluation.engine.max_overlap_matching`) is Kuhn's
augmenting-path search over explicit candidate lists. Its pairs are the ones every report has
always shown, but a pile of nested tags that all overlap one another has n² candidate pairs
and augmenting paths n long: 1,000 nested tags took 10 s and 3,000 five minutes. This module
gives a maximum matching of the same graph without listing its edges, so the number of pairs
(what overlap scoring counts) is the same; which tag pairs with which may differ.

Why a greedy sweep is enough: two spans overlap exactly when two closed intervals intersect
(:func:`_closed`), and in a bipartite graph of intersecting intervals, matching each interval,
at its right end, to the unmatched interval of the other side that started before and ends
first is optimal. Every partner an interval can still have is one that has started and not yet
ended (one that ended earlier would have taken it then), and the one ending first is the one
least useful to anyone else: any maximum matching can be exchanged into the greedy's one pair
at a time. An empty reference item (``start == end``) matches only predictions starting at its
position, which no interval can express; :func:`representable` tells the caller to keep
Kuhn's search then.
"""

from __future__ import annotations

import bisect
import heapq
from collections.abc import Sequence
from typing import Protocol


class Span(Protocol):
    @property
    def start(self) -> int: ...

    @property
    def end(self) -> int: ...


def _closed(span: Span) -> tuple[int, int]:
    """A closed interval on 4x coordinates that meets another exactly when the spans overlap.

    A non-empty span [s, e) meets [s', e') when s < e' and s' < e: [4s, 4e - 3] does that. An
    empty prediction at q overlaps a non-empty reference item when s < q < e: the point
    4q - 2 lies inside [4s, 4e - 3] exactly then.
    """
    if span.start == span.end:
        return (4 * span.start - 2, 4 * span.start - 2)
    return (4 * span.start, 4 * span.end - 3)


def representable(reference: Sequence[Span]) -> bool:
    """Whether the overlap graph is an interval graph: no empty reference item."""
    return all(item.start != item.end for item in reference)


def candidate_pair_count(reference: Sequence[Span], predicted: Sequence[Span]) -> int:
    """How many (reference, prediction) pairs overlap, counted in O(n log n) without listing them.

    For a representable graph (see :func:`representable`): a prediction meets a reference
    interval [a, b] unless it ends before a or starts after b, and no prediction does both.
    """
    closed = [_closed(p) for p in predicted]
    lefts = sorted(low for low, _ in closed)
    rights = sorted(high for _, high in closed)
    total = 0
    for item in reference:
        low, high = _closed(item)
        starts_by_high = bisect.bisect_right(lefts, high)
        ends_before_low = bisect.bisect_left(rights, low)
        total += starts_by_high - ends_before_low
    return total


def greedy_interval_matching(reference: Sequence[Span], predicted: Sequence[Span]) -> list[tuple[int, int]]:
    """A maximum matching of overlapping (reference, prediction) index pairs, sorted.

    Only for a representable graph (no empty reference item). Ties are broken by position and
    then by index, so the result depends on the input alone.
    """
    if not representable(reference):
        raise ValueError("an empty reference item is not an interval; use the augmenting-path search")
    # side 0 = reference, 1 = predicted; an interval is (left, right, side, index)
    intervals = [(*_closed(item), 0, k) for k, item in enumerate(reference)]
    intervals += [(*_closed(item), 1, k) for k, item in enumerate(predicted)]
    by_left = sorted(intervals)
    by_right = sorted(intervals, key=lambda iv: (iv[1], iv[0], iv[2], iv[3]))
    mate: list[list[int]] = [[-1] * len(reference), [-1] * len(predicted)]
    ended: list[bytearray] = [bytearray(len(reference)), bytearray(len(predicted))]
    started: list[list[tuple[int, int, int]]] = [[], []]  # per side: heap of (right, left, index)
    next_left = 0
    for _, right, side, index in by_right:
        # Every interval starting at or before this right end may meet this one.
        while next_left < len(by_left) and by_left[next_left][0] <= right:
            low, high, its_side, its_index = by_left[next_left]
            heapq.heappush(started[its_side], (high, low, its_index))
            next_left += 1
        ended[side][index] = 1
        if mate[side][index] >= 0:
            continue
        other = 1 - side
        heap = started[other]
        while heap and (mate[other][heap[0][2]] >= 0 or ended[other][heap[0][2]]):
            heapq.heappop(heap)  # matched or past: can partner no one from here on
        if heap:
            _, _, partner = heapq.heappop(heap)
            mate[side][index] = partner
            mate[other][partner] = index
    return sorted((r, p) for r, p in enumerate(mate[0]) if p >= 0)
