"""Pre-annotation: model suggestions that never touch what people annotated.

A suggestion overlapping any annotation already in the document (a human's, an
adjudicator's, or an earlier suggestion) is dropped, so pre-annotating twice adds nothing
the second time and nobody's work is altered or removed.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from annotator.core.annotation import Annotation
from annotator.core.document import Document
from annotator.core.history import AddAnnotation, Command, History
from annotator.crf.tagger import CrfTagger


@dataclass
class Suggestions:
    """The suggestions kept for one document, and how many were dropped for overlapping."""

    document: Document
    kept: list[Annotation]
    dropped: int


def non_overlapping(document: Document, suggestions: Sequence[Annotation]) -> tuple[list[Annotation], int]:
    """Suggestions that overlap no existing annotation nor each other; and the dropped count.

    One sweep over both sorted lists (a long note has tens of thousands of suggestions).
    """
    existing = sorted((a.start, a.end) for a in document.annotations)
    starts = [start for start, _ in existing]
    # The furthest end among existing annotations starting at or before each index.
    reach: list[int] = []
    for _, end in existing:
        reach.append(max(end, reach[-1]) if reach else end)
    kept: list[Annotation] = []
    kept_end = -1
    for suggestion in sorted(suggestions, key=lambda a: (a.start, a.end)):
        before = bisect.bisect_left(starts, suggestion.end) - 1  # existing ones starting before its end
        if before >= 0 and reach[before] > suggestion.start:
            continue
        if suggestion.start < kept_end:
            continue
        kept.append(suggestion)
        kept_end = max(kept_end, suggestion.end)
    return kept, len(suggestions) - len(kept)


def suggest(
    tagger: CrfTagger,
    documents: Sequence[Document],
    recall_bias: float | None = None,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
    workers: int = 1,
) -> list[Suggestions]:
    """Model suggestions for each document (patients' records are tagged together), on
    ``workers`` processes."""
    predicted = tagger.predict_corpus(documents, recall_bias, progress, cancelled, workers)
    results = []
    for document in documents:
        kept, dropped = non_overlapping(document, predicted[document.doc_id])
        results.append(Suggestions(document, kept, dropped))
    return results


def add_suggestions(
    document: Document, suggestions: Sequence[Annotation], history: History | None = None
) -> None:
    """Add suggestions to a document as one undoable step."""
    commands: list[Command] = [AddAnnotation(document, a) for a in suggestions]
    (history or History()).push_all(commands, f"pre-annotate ({len(commands)} suggestions)")
