"""Which model suggestions go into an open document, and what to tell the annotator about the rest.

A suggestion is skipped when the annotator already rejected one at the same place (any
type: rejecting says "not PHI here"), or when it overlaps an annotation of the document as
it is now (nobody's work is ever changed by the model). :class:`SuggestionOutcome` counts
both, so the window can say exactly what happened ("12 suggestions added, 3 skipped:
already rejected").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from annotator.core.annotation import Annotation
from annotator.core.document import Document


@dataclass
class SuggestionOutcome:
    """What became of a batch of suggestions for one document.

    Attributes
    ----------
    doc_id: the document.
    added: the suggestions added (pending), as added.
    rejected: skipped because the annotator rejected a suggestion at the same place.
    overlapping: skipped because they overlap an existing annotation (or each other).
    refused: why nothing could be added at all ("" when the document took them).
    """

    doc_id: str
    added: list[Annotation] = field(default_factory=list)
    rejected: list[Annotation] = field(default_factory=list)
    overlapping: list[Annotation] = field(default_factory=list)
    refused: str = ""

    def summary(self) -> str:
        """One line: ``12 suggestions added, 3 skipped: already rejected, ...``."""
        if self.refused:
            return f"No suggestions added to {self.doc_id}: {self.refused}"
        parts = [f"{_count(len(self.added), 'suggestion')} added to {self.doc_id}"]
        if self.rejected:
            parts.append(f"{len(self.rejected)} skipped: already rejected")
        if self.overlapping:
            parts.append(f"{len(self.overlapping)} skipped: overlapping an existing annotation")
        return ", ".join(parts)

    def by_type(self) -> list[tuple[str, int, int, int]]:
        """``(type, added, already rejected, overlapping)`` per type, most added first."""
        added = Counter(a.type for a in self.added)
        rejected = Counter(a.type for a in self.rejected)
        overlapping = Counter(a.type for a in self.overlapping)
        types = sorted(set(added) | set(rejected) | set(overlapping), key=lambda t: (-added[t], t))
        return [(t, added[t], rejected[t], overlapping[t]) for t in types]


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def sort_suggestions(
    document: Document, suggestions: Sequence[Annotation], rejected_spans: set[tuple[int, int]]
) -> SuggestionOutcome:
    """Split suggestions into those to add (fresh ids, pending) and those skipped, and why."""
    from annotator.crf.preannotation import non_overlapping  # the tagger's rule, loaded on use

    outcome = SuggestionOutcome(document.doc_id)
    fresh = []
    for suggestion in suggestions:
        if (suggestion.start, suggestion.end) in rejected_spans:
            outcome.rejected.append(suggestion)
        else:
            fresh.append(suggestion)
    kept, _ = non_overlapping(document, fresh)
    chosen = {id(a) for a in kept}
    outcome.overlapping = [a for a in fresh if id(a) not in chosen]
    outcome.added = [a.replace(id=document.new_id(), pending=True) for a in kept]
    return outcome
