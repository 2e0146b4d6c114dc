"""True positive / false positive / false negative counts and the scores derived from them.

A :class:`Counts` is a small immutable value: counts add up (``a + b``), and precision,
recall, F1 and F-beta are properties. Undefined ratios (0/0) are ``nan``, never a silent
0, so an empty comparison cannot look like a perfect or a failed one.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

NAN = float("nan")
#: How every table (terminal, HTML, CSV, the GUI) shows an undefined score; JSON uses null.
UNDEFINED = "n/a"


def score_text(value: float | None, digits: int = 4) -> str:
    """A score for a table: fixed decimals, or :data:`UNDEFINED` for None and NaN."""
    if value is None or math.isnan(value):
        return UNDEFINED
    return f"{value:.{digits}f}"


def ratio(numerator: float, denominator: float) -> float:
    """``numerator / denominator``, ``nan`` when the denominator is 0."""
    return numerator / denominator if denominator else NAN


def f_beta_from_counts(tp: int, fp: int, fn: int, beta: float = 1.0) -> float:
    """F-beta from counts: ``(1+b²)tp / ((1+b²)tp + b²fn + fp)``; ``nan`` when all are 0.

    Beta > 1 weighs recall more (seed 004 reports F10).
    """
    if tp == 0:
        return NAN if fp == 0 and fn == 0 else 0.0
    b2 = beta * beta
    if b2 > 1:
        # Divided by b²: a huge beta (1e200: b² overflows to inf) tends to recall, not inf/inf.
        w = 1 / b2
        return (w + 1) * tp / ((w + 1) * tp + fn + w * fp)
    return (1 + b2) * tp / ((1 + b2) * tp + b2 * fn + fp)


def f_beta_from_scores(precision: float, recall: float, beta: float = 1.0) -> float:
    """F-beta from precision and recall; ``nan`` when either is nan or both are 0."""
    if math.isnan(precision) or math.isnan(recall):
        return NAN
    b2 = beta * beta
    if b2 > 1:
        w = 1 / b2  # divided by b² as in f_beta_from_counts: stable for a huge beta
        return ratio((w + 1) * precision * recall, precision + w * recall)
    return ratio((1 + b2) * precision * recall, b2 * precision + recall)


@dataclass(frozen=True, slots=True)
class Counts:
    """Counts of one comparison (a document, a category, a whole corpus ...).

    Attributes
    ----------
    tp: reference items found by the prediction.
    fp: predicted items with no reference counterpart.
    fn: reference items the prediction missed.
    """

    tp: int = 0
    fp: int = 0
    fn: int = 0

    def __add__(self, other: Counts) -> Counts:
        return Counts(self.tp + other.tp, self.fp + other.fp, self.fn + other.fn)

    @property
    def reference(self) -> int:
        """Items on the reference side (tp + fn)."""
        return self.tp + self.fn

    @property
    def predicted(self) -> int:
        """Items on the predicted side (tp + fp)."""
        return self.tp + self.fp

    @property
    def is_empty(self) -> bool:
        return self.tp == 0 and self.fp == 0 and self.fn == 0

    @property
    def precision(self) -> float:
        return ratio(self.tp, self.tp + self.fp)

    @property
    def recall(self) -> float:
        return ratio(self.tp, self.tp + self.fn)

    @property
    def f1(self) -> float:
        return f_beta_from_counts(self.tp, self.fp, self.fn, 1.0)

    def f_beta(self, beta: float) -> float:
        return f_beta_from_counts(self.tp, self.fp, self.fn, beta)

    def swapped(self) -> Counts:
        """The same comparison with reference and prediction exchanged."""
        return Counts(self.tp, self.fn, self.fp)

    def to_dict(self, beta: float | None = None) -> dict[str, float | int | None]:
        """Counts and scores; nan becomes ``None`` (JSON ``null``)."""
        data: dict[str, float | int | None] = {
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "precision": none_if_nan(self.precision),
            "recall": none_if_nan(self.recall),
            "f1": none_if_nan(self.f1),
        }
        if beta is not None and beta != 1.0:
            data["f_beta"] = none_if_nan(self.f_beta(beta))
        return data


def sum_counts(items: Iterable[Counts]) -> Counts:
    """The sum of an iterable of :class:`Counts`."""
    tp = fp = fn = 0
    for item in items:
        tp += item.tp
        fp += item.fp
        fn += item.fn
    return Counts(tp, fp, fn)


def none_if_nan(value: float) -> float | None:
    return None if math.isnan(value) else value
