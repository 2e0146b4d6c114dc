"""One PHI annotation, immutable: edits replace it through a history command."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from enum import StrEnum

from annotator.core.span import Span


class Source(StrEnum):
    """Where an annotation came from, kept so the effect of pre-annotation can be measured."""

    HUMAN = "human"
    MODEL = "model"
    PROPAGATED = "propagated"
    ADJUDICATED = "adjudicated"


# Attributes the i2b2 writer knows; anything else on a tag is kept in ``extra``.
KNOWN_ATTRIBUTES = (
    "id",
    "start",
    "end",
    "text",
    "TYPE",
    "comment",
    "source",
    "confidence",
    "annotator",
    "pending",
)


@dataclass(frozen=True, slots=True)
class Annotation:
    """A tagged span of a note.

    Attributes
    ----------
    id: the tag id (``P0`` ...), unique within a document.
    tag: the category, the XML element name (``NAME``, ``DATE`` ...).
    type: the type within the category (``PATIENT``, ``DOCTOR`` ...).
    start, end: code-point offsets into the note text, end-exclusive.
    text: the annotated text as the file states it; equals ``TEXT[start:end]`` in a valid file.
    comment: free text from the annotator.
    source: provenance (human, model, propagated, adjudicated).
    confidence: the model's probability for model pre-annotations.
    annotator: who made (or adjudicated) it.
    pending: a pre-annotation nobody has reviewed yet.
    extra: unknown attributes, in file order, kept for lossless saving.
    fragment_of: for a later fragment of a discontinuous tag (MAE ``spans="1~5,9~12"``,
        brat ``1 5;9 12``), the id of the annotation holding its first fragment; each
        fragment is an annotation of its own so masking and scoring see all of them.
    """

    id: str
    tag: str
    type: str
    start: int
    end: int
    text: str
    comment: str = ""
    source: Source = Source.HUMAN
    confidence: float | None = None
    annotator: str = ""
    pending: bool = False
    extra: tuple[tuple[str, str], ...] = field(default=())
    fragment_of: str = ""

    @property
    def span(self) -> Span:
        return Span(self.start, self.end)

    @property
    def key(self) -> tuple[str, str, int, int]:
        """Identity for comparison: category, type and offsets."""
        return (self.tag, self.type, self.start, self.end)

    def replace(self, **changes: object) -> Annotation:
        """A copy with some fields changed (annotations are immutable)."""
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]

    def overlaps(self, other: Annotation) -> bool:
        return self.start < other.end and other.start < self.end
