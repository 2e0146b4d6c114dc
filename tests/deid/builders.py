"""Hand-made notes for the de-identification tests: text pieces and (text, TYPE) PHI pieces."""

from __future__ import annotations

from annotator.core.annotation import Annotation
from annotator.core.document import Document
from annotator.core.schema import load_schema

Piece = str | tuple[str, str]


def note(doc_id: str, *pieces: Piece) -> Document:
    """A document from plain strings and ``(text, TYPE)`` PHI pieces, offsets computed."""
    category = load_schema("i2b2-2014").category_of
    text = ""
    annotations: list[Annotation] = []
    for piece in pieces:
        if isinstance(piece, tuple):
            phi, type_ = piece
            start = len(text)
            annotations.append(
                Annotation(f"P{len(annotations)}", category(type_), type_, start, start + len(phi), phi)
            )
            text += phi
        else:
            text += piece
    return Document(doc_id, text, annotations)


def texts_by_type(document: Document, type_: str) -> list[str]:
    return [a.text for a in document.sorted_annotations() if a.type == type_]
