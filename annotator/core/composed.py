"""Notes read in composed Unicode, with a way back to the offsets of the note as written.

A letter with an accent can be one character (``ñ``, as most editors write it) or a letter
followed by a combining mark (``n`` + U+0303, as some exports and macOS file systems write it).
The two look the same, but a rule that splits words at non-letters reads the second as
``Nun`` and ``ez``. The leak check reads both sides composed, so a name tagged one way and
left the other way is still the same name; each place it finds is mapped back to the note.
"""

from __future__ import annotations

import unicodedata
from array import array
from dataclasses import dataclass

from annotator.core.document import Document


@dataclass(frozen=True)
class ComposedText:
    """``text`` composed (NFC, one mark cluster at a time), with ``origin[i]``: where the
    boundary before composed character ``i`` lies in the text as written (``origin`` has one
    entry more than ``text``, for its end)."""

    text: str
    origin: array[int] | None  # None: the text was already composed; offsets are the same

    def to_written(self, offset: int) -> int:
        return offset if self.origin is None else self.origin[offset]


def compose(text: str) -> ComposedText:
    """``text`` with every letter and the combining marks after it composed where Unicode has
    one character for them; a text already composed is returned as it is (the usual case)."""
    if unicodedata.is_normalized("NFC", text):
        return ComposedText(text, None)
    pieces: list[str] = []
    origin = array("i")
    size = len(text)
    start = 0
    while start < size:
        end = start + 1
        while end < size and unicodedata.combining(text[end]):
            end += 1
        cluster = unicodedata.normalize("NFC", text[start:end])
        pieces.append(cluster)
        # Within a cluster the first characters keep their own places; a boundary cannot fall
        # inside what composed into one character, so the cluster's end follows its last one.
        origin.extend(min(start + k, end - 1) for k in range(len(cluster)))
        start = end
    origin.append(size)
    return ComposedText("".join(pieces), origin)


def composed_document(document: Document) -> tuple[Document, ComposedText]:
    """The document composed: its text, and its tags' offsets and texts moved with it."""
    composed = compose(document.text)
    if composed.origin is None:
        return document, composed
    to_composed = _inverse(composed.origin, len(document.text))
    annotations = [
        a.replace(
            start=to_composed[a.start],
            end=to_composed[a.end],
            text=unicodedata.normalize("NFC", a.text),
        )
        for a in document.annotations
    ]
    result = Document(document.doc_id, composed.text, annotations, document.origin)
    result.patient_id, result.record = document.patient_id, document.record
    return result, composed


def _inverse(origin: array[int], size: int) -> array[int]:
    """For each offset of the written text, the composed offset of the boundary at or after
    it (a tag's edge inside a composed cluster moves to the cluster's end)."""
    inverse = array("i", [0] * (size + 1))
    position = len(origin) - 1
    for written in range(size, -1, -1):
        while position > 0 and origin[position - 1] >= written:
            position -= 1
        inverse[written] = position
    return inverse


__all__ = ["ComposedText", "compose", "composed_document"]
