"""Confidence intervals of a corpus-level (micro) F1, by resampling documents.

Tags within one note are not independent (one annotator's habit repeats through a note), so
the unit resampled is the document, with its tp, fp and fn (a cluster bootstrap): each
resample draws as many documents as there are, with replacement, sums their counts and
computes F1 from the sums, as the corpus figure is computed. The percentile interval of those
F1s is reported. Seeded, so the same folders give the same interval.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from annotator.evaluation.counts import Counts

RESAMPLES = 2000
LEVEL = 0.95
#: Document indices drawn at once (8 MB of int64), however many documents and resamples.
_BLOCK = 1 << 20


def micro_f1_interval(
    documents: Sequence[Counts], resamples: int = RESAMPLES, seed: int = 0, level: float = LEVEL
) -> tuple[float, float] | None:
    """The percentile bootstrap interval of micro F1 over ``documents``' counts.

    None for fewer than two documents, or when no document holds a tag (F1 undefined).
    """
    counts = np.array([(c.tp, c.fp, c.fn) for c in documents], dtype=np.int64).reshape(-1, 3)
    if len(counts) < 2 or not counts.any():
        return None
    rng = np.random.default_rng(seed)
    f1 = np.empty(resamples, dtype=float)
    rows = max(1, _BLOCK // len(counts))
    for first in range(0, resamples, rows):
        size = min(rows, resamples - first)
        sums = counts[rng.integers(0, len(counts), size=(size, len(counts)))].sum(axis=1)
        tp, fp, fn = sums[:, 0], sums[:, 1], sums[:, 2]
        denominator = 2 * tp + fp + fn
        # A resample of documents without any tag has no F1: left out of the percentiles.
        with np.errstate(invalid="ignore", divide="ignore"):
            f1[first : first + size] = np.where(denominator > 0, 2 * tp / denominator, np.nan)
    tail = (1 - level) / 2
    low, high = np.nanquantile(f1, [tail, 1 - tail])
    return float(low), float(high)
