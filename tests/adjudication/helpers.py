"""Tiny hand-made versions of one note, with offsets computed from the text."""

from __future__ import annotations

from pathlib import Path

from annotator.core.annotation import Annotation
from annotator.core.document import Document
from annotator.io.i2b2 import write_i2b2

NOTE = (
    "Seen by Dr John Smith on 2067-05-03 at Springfield Medical Center.\n"
    "Patient Ora Hendrickson, 67, lives in Boston; call 617-555-0199.\n"
)


def at(text: str, piece: str, occurrence: int = 0) -> tuple[int, int]:
    """Offsets of the ``occurrence``-th appearance of ``piece`` in ``text``."""
    start = -1
    for _ in range(occurrence + 1):
        start = text.index(piece, start + 1)
    return start, start + len(piece)


def tag(
    text: str, piece: str, tag_: str, type_: str, number: int, occurrence: int = 0, **fields: object
) -> Annotation:
    start, end = at(text, piece, occurrence)
    return Annotation(f"P{number}", tag_, type_, start, end, text[start:end], **fields)  # type: ignore[arg-type]


def version(doc_id: str, text: str, *tags: tuple[str, str, str]) -> Document:
    """A document with tags given as (piece, category, type)."""
    return Document(
        doc_id,
        text,
        [tag(text, piece, category, type_, i) for i, (piece, category, type_) in enumerate(tags)],
    )


def write_versions(root: Path, versions: dict[str, list[Document]]) -> list[Path]:
    """Write each annotator's documents to root/<name>/<doc_id>.xml; return the folders."""
    folders = []
    for name, documents in versions.items():
        folder = root / name
        folder.mkdir(parents=True, exist_ok=True)
        for document in documents:
            write_i2b2(document, folder / f"{document.doc_id}.xml")
        folders.append(folder)
    return folders
