"""A note and its annotations: the object every view and tool works on.

Signals
-------
annotation_added(Annotation)
annotation_removed(Annotation)
annotation_replaced(old: Annotation, new: Annotation)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from psygnal import Signal

from annotator.core.annotation import Annotation
from annotator.errors import AnnotatorError, InputError

# "PPP-RR" names patient PPP, record RR (i2b2 2014: 110-01.xml).
_RECORD_NAME = re.compile(r"^(?P<patient>.+)-(?P<record>\d+)$")
_ID_NUMBER = re.compile(r"^(?P<prefix>\D*)(?P<number>\d+)$")


def document_id_of(path: str | Path | None, default: str = "document") -> str:
    """The document id a file's name gives (its stem).

    A name holding bytes that are not UTF-8 (Python keeps them as lone surrogates) cannot be
    an id: it could be written into no report, JSON or XML. It is refused as bad input.
    """
    if path is None:
        return default
    stem = Path(path).stem
    try:
        stem.encode("utf-8")
    except UnicodeEncodeError:
        raise InputError(
            "the file name is not valid UTF-8 (it names the document): rename the file", path
        ) from None
    return stem


def split_record_name(stem: str) -> tuple[str, int]:
    """Patient id and record number from a ``PPP-RR`` file stem (record 0 when absent)."""
    match = _RECORD_NAME.match(stem)
    if match is None:
        return stem, 0
    return match["patient"], int(match["record"])


@dataclass
class Origin:
    """What a document was read from, so an unchanged document saves byte-identical."""

    path: Path | None = None
    format: str = "i2b2"
    raw: bytes | None = None
    fingerprint: tuple[object, ...] | None = None
    # Format-specific layout the writer needs (root tag, unknown elements, ...).
    layout: dict[str, object] = field(default_factory=dict)


class Document:
    """A clinical note with its PHI annotations.

    Parameters
    ----------
    doc_id:
        The document's name, normally the file stem (``110-01``).
    text:
        The note text, line endings already normalised to LF.
    annotations:
        Initial annotations, in file order; their ids must be unique.
    """

    annotation_added = Signal(Annotation)
    annotation_removed = Signal(Annotation)
    annotation_replaced = Signal(Annotation, Annotation)

    def __init__(
        self,
        doc_id: str,
        text: str,
        annotations: Iterable[Annotation] = (),
        origin: Origin | None = None,
    ) -> None:
        self.doc_id = doc_id
        self.text = text
        self.patient_id, self.record = split_record_name(doc_id)
        self.origin = origin or Origin()
        self._annotations: dict[str, Annotation] = {}
        self._next_number = 0
        for annotation in annotations:
            self._insert(annotation)

    # -- reading -------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._annotations)

    def __iter__(self) -> Iterator[Annotation]:
        return iter(list(self._annotations.values()))

    def __contains__(self, annotation_id: object) -> bool:
        return annotation_id in self._annotations

    @property
    def annotations(self) -> list[Annotation]:
        """Annotations in insertion (file) order."""
        return list(self._annotations.values())

    def get(self, annotation_id: str) -> Annotation:
        try:
            return self._annotations[annotation_id]
        except KeyError:
            raise AnnotatorError(
                f"no annotation with id {annotation_id!r} in document {self.doc_id}"
            ) from None

    def find(self, annotation_id: str) -> Annotation | None:
        """The annotation with this id, or None (no exception: views ask this per cell)."""
        return self._annotations.get(annotation_id)

    def sorted_annotations(self) -> list[Annotation]:
        """Annotations by start, then end, then id."""
        return sorted(self._annotations.values(), key=lambda a: (a.start, a.end, a.id))

    def at(self, position: int) -> list[Annotation]:
        """Annotations covering a code-point position."""
        return [a for a in self._annotations.values() if a.start <= position < a.end]

    def overlapping(self, start: int, end: int) -> list[Annotation]:
        """Annotations sharing at least one code point with ``[start, end)``."""
        return [a for a in self._annotations.values() if a.start < end and start < a.end]

    def fingerprint(self) -> tuple[object, ...]:
        """A value that changes whenever the text or any annotation changes."""
        return (self.text, tuple(self._annotations.values()))

    def is_pristine(self) -> bool:
        """True when nothing changed since the document was read."""
        return self.origin.fingerprint is not None and self.origin.fingerprint == self.fingerprint()

    def mark_pristine(self) -> None:
        """Record the current state as the saved one (after reading or saving)."""
        self.origin.fingerprint = self.fingerprint()

    # -- ids -----------------------------------------------------------------------------
    def new_id(self, prefix: str = "P") -> str:
        """An id not used by any annotation this document has held."""
        while True:
            candidate = f"{prefix}{self._next_number}"
            self._next_number += 1
            if candidate not in self._annotations:
                return candidate

    def _note_id(self, annotation_id: str) -> None:
        match = _ID_NUMBER.match(annotation_id)
        if match is not None:
            self._next_number = max(self._next_number, int(match["number"]) + 1)

    # -- editing (prefer history commands, which make every edit undoable) --------------
    def _insert(self, annotation: Annotation) -> None:
        if annotation.id in self._annotations:
            raise AnnotatorError(f"duplicate annotation id {annotation.id!r} in document {self.doc_id}")
        self._annotations[annotation.id] = annotation
        self._note_id(annotation.id)

    def add(self, annotation: Annotation) -> Annotation:
        self._insert(annotation)
        self.annotation_added.emit(annotation)
        return annotation

    def remove(self, annotation_id: str) -> Annotation:
        annotation = self.get(annotation_id)
        del self._annotations[annotation_id]
        self.annotation_removed.emit(annotation)
        return annotation

    def replace(self, annotation_id: str, new: Annotation) -> Annotation:
        """Swap an annotation for an edited copy; the id may change only to an unused one."""
        old = self.get(annotation_id)
        if new.id != annotation_id:
            if new.id in self._annotations:
                raise AnnotatorError(f"duplicate annotation id {new.id!r} in document {self.doc_id}")
            # Keep the position in file order.
            items = [(new.id, new) if k == annotation_id else (k, v) for k, v in self._annotations.items()]
            self._annotations = dict(items)
            self._note_id(new.id)
        else:
            self._annotations[annotation_id] = new
        self.annotation_replaced.emit(old, new)
        return old

    def make_annotation(self, tag: str, type_: str, start: int, end: int, **fields: object) -> Annotation:
        """A new annotation over ``text[start:end]`` with a fresh id (not yet added)."""
        if not 0 <= start <= end <= len(self.text):
            raise AnnotatorError(
                f"offsets {start}-{end} outside the text (length {len(self.text)}) of document {self.doc_id}"
            )
        return Annotation(
            id=str(fields.pop("id", None) or self.new_id()),
            tag=tag,
            type=type_,
            start=start,
            end=end,
            text=self.text[start:end],
            **fields,  # type: ignore[arg-type]
        )

    def copy(self, doc_id: str | None = None) -> Document:
        """An independent copy (annotations are immutable, so sharing them is safe)."""
        origin = Origin(path=self.origin.path, format=self.origin.format, layout=dict(self.origin.layout))
        return Document(doc_id or self.doc_id, self.text, self.annotations, origin)

    def __repr__(self) -> str:
        return f"Document({self.doc_id!r}, {len(self.text)} chars, {len(self)} annotations)"
