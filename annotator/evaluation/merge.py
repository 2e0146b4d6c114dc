"""One result from the results of disjoint parts of a corpus (e.g. partitions scored on a
cluster): the same numbers as scoring the whole corpus at once."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from annotator.evaluation.engine import (
    NONE_LABEL,
    ConfusionMatrix,
    EvaluationResult,
    Options,
    kappa_from_counts,
)


def merge_results(results: Sequence[EvaluationResult], options: Options) -> EvaluationResult:
    """Concatenate per-document results and add up every count.

    ``results`` come in corpus order (parts of document ids in ascending order), as the
    single-process scorer visits documents.

    Kappa is recomputed from the summed token label pairs, not averaged, so it equals the
    kappa of the whole corpus.
    """
    documents = [d for r in results for d in r.documents]
    cells: Counter[tuple[str, str]] = Counter()
    kappa_pairs: Counter[tuple[str, str]] = Counter()
    tagblind_pairs: Counter[tuple[str, str]] = Counter()
    category_of: dict[str, str] = {}
    for result in results:
        cells.update(result.confusion.cells)
        kappa_pairs.update(result.kappa_pairs)
        tagblind_pairs.update(result.tagblind_pairs)
        category_of.update(result.category_of)
    disagreements = [d for r in results for d in r.disagreements]
    labels = sorted({label for pair in cells for label in pair if label != NONE_LABEL})
    return EvaluationResult(
        options=options,
        documents=documents,
        confusion=ConfusionMatrix(labels, dict(cells)),
        kappa_labelled=kappa_from_counts(kappa_pairs),
        kappa_tagblind=kappa_from_counts(tagblind_pairs),
        disagreements=disagreements,
        skipped=[s for r in results for s in r.skipped],
        category_of=category_of,
        kappa_pairs=kappa_pairs,
        tagblind_pairs=tagblind_pairs,
    )
