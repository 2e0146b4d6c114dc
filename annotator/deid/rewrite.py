"""Re-writing a note with its PHI replaced, tags moved to the new offsets.

Overlapping annotations (rare in a gold standard) are replaced as one region: the union of
their spans gets the replacement of the longest one, and every tag of the group points at
the whole new region, so ``text == TEXT[start:end]`` holds for all of them.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass

from annotator.core.annotation import Annotation
from annotator.core.document import Document, Origin
from annotator.deid.surrogates import Surrogate


@dataclass(frozen=True)
class Replaced:
    """One annotation before and after; ``review`` says why it was masked, if it was, and
    ``note`` what was unusual about its surrogate."""

    original: Annotation
    new: Annotation
    review: str | None = None
    note: str | None = None


def rewrite_document(
    document: Document, replace: Callable[[Annotation], Surrogate]
) -> tuple[Document, list[Replaced]]:
    """A new document whose annotated text is replaced by ``replace(annotation)``.

    The new document has no origin (it is written in the canonical i2b2 layout), no tag
    comments and no unknown attributes, since free text there may hold PHI.
    """
    text = document.text
    ordered = sorted((a for a in document if a.end > a.start), key=lambda a: (a.start, -a.end, a.id))
    groups: list[list[Annotation]] = []
    for annotation in ordered:
        if groups and annotation.start < max(a.end for a in groups[-1]):
            groups[-1].append(annotation)
        else:
            groups.append([annotation])
    pieces: list[str] = []
    old_starts: list[int] = []
    new_starts: list[int] = []
    placed: dict[str, tuple[int, int, str | None, str | None]] = {}
    position = 0
    length = 0
    for group in groups:
        start, end = group[0].start, max(a.end for a in group)
        primary = max(group, key=lambda a: (a.end - a.start, -a.start))
        if (primary.start, primary.end) != (start, end):
            primary = primary.replace(start=start, end=end, text=text[start:end])
        surrogate = replace(primary)
        pieces.append(text[position:start])
        length += start - position
        old_starts.append(start)
        new_starts.append(length)
        pieces.append(surrogate.text)
        for annotation in group:
            placed[annotation.id] = (length, length + len(surrogate.text), surrogate.review, surrogate.note)
        length += len(surrogate.text)
        position = end
    pieces.append(text[position:])
    new_text = "".join(pieces)

    def moved(offset: int) -> int:
        # Offsets between replaced regions move by the growth of the regions before them.
        index = bisect_right(old_starts, offset) - 1
        if index < 0:
            return offset
        region_end = max(a.end for a in groups[index])
        if offset < region_end:
            return new_starts[index]
        new_end = placed[groups[index][0].id][1]
        return new_end + (offset - region_end)

    replaced: list[Replaced] = []
    new_annotations: list[Annotation] = []
    for annotation in document:
        if annotation.id in placed:
            start, end, review, note = placed[annotation.id]
        else:
            start = end = moved(annotation.start)
            review = note = None
        new = Annotation(
            id=annotation.id,
            tag=annotation.tag,
            type=annotation.type,
            start=start,
            end=end,
            text=new_text[start:end],
            source=annotation.source,
            confidence=annotation.confidence,
            annotator=annotation.annotator,
            pending=annotation.pending,
        )
        new_annotations.append(new)
        replaced.append(Replaced(annotation, new, review, note))
    return Document(document.doc_id, new_text, new_annotations, Origin(format="i2b2")), replaced


def mask_text(annotation: Annotation, style: str = "brackets", char: str = "X") -> str:
    """The mask of an annotation: ``[**TYPE**]`` or ``char`` for every non-blank character."""
    if style == "chars":
        return "".join(c if c.isspace() else char for c in annotation.text)
    return f"[**{annotation.type}**]"
