"""Independent reference implementations for the statistics tests.

Written from the definitions, as plainly as possible, and sharing no code with
``annotator.evaluation``: exhaustive search instead of Kuhn's algorithm or two pointers,
``str.isalnum`` instead of the engine's token regex, fractions instead of floats. Only
small inputs are fed to them (the searches are exponential).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from fractions import Fraction

from annotator.evaluation.engine import Item

Compatible = Callable[[Item, Item], bool]


def label_of(item: Item, level: str) -> str:
    return item.category if level == "category" else f"{item.category}/{item.type}"


def strict_pair(level: str) -> Compatible:
    return lambda r, p: label_of(r, level) == label_of(p, level) and (r.start, r.end) == (p.start, p.end)


def relaxed_pair(level: str, distance: int) -> Compatible:
    return lambda r, p: (
        label_of(r, level) == label_of(p, level) and r.start == p.start and abs(r.end - p.end) <= distance
    )


def overlap_pair(level: str) -> Compatible:
    def compatible(r: Item, p: Item) -> bool:
        shared = set(range(r.start, r.end)) & set(range(p.start, p.end))
        return label_of(r, level) == label_of(p, level) and bool(shared)

    return compatible


def maximum_matching_size(
    reference: Sequence[Item], predicted: Sequence[Item], compatible: Compatible
) -> int:
    """The size of a largest one-to-one matching, by trying every assignment."""
    best = 0

    def search(index: int, used: frozenset[int], size: int) -> None:
        nonlocal best
        if size + (len(reference) - index) <= best:
            return  # cannot beat the best found
        if index == len(reference):
            best = max(best, size)
            return
        for k, candidate in enumerate(predicted):
            if k not in used and compatible(reference[index], candidate):
                search(index + 1, used | {k}, size + 1)
        search(index + 1, used, size)

    search(0, frozenset(), 0)
    return best


def span_counts(
    reference: Sequence[Item], predicted: Sequence[Item], compatible: Compatible, level: str
) -> dict[str, tuple[int, int, int]]:
    """Per label (tp, fp, fn) of a maximum one-to-one matching (pairs never cross labels)."""
    labels = {label_of(i, level) for i in (*reference, *predicted)}
    out = {}
    for label in labels:
        r = [i for i in reference if label_of(i, level) == label]
        p = [i for i in predicted if label_of(i, level) == label]
        tp = maximum_matching_size(r, p, compatible)
        out[label] = (tp, len(p) - tp, len(r) - tp)
    return out


def alnum_tokens(text: str) -> list[tuple[int, int]]:
    """Maximal runs of alphanumeric characters, found one character at a time."""
    tokens = []
    start = None
    for position, character in enumerate(text + " "):
        if character.isalnum() and position < len(text):
            if start is None:
                start = position
        elif start is not None:
            tokens.append((start, position))
            start = None
    return tokens


def covering(token: tuple[int, int], items: Sequence[Item]) -> list[Item]:
    return [i for i in items if max(token[0], i.start) < min(token[1], i.end)]


def token_counts(
    text: str, reference: Sequence[Item], predicted: Sequence[Item], label: Callable[[Item], str]
) -> dict[str, tuple[int, int, int]]:
    """Per label (tp, fp, fn) over (token, label) units."""
    out: dict[str, list[int]] = {}
    for token in alnum_tokens(text):
        r = {label(i) for i in covering(token, reference)}
        p = {label(i) for i in covering(token, predicted)}
        for lab in r | p:
            counts = out.setdefault(lab, [0, 0, 0])
            counts[0] += lab in r and lab in p
            counts[1] += lab in p and lab not in r
            counts[2] += lab in r and lab not in p
    return {lab: (c[0], c[1], c[2]) for lab, c in out.items()}


def token_label_sequence(text: str, items: Sequence[Item], level: str) -> list[str]:
    """One label per token: the longest covering item's (the first listed on a tie), else O."""
    labels = []
    for token in alnum_tokens(text):
        best: Item | None = None
        for item in covering(token, items):
            if best is None or item.end - item.start > best.end - best.start:
                best = item
        labels.append("O" if best is None else label_of(best, level))
    return labels


def f1_or_zero(tp: int, fp: int, fn: int) -> Fraction:
    denominator = 2 * tp + fp + fn
    return Fraction(2 * tp, denominator) if denominator else Fraction(0)


def exact_permutation_p(a: Sequence[Sequence[int]], b: Sequence[Sequence[int]]) -> tuple[Fraction, Fraction]:
    """(observed |F1(A) - F1(B)|, share of all 2^n document swaps reaching it), exactly."""

    def statistic(first: Sequence[Sequence[int]], second: Sequence[Sequence[int]]) -> Fraction:
        fa = f1_or_zero(*(sum(row[c] for row in first) for c in range(3)))
        fb = f1_or_zero(*(sum(row[c] for row in second) for c in range(3)))
        return abs(fa - fb)

    observed = statistic(a, b)
    reached = 0
    swaps = list(itertools.product((False, True), repeat=len(a)))
    for swap in swaps:
        first = [b[d] if s else a[d] for d, s in enumerate(swap)]
        second = [a[d] if s else b[d] for d, s in enumerate(swap)]
        reached += statistic(first, second) >= observed
    return observed, Fraction(reached, len(swaps))
