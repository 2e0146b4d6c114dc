"""How unsure the tagger is about a note: the measure the annotation queue is ordered by.

The measure is **least confidence per token**: for every token, one minus the marginal
probability of the label the tagger would give it (its Viterbi label), averaged over the
note's tokens. The sum is the number of tokens the tagger expects to get wrong; dividing by
the token count makes it a rate, so a long note does not rank first only for being long
(annotating it costs in proportion to its tokens too). Least confidence needs one marginal per
token, which :meth:`~annotator.crf.tagger.CrfTagger.score` computes anyway; expected token
entropy needs every label's marginal (63 labels for the bundled model) and orders notes the
same way (Spearman 0.996 over 150 PhysioNet notes of patients 1-110, docs/effort.md).

API
---
``note_uncertainty(tagger, document) -> NoteUncertainty``
    ``tokens``, ``characters``, ``expected_errors`` (the sum) and ``per_token`` (the rate).
"""

from __future__ import annotations

from dataclasses import dataclass

from annotator.core.document import Document
from annotator.crf.tagger import CrfTagger


@dataclass(frozen=True, slots=True)
class NoteUncertainty:
    """The tagger's doubt about one note.

    Attributes
    ----------
    doc_id: the note.
    tokens: how many tokens it has.
    characters: its length in code points.
    expected_errors: the sum over tokens of 1 - P(the tagger's label).
    """

    doc_id: str
    tokens: int
    characters: int
    expected_errors: float

    @property
    def per_token(self) -> float:
        """Least confidence averaged over tokens (0 for a note without tokens)."""
        return self.expected_errors / self.tokens if self.tokens else 0.0


def note_uncertainty(tagger: CrfTagger, document: Document) -> NoteUncertainty:
    """Score a note and add up the tagger's doubt about each token's label."""
    scored = tagger.score(document, ceiling=None)
    doubt = sum(1.0 - score.probability for score in scored.scores)
    return NoteUncertainty(document.doc_id, len(scored.tokens), len(document.text), max(doubt, 0.0))


def notes_uncertainty(
    tagger: CrfTagger, documents: list[Document], _: object = None
) -> dict[str, NoteUncertainty]:
    """:func:`note_uncertainty` of each note, by document id (a shard's work, see
    :func:`annotator.crf.parallel.map_shards`)."""
    return {document.doc_id: note_uncertainty(tagger, document) for document in documents}
