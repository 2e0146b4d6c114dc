"""Approximate randomisation: is the F1 difference of two systems against gold due to chance?

The null hypothesis is that the two outputs are interchangeable. Each shuffle swaps the
two systems' outputs of every document with probability 1/2, and the statistic is the
absolute difference of micro F1. With R shuffles of which r reach the observed
difference, p = (r + 1) / (R + 1). Shuffles are vectorised: a random 0/1 matrix
(shuffles x documents, drawn in blocks) and a matrix product give the shuffled counts.

Running one test per category plus the overall test inflates the chance of a false
positive, so the significance threshold is divided by the number of tests (Bonferroni),
as seeds 000 and 002 do (0.05 / 13 = 0.0038 there).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from annotator.errors import UsageError
from annotator.evaluation.counts import Counts, none_if_nan
from annotator.evaluation.engine import EvaluationResult

DEFAULT_SHUFFLES = 9999
#: Shuffles drawn at once (a multiple of 4; see :func:`randomisation_test`).
SHUFFLE_BLOCK = 4096
OVERALL = "overall"


@dataclass
class SignificanceTest:
    """One comparison (overall or one category)."""

    name: str
    counts_a: Counts
    counts_b: Counts
    difference: float
    p_value: float
    shuffles: int

    def to_dict(self, threshold: float) -> dict[str, object]:
        return {
            "name": self.name,
            "a": self.counts_a.to_dict(),
            "b": self.counts_b.to_dict(),
            "f1_difference": none_if_nan(self.difference),
            "p_value": none_if_nan(self.p_value),
            "significant": bool(self.p_value < threshold) if not math.isnan(self.p_value) else False,
        }


@dataclass
class SignificanceReport:
    alpha: float
    shuffles: int
    seed: int
    tests: list[SignificanceTest] = field(default_factory=list)

    @property
    def threshold(self) -> float:
        """Bonferroni-corrected threshold: alpha divided by the number of tests."""
        return self.alpha / max(1, len(self.tests))

    def to_dict(self) -> dict[str, object]:
        return {
            "schema": "phi-annotator/significance/1",
            "method": "approximate randomisation (document-level swaps), statistic |F1(A) - F1(B)| (micro)",
            "shuffles": self.shuffles,
            "seed": self.seed,
            "alpha": self.alpha,
            "tests": len(self.tests),
            "bonferroni_threshold": self.threshold,
            "results": [t.to_dict(self.threshold) for t in self.tests],
        }


def _f1(tp: np.ndarray, fp: np.ndarray, fn: np.ndarray) -> np.ndarray:
    denominator = 2 * tp + fp + fn
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(denominator > 0, 2 * tp / np.where(denominator > 0, denominator, 1), 0.0)


def randomisation_test(
    a: np.ndarray, b: np.ndarray, shuffles: int = DEFAULT_SHUFFLES, rng: np.random.Generator | None = None
) -> tuple[float, float]:
    """(observed |F1 difference|, p value) for per-document count arrays of shape (docs, 3).

    Columns are tp, fp, fn. F1 of a system with no items at all counts as 0 here so the
    statistic is always defined.
    """
    if shuffles < 1:
        raise UsageError("the number of shuffles must be at least 1")
    rng = rng or np.random.default_rng(0)
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    total_a, total_b = a.sum(axis=0), b.sum(axis=0)
    observed = float(abs(_f1(*total_a) - _f1(*total_b)))
    if a.shape[0] == 0:
        return observed, math.nan
    delta = b - a  # swapping document d moves delta[d] from A to B
    reached = 0
    # In blocks of shuffles, so memory stays flat however many shuffles are asked for. A block
    # of a multiple of 4 rows draws whole 32-bit words, so the swaps (and p) are exactly those
    # of one big draw with the same seed.
    for first in range(0, shuffles, SHUFFLE_BLOCK):
        rows = min(SHUFFLE_BLOCK, shuffles - first)
        swap = rng.integers(0, 2, size=(rows, a.shape[0]), dtype=np.int8).astype(np.float64)
        moved = swap @ delta  # (rows, 3)
        shuffled_a = total_a + moved
        shuffled_b = total_b - moved
        statistic = np.abs(
            _f1(shuffled_a[:, 0], shuffled_a[:, 1], shuffled_a[:, 2])
            - _f1(shuffled_b[:, 0], shuffled_b[:, 1], shuffled_b[:, 2])
        )
        # A tiny tolerance so that ties with the observed value (floating noise) count as reached.
        reached += int(np.count_nonzero(statistic >= observed - 1e-12))
    return observed, (reached + 1) / (shuffles + 1)


def _by_document(result: EvaluationResult, doc_ids: Sequence[str], category: str | None) -> np.ndarray:
    rows = {d.doc_id: d for d in result.documents}
    out = np.zeros((len(doc_ids), 3), dtype=np.float64)
    for i, doc_id in enumerate(doc_ids):
        document = rows.get(doc_id)
        if document is None:
            continue
        for label, counts in document.labels.items():
            if category is None or label.split("/", 1)[0] == category:
                out[i] += (counts.tp, counts.fp, counts.fn)
    return out


def compare_systems(
    result_a: EvaluationResult,
    result_b: EvaluationResult,
    shuffles: int = DEFAULT_SHUFFLES,
    seed: int = 0,
    alpha: float = 0.05,
    per_category: bool = True,
) -> SignificanceReport:
    """Overall and per-category approximate randomisation tests of two results on the same gold."""
    doc_ids = sorted({d.doc_id for d in result_a.documents} | {d.doc_id for d in result_b.documents})
    report = SignificanceReport(alpha=alpha, shuffles=shuffles, seed=seed)
    rng = np.random.default_rng(seed)
    names: list[str | None] = [None]
    if per_category and result_a.options.match != "tagblind":
        names += sorted(set(result_a.per_category) | set(result_b.per_category))
    for category in names:
        a = _by_document(result_a, doc_ids, category)
        b = _by_document(result_b, doc_ids, category)
        difference, p_value = randomisation_test(a, b, shuffles, rng)
        sa, sb = a.sum(axis=0).astype(int), b.sum(axis=0).astype(int)
        report.tests.append(
            SignificanceTest(
                name=category or OVERALL,
                counts_a=Counts(int(sa[0]), int(sa[1]), int(sa[2])),
                counts_b=Counts(int(sb[0]), int(sb[1]), int(sb[2])),
                difference=difference,
                p_value=p_value,
                shuffles=shuffles,
            )
        )
    return report
