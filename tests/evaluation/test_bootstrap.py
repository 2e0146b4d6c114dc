"""The document bootstrap of micro F1: the same numbers as a plain loop over resamples, no
interval where none can be drawn, narrower with more documents."""

from __future__ import annotations

import math

import numpy as np
import pytest

from annotator.evaluation import bootstrap
from annotator.evaluation.bootstrap import micro_f1_interval
from annotator.evaluation.counts import Counts

DOCUMENTS = [
    Counts(5, 1, 0),
    Counts(2, 0, 3),
    Counts(0, 2, 1),
    Counts(7, 0, 0),
    Counts(1, 1, 1),
    Counts(0, 0, 0),
]


def plain_loop(documents: list[Counts], resamples: int, seed: int) -> tuple[float, float]:
    """The bootstrap written the obvious way: one resample of documents at a time."""
    rng = np.random.default_rng(seed)
    scores = []
    for _ in range(resamples):
        drawn = [documents[i] for i in rng.integers(0, len(documents), size=len(documents))]
        tp, fp, fn = (sum(getattr(c, f) for c in drawn) for f in ("tp", "fp", "fn"))
        if 2 * tp + fp + fn:
            scores.append(2 * tp / (2 * tp + fp + fn))
    low, high = np.quantile(scores, [0.025, 0.975])
    return float(low), float(high)


@pytest.mark.parametrize("block", [1 << 20, 7])
def test_the_interval_is_the_plain_loops_whatever_the_block(
    monkeypatch: pytest.MonkeyPatch, block: int
) -> None:
    # Drawn in blocks of rows to keep memory flat: the same stream of indices either way.
    monkeypatch.setattr(bootstrap, "_BLOCK", block)
    found = micro_f1_interval(DOCUMENTS, resamples=500, seed=3)
    assert found is not None
    assert all(math.isclose(a, b) for a, b in zip(found, plain_loop(DOCUMENTS, 500, 3), strict=True))


def test_no_interval_from_one_document_or_from_documents_without_tags() -> None:
    assert micro_f1_interval(DOCUMENTS[:1]) is None
    assert micro_f1_interval([Counts(), Counts()]) is None
    assert micro_f1_interval([]) is None


def test_the_interval_holds_the_corpus_f1_and_narrows_with_more_documents() -> None:
    total = sum(DOCUMENTS, Counts())
    f1 = 2 * total.tp / (2 * total.tp + total.fp + total.fn)
    few = micro_f1_interval(DOCUMENTS)
    many = micro_f1_interval(DOCUMENTS * 25)
    assert few is not None and many is not None
    assert few[0] < f1 < few[1] and many[0] < f1 < many[1]
    assert many[1] - many[0] < (few[1] - few[0]) / 3
    assert micro_f1_interval(DOCUMENTS) == few  # seeded: the same folders, the same interval
