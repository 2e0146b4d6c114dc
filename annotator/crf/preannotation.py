"""Pre-annotation: model suggestions that never touch what people annotated.

A suggestion overlapping any annotation already in the document (a human's, an
adjudicator's, or an earlier suggestion) is dropped, so pre-annotating twice adds nothing
the second time and nobody's work is altered or removed.
"""

from __future__ import annotations

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
    """Suggestions that overlap no existing annotation nor each other; and the dropped count."""
    existing = sorted((a.start, a.end) for a in document.annotations)
    kept: list[Annotation] = []
    for suggestion in sorted(suggestions, key=lambda a: (a.start, a.end)):
        if any(start < suggestion.end and suggestion.start < end for start, end in existing):
            continue
        if any(k.start < suggestion.end and suggestion.start < k.end for k in kept):
            continue
        kept.append(suggestion)
    return kept, len(suggestions) - len(kept)


def suggest(
    tagger: CrfTagger,
    documents: Sequence[Document],
    recall_bias: float | None = None,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> list[Suggestions]:
    """Model suggestions for each document (patients' records are tagged together)."""
    predicted = tagger.predict_corpus(documents, recall_bias, progress, cancelled)
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
