"""BIO labels: from annotations to token labels, and from token labels back to spans."""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from annotator.core.annotation import Annotation
from annotator.crf.tokenizer import Token

OUTSIDE = "O"


@dataclass(frozen=True, slots=True)
class Prediction:
    """A PHI span found by the tagger or a rule, before it becomes an :class:`Annotation`.

    Attributes
    ----------
    type: the schema type (``DOCTOR``).
    start, end: code-point offsets, end-exclusive.
    confidence: mean marginal probability of the span's token labels (1.0 for sure rules).
    origin: ``crf``, or the post-processing rule that made or changed it.
    """

    type: str
    start: int
    end: int
    confidence: float
    origin: str = "crf"

    def overlaps(self, start: int, end: int) -> bool:
        return self.start < end and start < self.end


def type_of(label: str) -> str:
    return label[2:] if label != OUTSIDE else ""


def annotations_to_labels(tokens: Sequence[Token], annotations: Iterable[Annotation]) -> list[str]:
    """BIO labels of the tokens: a token overlapping an annotation takes its type.

    Overlapping annotations are resolved in favour of the earlier, then longer, one.
    """
    labels = [OUTSIDE] * len(tokens)
    starts = [t.start for t in tokens]
    for annotation in sorted(annotations, key=lambda a: (a.start, -(a.end - a.start))):
        first = bisect.bisect_right(starts, annotation.start) - 1
        if first < 0 or tokens[first].end <= annotation.start:
            first += 1
        position = first
        covered = []
        while position < len(tokens) and tokens[position].start < annotation.end:
            covered.append(position)
            position += 1
        if not covered or any(labels[p] != OUTSIDE for p in covered):
            continue
        labels[covered[0]] = "B-" + annotation.type
        for p in covered[1:]:
            labels[p] = "I-" + annotation.type
    return labels


def labels_to_spans(
    tokens: Sequence[Token], labels: Sequence[str], probabilities: Sequence[float]
) -> list[Prediction]:
    """Spans from BIO labels; an ``I-`` that does not continue its type, or that starts a
    new line, starts a span."""
    spans: list[Prediction] = []
    current_type = ""
    start = end = line = 0
    scores: list[float] = []

    def close() -> None:
        if current_type:
            spans.append(Prediction(current_type, start, end, sum(scores) / len(scores)))

    for token, label, probability in zip(tokens, labels, probabilities, strict=True):
        if label == OUTSIDE:
            close()
            current_type = ""
            continue
        kind = type_of(label)
        # A span never runs across a line break: PHI on consecutive lines is two mentions.
        if label.startswith("I-") and kind == current_type and token.line == line:
            end = token.end
            scores.append(probability)
            continue
        close()
        current_type, start, end, line, scores = kind, token.start, token.end, token.line, [probability]
    close()
    return spans
